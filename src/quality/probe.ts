import { AnimPlayer } from '../anim/player.ts';
import type { PoseSource } from '../anim/posed-bounds.ts';
import { MAX_INFLUENCES, type Scene } from '../model/types.ts';
import { CpuSkinner, type CpuReference } from './cpu-skin.ts';
import { logAreaRatios, percentile, percentileIndex, posedVolume, posedVolumeInto, selectKth, vertexDistances } from './metrics.ts';
import { meshTopology, ringAreas, type MeshTopology } from './topology.ts';

/**
 * The artifact metrics of one scene, evaluated at a pose: owns every buffer the metrics need, sized once at
 * construction (welded topologies come from the per-mesh cache in topology.ts), so that `skin`, `summary` and
 * `vertexLogRatios` allocate nothing and can run in the page every few frames. `measure` builds the report
 * objects (allocates; on request only).
 *
 * Positions passed in are per mesh, 3 floats per mesh vertex, model space, indexed like scene.meshes (what
 * skin() returns, or a GPU readback scattered to mesh vertices).
 *
 * - The rest shape: the same reference maths at the skeleton's rest pose (no clip, no morph), computed once
 *   per reference on first use. For most files that is bind space itself; tiny.x's offset matrices carry a
 *   scale and its rest pose bends, and its figures are relative to that shape as drawn.
 * - Volume ratio per mesh: posed signed volume / rest signed volume; whole model: Σ posed / Σ rest.
 *   null where the rest volume is zero (a flat or empty mesh).
 * - Area change: |log₂(posed / rest one-ring area)| over every welded vertex of every mesh with a non-zero
 *   rest area (the others are counted in `skipped`): p50, p95 (nearest rank), max and the worst vertex.
 * - Deviation: per mesh vertex, |a − b| / model height (see `height`): p95, max.
 * - `height`: the largest side of the bind pose's bounding box over every mesh (a standing character's height;
 *   the twist rig's length), model units.
 */

export interface VolumeFigures {
  /** Σ posed / Σ rest over the meshes (null when Σ rest is 0). */
  ratio: number | null;
  /** Any mesh has boundary edges: the ratios are then not the volume of a closed body. */
  open: boolean;
  meshes: { mesh: string; ratio: number | null; open: boolean; boundaryEdges: number }[];
}

export interface WorstVertex {
  mesh: string;
  /** Mesh vertex index (the first vertex at that position). */
  vertex: number;
  /** log₂(posed / rest) one-ring area: negative shrinks, positive grows. */
  log2: number;
  /** Names of the skeleton nodes that move it (weights > 0 among the influences used), heaviest first. */
  bones: string[];
}

export interface AreaFigures {
  p50: number;
  p95: number;
  max: number;
  /** Signed extremes of log₂(posed / rest): the most shrunk (≤ 0) and the most grown (≥ 0) one-ring. */
  shrink: number;
  grow: number;
  /** Welded vertices measured, and those skipped for a zero rest area. */
  vertices: number;
  skipped: number;
  worstVertex: WorstVertex | null;
}

export interface PoseFigures {
  volume: VolumeFigures;
  area: AreaFigures;
}

/** What the stats box shows: written in place, no allocation. NaN where not available. */
export interface QualitySummary {
  volumeRatio: number;
  areaP95: number;
}

/** One reference's rest shape: one-ring areas and signed volume per mesh, and their volume sum. */
interface RestShape {
  rings: Float64Array[];
  volumes: number[];
  total: number;
}

export class QualityProbe {
  readonly height: number;
  readonly topologies: readonly MeshTopology[];
  readonly skinner: CpuSkinner;
  private readonly posed = new Map<CpuReference, Float32Array[]>();
  private readonly rings: Float64Array[];
  private readonly logs: Float32Array[];
  /** Every welded vertex of every mesh, then every mesh vertex: order-statistic scratch. */
  private readonly allWelded: Float32Array;
  private readonly allVertices: Float32Array;
  /** Per mesh: posed volume scratch (summary). */
  private readonly volumes: Float64Array;
  private readonly rest = new Map<CpuReference, RestShape>();

