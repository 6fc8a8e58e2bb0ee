/**
 * Names and strings from a model file as they appear inside LoadError messages and warnings. A corrupt
 * file can make a "name" of megabytes (a binary NAME whose length swallowed the rest of the file, a text
 * word with no delimiter for pages): messages show at most SHOWN_CHARS characters of it, control
 * characters as \xNN, so every message stays one readable line.
 */

export const SHOWN_CHARS = 60;

/** A control character (escaped as \xNN in messages). */
const CONTROL = /[\x00-\x1f\x7f]/;

/** `s` cut to SHOWN_CHARS characters (with '…') and with control characters escaped. */
export function clipped(s: string): string {
  if (s.length <= SHOWN_CHARS && !CONTROL.test(s)) return s;
  const cut = s.length > SHOWN_CHARS;
  const head = cut ? s.slice(0, SHOWN_CHARS) : s;
  let out = '';
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    out += c < 32 || c === 127 ? `\\x${c.toString(16).padStart(2, '0')}` : head[i];
  }
  return cut ? `${out}…` : out;
}

/** `s` clipped and in single quotes: `'Bip01_L_Hand'`. */
export function quoted(s: string): string {
  return `'${clipped(s)}'`;
}
