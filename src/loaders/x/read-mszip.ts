import { inflateSync } from 'fflate';
import { LoadError } from '../../model/errors.ts';
import { X_HEADER_SIZE } from './read-header.ts';

/**
 * MSZIP-compressed .x ('tzip' and 'bzip', X File Format Reference "Compressed"), expanded to the stream
 * a plain file would hold: the original 16-byte header followed by the decompressed text or binary, so
 * offsets in the result match a decompressed copy of the file.
 *
 * Layout after the header:
 *   uint32  total size of the decompressed file, header included
 *   blocks until that size is reached, each:
 *     uint16  size of this block once decompressed
 *     uint16  size of what follows, 'CK' included
 *     'CK'    signature
 *     ...     one raw deflate stream whose back-references may reach into the previous 32 KiB of output
 *             (the window carries over from block to block: passed to fflate as its dictionary)
 *
 * Nothing is allocated from the declared total: it is checked against a cap and against what the blocks
 * present could expand to, each block's output is bounded by its 16-bit size, and the result is assembled
 * from what the blocks actually produced. Every block must expand to exactly its declared size.
 */

/** Largest decompressed .x accepted (the biggest real files are a few tens of MiB). */
export const MAX_X_DECOMPRESSED = 512 * 1024 * 1024;

const WINDOW = 32 * 1024;
const BLOCK_HEADER = 4;

export function inflateMszip(bytes: Uint8Array, fileName: string, warnings: string[]): Uint8Array {
  const fail = (message: string, offset: number): never => {
    throw new LoadError(`${fileName}: byte ${offset}: ${message}`, -1, offset);
  };
  if (bytes.length < X_HEADER_SIZE + 4) {
    fail(`truncated compressed file: expected the decompressed size (4 bytes) after the header, only ${bytes.length - X_HEADER_SIZE} left`, bytes.length);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const declared = view.getUint32(X_HEADER_SIZE, true);
  if (declared < X_HEADER_SIZE) {
    fail(`the compressed file declares a decompressed size of ${declared} bytes, less than its own ${X_HEADER_SIZE}-byte header`, X_HEADER_SIZE);
  }
  if (declared > MAX_X_DECOMPRESSED) {
    fail(`the compressed file declares a decompressed size of ${declared} bytes, more than the ${MAX_X_DECOMPRESSED >> 20} MiB this reader accepts`, X_HEADER_SIZE);
  }
  const wanted = declared - X_HEADER_SIZE;
  // Each block takes at least its 4-byte header, 'CK' and one byte of deflate, and yields at most 65535 bytes.
  const maxBlocks = Math.floor((bytes.length - X_HEADER_SIZE - 4) / (BLOCK_HEADER + 3));
  if (wanted > maxBlocks * 0xffff) {
    fail(
      `the compressed file declares ${declared} decompressed bytes, more than its ${bytes.length - X_HEADER_SIZE - 4} bytes of blocks can hold (corrupt or truncated)`,
      X_HEADER_SIZE,
    );
  }

  const blocks: Uint8Array[] = [];
  let produced = 0;
  let pos = X_HEADER_SIZE + 4;
  let index = 0;
  while (produced < wanted) {
    const at = pos;
    const where = `compressed block ${index} (at byte ${at})`;
    if (bytes.length - pos < BLOCK_HEADER + 2) {
      fail(`truncated compressed file: ${where} is missing; the blocks so far hold ${produced} of the ${wanted} bytes the header declares`, at);
    }
    const rawSize = view.getUint16(pos, true);
    const packedSize = view.getUint16(pos + 2, true);
    pos += BLOCK_HEADER;
    if (packedSize < 2 || packedSize > bytes.length - pos) {
      fail(`${where} declares ${packedSize} compressed bytes but ${bytes.length - pos} are left (corrupt or truncated)`, at);
    }
    if (bytes[pos] !== 0x43 || bytes[pos + 1] !== 0x4b) {
      fail(`${where} lacks its 'CK' signature: the compressed data is corrupt`, pos);
    }
    if (rawSize > wanted - produced) {
      fail(`${where} expands to ${rawSize} bytes, past the ${wanted} bytes the header declares`, at);
    }
    const out = new Uint8Array(rawSize + 1);
    let block: Uint8Array;
    try {
      block = inflateSync(bytes.subarray(pos + 2, pos + packedSize), { out, dictionary: windowBefore(blocks) });
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      return fail(`${where} is corrupt: its deflate data cannot be expanded (${reason})`, at);
    }
    if (block.length !== rawSize) {
      const got = block.length > rawSize ? `more than ${rawSize}` : `${block.length}`;
      fail(`${where} is corrupt: it expands to ${got} bytes, its header says ${rawSize}`, at);
    }
    blocks.push(block);
    produced += rawSize;
    pos += packedSize;
    index++;
  }
  if (pos < bytes.length) {
    warnings.push(`ignored ${bytes.length - pos} bytes after the last compressed block (byte ${pos})`);
  }

  const result = new Uint8Array(X_HEADER_SIZE + produced);
  result.set(bytes.subarray(0, X_HEADER_SIZE));
  let o = X_HEADER_SIZE;
  for (const b of blocks) {
    result.set(b, o);
    o += b.length;
  }
  return result;
}

/** The last 32 KiB of output before the next block (usually exactly the previous block). */
function windowBefore(blocks: readonly Uint8Array[]): Uint8Array | undefined {
  const n = blocks.length;
  if (n === 0) return undefined;
  const last = blocks[n - 1]!;
  if (last.length >= WINDOW || n === 1) return last.length > WINDOW ? last.subarray(last.length - WINDOW) : last;
  let size = 0;
  let first = n;
  while (first > 0 && size < WINDOW) size += blocks[--first]!.length;
  const take = Math.min(size, WINDOW);
  const window = new Uint8Array(take);
  let o = take;
  for (let i = n - 1; i >= first && o > 0; i--) {
    const b = blocks[i]!;
    const k = Math.min(b.length, o);
    window.set(b.subarray(b.length - k), o - k);
    o -= k;
  }
  return window;
}
