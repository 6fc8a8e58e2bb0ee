import { LoadError } from '../../model/errors.ts';
import type { Channel, Clip, ClipMarker, MorphTrack } from '../../model/types.ts';
import { knownFinite, readFloats } from './gltf-accessor.ts';
import type { GltfAccessor as Accessor, GltfAnimation as Animation, GltfDoc } from './gltf-doc.ts';
import type { MorphTable } from './gltf-morph.ts';
import { UniqueNames } from './gltf-names.ts';
import type { GltfSkeleton } from './gltf-nodes.ts';
import { cubicToLinear, stepToLinear, type LinearKeys } from './gltf-resample.ts';

/**
 * glTF animations → Scene clips, one per animation (name, else `animation_<i>`; repeated names get `-2`…).
 *
 * - translation / rotation / scale channels become the node's Track channels; `weights` channels become one
 *   MorphTrack per target of the node's mesh (gltf-morph.ts numbers them). Channels on any skeleton node count:
 *   a non-joint node's channel moves its rigid meshes and the skins below it.
 * - LINEAR keys are kept; STEP and CUBICSPLINE are converted to linear keys (gltf-resample.ts). Channels whose
 *   samplers read one input accessor share its key-times array (read once).
 * - Time is the file's own: keys are not shifted (a clip whose first key is at 0.04 s holds that key before
 *   it); duration = the last key time of any channel.
 * - Markers: `extras.markers` = [{ time: seconds, name: one word }] (skinlab's exporter writes them);
 *   malformed entries are dropped with one warning per clip.
 * - Skipped with one warning each kind (counted): channels whose node is outside the default scene,
 *   `weights` channels on nodes without morph targets, channels without a target path (KHR_animation_pointer).
 * Output accessor sizes that do not match the input's key count are a LoadError.
 */

/** `checked` (validateScene's) gets the LINEAR key arrays read from accessors known finite. */
export function buildClips(doc: GltfDoc, skeleton: GltfSkeleton, morph: MorphTable, fileName: string, warnings: string[], checked: Set<ArrayBufferView>): Clip[] {
  const clips: Clip[] = [];
  const names = new UniqueNames();
  const skipped = { outside: 0, noTargets: 0, noPath: 0 };
  const times = new Map<Accessor, Float32Array>();
  doc.animations.forEach((anim, i) => {
    const name = names.take(anim.getName() || `animation_${i}`);
    clips.push(buildClip(anim, name, `${fileName}: animation ${i} ("${name}")`, skeleton, morph, skipped, warnings, times, checked));
  });
  if (skipped.outside > 0) warnings.push(`${skipped.outside} animation channel${skipped.outside === 1 ? '' : 's'} target nodes outside the scene: skipped`);
  if (skipped.noTargets > 0) warnings.push(`${skipped.noTargets} morph weight channel${skipped.noTargets === 1 ? '' : 's'} target nodes without morph targets: skipped`);
  if (skipped.noPath > 0) warnings.push(`${skipped.noPath} animation channel${skipped.noPath === 1 ? '' : 's'} without a node and path (e.g. KHR_animation_pointer): skipped`);
  return clips;
}

interface MutableTrack {
  node: number;
  translation: Channel | null;
  rotation: Channel | null;
  scale: Channel | null;
}

