import { validateScene } from '../../model/build.ts';
import { LoadError } from '../../model/errors.ts';
import type { Scene, SkinnedMesh } from '../../model/types.ts';
import { clipped, quoted } from '../../model/message.ts';
import { buildClips } from './scene-anim.ts';
import { MaterialTable } from './scene-material.ts';
import { buildMesh, type BuiltMesh, type MissingBones } from './scene-mesh.ts';
import { mergeMorphs } from './scene-morph.ts';
import { NodeList, addFrameTree, reserveFrameNames, type MeshPlacement } from './scene-nodes.ts';
import { UniqueNames, isTemplate, noteSkipped, type XContext } from './scene-read.ts';
import { CLIP_MARKER_TEMPLATE } from './scene-markers.ts';
import type { XFile, XObject } from './xnode.ts';

const IDENTITY = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

/**
 * The object tree of a .x file → skinlab's format-neutral Scene (validated).
 *
 * Skeleton: one node per Frame, depth-first in file order (scene-nodes.ts); every top-level Frame is a
 * root. Meshes outside any Frame hang under one created static root node named `root` (made unique).
 * Bones named by SkinWeights without a Frame get a static root node each (scene-mesh.ts). Unnamed
 * frames are called `Frame`, `Frame-2`, ... (never clashing with a real frame name).
 * Meshes: every Mesh under a Frame, referenced from a Frame, or at top level becomes one SkinnedMesh
 * (scene-mesh.ts). Clips: one per AnimationSet (scene-anim.ts). Materials: scene-material.ts.
 * Morph targets (skinlab's SkinlabMorphTarget / SkinlabMorphTrack templates, scene-morph.ts): merged by
 * name across meshes into Scene.morphTargets, in order of first appearance.
 * Templates the builder does not use are skipped with one warning per template name; Header is ignored.
 *
 * Throws LoadError (message starting with `fileName`, with the object's line or byte offset) for
 * malformed data, out-of-range indices and a file without any Mesh. `file` is only read.
 */
export function xToScene(file: XFile, fileName: string): Scene {
  const ctx: XContext = { file, fileName, warnings: [...file.warnings], skipped: new Map(), turnedRound: [] };

  const topMeshes = new Map<string, XObject>();
  const looseMeshes: XObject[] = [];
  for (const o of file.objects) {
    if (isTemplate(o, 'Mesh')) {
      looseMeshes.push(o);
      if (o.name !== '' && !topMeshes.has(o.name)) topMeshes.set(o.name, o);
    }
  }

  const nodes = new NodeList();
  reserveFrameNames(ctx, nodes);
  const placements: MeshPlacement[] = [];
  const referenced = new Set<XObject>();
  for (const o of file.objects) {
    if (isTemplate(o, 'Frame')) addFrameTree(ctx, o, nodes, topMeshes, referenced, placements);
    else if (
      !isTemplate(o, 'Mesh') &&
      !isTemplate(o, 'Material') &&
      !isTemplate(o, 'Header') &&
      !isTemplate(o, 'AnimationSet') &&
      !isTemplate(o, 'Animation') &&
      !isTemplate(o, 'AnimTicksPerSecond') &&
      !isTemplate(o, CLIP_MARKER_TEMPLATE)
    ) {
      noteSkipped(ctx, o);
    }
  }
  const unplaced = looseMeshes.filter((m) => !referenced.has(m));
  if (placements.length === 0 && unplaced.length === 0) {
    const distinct = [...new Set(file.objects.map((o) => o.template))];
    const templates = distinct.slice(0, 8).map(clipped).join(', ') + (distinct.length > 8 ? `, ... (${distinct.length} kinds)` : '');
    throw new LoadError(`${fileName}: the file contains no Mesh (top-level objects: ${templates || 'none'})`);
  }
  if (unplaced.length > 0) {
    const root = nodes.push(ctx, nodes.unique.make('root'), -1, IDENTITY, null);
    for (const mesh of unplaced) placements.push({ mesh, node: root });
  }
  nodes.computeRestModel();

  const materials = new MaterialTable(ctx);
  const missingBones: MissingBones = new Map();
  const meshNames = new UniqueNames();
  const built: BuiltMesh[] = [];
  for (const { mesh, node } of placements) {
    const base = mesh.name !== '' ? mesh.name : nodes.names[node]!;
    built.push(buildMesh({ ctx, mesh, holder: node, nodes, materials, missingBones, name: meshNames.make(base) }));
  }
  const morph = mergeMorphs(ctx, built);
  const meshes: SkinnedMesh[] = morph.meshes;

  const clips = buildClips(ctx, nodes, new Map(morph.names.map((n, i) => [n, i])));

  const turned = ctx.turnedRound;
  if (turned.length > 0) {
    const list = turned.slice(0, 6).map((n) => `${quoted(n)}`).join(', ') + (turned.length > 6 ? ', ...' : '');
    ctx.warnings.push(`${turned.length} mesh${turned.length === 1 ? '' : 'es'} wound against ${turned.length === 1 ? 'its' : 'their'} normals (${list}); turned round`);
  }
  for (const [, [template, count]] of ctx.skipped) {
    ctx.warnings.push(`skipped ${count} object${count === 1 ? '' : 's'} of template ${template} (not used by skinlab)`);
  }
  const scene: Scene = {
    name: fileName,
    format: file.format,
    floatBits: file.floatBits,
    skeleton: { names: nodes.names, parents: Int16Array.from(nodes.parents), restLocal: nodes.restLocal() },
    meshes,
    clips,
    materials: materials.list,
    morphTargets: morph.names,
    ...(morph.names.length > 0 ? { morphKinds: morph.kinds } : {}),
    warnings: ctx.warnings,
  };
  validateScene(scene);
  return scene;
}
