import { LoadError } from '../../model/errors.ts';

/**
 * The 16-byte header every .x file starts with (X File Format Reference, "Header"):
 *
 *   bytes 0-3   magic   'xof '
 *   bytes 4-7   version major and minor as four ASCII digits, e.g. '0302', '0303'
 *   bytes 8-11  format  'txt ' | 'bin ' | 'tzip' (MSZIP-compressed text) | 'bzip' (MSZIP-compressed binary)
 *   bytes 12-15 float size '0032' | '0064' (the width of floats in binary encodings)
 *
 * `readXHeader` throws LoadError for anything that is not such a header and adds a warning for an
 * unusual but well-formed version.
 */

export const X_HEADER_SIZE = 16;

export type XEncoding = 'txt' | 'bin' | 'tzip' | 'bzip';

export interface XHeader {
  readonly version: string;
  readonly encoding: XEncoding;
  readonly floatBits: 32 | 64;
}

const KNOWN_VERSIONS = new Set(['0302', '0303']);

export function readXHeader(bytes: Uint8Array, fileName: string, warnings: string[]): XHeader {
  if (bytes.length === 0) {
    throw new LoadError(`${fileName}: the file is empty (0 bytes); expected a DirectX .x file starting with 'xof '`, -1, 0);
  }
  const magic = ascii(bytes, 0, Math.min(4, bytes.length));
  if (!'xof '.startsWith(magic)) {
    throw new LoadError(`${fileName}: byte 0: not a DirectX .x file: expected 'xof ', found '${printable(magic)}'`, -1, 0);
  }
  if (bytes.length < X_HEADER_SIZE) {
    throw new LoadError(
      `${fileName}: byte ${bytes.length}: truncated header: the file has ${bytes.length} bytes, a .x header needs ${X_HEADER_SIZE}`,
      -1,
      bytes.length,
    );
  }

  const version = ascii(bytes, 4, 8);
  if (!/^[0-9]{4}$/.test(version)) {
    throw new LoadError(`${fileName}: byte 4: expected a four-digit version such as '0303' after 'xof ', found '${printable(version)}'`, -1, 4);
  }
  if (!KNOWN_VERSIONS.has(version)) {
    warnings.push(`unusual .x version '${version}' (expected 0302 or 0303); reading it as 0303`);
  }

  const format = ascii(bytes, 8, 12);
  let encoding: XEncoding;
  switch (format) {
    case 'txt ':
      encoding = 'txt';
      break;
    case 'bin ':
      encoding = 'bin';
      break;
    case 'tzip':
      encoding = 'tzip';
      break;
    case 'bzip':
      encoding = 'bzip';
      break;
    default:
      throw new LoadError(
        `${fileName}: byte 8: unknown .x format '${printable(format)}': expected 'txt ', 'bin ', 'tzip' or 'bzip'`,
        -1,
        8,
      );
  }

  const floatSize = ascii(bytes, 12, 16);
  let floatBits: 32 | 64;
  if (floatSize === '0032') floatBits = 32;
  else if (floatSize === '0064') floatBits = 64;
  else {
    throw new LoadError(`${fileName}: byte 12: unknown float size '${printable(floatSize)}': expected '0032' or '0064'`, -1, 12);
  }
  return { version, encoding, floatBits };
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

/** Control and non-ASCII characters as \xNN so a garbage header reads clearly in a message. */
function printable(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += c >= 32 && c < 127 ? s[i] : `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return out;
}
