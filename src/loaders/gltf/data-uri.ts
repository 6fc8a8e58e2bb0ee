import { LoadError } from '../../model/errors.ts';

/**
 * Decodes RFC 2397 `data:` URIs as glTF embeds buffers and images in them: `data:[<mediatype>][;base64],<data>`,
 * base64 or percent-encoded octets. The decoded size is computed from the text and refused above `maxBytes`
 * before anything is allocated. Pure: no DOM, no Node APIs (runs in the page, the worker and Node alike).
 */

const B64 = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;
B64['-'.charCodeAt(0)] = 62; // base64url, tolerated
B64['_'.charCodeAt(0)] = 63;

export function isDataUri(uri: string): boolean {
  return uri.length >= 5 && uri.slice(0, 5).toLowerCase() === 'data:';
}

/** The media type a data: URI declares ('' when none), e.g. 'application/octet-stream'. */
export function dataUriMediaType(uri: string): string {
  const comma = uri.indexOf(',');
  const head = uri.slice(5, comma < 0 ? uri.length : comma);
  return (head.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * The bytes of a data: URI. `where` prefixes every error (e.g. "Fox.gltf: /buffers/0"); a URI that is not
 * well formed, or that decodes to more than `maxBytes`, throws one LoadError.
 */
export function decodeDataUri(uri: string, maxBytes: number, where: string): Uint8Array {
  if (!isDataUri(uri)) throw new LoadError(`${where}: not a data: URI`);
  const comma = uri.indexOf(',');
  if (comma < 0) throw new LoadError(`${where}: data: URI has no ',' before its data`);
  const params = uri.slice(5, comma).toLowerCase().split(';').map((s) => s.trim());
  return params.includes('base64')
    ? decodeBase64(uri, comma + 1, maxBytes, where)
    : decodePercent(uri, comma + 1, maxBytes, where);
}

function decodeBase64(s: string, start: number, maxBytes: number, where: string): Uint8Array {
  let chars = 0;
  let pad = 0;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 61) { pad++; continue; } // '='
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (c >= 128 || B64[c]! < 0 || pad > 0) {
      throw new LoadError(`${where}: data: URI has '${s[i]}' at character ${i}, which is not base64`);
    }
    chars++;
  }
  if (pad > 2 || chars % 4 === 1) throw new LoadError(`${where}: data: URI base64 data has a bad length (${chars} characters)`);
  const size = Math.floor((chars * 3) / 4);
  if (size > maxBytes) throw new LoadError(`${where}: data: URI holds ${size} bytes, more than the ${maxBytes}-byte limit`);
  const out = new Uint8Array(size);
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 61 || c === 32 || c === 9 || c === 10 || c === 13) continue;
    acc = (acc << 6) | B64[c]!;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

function hex(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

function decodePercent(s: string, start: number, maxBytes: number, where: string): Uint8Array {
  let size = 0;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 37) {
      if (i + 2 >= s.length || hex(s.charCodeAt(i + 1)) < 0 || hex(s.charCodeAt(i + 2)) < 0) {
        throw new LoadError(`${where}: data: URI has a bad percent escape at character ${i}`);
      }
      i += 2;
    } else if (c >= 256) {
      throw new LoadError(`${where}: data: URI has a non-ASCII character at character ${i}`);
    }
    size++;
  }
  if (size > maxBytes) throw new LoadError(`${where}: data: URI holds ${size} bytes, more than the ${maxBytes}-byte limit`);
  const out = new Uint8Array(size);
  let o = 0;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 37) {
      out[o++] = (hex(s.charCodeAt(i + 1)) << 4) | hex(s.charCodeAt(i + 2));
      i += 2;
    } else out[o++] = c;
  }
  return out;
}
