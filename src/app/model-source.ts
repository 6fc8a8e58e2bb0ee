import type { CompanionSource } from '../gpu/textures.ts';
import { MAX_MODEL_BYTES } from '../loaders/model-formats.ts';
import { FileSet } from './file-set.ts';
import { takeEarlyResponse } from './early-fetch.ts';
import { baseName, caseVariants, companionName, companionUrl, safeDecode } from './companion-names.ts';

/**
 * Where a model's bytes and its companion files (textures) come from: a URL (companions resolve
 * relative to it and never elsewhere) or a set of files the user picked or dropped (companions are
 * matched case-insensitively by base name among them).
 */
export interface ModelSource {
  /** Shown in the GUI and in errors. */
  readonly name: string;
  /** A URL can be put in a link to the page; a file opened from disk cannot. */
  readonly origin: 'url' | 'file';
  /** The resolved address of a source read from a URL (absent for files opened from disk). */
  readonly href?: string;
  readonly read: (onProgress: (loaded: number, total: number) => void, signal: AbortSignal) => Promise<Uint8Array>;
  readonly companions: CompanionSource;
  /**
   * A file the model needs to be read at all (a glTF's external buffers and images), by the URI as the model
   * wrote it, under the same rules as `companions` (one file name in the model's folder; among the given
   * files) but up to `limit` bytes. Null when there is no such file; throws a TooLargeError (message complete,
   * naming the file) over the limit, an AbortError when `signal` aborts.
   */
  readonly resource: (name: string, limit: number, signal: AbortSignal) => Promise<Uint8Array | null>;
  /**
   * Why companions were refused (too large), in words for the model's warnings; filled while the
   * companions are fetched. A source serves one load.
   */
  readonly notes: string[];
  /** A fresh source for the same model (a source serves one load): to load it again with other load-time options. */
  readonly again?: () => ModelSource;
}

/** Largest companion file (texture) read, bytes. Image dimensions are bounded by the decoders (DecodeLimits). */
export const MAX_COMPANION_BYTES = 64 * 1024 * 1024;

/** "300.0 MiB is larger than the 256 MiB limit for models" */
function tooLarge(bytes: number, limit: number, what: string): string {
  return `${(bytes / 1048576).toFixed(1)} MiB is larger than the ${limit / 1048576} MiB limit for ${what}`;
}

/** A file over its size limit, refused before (or while) reading it. */
export class TooLargeError extends Error {
  override readonly name = 'TooLargeError';
}

export function urlSource(url: string, base: string): ModelSource {
  const resolved = new URL(url, base);
  const notes: string[] = [];
  return {
    name: baseName(safeDecode(resolved.pathname)) || url,
    origin: 'url',
    href: resolved.href,
    read: (onProgress, signal) => fetchBytes(resolved.href, onProgress, signal, MAX_MODEL_BYTES, 'models'),
    notes,
    companions: async (name) => {
      try {
        return await companion(name, MAX_COMPANION_BYTES, 'textures', new AbortController().signal);
      } catch (e) {
        if (e instanceof TooLargeError) notes.push(`texture '${baseName(name)}': ${e.message}; not loaded`);
        return null;
      }
    },
    resource: (name, limit, signal) => companion(companionName(name), limit, 'model files', signal),
    again: () => urlSource(url, base),
  };

  /**
   * Only the base name, relative to the model's own URL: a file never reaches outside its folder. Static
   * servers are case-sensitive while the names in models come from case-blind Windows tools: on "not found"
   * the other spellings are tried; a failure other than too large or cancelled ends the search with null.
   */
  async function companion(name: string, limit: number, what: string, signal: AbortSignal): Promise<Uint8Array | null> {
    const file = baseName(name);
    if (!file) return null;
    for (const candidate of caseVariants(file)) {
      const href = companionUrl(candidate, resolved)?.href;
      if (!href) return null;
      try {
        return await fetchBytes(href, () => {}, signal, limit, what);
      } catch (e) {
        if (e instanceof TooLargeError || (e as Error).name === 'AbortError') throw e;
        if (!(e instanceof NotFoundError)) return null;
      }
    }
    return null;
  }
}

/**
 * A model among files the user gave: its companions and resources are found among them by the path the model
 * writes, relative to its own folder, then by base name (file-set.ts); never elsewhere.
 */
