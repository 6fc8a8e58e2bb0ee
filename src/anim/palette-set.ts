/**
 * PaletteSet: the palettes of a model's meshes, computed once per distinct skin.
 *
 * Contract
 * - Built at load from the model's meshes. Meshes whose `bones` and `invBind` are equal (same length, every
 *   value equal; the same arrays or copies) share one skin. Dawn's body, head, hair and wings are one
 *   skin of 100 slots; tiny.x and soldier.m3d have one mesh each.
 * - update(model): buildPalette once per shared skin (one that two or more meshes use) into the set's own
 *   palettes (`skins[s]`, 16 floats per slot, column-major, bind space → model space, the layout buildPalette
 *   writes), and remembers `model` (localToModel output: AnimPlayer.model after evaluate()).
 * - writePalette(mesh, out, offsetFloats): a shared skin's palette, as of the last update(), is copied to
 *   out[offsetFloats..]; a skin only this mesh uses is built straight into `out` from the last model (no
 *   palette of the set in between: a one-mesh model costs what buildPalette costs). Either way the result
 *   equals buildPalette(model, mesh.bones, mesh.invBind, out, offsetFloats) bit for bit. Same signature as AnimPlayer.writePalette, so the set can stand where a pose source is
 *   expected (techniques' PoseSource). A mesh the set was not built with is computed directly from the
 *   last model passed to update().
 * - write(model, outs, offsetsFloats?): update(model), then mesh m's palette into outs[m] at
 *   offsetsFloats[m] (0 when omitted). For callers that hold one buffer per mesh.
 * - paletteOf(m): the skin palette mesh m reads, for callers that can upload one buffer for several meshes
 *   (no copy at all); an unshared skin is built into the set's palette on this call. Owned by the set: read
 *   it, do not write it.
 * - The constructor allocates (one palette per skin); update, writePalette and write allocate nothing.
 */

import type { SkinnedMesh } from '../model/types.ts';
import { buildPalette } from './palette.ts';

function sameValues(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** Index of the first mesh of meshes[0..m) with the same bones and invBind as meshes[m], else m. */
export function firstWithSkinOf(meshes: readonly SkinnedMesh[], m: number): number {
  const mesh = meshes[m];
  for (let j = 0; j < m; j++) {
    if (sameValues(meshes[j].bones, mesh.bones) && sameValues(meshes[j].invBind, mesh.invBind)) return j;
  }
  return m;
}

export class PaletteSet {
  readonly meshes: readonly SkinnedMesh[];
  /** Per mesh, the index of its skin in `skins`. */
  readonly skinOf: Int32Array;
  /** One palette per distinct skin, 16 floats per slot (valid after update()). */
  readonly skins: readonly Float32Array[];
  /** Per skin, the mesh whose bones and invBind it is computed from. */
  private readonly skinMesh: readonly SkinnedMesh[];
  /** Per skin, 1 when two or more meshes use it (built once by update(), then copied). */
  private readonly shared: Uint8Array;
  private readonly indexOf: Map<SkinnedMesh, number>;
  private lastModel: Float32Array | null = null;

  constructor(meshes: readonly SkinnedMesh[]) {
    this.meshes = meshes;
    const skinOf = new Int32Array(meshes.length);
    const skins: Float32Array[] = [];
    const skinMesh: SkinnedMesh[] = [];
    for (let m = 0; m < meshes.length; m++) {
      const first = firstWithSkinOf(meshes, m);
      if (first === m) {
        skinOf[m] = skins.length;
        skins.push(new Float32Array(meshes[m].bones.length * 16));
        skinMesh.push(meshes[m]);
      } else {
        skinOf[m] = skinOf[first];
      }
    }
    this.skinOf = skinOf;
    this.skins = skins;
    this.shared = new Uint8Array(skins.length);
    const users = new Int32Array(skins.length);
    for (let m = 0; m < meshes.length; m++) users[skinOf[m]]++;
    for (let k = 0; k < skins.length; k++) this.shared[k] = users[k] > 1 ? 1 : 0;
    this.skinMesh = skinMesh;
    this.indexOf = new Map(meshes.map((mesh, m) => [mesh, m]));
  }

  /** Number of distinct skins (palettes computed per update). */
  get skinCount(): number {
    return this.skins.length;
  }

  /** Computes every shared skin's palette from `model` (16 floats per node, localToModel output) and keeps `model` for the others. */
  update(model: Float32Array): void {
    const skins = this.skins;
    const skinMesh = this.skinMesh;
    const shared = this.shared;
    for (let s = 0; s < skins.length; s++) if (shared[s] === 1) buildPalette(model, skinMesh[s].bones, skinMesh[s].invBind, skins[s], 0);
    this.lastModel = model;
  }

  /** The skin palette mesh m reads (owned by the set; valid after update()). */
  paletteOf(m: number): Float32Array {
    const s = this.skinOf[m];
    if (this.shared[s] === 0) {
      if (this.lastModel === null) throw new Error('PaletteSet.paletteOf: update(model) has not run');
      buildPalette(this.lastModel, this.skinMesh[s].bones, this.skinMesh[s].invBind, this.skins[s], 0);
    }
    return this.skins[s];
  }

  /** Mesh's palette (as of the last update()) at out[offsetFloats..]: copied when shared, else built there. */
  writePalette(mesh: SkinnedMesh, out: Float32Array, offsetFloats = 0): void {
    const m = this.indexOf.get(mesh);
    if (m !== undefined && this.shared[this.skinOf[m]] === 1) {
      out.set(this.skins[this.skinOf[m]], offsetFloats);
      return;
    }
    if (this.lastModel === null) throw new Error('PaletteSet.writePalette: update(model) has not run');
    buildPalette(this.lastModel, mesh.bones, mesh.invBind, out, offsetFloats);
  }

  /** update(model), then every mesh's palette into outs[m] at offsetsFloats[m] (0 when omitted). */
  write(model: Float32Array, outs: readonly Float32Array[], offsetsFloats: ArrayLike<number> | null = null): void {
    this.update(model);
    const skins = this.skins;
    const skinOf = this.skinOf;
    const shared = this.shared;
    const meshes = this.meshes;
    for (let m = 0; m < skinOf.length; m++) {
      const at = offsetsFloats === null ? 0 : offsetsFloats[m];
      const s = skinOf[m];
      if (shared[s] === 1) outs[m].set(skins[s], at);
      else buildPalette(model, meshes[m].bones, meshes[m].invBind, outs[m], at);
    }
  }
}
