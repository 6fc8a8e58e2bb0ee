import type { SkinnedMesh } from '../model/types.ts';
import { computeCorCentres, hasCorCentres, setCorCentres } from './cor-centres.ts';
import { computeDdm, hasDdmData, setDdmData, type DdmData } from './ddm-precompute.ts';

/**
 * The techniques whose drawing needs load-time data per mesh, and how to make, test for and store it. The page
 * runs `compute` in a worker (src/app/deform-worker.ts) and `store`s the result where the technique's createMesh
 * reads it (the modules' per-mesh caches); Node (inspect, tests) lets createMesh or the CPU references compute it
 * on first use. Pure: no DOM.
 */

export type DeformKind = 'cor' | 'ddm';

export interface DeformKindSpec {
  readonly kind: DeformKind;
  /** One mesh's data, as plain typed arrays (it crosses postMessage). `onProgress` gets 0..1 for this mesh. */
  compute(mesh: SkinnedMesh, onProgress: (fraction: number) => void): unknown;
  has(mesh: SkinnedMesh): boolean;
  store(mesh: SkinnedMesh, data: unknown): void;
}

export const DEFORM_KINDS: Readonly<Record<DeformKind, DeformKindSpec>> = {
  cor: {
    kind: 'cor',
    compute: (mesh, onProgress) => computeCorCentres(mesh, onProgress),
    has: hasCorCentres,
    store: (mesh, data) => setCorCentres(mesh, data as Float32Array),
  },
  ddm: {
    kind: 'ddm',
    compute: (mesh, onProgress) => computeDdm(mesh, undefined, onProgress),
    has: hasDdmData,
    store: (mesh, data) => setDdmData(mesh, data as DdmData),
  },
};

/** The load-time data technique `id` draws from, or null when it needs none. */
export function deformKindOf(id: string): DeformKind | null {
  return id === 'cor' || id === 'ddm' ? id : null;
}
