import { LoadError } from '../model/errors.ts';
import type { Scene } from '../model/types.ts';
import type { PrepFacts, PrepInput } from './model-prep.ts';

/**
 * The messages between the page and src/app/parse-worker.ts, and the two halves of moving a parse
 * result across: the buffers a Scene can hand over without copying, and a LoadError flattened to
 * plain fields and rebuilt. No DOM and no WebGL here, so the unit tests run it in Node.
 *
 * A Scene is plain data (objects, arrays, strings, numbers, typed arrays; no class instances, no
 * functions), so the structured clone the worker's postMessage does rebuilds it exactly.
 */

/**
 * Page → worker: parse these bytes (their buffer is transferred: the page no longer holds it). `resources`:
 * the files the model refers to (a .gltf's external buffers and images), keyed by the URI exactly as the
 * model writes it; their buffers are transferred too.
 */
export interface ParseRequest {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly resources?: ReadonlyMap<string, Uint8Array>;
  /** Prepare the Scene for these load options after the parse (model-prep.ts); the reply then carries `facts`. */
  readonly prep?: PrepInput;
}

/**
 * Page → worker: hand over the early load of `url`. Answered with `done` (with `early` figures) or `error`
 * once it has finished, or `declined` at once when the worker was not asked to load that address (the page
 * then reads the file itself and sends a ParseRequest).
 */
export interface ParseTake {
  readonly type: 'take';
  readonly url: string;
}

/** What an early load read: the model file's bytes and its external files' (bytes), and how many of those. */
export interface EarlyFigures {
  readonly bytes: number;
  readonly resources: number;
}

/** A thrown error as plain fields; `line`/`offset` are -1 where unknown (LoadError's convention). */
export interface ErrorFields {
  readonly name: string;
  readonly message: string;
  readonly line: number;
  readonly offset: number;
}

/**
 * Worker → page. `ready` is posted once when the worker's module has run (before any request). A `done` for a
 * request with `prep` carries the Scene as prepared (turned upright) and its `facts`; without `facts` (the
 * preparation failed) the Scene is as parsed and the page prepares it. Every `done` is followed by one `images`:
 * the file's own images the worker decoded meanwhile (image-predecode.ts), sent once decoded, so the Scene does
 * not wait for them.
 */
export type ParseReply =
  | { readonly type: 'ready' }
  | {
      readonly type: 'done';
      readonly scene: Scene;
      readonly parseMs: number;
      readonly early?: EarlyFigures;
      readonly facts?: PrepFacts;
    }
  | {
      readonly type: 'images';
      /** The Scene's own images decoded by the worker (image-predecode.ts), by material file name; transferred. */
      readonly bitmaps: readonly (readonly [string, ImageBitmap])[];
    }
  | { readonly type: 'error'; readonly error: ErrorFields; readonly parseMs: number }
  | { readonly type: 'declined' };

/**
 * Every distinct ArrayBuffer under `value` (typed arrays and DataViews at any depth), for
 * postMessage's transfer list: the receiver gets them without a copy and the sender's views detach.
 * Views sharing one buffer list it once (a transfer list must not repeat a buffer).
 */
export function transferables(value: unknown): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  const seen = new Set<object>();
  const walk = (v: unknown): void => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer) buffers.add(v.buffer);
      return;
    }
    if (v instanceof ArrayBuffer) {
      buffers.add(v);
      return;
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) walk(child);
  };
  walk(value);
  return [...buffers];
}

export function errorFields(e: unknown): ErrorFields {
  if (e instanceof LoadError) return { name: e.name, message: e.message, line: e.line, offset: e.offset };
  if (e instanceof Error) return { name: e.name, message: e.message, line: -1, offset: -1 };
  return { name: 'Error', message: String(e), line: -1, offset: -1 };
}

/** The error the page throws for a worker's failure: a LoadError again when it was one, so messages read as before. */
export function errorFromFields(f: ErrorFields): Error {
  if (f.name === 'LoadError') return new LoadError(f.message, f.line, f.offset);
  const e = new Error(f.message);
  e.name = f.name;
  return e;
}

/**
 * Bytes whose buffer can be transferred whole: `bytes` itself when it spans its buffer, else a copy
 * (transferring a larger buffer would hand over, and detach, memory the view does not own).
 */
export function ownedBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole = bytes.byteOffset === 0 && bytes.buffer instanceof ArrayBuffer && bytes.byteLength === bytes.buffer.byteLength;
  return whole ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}
