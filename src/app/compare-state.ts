import { TECHNIQUE_IDS, type TechniqueId } from '../techniques/technique.ts';

/**
 * The side-by-side compare setting (URL key `compare=A,B`, docs/api.md#url-parameters): parsing and formatting the pair, the
 * divider's position (`compareSplit`), and the pair the C key turns on. Pure: no DOM, no GL.
 *
 * How it relates to `technique`: `compare` says what each half draws (A on the left, B on the right);
 * `technique` stays what the single view draws, untouched while comparing, and comes back when compare is
 * turned off. A = B is allowed (both halves draw the same technique, with their own figures).
 */

/** A pair of technique ids: `a` drawn on the left, `b` on the right. */
export interface ComparePair {
  a: TechniqueId;
  b: TechniqueId;
}

/** The divider's default position (share of the canvas width left of it) and its limits. */
export const DEFAULT_SPLIT = 0.5;
export const MIN_SPLIT = 0.1;
export const MAX_SPLIT = 0.9;

/** What B the C key compares the single view's technique with when no pair was shown before. */
export const DEFAULT_PARTNER: TechniqueId = 'dual-quat';
/** …and the partner when the single view already draws DEFAULT_PARTNER. */
const FALLBACK_PARTNER: TechniqueId = 'vs-hlsl';

/**
 * `A,B` → the pair; `''`, `off` or `0` → null (compare off). Returns a reason string for anything else
 * (the app shows it as `compare=…: reason`).
 */
export function parseCompare(value: string): ComparePair | null | string {
  const text = value.trim();
  if (text === '' || text === 'off' || text === '0') return null;
  const parts = text.split(',').map((s) => s.trim());
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return 'expected two technique ids A,B (A left, B right), or off';
  const unknown = parts.filter((p) => !(TECHNIQUE_IDS as readonly string[]).includes(p));
  if (unknown.length > 0) return `unknown technique ${unknown.join(', ')}; one of ${TECHNIQUE_IDS.join(', ')}`;
  return { a: parts[0] as TechniqueId, b: parts[1] as TechniqueId };
}

/** The inverse of parseCompare: `A,B` ('' for null). */
export function formatCompare(pair: ComparePair | null): string {
  return pair ? `${pair.a},${pair.b}` : '';
}

/** `compareSplit`: a share of the width in [MIN_SPLIT, MAX_SPLIT], or a reason string. */
export function parseSplit(value: string): number | string {
  const v = Number(value);
  if (value.trim() === '' || !Number.isFinite(v) || v < MIN_SPLIT || v > MAX_SPLIT) return `expected the divider's place as a share of the width, ${MIN_SPLIT} to ${MAX_SPLIT}`;
  return v;
}

/** A divider position clamped to its limits and rounded to what a link carries (3 decimals). */
export function clampSplit(v: number): number {
  const c = Math.min(MAX_SPLIT, Math.max(MIN_SPLIT, Number.isFinite(v) ? v : DEFAULT_SPLIT));
  return Math.round(c * 1000) / 1000;
}

/**
 * The pair the C key turns on: the last pair shown, else the single view's technique against
 * DEFAULT_PARTNER (or vs-hlsl when it already is dual-quat).
 */
export function togglePair(technique: TechniqueId, last: ComparePair | null): ComparePair {
  if (last) return last;
  return { a: technique, b: technique === DEFAULT_PARTNER ? FALLBACK_PARTNER : DEFAULT_PARTNER };
}

/**
 * Checks the state's pair against what can be drawn now, fixing the state and returning one message per
 * problem (the app shows them as its usual error): compare needs one character (crowd 1: compare is turned
 * off in crowd mode); a technique missing from this build turns compare off; one that cannot draw the model
 * (`reason` says why, null when it can) is replaced by software, as the single view does.
 */
export function checkCompare(state: { compare: ComparePair | null; crowd: number }, inBuild: (id: TechniqueId) => boolean, reason: (id: TechniqueId) => string | null): string[] {
  const pair = state.compare;
  if (pair === null) return [];
  const what = `compare=${formatCompare(pair)}`;
  if (state.crowd > 1) {
    state.compare = null;
    return [`${what}: side-by-side compare draws one character, not a crowd (crowd=${state.crowd}); compare is off`];
  }
  const missing = [pair.a, pair.b].filter((id) => !inBuild(id));
  if (missing.length > 0) {
    state.compare = null;
    return [`${what}: ${[...new Set(missing)].join(', ')} not available in this build; compare is off`];
  }
  const errors: string[] = [];
  const fixed = { ...pair };
  for (const side of ['a', 'b'] as const) {
    const why = reason(pair[side]);
    if (why) {
      errors.push(`${what}: ${pair[side]}: ${why}; the ${side === 'a' ? 'left' : 'right'} half draws software`);
      fixed[side] = 'software';
    }
  }
  if (errors.length > 0) state.compare = fixed;
  return errors;
}

/** Why a compare shot `A,B` (record-plan.ts) cannot be drawn: the first side `reason` rejects, named; null when both can. */
export function pairReason(pair: string, reason: (id: string) => string | null): string | null {
  for (const one of pair.split(',')) {
    const why = reason(one);
    if (why) return `${one}: ${why}`;
  }
  return null;
}
