import { sniffFormat } from '../sniff.ts';
import { LoadError } from '../../model/errors.ts';

/**
 * The glTF 2.0 container: recognises a .gltf (JSON text) or .glb (binary) file, splits a GLB into its JSON and
 * BIN chunks, parses the JSON with its nesting bounded, and checks `asset.version`. It trusts nothing in the
 * JSON beyond that: the structure is checked by gltf-check.ts. No DOM, no Node APIs.
 *
 * Every failure is one LoadError whose message starts with the file name and names the byte offset (GLB) or
 * the line and column (JSON text) or the JSON pointer (`/asset/version`).
 */

/** The parsed JSON, not yet trusted: any field may be missing or of any type. */
export type GltfJson = Record<string, unknown>;

export interface GltfContainer {
  readonly format: 'gltf' | 'glb';
  readonly json: GltfJson;
  /** The GLB BIN chunk (its declared length, padding included), or null: .gltf text, or a GLB without one. */
  readonly bin: Uint8Array | null;
}

/** Deepest JSON nesting accepted (arrays and objects); real files stay under 20. */
export const MAX_GLTF_JSON_DEPTH = 128;
/** Largest JSON text accepted (bytes); embedded data: URIs count. */
export const MAX_GLTF_JSON_BYTES = 256 * 1024 * 1024;

const CHUNK_JSON = 0x4e4f534a; // 'JSON'
const CHUNK_BIN = 0x004e4942; // 'BIN\0'

function isGlbMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
}

function firstNonSpace(bytes: Uint8Array): number {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return i;
}

/** True for the GLB magic, a .gltf/.glb name, or JSON text whose first MiB has an "asset" key. */
export function looksLikeGltf(fileName: string, bytes: Uint8Array): boolean {
  if (isGlbMagic(bytes)) return true;
  // Content first: a .x or .m3d renamed .glb / .gltf is that format.
  const other = sniffFormat(bytes);
  if (other === 'x' || other === 'm3d') return false;
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.gltf') || lower.endsWith('.glb')) return true;
  const i = firstNonSpace(bytes);
  if (bytes[i] !== 0x7b) return false; // '{'
  const head = bytes.subarray(i, Math.min(bytes.length, i + (1 << 20)));
  let text = '';
  for (let k = 0; k < head.length; k += 8192) text += String.fromCharCode(...head.subarray(k, k + 8192));
  return text.includes('"asset"');
}

/**
 * Containers read by peekGltfContainer, by the bytes they were read from, until the reader's own
 * readGltfContainer of the same bytes and name takes theirs.
 */
const peeked = new WeakMap<Uint8Array, { readonly fileName: string; readonly container: GltfContainer }>();

/**
 * readGltfContainer for a caller that only looks at the JSON before the file is read (the files it names, the
 * extensions it uses): the container is kept for the next readGltfContainer of the same bytes under the same
 * name, which takes it, so one load parses its JSON once. The caller must not change it. Throws as
 * readGltfContainer does (nothing is kept then).
 */
export function peekGltfContainer(fileName: string, bytes: Uint8Array): GltfContainer {
  const kept = peeked.get(bytes);
  if (kept && kept.fileName === fileName) return kept.container;
  const container = read(fileName, bytes);
  peeked.set(bytes, { fileName, container });
  return container;
}

export function readGltfContainer(fileName: string, bytes: Uint8Array): GltfContainer {
  const kept = peeked.get(bytes);
  if (kept) {
    peeked.delete(bytes);
    if (kept.fileName === fileName) return kept.container;
  }
  return read(fileName, bytes);
}

function read(fileName: string, bytes: Uint8Array): GltfContainer {
  if (isGlbMagic(bytes)) return readGlb(fileName, bytes);
  if (fileName.toLowerCase().endsWith('.glb')) {
    const m = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
    throw new LoadError(`${fileName}: byte offset 0: not a GLB file: it starts with bytes ${m || '(none)'} instead of the magic 'glTF'`, -1, 0);
  }
  const i = firstNonSpace(bytes);
  if (bytes[i] !== 0x7b) {
    throw new LoadError(`${fileName}: not a glTF file: it neither starts with the GLB magic 'glTF' nor is a JSON object`, -1, i);
  }
  return { format: 'gltf', json: parseGltfJson(fileName, bytes, 0), bin: null };
}

function u32(bytes: Uint8Array, o: number): number {
  return (bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16) | (bytes[o + 3]! << 24)) >>> 0;
}