  constructor(readonly scene: Scene) {
    this.topologies = scene.meshes.map((m) => meshTopology(m));
    this.skinner = new CpuSkinner(scene);
    this.rings = this.topologies.map((t) => new Float64Array(t.weldedCount));
    this.logs = this.topologies.map((t) => new Float32Array(t.weldedCount));
    this.allWelded = new Float32Array(this.topologies.reduce((n, t) => n + t.weldedCount, 0));
    this.allVertices = new Float32Array(scene.meshes.reduce((n, m) => n + m.vertexCount, 0));
    this.height = restHeight(scene);
    this.volumes = new Float64Array(scene.meshes.length);
  }

  /** Vertices over every mesh (the work one evaluation does, for throttling). */
  get vertexCount(): number {
    return this.allVertices.length;
  }

  /** Skins the pose with `reference` into buffers this probe owns (one set per reference) and returns them. */
  skin(reference: CpuReference, pose: PoseSource, morphWeights: Float32Array, influences: number = MAX_INFLUENCES): readonly Float32Array[] {
    let out = this.posed.get(reference);
    if (!out) {
      out = this.scene.meshes.map((m) => new Float32Array(m.vertexCount * 3));
      this.posed.set(reference, out);
    }
    this.skinner.skin(reference, pose, morphWeights, influences, out);
    return out;
  }

  /** Whole-model volume ratio and p95 area change of `positions`, into `out`. No allocation. */
  summary(reference: CpuReference, positions: readonly Float32Array[], out: QualitySummary): void {
    const rest = this.restShape(reference);
    const volumes = this.volumes;
    let posed = 0;
    for (let i = 0; i < this.topologies.length; i++) {
      posedVolumeInto(this.topologies[i]!, positions[i]!, volumes, i);
      posed += volumes[i]!;
    }
    // Separate stores, not conditionals: a phi of a double and the NaN constant is boxed on every call.
    if (rest.total !== 0) out.volumeRatio = posed / rest.total;
    else out.volumeRatio = NaN;
    const n = this.gatherAreaChange(rest, positions);
    const k = percentileIndex(n, 0.95);
    if (n > 0) {
      selectKth(this.allWelded, n, k);
      out.areaP95 = this.allWelded[k]!;
    } else out.areaP95 = NaN;
  }

  /**
   * log₂ area ratio per mesh vertex (each vertex takes its welded vertex's value; 0 where the rest area is
   * zero) into out[i] (1 float per vertex of mesh i). No allocation.
   */
  vertexLogRatios(reference: CpuReference, positions: readonly Float32Array[], out: readonly Float32Array[]): void {
    const rest = this.restShape(reference);
    for (let i = 0; i < this.topologies.length; i++) {
      const t = this.topologies[i]!;
      const logs = this.logs[i]!;
      logAreaRatios(t, positions[i]!, rest.rings[i]!, this.rings[i]!, logs);
      const o = out[i]!;
      for (let v = 0; v < t.vertexCount; v++) {
        const l = logs[t.weld[v]!]!;
        o[v] = Number.isNaN(l) ? 0 : l;
      }
    }
  }

  /** Volume and area figures of `positions` (allocates the report). `influences`: for the worst vertex's bones. */
  measure(reference: CpuReference, positions: readonly Float32Array[], influences: number = MAX_INFLUENCES): PoseFigures {
    const rest = this.restShape(reference);
    const meshes = this.scene.meshes;
    let posedSum = 0;
    const volumeMeshes = this.topologies.map((t, i) => {
      const posed = posedVolume(t, positions[i]!);
      posedSum += posed;
      return { mesh: meshes[i]!.name, ratio: ratio(posed, rest.volumes[i]!), open: t.open, boundaryEdges: t.boundaryEdges };
    });
    const volume: VolumeFigures = { ratio: ratio(posedSum, rest.total), open: volumeMeshes.some((m) => m.open), meshes: volumeMeshes };

    const n = this.gatherAreaChange(rest, positions);
    let shrink = 0;
    let grow = 0;
    let worstMesh = -1;
    let worstWelded = 0;
    let worstAbs = -1;
    for (let i = 0; i < this.topologies.length; i++) {
      const logs = this.logs[i]!;
      for (let w = 0; w < logs.length; w++) {
        const l = logs[w]!;
        if (l < shrink) shrink = l;
        if (l > grow) grow = l;
        const a = Math.abs(l);
        if (a > worstAbs) {
          worstAbs = a;
          worstMesh = i;
          worstWelded = w;
        }
      }
    }
    let worst: WorstVertex | null = null;
    if (worstMesh >= 0) {
      const vertex = this.topologies[worstMesh]!.representative[worstWelded]!;
      const log2 = this.logs[worstMesh]![worstWelded]!;
      worst = { mesh: meshes[worstMesh]!.name, vertex, log2: round(log2), bones: this.boneNames(worstMesh, vertex, influences) };
    }
    const skipped = this.topologies.reduce((s, t) => s + t.weldedCount, 0) - n;
    const max = n > 0 ? percentile(this.allWelded, n, 1) : 0;
    const p95 = n > 0 ? percentile(this.allWelded, n, 0.95) : 0;
    const p50 = n > 0 ? percentile(this.allWelded, n, 0.5) : 0;
    return { volume, area: { p50: round(p50), p95: round(p95), max: round(max), shrink: round(shrink), grow: round(grow), vertices: n, skipped, worstVertex: worst } };
  }

