import { LoadError } from './errors.ts';
import { quoted } from './message.ts';
import { WEIGHT_SUM_TOLERANCE, normaliseInfluences } from './influences.ts';
import { MAX_INFLUENCES, type Scene, type SkinnedMesh } from './types.ts';
import { andOthers, num, warn, type Writable } from './validate-common.ts';

/**
 * Per-mesh value checks of validateScene (array lengths and index ranges are checked before, in
 * validate.ts). Each is one linear pass over a typed array; repairs allocate only when needed.
 *
 * - Positions, offset matrices and morph deltas must be finite: LoadError naming the mesh and the first
 *   vertex (bone, target) with a count. NaN or infinite texture coordinates and tangents (old exporters write
 *   1.#QNAN) only spoil a texture lookup or a tangent frame: the vertex gets (0, 0) or the default tangent
 *   (1, 0, 0, +1), with one counted warning.
 * - Vertex colours (optional): an array whose length is not 4 floats per vertex is dropped (the mesh draws
 *   white) with a warning; NaN or infinite colours become white and values outside 0..1 are clamped, each
 *   kind with one counted warning. The model still loads.
 * - Normals that are NaN, infinite or (near) zero are recomputed from the triangles around the vertex
 *   (area-weighted); a vertex on no usable triangle gets +Y. One warning with a count.
 * - Weights: a NaN or infinite weight is a LoadError. Negative weights are dropped, sums off 1 are
 *   renormalised, and a vertex with no positive weight is bound with weight 1 to its first listed bone (the
 *   palette's first bone when that index is unusable): a validated mesh knows no frame of its own, and the
 *   .x loader has already bound such vertices to the mesh's frame. One warning per kind, with counts.
 *   Unsorted slots and non-zero indices of unused slots are tidied silently, maxInfluences corrected.
 */

/** Normals shorter than this are treated as missing. */
const ZERO_NORMAL = 1e-8;

/** `checked`: arrays known finite already (validateScene's contract); their scans are skipped. */
export function checkMeshValues(scene: Scene, m: SkinnedMesh, checked: ReadonlySet<ArrayBufferView>): void {
  const label = `${scene.name}: mesh ${quoted(m.name)}`;
  if (!checked.has(m.positions)) finiteVertices(label, m.positions, 3, 'a NaN or infinite position');
  if (m.uvs) repairVertices(scene, m, m.uvs, UV_FILL, 'a NaN or infinite texture coordinate', '(0, 0) used');
  if (m.tangents) repairVertices(scene, m, m.tangents, TANGENT_FILL, 'a NaN or infinite tangent', 'the default (1, 0, 0) used');
  checkColours(scene, m);
  const names = scene.skeleton.names;
  for (let s = checked.has(m.invBind) ? m.bones.length : 0; s < m.bones.length; s++) {
    for (let k = s * 16; k < s * 16 + 16; k++) {
      const x = m.invBind[k]!;
      if (x - x !== 0) throw new LoadError(`${label}: the offset matrix of bone ${quoted(names[m.bones[s]!])} (palette slot ${s}) has NaN or infinite values`);
    }
  }
  repairNormals(scene, m);
  if (!(checked.has(m.joints) && checked.has(m.weights))) checkWeights(scene, m);
  const targets = scene.morphTargets;
  if (m.morphs) {
    for (let t = 0; t < m.morphs.length; t++) {
      const d = m.morphs[t]!;
      const what = `morph target ${quoted(targets[t])}`;
      finiteDeltas(label, what, d.vertices, d.positions, 'position');
      finiteDeltas(label, what, d.vertices, d.normals, 'normal');
    }
  }
}

const UV_FILL = [0, 0] as const;
const COLOUR_FILL = [1, 1, 1, 1] as const;

/** Vertex colours: wrong length → dropped; non-finite → white; outside 0..1 → clamped. One warning per kind. */
function checkColours(scene: Scene, m: SkinnedMesh): void {
  const c = m.colors;
  if (!c) return;
  if (c.length !== m.vertexCount * 4) {
    warn(scene, `mesh ${quoted(m.name)}: ${c.length / 4} vertex colours for ${m.vertexCount} vertices: vertex colours ignored`);
    (m as Writable<SkinnedMesh>).colors = null;
    return;
  }
  repairVertices(scene, m, c, COLOUR_FILL, 'a NaN or infinite vertex colour', 'white used');
  let clamped = 0;
  let first = -1;
  for (let i = 0; i < c.length; i++) {
    const x = c[i]!;
    if (x >= 0 && x <= 1) continue;
    if (clamped === 0) first = Math.floor(i / 4);
    clamped++;
    c[i] = x < 0 ? 0 : 1;
  }
  if (clamped > 0) warn(scene, `mesh ${quoted(m.name)}: vertex ${first} has a vertex colour outside 0..1: clamped${andOthers(clamped)}`);
}
const TANGENT_FILL = [1, 0, 0, 1] as const;