function chunkName(type: number): string {
  let s = '';
  for (let k = 0; k < 4; k++) {
    const c = (type >>> (8 * k)) & 0xff;
    s += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : c === 0 ? '' : '?';
  }
  return `'${s}' (0x${type.toString(16).padStart(8, '0')})`;
}

function readGlb(fileName: string, bytes: Uint8Array): GltfContainer {
  const fail = (offset: number, what: string): never => {
    throw new LoadError(`${fileName}: byte offset ${offset}: ${what}`, -1, offset);
  };
  if (bytes.length < 12) fail(bytes.length, `the GLB header needs 12 bytes; the file has only ${bytes.length}`);
  const version = u32(bytes, 4);
  if (version !== 2) fail(4, `GLB version ${version} is not supported; skinlab reads GLB version 2 (glTF 2.0)`);
  const length = u32(bytes, 8);
  if (length > bytes.length) fail(bytes.length, `the file is truncated: its GLB header says ${length} bytes, the file has ${bytes.length}`);
  if (length !== bytes.length) fail(8, `the GLB header says ${length} bytes but the file has ${bytes.length}`);
  let json: GltfJson | null = null;
  let bin: Uint8Array | null = null;
  let off = 12;
  let index = 0;
  while (off < length) {
    if (off + 8 > length) fail(off, `chunk ${index}'s 8-byte header runs past the end of the file (${length} bytes)`);
    const chunkLength = u32(bytes, off);
    const type = u32(bytes, off + 4);
    if (chunkLength > length - off - 8) {
      fail(off, `chunk ${index} ${chunkName(type)} of ${chunkLength} bytes runs past the end of the file (${length - off - 8} bytes left)`);
    }
    if (chunkLength % 4 !== 0) fail(off, `chunk ${index} ${chunkName(type)} is ${chunkLength} bytes long, not a multiple of 4`);
    const data = bytes.subarray(off + 8, off + 8 + chunkLength);
    if (index === 0) {
      if (type !== CHUNK_JSON) fail(off + 4, `the first chunk is ${chunkName(type)}, not the JSON chunk`);
      json = parseGltfJson(fileName, data, off + 8);
    } else if (type === CHUNK_JSON) {
      fail(off + 4, `a second JSON chunk (chunk ${index})`);
    } else if (type === CHUNK_BIN) {
      if (bin) fail(off + 4, `a second BIN chunk (chunk ${index})`);
      bin = data;
    } // other chunk types are skipped, as the GLB spec asks
    off += 8 + chunkLength;
    index++;
  }
  if (!json) fail(12, 'the GLB has no JSON chunk');
  return { format: 'glb', json: json!, bin };
}

/** Nesting depth of JSON bytes (strings skipped); stops counting past MAX_GLTF_JSON_DEPTH and says where. */
function checkDepth(fileName: string, bytes: Uint8Array, base: number): void {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x22) {
      // Skip the string: the next quote not escaped (an even run of backslashes before it), by native search.
      let j = bytes.indexOf(0x22, i + 1);
      for (;;) {
        if (j < 0) {
          j = bytes.length;
          break;
        }
        let slashes = 0;
        while (bytes[j - 1 - slashes] === 0x5c && j - 1 - slashes > i) slashes++;
        if ((slashes & 1) === 0) break;
        j = bytes.indexOf(0x22, j + 1);
      }
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_GLTF_JSON_DEPTH) {
        throw new LoadError(`${fileName}: byte offset ${base + i}: the JSON nests deeper than ${MAX_GLTF_JSON_DEPTH} levels`, -1, base + i);
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

/** One strict decoder for every file (each decode() call is complete and independent). */
let utf8: TextDecoder | null = null;

/** Parses JSON bytes (the whole .gltf, or a GLB's JSON chunk starting at file offset `base`). */
function parseGltfJson(fileName: string, bytes: Uint8Array, base: number): GltfJson {
  if (bytes.length > MAX_GLTF_JSON_BYTES) {
    throw new LoadError(`${fileName}: the glTF JSON is ${bytes.length} bytes, more than the ${MAX_GLTF_JSON_BYTES}-byte limit`);
  }
  let end = bytes.length;
  while (end > 0 && (bytes[end - 1] === 0 || bytes[end - 1] === 0x20)) end--; // chunk padding
  const body = bytes.subarray(0, end);
  checkDepth(fileName, body, base);
  let text: string;
  try {
    text = (utf8 ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })).decode(body);
  } catch {
    throw new LoadError(`${fileName}: the glTF JSON is not valid UTF-8`, -1, base);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw jsonError(fileName, text, base, e instanceof Error ? e.message : String(e));
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new LoadError(`${fileName}: the glTF JSON is not an object`, 1, base);
  }
  const json = parsed as GltfJson;
  checkAsset(fileName, json);
  return json;
}

