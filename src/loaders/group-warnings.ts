import type { Scene } from '../model/types.ts';

/**
 * Warnings of one kind on one line. A loader says what it found item by item (an accessor, a mesh, a clip),
 * so a file of many alike items would repeat one complaint once per item (every accessor whose key times
 * repeat). groupWarnings keeps the first warning of each kind and folds the others into it: a count and
 * the first few of their items named.
 *
 * - Item: a warning's first JSON pointer (`/accessors/12`, `/animations/0/samplers/3`) or quoted name
 *   (`'body'`, `"Walk"`), whichever comes first.
 * - Kind: the text with its item and every number outside quotes left out; warnings of one kind differ only
 *   there (another quoted name, a bone or a clip, makes another kind: it may be what a later check looks for). A
 *   warning without an item is of one kind only with the same text (repeats are counted, `(×3)`).
 * - A kind seen once is kept word for word. Groups keep the order of their first warnings.
 * Pure; the input is not changed.
 */

/** Items named after a kind's first warning before the rest are counted. */
export const ITEMS_NAMED = 4;

const ITEM = /\/[A-Za-z_]+\/\d+(?:\/[A-Za-z_]+(?:\/\d+)?)*|'[^']*'|"[^"]*"/;
const NUMBER = /\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi;
/** Quoted names, kept as they are in a kind (a capture group, so split() keeps them at the odd indices). */
const QUOTED = /('[^']*'|"[^"]*")/;

interface Group {
  readonly first: string;
  readonly items: string[];
  count: number;
}

/** `text` with every number outside quotes replaced by '#': names other than the item (a bone, a clip) stay part of the kind. */
function numbersOut(text: string): string {
  return text
    .split(QUOTED)
    .map((part, i) => (i % 2 === 0 ? part.replace(NUMBER, '#') : part))
    .join('');
}

export function groupWarnings(warnings: readonly string[]): string[] {
  const groups = new Map<string, Group>();
  for (const w of warnings) {
    const m = ITEM.exec(w);
    const kind = m ? numbersOut(`${w.slice(0, m.index)}\u0000${w.slice(m.index + m[0].length)}`) : `\u0001${w}`;
    const g = groups.get(kind);
    if (!g) groups.set(kind, { first: w, items: [], count: 1 });
    else {
      g.count++;
      if (m && g.items.length < ITEMS_NAMED) g.items.push(m[0]);
    }
  }
  const out: string[] = [];
  for (const g of groups.values()) {
    if (g.count === 1) out.push(g.first);
    else if (g.items.length === 0) out.push(`${g.first} (×${g.count})`);
    else {
      const others = g.count - 1 - g.items.length;
      out.push(`${g.first} (the same for ${g.count - 1} more: ${g.items.join(', ')}${others > 0 ? ` and ${others} others` : ''})`);
    }
  }
  return out;
}

/** The scene with its warnings grouped (the same object when nothing was folded). */
export function withGroupedWarnings(scene: Scene): Scene {
  const warnings = groupWarnings(scene.warnings);
  return warnings.length === scene.warnings.length ? scene : { ...scene, warnings };
}