/**
 * Counts the `stride`-float vertex records of `a` holding a NaN or infinite value and finds the first; with
 * `fill` (length `stride`), overwrites each such record with it. One pass, no allocation beyond the result.
 */
function nonFiniteVertices(a: Float32Array, stride: number, fill: readonly number[] | null): { count: number; first: number } {
  let count = 0;
  let first = -1;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x - x === 0) continue;
    const v = Math.floor(i / stride);
    if (count === 0) first = v;
    count++;
    if (fill) a.set(fill, v * stride);
    i = (v + 1) * stride - 1;
  }
  return { count, first };
}

/** Replaces every `fill.length`-float vertex record holding a non-finite value by `fill`; one counted warning. */
function repairVertices(scene: Scene, m: SkinnedMesh, a: Float32Array, fill: readonly number[], what: string, done: string): void {
  const { count, first } = nonFiniteVertices(a, fill.length, fill);
  if (count > 0) warn(scene, `mesh ${quoted(m.name)}: vertex ${first} has ${what}: ${done}${andOthers(count)}`);
}

/** LoadError when any of the `stride`-float vertex records holds a non-finite value. */
function finiteVertices(label: string, a: Float32Array, stride: number, what: string): void {
  const { count, first } = nonFiniteVertices(a, stride, null);
  if (count > 0) throw new LoadError(`${label}: vertex ${first} has ${what}${andOthers(count)}`);
}

function finiteDeltas(label: string, what: string, vertices: Uint32Array, deltas: Float32Array, kind: string): void {
  let count = 0;
  let first = -1;
  for (let i = 0; i < deltas.length; i++) {
    const x = deltas[i]!;
    if (x - x === 0) continue;
    const j = Math.floor(i / 3);
    if (count === 0) first = vertices[j]!;
    count++;
    i = j * 3 + 2;
  }
  if (count > 0) throw new LoadError(`${label}: ${what} moves vertex ${first} by a NaN or infinite ${kind} delta${andOthers(count)}`);
}

/** Recomputes NaN, infinite and zero normals from the adjacent triangles; warns with a count. */
function repairNormals(scene: Scene, m: SkinnedMesh): void {
  const nrm = m.normals;
  const vc = m.vertexCount;
  let bad: Uint8Array | null = null;
  let count = 0;
  let first = -1;
  for (let v = 0; v < vc; v++) {
    const x = nrm[v * 3]!, y = nrm[v * 3 + 1]!, z = nrm[v * 3 + 2]!;
    const len2 = x * x + y * y + z * z;
    if (len2 > ZERO_NORMAL && len2 - len2 === 0) continue;
    bad ??= new Uint8Array(vc);
    bad[v] = 1;
    if (count++ === 0) first = v;
  }
  if (bad === null) return;
  const pos = m.positions;
  const idx = m.indices;
  const sum = new Float64Array(vc * 3);
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t]!, b = idx[t + 1]!, c = idx[t + 2]!;
    if (bad[a]! + bad[b]! + bad[c]! === 0) continue;
    const e1x = pos[b * 3]! - pos[a * 3]!, e1y = pos[b * 3 + 1]! - pos[a * 3 + 1]!, e1z = pos[b * 3 + 2]! - pos[a * 3 + 2]!;
    const e2x = pos[c * 3]! - pos[a * 3]!, e2y = pos[c * 3 + 1]! - pos[a * 3 + 1]!, e2z = pos[c * 3 + 2]! - pos[a * 3 + 2]!;
    // Counter-clockwise front faces: (b − a) × (c − a) points outwards; its length is twice the area.
    const gx = e1y * e2z - e1z * e2y, gy = e1z * e2x - e1x * e2z, gz = e1x * e2y - e1y * e2x;
    for (const v of [a, b, c]) {
      if (bad[v] === 0) continue;
      sum[v * 3] += gx;
      sum[v * 3 + 1] += gy;
      sum[v * 3 + 2] += gz;
    }
  }
  for (let v = 0; v < vc; v++) {
    if (bad[v] === 0) continue;
    const x = sum[v * 3]!, y = sum[v * 3 + 1]!, z = sum[v * 3 + 2]!;
    const len = Math.hypot(x, y, z);
    if (len > 0 && Number.isFinite(len)) {
      nrm[v * 3] = x / len;
      nrm[v * 3 + 1] = y / len;
      nrm[v * 3 + 2] = z / len;
    } else {
      nrm[v * 3] = 0;
      nrm[v * 3 + 1] = 1;
      nrm[v * 3 + 2] = 0;
    }
  }
  warn(scene, `mesh ${quoted(m.name)}: vertex ${first} has a NaN, infinite or zero normal: recomputed from its triangles${andOthers(count)}`);
}

