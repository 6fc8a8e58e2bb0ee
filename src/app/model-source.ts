import type { CompanionSource } from '../gpu/textures.ts';
import { MAX_MODEL_BYTES } from '../loaders/load-model.ts';

/**
 * Where a model's bytes and its companion files (textures) come from: a URL (companions resolve
 * relative to it and never elsewhere) or a set of files the user picked or dropped (companions are
 * matched case-insensitively by base name among them).
 */
export interface ModelSource {
  /** Shown in the GUI and in errors. */
  readonly name: string;
  readonly read: (onProgress: (loaded: number, total: number) => void, signal: AbortSignal) => Promise<Uint8Array>;
  readonly companions: CompanionSource;
}

/**
 * Base name of a path written by any tool: Windows or POSIX separators (also doubled, as text escaping
 * leaves them: C:\\maps\\top.tga), a drive prefix without a separator (C:top.tga), D3D-style
 * "C_/..." mangling, ./ and .\ prefixes, surrounding quotes, blanks and NULs. '' when nothing is left.
 */
export function baseName(path: string): string {
  const p = path.replace(/^[\s"\0]+|[\s"\0]+$/g, '');
  const cut = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'), p.lastIndexOf(':'));
  return p.slice(cut + 1);
}

/**
 * The file names to try, in order, for a companion on a case-sensitive server: as written, then all
 * lower case, all upper case, and the stem as written with the extension lowered or raised
 * (ZOMBIE.JPG named as Zombie.jpg). No duplicates.
 */
export function caseVariants(file: string): string[] {
  const dot = file.lastIndexOf('.');
  const stem = dot > 0 ? file.slice(0, dot) : file;
  const ext = dot > 0 ? file.slice(dot) : '';
  return [...new Set([file, file.toLowerCase(), file.toUpperCase(), stem + ext.toLowerCase(), stem + ext.toUpperCase()])];
}

export function urlSource(url: string, base: string): ModelSource {
  const resolved = new URL(url, base);
  return {
    name: baseName(decodeURIComponent(resolved.pathname)) || url,
    read: (onProgress, signal) => fetchBytes(resolved.href, onProgress, signal),
    companions: async (name) => {
      // Only the base name, relative to the model's own URL: a file never reaches outside its folder.
      // Static servers are case-sensitive while the names in models come from case-blind Windows tools:
      // on "not found" the other spellings are tried; any other failure ends the search.
      const file = baseName(name);
      if (!file) return null;
      for (const candidate of caseVariants(file)) {
        try {
          return await fetchBytes(new URL(encodeURIComponent(candidate), resolved).href, () => {}, new AbortController().signal);
        } catch (e) {
          if (!(e instanceof NotFoundError)) return null;
        }
      }
      return null;
    },
  };
}

export function fileSource(model: File, all: readonly File[]): ModelSource {
  const byName = new Map<string, File>();
  for (const f of all) byName.set(f.name.toLowerCase(), f);
  return {
    name: model.name,
    read: async (onProgress, signal) => {
      if (model.size > MAX_MODEL_BYTES) throw new Error(`${model.name}: ${(model.size / 1048576).toFixed(0)} MiB is larger than the ${MAX_MODEL_BYTES / 1048576} MiB limit`);
      const bytes = await readWithProgress(model.stream(), model.size, onProgress, signal);
      return bytes;
    },
    companions: async (name) => {
      const f = byName.get(baseName(name.trim()).toLowerCase());
      return f ? new Uint8Array(await f.arrayBuffer()) : null;
    },
  };
}

/** The server has no file at that address (HTTP 404/410, or a single-page server's HTML fallback). */
class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

async function fetchBytes(href: string, onProgress: (loaded: number, total: number) => void, signal: AbortSignal): Promise<Uint8Array> {
  const res = await fetch(href, { signal });
  if (!res.ok) {
    const text = `HTTP ${res.status} ${res.statusText || (res.status === 404 ? 'Not Found' : '')}`.trim() + ` (${href})`;
    throw res.status === 404 || res.status === 410 ? new NotFoundError(text) : new Error(text);
  }
  // Single-page servers answer unknown paths with their index page instead of a 404.
  if ((res.headers.get('content-type') ?? '').includes('text/html')) {
    await res.body?.cancel();
    throw new NotFoundError(`the server sent an HTML page, not a model file: is the URL right? (${href})`);
  }
  const total = Number(res.headers.get('content-length') ?? 0);
  if (total > MAX_MODEL_BYTES) throw new Error(`${(total / 1048576).toFixed(0)} MiB is larger than the ${MAX_MODEL_BYTES / 1048576} MiB limit (${href})`);
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  return readWithProgress(res.body, total, onProgress, signal);
}

async function readWithProgress(
  stream: ReadableStream<Uint8Array>,
  total: number,
  onProgress: (loaded: number, total: number) => void,
  signal: AbortSignal,
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
    if (loaded > MAX_MODEL_BYTES) {
      await reader.cancel();
      throw new Error(`larger than the ${MAX_MODEL_BYTES / 1048576} MiB limit`);
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
