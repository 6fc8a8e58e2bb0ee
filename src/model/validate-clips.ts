import { LoadError } from './errors.ts';
import { quoted } from './message.ts';
import type { Channel, Clip, ClipMarker, MorphTrack, Scene, Track } from './types.ts';
import { firstNonFinite, num, plural, warn, type Writable } from './validate-common.ts';
import { normaliseQuaternions } from './validate-skeleton.ts';

/**
 * Key checks of validateScene, per clip (node and morph-track indices are range-checked before, in
 * validate.ts).
 *
 * - Values per key must match the channel (3 or 4 floats, 1 weight per morph key): LoadError.
 * - A NaN or infinite key time or value: LoadError naming the clip, the node (or morph target), the
 *   channel and the key.
 * - Rotation keys: zero length → the identity, not unit length → normalised; one warning with counts.
 * - Key times out of order or repeated: stably sorted, repeats dropped (the later key kept, as the .x
 *   loader does); one warning counting the keys moved or dropped. Channels get new arrays (the .m3d
 *   loader shares one times array between a track's three channels).
 * - Keys before 0 s: the whole clip (node and morph tracks alike) shifts to start at 0; warns.
 * - Duration: not a finite length ≥ 0, or shorter than the last key → set to the last key time; warns.
 * - Zero length (every key at 0 s, or no key) or a single key per channel: kept as a static pose; warns.
 * - Markers (callback keys): a NaN or infinite time, or an empty name or one with whitespace: LoadError.
 *   Shifted with the clip; times outside [0, duration] clamped to it (warns, with a count); sorted by time,
 *   stably (warns when they were not). An empty list is dropped.
 *   AnimPlayer holds time 0 in a clip of duration 0.
 */

const CHANNELS = [
  ['translation', 3],
  ['rotation', 4],
  ['scale', 3],
] as const;