/** Weight checks and repairs (see the file comment). */
function checkWeights(scene: Scene, m: SkinnedMesh): void {
  const label = `${scene.name}: mesh ${quoted(m.name)}`;
  const { joints, weights } = m;
  const slots = m.bones.length;
  const vc = m.vertexCount;
  let nonFinite = 0, firstNonFinite = -1;
  let negative = 0, firstNegative = -1, firstNegativeValue = 0;
  let empty = 0, firstEmpty = -1, firstEmptySlot = 0;
  let off = 0, firstOff = -1, firstOffSum = 0;
  let untidy = 0;
  let maxInfluences = 0;
  for (let v = 0; v < vc; v++) {
    const o = v * MAX_INFLUENCES;
    // Fast path, the usual case: finite, descending, non-negative, summing to 1, unused slots at index 0.
    const w0 = weights[o]!, w1 = weights[o + 1]!, w2 = weights[o + 2]!, w3 = weights[o + 3]!;
    const total = w0 + w1 + w2 + w3;
    if (
      w0 > 0 && w0 >= w1 && w1 >= w2 && w2 >= w3 && w3 >= 0 &&
      total - 1 <= WEIGHT_SUM_TOLERANCE && 1 - total <= WEIGHT_SUM_TOLERANCE &&
      (w1 > 0 || joints[o + 1] === 0) && (w2 > 0 || joints[o + 2] === 0) && (w3 > 0 || joints[o + 3] === 0)
    ) {
      const count = 1 + (w1 > 0 ? 1 : 0) + (w2 > 0 ? 1 : 0) + (w3 > 0 ? 1 : 0);
      if (count > maxInfluences) maxInfluences = count;
      continue;
    }
    let sum = 0;
    let count = 0;
    let prev = Infinity;
    let neg = false;
    let messy = false;
    for (let k = 0; k < MAX_INFLUENCES; k++) {
      const w = weights[o + k]!;
      if (w - w !== 0) {
        if (nonFinite++ === 0) firstNonFinite = v;
        messy = true;
        break;
      }
      if (w > 0) {
        sum += w;
        count++;
      } else {
        if (w < 0) {
          if (!neg && negative === 0) firstNegativeValue = w;
          neg = true;
        }
        if (joints[o + k] !== 0) messy = true;
      }
      if (w > prev) messy = true;
      prev = w;
    }
    if (count > maxInfluences) maxInfluences = count;
    if (neg) {
      if (negative++ === 0) firstNegative = v;
    }
    if (count === 0) {
      if (empty++ === 0) {
        firstEmpty = v;
        firstEmptySlot = joints[o]! < slots ? joints[o]! : 0;
      }
    } else if (!neg && Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) {
      if (off++ === 0) {
        firstOff = v;
        firstOffSum = sum;
      }
    }
    if (messy) untidy++;
  }
  if (nonFinite > 0) {
    throw new LoadError(`${label}: vertex ${firstNonFinite} has a NaN or infinite blend weight${andOthers(nonFinite)}`);
  }
  const mesh = m as Writable<SkinnedMesh>;
  if (negative + empty + off + untidy > 0) {
    mesh.maxInfluences = normaliseInfluences(joints, weights, vc, slots).maxInfluences;
  } else if (maxInfluences !== m.maxInfluences) {
    mesh.maxInfluences = maxInfluences;
  }
  const where = `mesh ${quoted(m.name)}`;
  if (negative > 0) {
    warn(scene, `${where}: vertex ${firstNegative} has a negative blend weight (${num(firstNegativeValue)}): dropped, the others renormalised${andOthers(negative)}`);
  }
  if (off > 0) {
    warn(scene, `${where}: vertex ${firstOff} has blend weights summing to ${num(firstOffSum)}: renormalised${andOthers(off)}`);
  }
  if (empty > 0) {
    const bone = slots > 0 ? `${quoted(scene.skeleton.names[m.bones[firstEmptySlot]!])}` : 'slot 0';
    const rest = empty > 1 ? ` (and ${empty - 1} other${empty === 2 ? '' : 's'}, each to its first listed bone)` : '';
    warn(scene, `${where}: vertex ${firstEmpty} has no positive blend weight: bound rigidly to bone ${bone}${rest}`);
  }
}
