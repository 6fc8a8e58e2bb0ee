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

/** Base name of a path written by any tool: Windows or POSIX separators, D3D-style "C_/..." mangling. */
export function baseName(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return path.slice(cut + 1);
}

export function urlSource(url: string, base: string): ModelSource {
  const resolved = new URL(url, base);
  return {
    name: baseName(decodeURIComponent(resolved.pathname)) || url,
    read: (onProgress, signal) => fetchBytes(resolved.href, onProgress, signal),
    companions: async (name) => {
      // Only the base name, relative to the model's own URL: a file never reaches outside its folder.
      const file = baseName(name.trim());
      if (!file) return null;
      try {
        return await fetchBytes(new URL(encodeURIComponent(file), resolved).href, () => {}, new AbortController().signal);
      } catch {
        return null;
      }
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

async function fetchBytes(href: string, onProgress: (loaded: number, total: number) => void, signal: AbortSignal): Promise<Uint8Array> {
  const res = await fetch(href, { signal });
  if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText || (res.status === 404 ? 'Not Found' : '')}`.trim() + ` (${href})`);
  // Single-page servers answer unknown paths with their index page instead of a 404.
  if ((res.headers.get('content-type') ?? '').includes('text/html')) {
    throw new Error(`the server sent an HTML page, not a model file: is the URL right? (${href})`);
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