export function fileSource(model: File, all: readonly File[] | FileSet): ModelSource {
  const set = all instanceof FileSet ? all : FileSet.of(all);
  const self = set.entry(model);
  const notes: string[] = [];
  return {
    name: model.name,
    origin: 'file',
    read: async (onProgress, signal) => {
      // File.size is known before a byte is read: an oversized file is refused without touching it.
      if (model.size > MAX_MODEL_BYTES) throw new TooLargeError(`${model.name}: ${tooLarge(model.size, MAX_MODEL_BYTES, 'models')}`);
      return readWithProgress(model.stream(), model.size, onProgress, signal, MAX_MODEL_BYTES, 'models');
    },
    notes,
    companions: async (name) => {
      // Only among the files given.
      const f = set.find(self, name);
      if (!f) return null;
      if (f.size > MAX_COMPANION_BYTES) {
        notes.push(`texture '${f.name}': ${tooLarge(f.size, MAX_COMPANION_BYTES, 'textures')}; not loaded`);
        return null;
      }
      return new Uint8Array(await f.arrayBuffer());
    },
    resource: async (name, limit, signal) => {
      const f = set.find(self, companionName(name));
      if (!f) return null;
      if (f.size > limit) throw new TooLargeError(`${f.name}: ${tooLarge(f.size, limit, 'model files')}`);
      return readWithProgress(f.stream(), f.size, () => {}, signal, limit, 'model files');
    },
    again: () => fileSource(model, set),
  };
}

/** The server has no file at that address (HTTP 404/410, or a single-page server's HTML fallback). */
class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

/**
 * Fetches a whole file, refusing more than `limit` bytes (`what` names the kind in the message): at once
 * from Content-Length when the server sends one, else while streaming, before the excess is kept.
 */
async function fetchBytes(
  href: string,
  onProgress: (loaded: number, total: number) => void,
  signal: AbortSignal,
  limit: number,
  what: string,
): Promise<Uint8Array> {
  let res: Response;
  try {
    // The first model's request may have gone out before the page was built (early-start.ts).
    res = await (takeEarlyResponse(href) ?? fetch(href, { signal }));
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    // A network failure, or an address the page may not read (another origin without CORS, or one the
    // Content-Security-Policy's connect-src leaves out: the page's own server and HTTPS servers only).
    throw new Error(`could not fetch ${href}: the network failed, or the page may not read from that server (it reads from its own server, and from HTTPS servers that allow cross-origin reads)`);
  }
  if (!res.ok) {
    const text = `HTTP ${res.status} ${res.statusText || (res.status === 404 ? 'Not Found' : '')}`.trim() + ` (${href})`;
    throw res.status === 404 || res.status === 410 ? new NotFoundError(text) : new Error(text);
  }
  // Single-page servers answer unknown paths with their index page instead of a 404.
  if ((res.headers.get('content-type') ?? '').includes('text/html')) {
    await res.body?.cancel();
    throw new NotFoundError(`the server sent an HTML page, not a model file: is the URL right? (${href})`);
  }
  const total = Number(res.headers.get('content-length') ?? 0) || 0;
  if (total > limit) {
    await res.body?.cancel();
    throw new TooLargeError(`${tooLarge(total, limit, what)} (${href})`);
  }
  if (!res.body) {
    const whole = new Uint8Array(await res.arrayBuffer());
    if (whole.length > limit) throw new TooLargeError(`${tooLarge(whole.length, limit, what)} (${href})`);
    return whole;
  }
  return readWithProgress(res.body, total, onProgress, signal, limit, what);
}

async function readWithProgress(
  stream: ReadableStream<Uint8Array>,
  total: number,
  onProgress: (loaded: number, total: number) => void,
  signal: AbortSignal,
  limit: number,
  what: string,
): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    if (signal.aborted) {
      await reader.cancel();
      throw new DOMException('loading cancelled', 'AbortError');
    }
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    if (loaded > limit) {
      await reader.cancel();
      throw new TooLargeError(`more than ${limit / 1048576} MiB arrived: larger than the ${limit / 1048576} MiB limit for ${what}`);
    }
    onProgress(loaded, total);
  }
  const out = new Uint8Array(loaded);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
