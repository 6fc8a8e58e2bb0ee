/**
 * The start of a glTF stream, read as it arrives (early-gltf.ts, in the parse worker's entry): the JSON — a .glb's
 * JSON chunk (its length from the header), or the first HEAD_LIMIT bytes of anything else (a .gltf is JSON
 * throughout) — and, for a .glb on request, its binary chunk, read on from there. Imports nothing: the worker's entry
 * chunk carries it, so it reads the header itself rather than through the loader's gltf-container.ts, and it
 * reports nothing (a damaged head only means no head start: the parse says what is wrong).
 */

/** The most bytes read for the JSON: a .gltf's text, or a .glb's JSON chunk. */
const HEAD_LIMIT = 8 << 20;

/** The longest .glb whose binary chunk is read on for (bin()): its images are decoded from it. */
export const GLB_BIN_LIMIT = 64 << 20;

/** A .glb's 12-byte header and its first chunk's 8-byte header, then the JSON. */
const GLB_JSON_START = 20;

/** 'BIN\0', a .glb chunk's type. */
const CHUNK_BIN = 0x004e4942;

export interface GltfHead {
  /** The JSON's bytes (whole only when the stream held them all). */
  readonly json: Uint8Array;
  /**
   * A .glb's binary chunk's data, the stream read on to the file's end (null when it is no .glb, is longer than
   * GLB_BIN_LIMIT, or ends early or has no such chunk); the stream is done with either way. Never rejects.
   */
  readonly bin: (() => Promise<Uint8Array | null>) | null;
  /** Lets the rest of the stream go unread (nothing once bin() was called). */
  readonly cancel: () => void;
}

/** Reads `stream` up to the end of its JSON; rejects when the stream fails before. */
export async function readGltfHead(stream: ReadableStream<Uint8Array>): Promise<GltfHead> {
  const reader = stream.getReader();
  const cancel = (): void => void reader.cancel().catch(() => {});
  const parts: Uint8Array[] = [];
  let have = 0;
  let end: number | null = null;
  let glbLength = 0;
  try {
    while (have < (end ?? HEAD_LIMIT)) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(value);
      have += value.length;
      if (end === null && have >= GLB_JSON_START) {
        const header = new DataView(join(parts, GLB_JSON_START).buffer);
        const glb = header.getUint32(0, true) === 0x46546c67; // 'glTF'
        if (glb) glbLength = header.getUint32(8, true);
        end = glb ? Math.min(HEAD_LIMIT, GLB_JSON_START + header.getUint32(12, true)) : HEAD_LIMIT;
      }
    }
  } catch (e) {
    cancel();
    throw e;
  }
  const head = join(parts, Math.min(have, end ?? HEAD_LIMIT));
  if (glbLength === 0) {
    cancel();
    return { json: head, bin: null, cancel: () => {} };
  }
  const jsonEnd = end!;
  const bin = async (): Promise<Uint8Array | null> => {
    if (glbLength > GLB_BIN_LIMIT || jsonEnd + 8 > glbLength) {
      cancel();
      return null;
    }
    try {
      while (have < glbLength) {
        const { value, done } = await reader.read();
        if (done) break;
        parts.push(value);
        have += value.length;
      }
    } catch {
      return null;
    } finally {
      cancel();
    }
    if (have < glbLength) return null;
    const file = join(parts, glbLength);
    const chunk = new DataView(file.buffer, jsonEnd, 8);
    const length = chunk.getUint32(0, true);
    if (chunk.getUint32(4, true) !== CHUNK_BIN || jsonEnd + 8 + length > glbLength) return null;
    return file.subarray(jsonEnd + 8, jsonEnd + 8 + length);
  };
  return { json: head.subarray(GLB_JSON_START), bin, cancel };
}

/** The first `length` bytes of `parts`, in one array. */
function join(parts: readonly Uint8Array[], length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    if (at >= length) break;
    const n = Math.min(p.length, length - at);
    out.set(p.subarray(0, n), at);
    at += n;
  }
  return out;
}
