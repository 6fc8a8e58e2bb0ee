import type { Accessor, Buffer, Document, Node } from '@gltf-transform/core';
import type { Channel, Clip, MorphTrack, Scene } from '../model/types.ts';
import type { MeshNode } from './mesh-nodes.ts';

/**
 * Every clip as a glTF animation of LINEAR samplers (the Scene's channels are linear TRS keys):
 * - a track's translation / rotation / scale channel → a channel on that skeleton node; rotations are
 *   made unit and each key is put in the hemisphere of the one before, so glTF's slerp and skinlab's
 *   shortest-path slerp follow the same arc;
 * - the clip's morph tracks → one `weights` channel per morphed mesh node, keyed at the union of the times
 *   of the tracks that drive its targets; a target without a track holds its rest weight;
 * - markers → `animation.extras.markers = [{ time, name }]`.
 * Key times must strictly increase in glTF: a key at the time of the key before (a step in the source)
 * is moved one float32 step later. A clip whose keys end before its duration gets one more key at the
 * duration on one channel, holding its last value (the same pose: sampling clamps), so the animation lasts
 * as long as the clip. A clip with no key at all cannot be written (glTF needs a channel): a warning says so.
 */

type Path = 'translation' | 'rotation' | 'scale' | 'weights';

interface Curve {
  readonly node: Node;
  readonly path: Path;
  times: Float32Array;
  values: Float32Array;
  readonly stride: number;
}

const _f = new Float32Array(1);
const _u = new Uint32Array(_f.buffer);

/** The next float32 above x (finite x). */
function nextFloat32(x: number): number {
  _f[0] = x;
  if (x === 0) _u[0] = 1;
  else if (x > 0) _u[0] = _u[0]! + 1;
  else _u[0] = _u[0]! - 1;
  return _f[0]!;
}

/** Strictly increasing copy of ascending times: a key not after the one before moves one float32 step after it. */
export function strictTimes(times: Float32Array): Float32Array {
  const out = Float32Array.from(times);
  for (let i = 1; i < out.length; i++) if (!(out[i]! > out[i - 1]!)) out[i] = nextFloat32(out[i - 1]!);
  return out;
}

function rotationValues(values: Float32Array, keys: number): Float32Array {
  const out = new Float32Array(keys * 4);
  let px = 0, py = 0, pz = 0, pw = 1;
  for (let k = 0; k < keys; k++) {
    let x = values[k * 4]!, y = values[k * 4 + 1]!, z = values[k * 4 + 2]!, w = values[k * 4 + 3]!;
    const len = Math.hypot(x, y, z, w);
    if (!(len > 0) || !Number.isFinite(len)) {
      x = 0; y = 0; z = 0; w = 1;
    } else {
      x /= len; y /= len; z /= len; w /= len;
    }
    if (k > 0 && x * px + y * py + z * pz + w * pw < 0) {
      x = -x; y = -y; z = -z; w = -w;
    }
    out.set([x, y, z, w], k * 4);
    px = x; py = y; pz = z; pw = w;
  }
  return out;
}

function channelCurve(node: Node, path: Path, ch: Channel | null): Curve | null {
  if (!ch) return null;
  const stride = path === 'rotation' ? 4 : 3;
  const keys = Math.min(ch.times.length, Math.floor(ch.values.length / stride));
  if (keys === 0) return null;
  const values = path === 'rotation' ? rotationValues(ch.values, keys) : ch.values.slice(0, keys * stride);
  return { node, path, times: strictTimes(ch.times.subarray(0, keys)), values, stride };
}

/** A morph track's weight at time t: linear between keys, clamped outside them. */
function sampleMorph(track: MorphTrack, t: number): number {
  const { times, values } = track;
  const n = Math.min(times.length, values.length);
  if (n === 0) return 0;
  if (!(t > times[0]!)) return values[0]!;
  if (t >= times[n - 1]!) return values[n - 1]!;
  let lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= t) lo = mid;
    else hi = mid;
  }
  const span = times[hi]! - times[lo]!;
  return values[lo]! + (values[hi]! - values[lo]!) * (span > 0 ? (t - times[lo]!) / span : 0);
}

