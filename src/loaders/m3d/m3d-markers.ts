import type { Clip, ClipMarker } from '../../model/types.ts';
import { quoted } from '../../model/message.ts';
import type { TextScanner } from '../text/scanner.ts';

/**
 * skinlab's ***ClipMarkers*** chunk of .m3d (docs/m3d-morph-extension.md): the callback keys of each clip,
 * read into Clip.markers and written back. It follows the other skinlab chunks (Meshes, MorphTargets,
 * MorphTracks); Luna's reader stops before it.
 *
 *   ***************ClipMarkers*****************
 *   #ClipMarkers N                       N clip blocks
 *   Clip walk #Markers: 2                the clip's name as in `AnimationClip`, then its marker count
 *   {
 *   	Time: 0.25 Name: footstep_l       seconds; a name is one word of letters, digits and _ . : -
 *   	Time: 0.8 Name: footstep_r
 *   }
 *
 * Reading: every count is checked against the text left before anything is allocated; a clip named twice,
 * a clip the file does not have, a name that breaks the rule above or a time that is not a finite number is
 * a LoadError with the line. Times outside the clip and markers out of order are left to validateScene
 * (src/model/validate-clips.ts), which clamps and sorts them with a warning.
 */

export const MARKER_CHUNK = 'ClipMarkers';
/** `Clip a #Markers: 0 { }` */
const MIN_CHARS_CLIP = 20;
/** `Time: 0 Name: a` */
const MIN_CHARS_MARKER = 14;
/** A marker name: one token the chunk can hold, starting with a letter, digit or underscore. */
export const MARKER_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,127}$/;

/** Reads the chunk (its heading is the scanner's next token) into `clips` (replacing each clip with markers). */
export function readClipMarkers(s: TextScanner, clips: Clip[]): void {
  s.next();
  s.expect(`#${MARKER_CHUNK}`);
  const n = s.int('clip marker block count', 0, 65535);
  s.checkCount(n, MIN_CHARS_CLIP, 'clip marker block');
  const clipIndex = new Map<string, number>();
  const sharedNames = new Set<string>();
  clips.forEach((clip, c) => (clipIndex.has(clip.name) ? sharedNames.add(clip.name) : clipIndex.set(clip.name, c)));
  const done = new Set<number>();
  for (let i = 0; i < n; i++) {
    s.expect('Clip');
    const clipName = s.next(`the clip of marker block ${i}`);
    const c = clipIndex.get(clipName);
    if (c === undefined) s.error(`marker block ${i} names clip ${quoted(clipName)}, which the file does not have`);
    if (sharedNames.has(clipName)) s.error(`marker block ${i} names clip ${quoted(clipName)}, but several clips have that name`);
    if (done.has(c)) s.error(`clip ${quoted(clipName)} has two marker blocks`);
    done.add(c);
    s.expect('#Markers:');
    const count = s.int(`marker count of clip ${quoted(clipName)}`, 0, 1 << 24);
    s.checkCount(count, MIN_CHARS_MARKER, `marker (clip ${quoted(clipName)})`);
    s.expect('{');
    const markers: ClipMarker[] = [];
    const markerTime = (): string => `marker time (clip ${quoted(clipName)})`;
    for (let k = 0; k < count; k++) {
      s.expect('Time:');
      const time = s.number(markerTime);
      if (!Number.isFinite(time)) s.error(`marker ${k} of clip ${quoted(clipName)} has time ${time}`);
      s.expect('Name:');
      const name = s.next(`the name of marker ${k} (clip ${quoted(clipName)})`);
      if (!MARKER_NAME.test(name)) s.error(`marker ${k} of clip ${quoted(clipName)} is named ${quoted(name)}; a marker name is one word of letters, digits and _ . : -`);
      markers.push({ time, name });
    }
    s.expect('}');
    clips[c] = { ...clips[c]!, markers };
  }
}

/**
 * The chunk's lines for the written clips (none when no clip has markers). `clipName` gives a clip's name
 * as the writer wrote it; `f` formats a time. Throws when a marker cannot be written faithfully: a name
 * breaking MARKER_NAME, a non-finite time, or markers on two clips written under one name.
 */
export function clipMarkerLines(clips: readonly Clip[], clipName: (c: Clip) => string, f: (x: number) => string): string[] {
  const marked = clips.filter((c) => (c.markers?.length ?? 0) > 0);
  if (marked.length === 0) return [];
  const written = new Map<string, number>();
  for (const c of clips) written.set(clipName(c), (written.get(clipName(c)) ?? 0) + 1);
  const out = ['', `***************${MARKER_CHUNK}*****************`, `#${MARKER_CHUNK} ${marked.length}`];
  for (const c of marked) {
    const name = clipName(c);
    if (written.get(name)! > 1) throw new Error(`.m3d: two clips are written as '${name}'; markers name their clip`);
    out.push(`Clip ${name} #Markers: ${c.markers!.length}`, '{');
    for (const m of c.markers!) {
      if (!MARKER_NAME.test(m.name)) throw new Error(`.m3d: clip '${c.name}' has a marker named '${m.name}'; a marker name is one word of letters, digits and _ . : -`);
      if (!Number.isFinite(m.time)) throw new Error(`.m3d: clip '${c.name}' marker '${m.name}' has time ${m.time}`);
      out.push(`\tTime: ${f(m.time)} Name: ${m.name}`);
    }
    out.push('}');
  }
  return out;
}
