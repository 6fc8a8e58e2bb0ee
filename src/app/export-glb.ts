import type { LoadedModel } from './loaded-model.ts';
import { companionsOf } from './model-companions.ts';
import { modelStem } from './record-plan.ts';

/**
 * Export .glb (panel button, X key, `skinlab.exportGlb()`): the model being drawn, as its loader produced it
 * (the Scene, not the pose on screen), written as one binary glTF by src/export. Textures are the bytes the
 * page drew from: an image embedded in the model, else the companion file fetched again through the model's
 * source (URL folder or the files given). No DOM and no GL: the download is the UI's (src/ui/export-glb.ts).
 */

export interface GlbExport {
  /** `<model name>.glb`: the model file's stem. */
  readonly name: string;
  readonly bytes: Uint8Array;
  /** What the exporter could not carry (a texture not found, a feature glTF lacks), in words for the user. */
  readonly warnings: string[];
}

/** The file name an export of `model` gets: `walker.m3d` → `walker.glb`. */
export function glbName(model: LoadedModel): string {
  const stem = modelStem(model.scene.name || model.id) || modelStem(model.id) || 'model';
  return `${stem}.glb`;
}

/** Writes `model` as a .glb. Rejects with the exporter's error (its message complete); never downloads. */
export async function exportGlb(model: LoadedModel): Promise<GlbExport> {
  const name = glbName(model);
  const companions = companionsOf(model.scene);
  // Loaded on first use: the glTF SDK stays out of the page's start-up bundle.
  const { exportGltf } = await import('../export/export-gltf.ts');
  const { files, warnings } = await exportGltf(model.scene, {
    binary: true,
    textures: (texture) => companions(texture).catch(() => null),
    fileName: name,
  });
  const bytes = files.get(name) ?? [...files.values()][0];
  if (!bytes || bytes.length === 0) throw new Error(`Export .glb: the exporter wrote no file for ${name}`);
  return { name, bytes, warnings: [...warnings] };
}
