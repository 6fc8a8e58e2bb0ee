/** The `morph` URL value (docs/api.md#url-parameters): hand-set morph-target weights as text. Pure. */

/**
 * Parses `name:weight,name:weight,...` (URL key `morph`; '' = none). Names are snake_case-ish
 * identifiers, weights finite numbers (not clamped). Returns the record, or the reason it is malformed.
 */
export function parseMorph(value: string): Record<string, number> | string {
  const out: Record<string, number> = {};
  const text = value.trim();
  if (text === '') return out;
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const m = /^([A-Za-z_][A-Za-z0-9_.-]*)\s*:\s*(\S+)$/.exec(item);
    if (!m) return `"${item}" is not name:weight`;
    const w = Number(m[2]);
    if (!Number.isFinite(w)) return `"${item}": weight is not a number`;
    out[m[1]!] = w;
  }
  return out;
}

/** The inverse of parseMorph: `name:weight,...` in the record's order. */
export function formatMorph(morph: Readonly<Record<string, number>>): string {
  return Object.entries(morph)
    .map(([k, w]) => `${k}:${Number(w.toFixed(4))}`)
    .join(',');
}
