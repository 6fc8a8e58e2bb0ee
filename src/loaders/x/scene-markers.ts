import type { ClipMarker } from '../../model/types.ts';
import { quoted } from '../../model/message.ts';
import { NumberCursor, isTemplate, objectError, type XContext } from './scene-read.ts';
import type { XObject } from './xnode.ts';

/**
 * skinlab's clip-marker template for .x (docs/m3d-morph-extension.md): one callback key of an AnimationSet.
 *
 *   template SkinlabClipMarker {
 *     <6B1E5C52-3F0A-4C7E-9B8D-2E41A7D05F13>
 *     STRING animationSet;   // the AnimationSet's name, as written in the file
 *     STRING name;           // one word: letters, digits and _ . : -
 *     DWORD time;            // in the set's ticks, like AnimationKey times
 *   }
 *
 * Objects of it stand at the top level of the file, not inside the AnimationSet: AnimationSet is a
 * restricted template (`[Animation]`), and readers that enforce restrictions (D3DX's d3dxof, Wine's) would
 * refuse an unknown child there, while every reader skips an unknown top-level object. A marker naming a set
 * the file does not have is skipped with a warning (it is detached from its set, so a file cut down by hand
 * still loads); a missing or bad name or a time that is not a finite number is a LoadError with the object's
 * line. Times become seconds with the set's tick rate and shift, like its keys; validateScene clamps them to
 * the clip and sorts them.
 */

export const CLIP_MARKER_TEMPLATE = 'SkinlabClipMarker';
export const CLIP_MARKER_GUID = '6B1E5C52-3F0A-4C7E-9B8D-2E41A7D05F13';
const MARKER_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,127}$/;

/** One marker as read: its time still in ticks. */
export interface FileMarker {
  readonly obj: XObject;
  readonly name: string;
  readonly ticks: number;
}

/** Top-level SkinlabClipMarker objects of the file by the set name they give, in file order. */
export function collectClipMarkers(ctx: XContext): Map<string, FileMarker[]> {
  const out = new Map<string, FileMarker[]>();
  for (const o of ctx.file.objects) {
    if (!isTemplate(o, CLIP_MARKER_TEMPLATE)) continue;
    const set = o.strings[0];
    const name = o.strings[1];
    if (set === undefined || set === '') throw objectError(ctx, o, 'has no AnimationSet name string');
    if (name === undefined || !MARKER_NAME.test(name)) {
      throw objectError(ctx, o, `marker name ${name === undefined ? '(missing)' : quoted(name)} is not one word of letters, digits and _ . : -`);
    }
    const ticks = new NumberCursor(ctx, o).next(`the time of marker ${quoted(name)}`);
    if (!Number.isFinite(ticks)) throw objectError(ctx, o, `marker ${quoted(name)} has time ${ticks}`);
    const list = out.get(set) ?? [];
    list.push({ obj: o, name, ticks });
    out.set(set, list);
  }
  return out;
}

/** The markers of one set in seconds, shifted by `shift` seconds like the set's keys. */
export function toClipMarkers(markers: readonly FileMarker[], ticksPerSecond: number, shift: number): ClipMarker[] {
  return markers.map((m) => ({ time: m.ticks / ticksPerSecond - shift, name: m.name }));
}

/** Warns about marker sets no AnimationSet of the file is named. */
export function warnUnclaimedMarkers(ctx: XContext, markers: ReadonlyMap<string, FileMarker[]>, claimed: ReadonlySet<string>): void {
  for (const [set, list] of markers) {
    if (!claimed.has(set)) ctx.warnings.push(`${list.length} ${CLIP_MARKER_TEMPLATE} object${list.length === 1 ? '' : 's'} name AnimationSet ${quoted(set)}, which the file does not have; skipped`);
  }
}
