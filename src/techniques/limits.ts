import type { Scene } from '../model/types.ts';
import { clampInfluences } from './influences.ts';
import { maxFaceBones } from './partition.ts';
import type { DeviceCaps } from './technique.ts';

/** Scene-wide sizes the techniques compile into their shaders and check against the device. */

export function largestPalette(scene: Scene): number {
  let n = 1;
  for (const m of scene.meshes) n = Math.max(n, m.bones.length);
  return n;
}

/** Slots a std140 block holds on this device at `floatsPerSlot` floats each (capped at 1024). */
export function uboCapacity(caps: DeviceCaps, floatsPerSlot: number): number {
  return Math.min(1024, Math.floor(caps.maxUniformBlockSize / (floatsPerSlot * 4)));
}

/** Block array length compiled into the shader: the scene's largest palette rounded up to 32 slots. */
export function uboPaletteSize(scene: Scene, caps: DeviceCaps, floatsPerSlot: number): number {
  return Math.min(uboCapacity(caps, floatsPerSlot), Math.ceil(largestPalette(scene) / 32) * 32);
}

export function uboUnsupported(scene: Scene, caps: DeviceCaps, floatsPerSlot: number): string | null {
  const need = largestPalette(scene);
  const cap = uboCapacity(caps, floatsPerSlot);
  return need > cap ? `needs ${need} palette entries; this device's uniform block holds ${cap}` : null;
}

const faceBones = new WeakMap<Scene, number[]>();

/** Most bones any triangle of the scene needs with `influences` kept (cached per scene). */
export function sceneFaceBones(scene: Scene, influences: number): number {
  let list = faceBones.get(scene);
  if (!list) {
    list = [];
    faceBones.set(scene, list);
  }
  let n = list[influences];
  if (n === undefined) {
    n = 1;
    for (const m of scene.meshes) n = Math.max(n, maxFaceBones(m, influences));
    list[influences] = n;
  }
  return n;
}

/**
 * Vertex uniform vectors the rest of skinned.vert needs besides a group palette: u_viewProj and u_world
 * (4 each). The palette-splitting techniques size their uniform arrays from what is left.
 */
export const RESERVED_VERTEX_VECTORS = 8;

/** Indexed fixed-function palette: the sample's default size (SkinnedMesh uses a 12-matrix palette). */
export const DEFAULT_PALETTE = 12;

/** Largest indexed palette this device's vertex uniforms hold (mat4 = 4 vectors), at most 255 (byte indices). */
export function devicePaletteLimit(caps: DeviceCaps): number {
  return Math.min(255, Math.floor((caps.maxVertexUniformVectors - RESERVED_VERTEX_VECTORS) / 4));
}

/** Palette range for a scene: smallest workable (its widest triangle) to the device limit. */
export function paletteRange(scene: Scene, caps: DeviceCaps, influences: number): { min: number; max: number } {
  return { min: sceneFaceBones(scene, influences), max: devicePaletteLimit(caps) };
}

/**
 * `palette` within paletteRange. A palette of at least 3 × influences matrices holds any triangle's bones (three
 * vertices, `influences` each) and needs no scan of the meshes' triangles when the device holds it too: the
 * default of 12 for up to 4 influences, which a model's load then clamps without walking its triangles.
 */
export function clampPalette(scene: Scene, caps: DeviceCaps, influences: number, palette: number): number {
  const asked = Math.round(palette) || DEFAULT_PALETTE;
  const max = devicePaletteLimit(caps);
  if (asked >= 3 * clampInfluences(influences) && asked <= max) return asked;
  return Math.max(sceneFaceBones(scene, influences), Math.min(max, asked));
}
