import { LoadError } from './errors.ts';
import { quoted } from './message.ts';
import { TRS_STRIDE, type Clip, type Scene, type Track } from './types.ts';
import { firstNonFinite, nameList, plural, warn, type Writable } from './validate-common.ts';

/**
 * Hierarchy and rest-pose checks of validateScene.
 *
 * - A parent index outside [-1, nodeCount), a node that is its own parent, or a cycle is a LoadError
 *   naming the nodes.
 * - Parents after their children: the skeleton is reordered so every parent comes first (ancestors are
 *   pulled in front of the first node that needs them; otherwise the file's order is kept), and every
 *   node index in the scene is remapped — skeleton arrays, mesh palettes (`bones`), clip tracks. Warns.
 * - Rest pose: NaN or infinite values are a LoadError; zero-length rotations become the identity and
 *   non-unit ones are normalised, with one warning counting them.
 * - Orphan bones: see warnOrphanBones.
 */

/** Quaternions shorter than this count as zero length. */
export const ZERO_QUAT = 1e-6;
/** |length − 1| above which a rotation counts as not unit length. */
export const UNIT_TOLERANCE = 1e-3;

/** Checks parent indices, refuses cycles, and reorders a skeleton whose parents come after children. */
export function checkHierarchy(scene: Scene): void {
  const where = scene.name;
  const { parents, names } = scene.skeleton;
  const n = parents.length;
  let ordered = true;
  for (let i = 0; i < n; i++) {
    const p = parents[i]!;
    if (p < -1 || p >= n) throw new LoadError(`${where}: node ${quoted(names[i])} has parent ${p}, but the skeleton has ${plural(n, 'node')} (0..${n - 1}, or -1 for a root)`);
    if (p === i) throw new LoadError(`${where}: node ${quoted(names[i])} is its own parent`);
    if (p > i) ordered = false;
  }
  if (ordered) return;

  // Ancestors-first order: walk up from each node not yet placed, then place the walked chain top-down.
  const state = new Uint8Array(n); // 0 unvisited, 1 on the current chain, 2 placed
  const chain = new Int32Array(n);
  const order = new Int32Array(n);
  let placed = 0;
  for (let i = 0; i < n; i++) {
    if (state[i] !== 0) continue;
    let len = 0;
    let j = i;
    while (j >= 0 && state[j] === 0) {
      state[j] = 1;
      chain[len++] = j;
      j = parents[j]!;
    }
    if (j >= 0 && state[j] === 1) {
      let at = len - 1;
      while (chain[at] !== j) at--;
      const cycle = Array.from(chain.subarray(at, len), (k) => `${quoted(names[k])}`);
      const shown = cycle.length > 8 ? [...cycle.slice(0, 8), '...'] : cycle;
      throw new LoadError(
        `${where}: the node hierarchy has a cycle: ${[...shown, cycle[0]].join(' → ')} (each arrow points to the parent); ` +
          `no node of it reaches a root`,
      );
    }
    for (let k = len - 1; k >= 0; k--) {
      const node = chain[k]!;
      order[placed++] = node;
      state[node] = 2;
    }
  }

  const newIndex = new Int32Array(n);
  for (let k = 0; k < n; k++) newIndex[order[k]!] = k;
  let early = 0;
  let first = -1;
  for (let i = 0; i < n; i++) {
    if (parents[i]! > i) {
      if (early++ === 0) first = i;
    }
  }
  const firstText = `${quoted(names[first])} before its parent ${quoted(names[parents[first]!])}`;
  remapNodes(scene, order, newIndex);
  warn(
    scene,
    `${plural(early, 'node')} came before ${early === 1 ? 'its parent' : 'their parents'} (first: ${firstText}); ` +
      `the skeleton was reordered so parents come first`,
  );
}

/**
 * Moves node order[k] to index k everywhere a node index appears: skeleton arrays (in place, same
 * lengths), mesh palettes, clip tracks (whose order is then re-sorted by node, stable).
 */
function remapNodes(scene: Scene, order: Int32Array, newIndex: Int32Array): void {
  const skeleton = scene.skeleton;
  const n = order.length;
  const oldParents = Int16Array.from(skeleton.parents);
  const oldNames = skeleton.names.slice();
  const oldRest = Float32Array.from(skeleton.restLocal);
  const names = skeleton.names as string[];
  for (let k = 0; k < n; k++) {
    const old = order[k]!;
    const p = oldParents[old]!;
    skeleton.parents[k] = p < 0 ? -1 : newIndex[p]!;
    names[k] = oldNames[old]!;
    skeleton.restLocal.set(oldRest.subarray(old * TRS_STRIDE, old * TRS_STRIDE + TRS_STRIDE), k * TRS_STRIDE);
  }
  const seenBones = new Set<Int16Array>();
  for (const m of scene.meshes) {
    if (seenBones.has(m.bones)) continue;
    seenBones.add(m.bones);
    for (let s = 0; s < m.bones.length; s++) m.bones[s] = newIndex[m.bones[s]!]!;
  }
  const seenTracks = new Set<Track>();
  for (const c of scene.clips) {
    for (const t of c.tracks) {
      if (seenTracks.has(t)) continue;
      seenTracks.add(t);
      (t as Writable<Track>).node = newIndex[t.node]!;
    }
    (c as Writable<Clip>).tracks = [...c.tracks].sort((a, b) => a.node - b.node);
  }
}