/** `checked`: key arrays known finite already (validateScene's contract); their scans are skipped. */
export function checkClip(scene: Scene, clipIndex: number, checked: ReadonlySet<ArrayBufferView>): void {
  const clip = scene.clips[clipIndex]! as Writable<Clip>;
  const label = `${scene.name}: clip ${quoted(clip.name)}`;
  const names = scene.skeleton.names;
  let minTime = Infinity;
  let maxTime = -Infinity;
  let keys = 0;
  let mostKeys = 0;
  let reordered = 0;
  let zero = 0;
  let nonUnit = 0;
  let firstZero = '';
  let firstNonUnit = '';
  // Key times already found finite and strictly ascending: channels often share one array (one glTF input accessor).
  const goodTimes = new Set<Float32Array>();
  const span = (times: Float32Array): void => {
    const n = times.length;
    if (n === 0) return;
    keys += n;
    if (n > mostKeys) mostKeys = n;
    if (times[0]! < minTime) minTime = times[0]!;
    if (times[n - 1]! > maxTime) maxTime = times[n - 1]!;
  };

  for (const track of clip.tracks) {
    const t = track as Writable<Track>;
    const node = `node ${quoted(names[t.node])}`;
    for (let c = 0; c < CHANNELS.length; c++) {
      const kind = CHANNELS[c]![0];
      const stride = CHANNELS[c]![1];
      const ch = t[kind];
      if (ch === null) continue;
      const n = ch.times.length;
      if (ch.values.length !== n * stride) {
        throw new LoadError(`${label}: ${node}: ${kind} has ${plural(n, 'key time')} but ${ch.values.length} values (${stride} per key)`);
      }
      const known = goodTimes.has(ch.times);
      const badTime = known || checked.has(ch.times) ? -1 : firstNonFinite(ch.times);
      if (badTime >= 0) throw new LoadError(`${label}: ${node}: ${kind} key ${badTime} has time ${ch.times[badTime]}`);
      const badValue = checked.has(ch.values) ? -1 : firstNonFinite(ch.values);
      if (badValue >= 0) throw new LoadError(`${label}: ${node}: ${kind} key ${Math.floor(badValue / stride)} has a NaN or infinite value`);
      if (stride === 4) {
        const r = normaliseQuaternions(ch.values, 0, 4, n);
        if (r.zero > 0 && zero === 0) firstZero = `${node} key ${r.firstZero}`;
        if (r.nonUnit > 0 && nonUnit === 0) firstNonUnit = `${node} key ${r.firstNonUnit}`;
        zero += r.zero;
        nonUnit += r.nonUnit;
      }
      let times = ch.times;
      if (known || strictlyAscending(times)) goodTimes.add(times);
      else {
        const sorted = sortKeys(times, ch.values, stride);
        reordered += sorted.problems;
        t[kind] = { times: sorted.times, values: sorted.values };
        times = sorted.times;
      }
      span(times);
    }
  }

  const morphTracks = clip.morphTracks as MorphTrack[] | undefined;
  if (morphTracks) {
    for (let i = 0; i < morphTracks.length; i++) {
      const mt = morphTracks[i]!;
      const what = `morph track ${quoted(scene.morphTargets[mt.target])}`;
      const n = mt.times.length;
      if (mt.values.length !== n) throw new LoadError(`${label}: ${what} has ${plural(n, 'key time')} but ${plural(mt.values.length, 'weight')}`);
      const known = goodTimes.has(mt.times);
      const badTime = known || checked.has(mt.times) ? -1 : firstNonFinite(mt.times);
      if (badTime >= 0) throw new LoadError(`${label}: ${what} key ${badTime} has time ${mt.times[badTime]}`);
      const badValue = firstNonFinite(mt.values);
      if (badValue >= 0) throw new LoadError(`${label}: ${what} key ${badValue} has weight ${mt.values[badValue]}`);
      if (known || strictlyAscending(mt.times)) goodTimes.add(mt.times);
      else {
        const sorted = sortKeys(mt.times, mt.values, 1);
        reordered += sorted.problems;
        morphTracks[i] = { target: mt.target, times: sorted.times, values: sorted.values };
      }
      span(morphTracks[i]!.times);
    }
  }

  const shift = keys > 0 && minTime < 0 ? -minTime : 0;
  if (shift > 0) shiftClip(clip, shift);
  const end = keys > 0 ? maxTime + shift : 0;
  let duration = clip.duration;
  if (!Number.isFinite(duration) || !(duration >= 0)) {
    warn(scene, `clip ${quoted(clip.name)}: duration ${duration} is not a length: set to ${num(end)} s, its last key`);
    duration = end;
  } else {
    duration += shift;
    if (end > duration + 1e-6 * Math.max(1, duration)) {
      warn(scene, `clip ${quoted(clip.name)}: keys run to ${num(end)} s, past its duration of ${num(duration)} s: duration extended`);
      duration = end;
    }
  }
  clip.duration = duration;
  checkMarkers(scene, clip, label, shift);

  if (zero > 0 || nonUnit > 0) {
    const parts: string[] = [];
    if (zero > 0) parts.push(`${plural(zero, 'rotation key')} had zero length (first: ${firstZero}): the identity used`);
    if (nonUnit > 0) parts.push(`${plural(nonUnit, 'rotation key')} ${nonUnit === 1 ? 'was' : 'were'} not unit length (first: ${firstNonUnit}): normalised`);
    warn(scene, `clip ${quoted(clip.name)}: ${parts.join('; ')}`);
  }
  if (reordered > 0) {
    warn(scene, `clip ${quoted(clip.name)}: ${plural(reordered, 'key')} ${reordered === 1 ? 'was' : 'were'} out of order or at a repeated time: sorted, repeats dropped (the later kept)`);
  }
  if (shift > 0) {
    warn(scene, `clip ${quoted(clip.name)}: keys start at ${num(minTime)} s: every key shifted by ${num(shift)} s to start at 0`);
  }
  if (keys === 0) {
    warn(scene, `clip ${quoted(clip.name)} has no keys: it plays as the rest pose`);
  } else if (duration === 0) {
    warn(scene, `clip ${quoted(clip.name)} has zero length (every key at 0 s): it plays as a static pose`);
  } else if (mostKeys === 1) {
    warn(scene, `clip ${quoted(clip.name)} has a single key per channel: it plays as a static pose for ${num(duration)} s`);
  }
}

