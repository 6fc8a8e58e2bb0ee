import { readBinaryX } from './read-binary.ts';
import { X_HEADER_SIZE, readXHeader } from './read-header.ts';
import { inflateMszip } from './read-mszip.ts';
import { readTextX } from './read-text.ts';
import type { XFile, XFormat } from './xnode.ts';

/**
 * Bytes of a DirectX .x file to the template-agnostic XFile tree (see xnode.ts), for every encoding:
 * text ('txt '), binary ('bin '), MSZIP-compressed text ('tzip') and binary ('bzip'). Compressed files
 * are expanded first; positions then refer to the decompressed stream with the 16-byte header counted.
 *
 * Throws LoadError (message starting with `fileName`, naming the line or byte offset and what was
 * expected) for anything it cannot read; never allocates from an unchecked count; linear in the input.
 * `bytes` is only read.
 */
export function readX(bytes: Uint8Array, fileName: string): XFile {
  const warnings: string[] = [];
  const header = readXHeader(bytes, fileName, warnings);
  let format: XFormat;
  let data = bytes;
  let where = '';
  switch (header.encoding) {
    case 'txt':
      format = 'x-text';
      break;
    case 'bin':
      format = 'x-binary';
      break;
    case 'tzip':
      format = 'x-tzip';
      data = inflateMszip(bytes, fileName, warnings);
      where = ' of the decompressed text';
      break;
    case 'bzip':
      format = 'x-bzip';
      data = inflateMszip(bytes, fileName, warnings);
      where = ' of the decompressed data';
      break;
  }
  const text = header.encoding === 'txt' || header.encoding === 'tzip';
  const objects = text
    ? readTextX(data, X_HEADER_SIZE, fileName, where, warnings)
    : readBinaryX(data, X_HEADER_SIZE, header.floatBits, fileName, where, warnings);
  return { format, version: header.version, floatBits: header.floatBits, objects, warnings };
}