/** Rest pose: finite values (else LoadError), unit rotations (repaired, with a warning). */
export function checkRestPose(scene: Scene): void {
  const { restLocal, names } = scene.skeleton;
  const bad = firstNonFinite(restLocal);
  if (bad >= 0) {
    const node = Math.floor(bad / TRS_STRIDE);
    const part = ['translation', 'translation', 'translation', 'rotation', 'rotation', 'rotation', 'rotation', 'scale', 'scale', 'scale'][bad % TRS_STRIDE];
    throw new LoadError(`${scene.name}: the rest pose of node ${quoted(names[node])} has a NaN or infinite ${part}`);
  }
  const fixed = normaliseQuaternions(restLocal, 3, TRS_STRIDE, restLocal.length / TRS_STRIDE);
  if (fixed.zero > 0 || fixed.nonUnit > 0) {
    const parts: string[] = [];
    if (fixed.zero > 0) parts.push(`${plural(fixed.zero, 'node')} had a zero-length rotation (first ${quoted(names[fixed.firstZero])}): the identity used`);
    if (fixed.nonUnit > 0) parts.push(`${plural(fixed.nonUnit, 'rotation')} ${fixed.nonUnit === 1 ? 'was' : 'were'} not unit length (first ${quoted(names[fixed.firstNonUnit])}): normalised`);
    warn(scene, `rest pose: ${parts.join('; ')}`);
  }
}

/**
 * Makes `count` quaternions (x, y, z, w) at values[offset + i · stride] unit length in place: a zero-length
 * one (below ZERO_QUAT, or not finite) becomes the identity, one off unit length by more than
 * UNIT_TOLERANCE is normalised. Returns how many of each, and the first index of each (-1 when none).
 */
export function normaliseQuaternions(
  values: Float32Array,
  offset: number,
  stride: number,
  count: number,
): { zero: number; nonUnit: number; firstZero: number; firstNonUnit: number } {
  let zero = 0;
  let nonUnit = 0;
  let firstZero = -1;
  let firstNonUnit = -1;
  for (let i = 0; i < count; i++) {
    const o = offset + i * stride;
    const x = values[o]!, y = values[o + 1]!, z = values[o + 2]!, w = values[o + 3]!;
    const len2 = x * x + y * y + z * z + w * w;
    if (len2 > 1 - 2 * UNIT_TOLERANCE && len2 < 1 + 2 * UNIT_TOLERANCE) continue;
    if (!(len2 >= ZERO_QUAT * ZERO_QUAT) || !Number.isFinite(len2)) {
      if (zero++ === 0) firstZero = i;
      values[o] = 0;
      values[o + 1] = 0;
      values[o + 2] = 0;
      values[o + 3] = 1;
      continue;
    }
    if (firstNonUnit < 0) firstNonUnit = i;
    nonUnit++;
    const inv = 1 / Math.sqrt(len2);
    values[o] = x * inv;
    values[o + 1] = y * inv;
    values[o + 2] = z * inv;
    values[o + 3] = w * inv;
  }
  return { zero, nonUnit, firstZero, firstNonUnit };
}

/**
 * Orphan bones: a skinned mesh's palette bone that hangs under another root than most of the mesh's bones
 * and that no clip moves (neither it nor any ancestor has a track), while the scene has clips. Vertices
 * weighted to it stay in the bind pose while the rest of the mesh moves: one warning per mesh, naming
 * them. Bones a loader's warning already names (e.g. a .x SkinWeights bone without a Frame) are left to
 * that warning. Needs parents before children (run after checkHierarchy).
 */
export function warnOrphanBones(scene: Scene): void {
  if (scene.clips.length === 0) return;
  const { parents, names } = scene.skeleton;
  const n = parents.length;
  const moves = new Uint8Array(n);
  for (const c of scene.clips) {
    for (const t of c.tracks) {
      if ((t.translation?.times.length ?? 0) + (t.rotation?.times.length ?? 0) + (t.scale?.times.length ?? 0) > 0) moves[t.node] = 1;
    }
  }
  const root = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = parents[i]!;
    root[i] = p < 0 ? i : root[p]!;
    if (p >= 0 && moves[p] === 1) moves[i] = 1;
  }
  for (const m of scene.meshes) {
    if (!m.skinned || m.bones.length < 2) continue;
    const perRoot = new Map<number, number>();
    let main = -1;
    let best = 0;
    for (let s = 0; s < m.bones.length; s++) {
      const r = root[m.bones[s]!]!;
      const c = (perRoot.get(r) ?? 0) + 1;
      perRoot.set(r, c);
      if (c > best) {
        best = c;
        main = r;
      }
    }
    if (perRoot.size < 2) continue;
    const strays: string[] = [];
    for (let s = 0; s < m.bones.length; s++) {
      const b = m.bones[s]!;
      if (root[b] === main || moves[b] === 1) continue;
      const name = names[b]!;
      const shown = quoted(name);
      if (strays.includes(name) || scene.warnings.some((w) => w.includes(shown))) continue;
      strays.push(name);
    }
    if (strays.length === 0) continue;
    warn(
      scene,
      `mesh ${quoted(m.name)}: ${plural(strays.length, 'bone')} (${nameList(strays)}) ${strays.length === 1 ? 'is' : 'are'} not connected to the skeleton ` +
        `under ${quoted(names[main])} that its other bones hang under, and no clip moves ${strays.length === 1 ? 'it' : 'them'}: ` +
        `vertices weighted to ${strays.length === 1 ? 'it' : 'them'} stay in the bind pose`,
    );
  }
}