function checkMarkers(scene: Scene, clip: Writable<Clip>, label: string, shift: number): void {
  const list = clip.markers;
  if (list === undefined) return;
  if (list.length === 0) {
    delete clip.markers;
    return;
  }
  const duration = clip.duration;
  let clamped = 0;
  let unsorted = false;
  const out: ClipMarker[] = [];
  for (let i = 0; i < list.length; i++) {
    const m = list[i]!;
    if (typeof m.name !== 'string' || m.name === '' || /\s/.test(m.name)) {
      throw new LoadError(`${label}: marker ${i} has name ${quoted(String(m.name))}; a marker name is one word`);
    }
    if (!Number.isFinite(m.time)) throw new LoadError(`${label}: marker ${quoted(m.name)} has time ${m.time}`);
    let time = m.time + shift;
    if (time < 0 || time > duration) {
      clamped++;
      time = time < 0 ? 0 : duration;
    }
    if (out.length > 0 && time < out[out.length - 1]!.time) unsorted = true;
    out.push(time === m.time ? m : { time, name: m.name });
  }
  if (unsorted) out.sort((a, b) => a.time - b.time);
  if (clamped > 0) warn(scene, `clip ${quoted(clip.name)}: ${plural(clamped, 'marker')} outside 0..${num(duration)} s clamped to the clip`);
  if (unsorted) warn(scene, `clip ${quoted(clip.name)}: markers were not in time order: sorted`);
  clip.markers = out;
}

function strictlyAscending(times: Float32Array): boolean {
  for (let k = 1; k < times.length; k++) if (!(times[k]! > times[k - 1]!)) return false;
  return true;
}

/**
 * Keys in ascending time order, stable; of keys at one time the last (in that order) is kept. `problems`
 * counts keys dropped plus keys not at their original relative position.
 */
export function sortKeys(
  times: Float32Array,
  values: Float32Array,
  stride: number,
): { times: Float32Array; values: Float32Array; problems: number } {
  const n = times.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
  const keep: number[] = [];
  for (const i of order) {
    if (keep.length > 0 && times[keep[keep.length - 1]!] === times[i]) keep[keep.length - 1] = i;
    else keep.push(i);
  }
  const m = keep.length;
  const outTimes = new Float32Array(m);
  const outValues = new Float32Array(m * stride);
  let moved = 0;
  for (let k = 0; k < m; k++) {
    const i = keep[k]!;
    if (k > 0 && i < keep[k - 1]!) moved++;
    outTimes[k] = times[i]!;
    outValues.set(values.subarray(i * stride, i * stride + stride), k * stride);
  }
  return { times: outTimes, values: outValues, problems: n - m + moved };
}

/** Adds `shift` seconds to every key of the clip (new arrays; shared times arrays stay shared). */
function shiftClip(clip: Writable<Clip>, shift: number): void {
  const shifted = new Map<Float32Array, Float32Array>();
  const moved = (times: Float32Array): Float32Array => {
    let out = shifted.get(times);
    if (out === undefined) {
      out = new Float32Array(times.length);
      for (let k = 0; k < times.length; k++) out[k] = times[k]! + shift;
      shifted.set(times, out);
    }
    return out;
  };
  for (const track of clip.tracks) {
    const t = track as Writable<Track>;
    for (const [kind] of CHANNELS) {
      const ch: Channel | null = t[kind];
      if (ch !== null) t[kind] = { times: moved(ch.times), values: ch.values };
    }
  }
  const morphTracks = clip.morphTracks as MorphTrack[] | undefined;
  if (morphTracks) {
    for (let i = 0; i < morphTracks.length; i++) {
      const mt = morphTracks[i]!;
      morphTracks[i] = { target: mt.target, times: moved(mt.times), values: mt.values };
    }
  }
}