function weightsCurve(scene: Scene, clip: Clip, mn: MeshNode): Curve | null {
  const tracks = (clip.morphTracks ?? []).filter((tr) => mn.targets.includes(tr.target) && tr.times.length > 0);
  if (tracks.length === 0) return null;
  const set = new Set<number>();
  for (const tr of tracks) for (const t of tr.times) set.add(t);
  const times = Float32Array.from([...set].sort((a, b) => a - b));
  const values = new Float32Array(times.length * mn.targets.length);
  const byTarget = mn.targets.map((target) => tracks.filter((tr) => tr.target === target).at(-1) ?? null);
  for (let k = 0; k < times.length; k++) {
    mn.targets.forEach((target, i) => {
      const tr = byTarget[i];
      values[k * mn.targets.length + i] = tr ? sampleMorph(tr, times[k]!) : scene.morphDefaults?.[target] ?? 0;
    });
  }
  return { node: mn.node, path: 'weights', times, values, stride: mn.targets.length };
}

/** Appends a key at `duration` holding the last value to the curve that ends latest, when every curve ends before it. */
function reachDuration(curves: Curve[], duration: number): void {
  let latest: Curve | null = null;
  for (const c of curves) if (!latest || c.times[c.times.length - 1]! > latest.times[latest.times.length - 1]!) latest = c;
  if (!latest) return;
  const end = latest.times[latest.times.length - 1]!;
  if (!(Math.fround(duration) > end)) return;
  const times = new Float32Array(latest.times.length + 1);
  times.set(latest.times);
  times[times.length - 1] = duration;
  const values = new Float32Array(latest.values.length + latest.stride);
  values.set(latest.values);
  values.set(latest.values.subarray(latest.values.length - latest.stride), latest.values.length);
  latest.times = times;
  latest.values = values;
}

export function buildAnimations(doc: Document, buffer: Buffer, scene: Scene, joints: readonly Node[], meshNodes: readonly MeshNode[], warnings: string[]): void {
  for (const clip of scene.clips) {
    const curves: Curve[] = [];
    for (const track of clip.tracks) {
      const node = joints[track.node];
      if (!node) continue;
      for (const c of [channelCurve(node, 'translation', track.translation), channelCurve(node, 'rotation', track.rotation), channelCurve(node, 'scale', track.scale)]) {
        if (c) curves.push(c);
      }
    }
    for (const mn of meshNodes) {
      const c = mn.targets.length > 0 ? weightsCurve(scene, clip, mn) : null;
      if (c) curves.push(c);
    }
    if (curves.length === 0) {
      warnings.push(`clip '${clip.name}' has no keys: glTF cannot hold an animation without channels, so it was not written`);
      continue;
    }
    reachDuration(curves, clip.duration);
    const anim = doc.createAnimation(clip.name);
    const inputs = new Map<string, Accessor>();
    for (const c of curves) {
      const key = Array.from(c.times).join(',');
      let input = inputs.get(key);
      if (!input) {
        input = doc.createAccessor(`${clip.name}_times`).setType('SCALAR').setArray(c.times).setBuffer(buffer);
        inputs.set(key, input);
      }
      const type = c.path === 'weights' ? 'SCALAR' : c.stride === 4 ? 'VEC4' : 'VEC3';
      const output = doc.createAccessor(`${clip.name}_${c.path}`).setType(type).setArray(c.values).setBuffer(buffer);
      const sampler = doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation('LINEAR');
      anim.addSampler(sampler);
      anim.addChannel(doc.createAnimationChannel().setTargetNode(c.node).setTargetPath(c.path).setSampler(sampler));
    }
    if (clip.markers && clip.markers.length > 0) {
      anim.setExtras({ markers: clip.markers.map((m) => ({ time: m.time, name: m.name })) });
    }
  }
}