  /** Deviation of `a` from `b` (both per mesh) as shares of the model height: p95 and max. No allocation. */
  deviation(a: readonly Float32Array[], b: readonly Float32Array[]): { p95: number; max: number } {
    let at = 0;
    for (let i = 0; i < this.scene.meshes.length; i++) at = vertexDistances(a[i]!, b[i]!, this.allVertices, at);
    if (at === 0 || !(this.height > 0)) return { p95: 0, max: 0 };
    return { p95: percentile(this.allVertices, at, 0.95) / this.height, max: percentile(this.allVertices, at, 1) / this.height };
  }

  /** Fills logs[] and allWelded[0..n) with |log₂ ratio| of every measurable welded vertex; returns n. */
  private gatherAreaChange(rest: RestShape, positions: readonly Float32Array[]): number {
    let n = 0;
    for (let i = 0; i < this.topologies.length; i++) {
      const t = this.topologies[i]!;
      const logs = this.logs[i]!;
      logAreaRatios(t, positions[i]!, rest.rings[i]!, this.rings[i]!, logs);
      for (let w = 0; w < t.weldedCount; w++) {
        const l = logs[w]!;
        if (!Number.isNaN(l)) this.allWelded[n++] = Math.abs(l);
      }
    }
    return n;
  }

  /** The rest shape of `reference` (see the module contract); built on first use (allocates once). */
  private restShape(reference: CpuReference): RestShape {
    let r = this.rest.get(reference);
    if (!r) {
      const player = AnimPlayer.forScene({ skeleton: this.scene.skeleton, clips: [], morphTargets: [] });
      player.evaluate();
      const positions = this.scene.meshes.map((m) => new Float32Array(m.vertexCount * 3));
      this.skinner.skin(reference, player, new Float32Array(0), MAX_INFLUENCES, positions);
      const rings = this.topologies.map((t, i) => {
        const ring = new Float64Array(t.weldedCount);
        ringAreas(positions[i]!, t.triangles, t.weld, ring);
        return ring;
      });
      const volumes = this.topologies.map((t, i) => posedVolume(t, positions[i]!));
      r = { rings, volumes, total: volumes.reduce((a, b) => a + b, 0) };
      this.rest.set(reference, r);
    }
    return r;
  }

  private boneNames(meshIndex: number, vertex: number, influences: number): string[] {
    const mesh = this.scene.meshes[meshIndex]!;
    const names: string[] = [];
    for (let k = 0; k < Math.min(MAX_INFLUENCES, Math.max(1, influences)); k++) {
      const w = mesh.weights[vertex * MAX_INFLUENCES + k]!;
      if (!(w > 0) && k > 0) break;
      const node = mesh.bones[mesh.joints[vertex * MAX_INFLUENCES + k]!]!;
      names.push(this.scene.skeleton.names[node] ?? `node ${node}`);
      if (!(w > 0)) break;
    }
    return names;
  }
}

/** Largest side of the bind-pose bounding box over every mesh (model units); 0 for an empty scene. */
export function restHeight(scene: Scene): number {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const m of scene.meshes) {
    for (let v = 0; v < m.vertexCount; v++) {
      for (let k = 0; k < 3; k++) {
        const x = m.positions[v * 3 + k]!;
        if (x < min[k]!) min[k] = x;
        if (x > max[k]!) max[k] = x;
      }
    }
  }
  const side = Math.max(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!);
  return Number.isFinite(side) ? side : 0;
}

function ratio(posed: number, rest: number): number | null {
  return rest !== 0 && Number.isFinite(posed / rest) ? round(posed / rest) : null;
}

/** 6 decimals: the report's precision (figures are shares and log₂ ratios near 1). */
export function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
