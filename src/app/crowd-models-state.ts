import { MAX_CROWD_MODELS } from '../render/crowd-mix.ts';
import { BUILTIN_MODELS, findBuiltin } from './builtins.ts';

/**
 * The `crowdModels` key (mixed crowds, docs/crowds.md), pure: its parsing and what each entry names. No I/O:
 * crowd-models.ts loads what these resolve to.
 */

/** Aliases of built-in ids in `crowdModels` (`default` there means the loaded model, so the Walker needs a name). */
const ALIASES: Readonly<Record<string, string>> = { walker: 'default' };

/**
 * Parses `id,id,…` (`crowdModels`; '' = none): entries trimmed, empty ones and repeats dropped, at most
 * MAX_CROWD_MODELS; a URL may not hold a comma. Returns the list, or why it is malformed.
 */
export function parseCrowdModels(value: string): string[] | string {
  const list: string[] = [];
  for (const part of value.split(',')) {
    const id = part.trim();
    if (id !== '' && !list.includes(id)) list.push(id);
  }
  if (list.length > MAX_CROWD_MODELS) return `expected at most ${MAX_CROWD_MODELS} models (built-in ids, default or URLs, comma-separated)`;
  return list;
}

/** What one `crowdModels` entry names: the loaded model, a URL to load (a built-in's or the entry itself), or nothing usable. */
export type CrowdModelTarget =
  | { kind: 'loaded' }
  | { kind: 'load'; id: string; url: string; builtin: boolean }
  | { kind: 'bad'; why: string };

/**
 * Resolves entry `entry` when the loaded model's `model` value is `loadedId`: `default` (and the loaded model's
 * own id) is the loaded model; a built-in id (or `walker`) its URL, at its default detail; anything holding a
 * '/' or a '.' a URL as the `model` key takes it; anything else is not a model.
 */
export function resolveCrowdModel(entry: string, loadedId: string): CrowdModelTarget {
  if (entry === 'default' || entry === loadedId) return { kind: 'loaded' };
  const id = ALIASES[entry] ?? entry;
  if (id === loadedId) return { kind: 'loaded' };
  const builtin = findBuiltin(id);
  if (builtin) return { kind: 'load', id, url: builtin.url, builtin: true };
  if (/[/.]/.test(entry)) return { kind: 'load', id: entry, url: entry, builtin: false };
  return { kind: 'bad', why: `not a built-in model (${[...BUILTIN_MODELS.filter((b) => b.id !== 'default').map((b) => b.id), 'walker', 'default'].join(', ')}) nor a URL` };
}