function buildClip(
  anim: Animation,
  name: string,
  where: string,
  skeleton: GltfSkeleton,
  morph: MorphTable,
  skipped: { outside: number; noTargets: number; noPath: number },
  warnings: string[],
  timesOf: Map<Accessor, Float32Array>,
  checked: Set<ArrayBufferView>,
): Clip {
  const tracks = new Map<number, MutableTrack>();
  const morphTracks: MorphTrack[] = [];
  let duration = 0;
  anim.listChannels().forEach((ch, c) => {
    const node = ch.getTargetNode();
    const path = ch.getTargetPath();
    const sampler = ch.getSampler();
    if (!node || !path || !sampler) {
      skipped.noPath++;
      return;
    }
    const index = skeleton.indexOf.get(node);
    if (index === undefined) {
      skipped.outside++;
      return;
    }
    const input = sampler.getInput();
    const output = sampler.getOutput();
    const at = `${where}: channel ${c} (${path})`;
    if (!input || !output) throw new LoadError(`${at}: its sampler has no input or output accessor`);
    let times = timesOf.get(input);
    if (!times) {
      timesOf.set(input, (times = readFloats(input, `${at}: input`, 1)));
      if (knownFinite(input)) checked.add(times);
    }
    const values = readFloats(output, `${at}: output`);
    const n = times.length;
    const interpolation = sampler.getInterpolation();
    const perKey = interpolation === 'CUBICSPLINE' ? 3 : 1;
    let stride: number;
    if (path === 'weights') {
      const targets = morph.base.get(index);
      if (!targets) {
        skipped.noTargets++;
        return;
      }
      stride = targets.count;
    } else stride = path === 'rotation' ? 4 : 3;
    if (values.length !== n * stride * perKey) {
      throw new LoadError(`${at}: output holds ${values.length} values for ${n} keys of ${stride * perKey} (${interpolation})`);
    }
    if (n > 0 && times[n - 1]! > duration) duration = times[n - 1]!;
    const keys = toLinear(times, values, stride, interpolation, path === 'rotation');
    // LINEAR keys are the accessors' own values; resampled ones are new numbers and get scanned.
    const finiteValues = keys.values === values && knownFinite(output);
    if (finiteValues) checked.add(values);
    if (path === 'weights') {
      const { start, count } = morph.base.get(index)!;
      const m = keys.times.length;
      for (let k = 0; k < count; k++) {
        const w = new Float32Array(m);
        for (let j = 0; j < m; j++) w[j] = keys.values[j * count + k]!;
        if (finiteValues) checked.add(w);
        morphTracks.push({ target: start + k, times: keys.times, values: w });
      }
      return;
    }
    let track = tracks.get(index);
    if (!track) {
      track = { node: index, translation: null, rotation: null, scale: null };
      tracks.set(index, track);
    }
    track[path] = { times: keys.times, values: keys.values };
  });
  const markers = readMarkers(anim, name, warnings);
  return {
    name,
    duration,
    ticksPerSecond: 0,
    tracks: [...tracks.values()].sort((a, b) => a.node - b.node),
    ...(morphTracks.length > 0 ? { morphTracks: morphTracks.sort((a, b) => a.target - b.target) } : {}),
    ...(markers.length > 0 ? { markers } : {}),
  };
}

function toLinear(times: Float32Array, values: Float32Array, stride: number, interpolation: string, rotation: boolean): LinearKeys {
  if (interpolation === 'STEP') return stepToLinear(times, values, stride);
  if (interpolation === 'CUBICSPLINE') return cubicToLinear(times, values, stride, rotation);
  return { times, values };
}

function readMarkers(anim: Animation, clip: string, warnings: string[]): ClipMarker[] {
  const extras = anim.getExtras() as Record<string, unknown> | undefined;
  const list = extras?.['markers'];
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    warnings.push(`clip "${clip}": extras.markers is not a list of { time, name }: ignored`);
    return [];
  }
  const out: ClipMarker[] = [];
  let bad = 0;
  for (const m of list) {
    const time = typeof m === 'object' && m !== null ? (m as Record<string, unknown>)['time'] : undefined;
    const name = typeof m === 'object' && m !== null ? (m as Record<string, unknown>)['name'] : undefined;
    if (typeof time !== 'number' || !Number.isFinite(time) || typeof name !== 'string' || name === '' || /\s/.test(name)) {
      bad++;
      continue;
    }
    out.push({ time, name });
  }
  if (bad > 0) warnings.push(`clip "${clip}": ${bad} malformed marker${bad === 1 ? '' : 's'} in extras.markers (each needs a finite time and a one-word name): ignored`);
  return out.sort((a, b) => a.time - b.time);
}