function jsonError(fileName: string, text: string, base: number, message: string): LoadError {
  const [pos, what] = locateJsonError(text) ?? [text.length, message];
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < pos; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  const where = `${base > 0 ? 'JSON chunk ' : ''}line ${line}, column ${pos - lineStart + 1}`;
  return new LoadError(`${fileName}: ${where}: invalid JSON: ${what}`, line, base > 0 ? base : -1);
}

/**
 * Where JSON text first breaks the grammar (RFC 8259), and how: [character index, description], or null
 * when it is valid. Run only after JSON.parse failed, because engines word (and place) their errors
 * differently. Nesting is already bounded, so the recursion is too.
 */
function locateJsonError(s: string): [number, string] | null {
  let i = 0;
  const ws = () => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++;
  };
  const found = () => (i < s.length ? `unexpected '${s[i]}'` : 'unexpected end of the text');
  const value = (): [number, string] | null => {
    ws();
    const c = s[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (s[i] === close) {
        i++;
        return null;
      }
      for (;;) {
        if (c === '{') {
          ws();
          if (s[i] !== '"') return [i, `${found()} where a property name in double quotes belongs`];
          const e = value();
          if (e) return e;
          ws();
          if (s[i] !== ':') return [i, `${found()} where ':' belongs`];
          i++;
        }
        const e = value();
        if (e) return e;
        ws();
        if (s[i] === ',') {
          i++;
          continue;
        }
        if (s[i] === close) {
          i++;
          return null;
        }
        return [i, `${found()} where ',' or '${close}' belongs`];
      }
    }
    if (c === '"') {
      for (i++; i < s.length; i++) {
        const d = s.charCodeAt(i);
        if (d === 34) {
          i++;
          return null;
        }
        if (d < 0x20) return [i, 'a control character inside a string'];
        if (d === 92) {
          const e = s[i + 1] ?? '';
          if (e === 'u') {
            if (!/^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) return [i, 'a bad \\u escape'];
            i += 5;
          } else if ('"\\/bfnrt'.includes(e) && e !== '') i++;
          else return [i, `a bad escape '\\${e}'`];
        }
      }
      return [i, 'a string that never ends'];
    }
    for (const word of ['true', 'false', 'null']) {
      if (s.startsWith(word, i)) {
        i += word.length;
        return null;
      }
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(s.slice(i, i + 400));
    if (m && m[0] !== '' && m[0] !== '-') {
      i += m[0].length;
      return null;
    }
    return [i, `${found()} where a value belongs`];
  };
  const e = value();
  if (e) return e;
  ws();
  return i < s.length ? [i, `${found()} after the end of the JSON value`] : null;
}

function checkAsset(fileName: string, json: GltfJson): void {
  const asset = json['asset'];
  if (typeof asset !== 'object' || asset === null || Array.isArray(asset)) {
    throw new LoadError(`${fileName}: /asset: missing; every glTF file names its version in asset.version`);
  }
  const a = asset as Record<string, unknown>;
  const version = a['version'];
  if (typeof version !== 'string') throw new LoadError(`${fileName}: /asset/version: missing or not a string; glTF 2.0 files say "2.0"`);
  const m = /^(\d+)\.(\d+)$/.exec(version);
  if (!m) throw new LoadError(`${fileName}: /asset/version: '${version.slice(0, 40)}' is not a version of the form major.minor`);
  if (m[1] !== '2') throw new LoadError(`${fileName}: /asset/version: glTF ${version} is not supported; skinlab reads glTF 2.x`);
  const minVersion = a['minVersion'];
  if (minVersion !== undefined) {
    const n = typeof minVersion === 'string' ? /^(\d+)\.(\d+)$/.exec(minVersion) : null;
    if (!n) throw new LoadError(`${fileName}: /asset/minVersion: '${String(minVersion).slice(0, 40)}' is not a version of the form major.minor`);
    if (n[1] !== '2' || Number(n[2]) > 0) {
      throw new LoadError(`${fileName}: /asset/minVersion: the file needs a glTF ${minVersion} reader; skinlab reads glTF 2.0`);
    }
  }
}
