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
 * Nothing is allocated from the declared total alone: it is checked against a cap and against what the
 * blocks present could expand to, and the output buffer starts at a multiple of the compressed size and
 * doubles as blocks actually fill it. Each block inflates straight into that buffer, its dictionary a view of
 * the 32 KiB before it, so the cost is linear however small the blocks are (a file of 100,000 one-byte
 * blocks used to rebuild a 32 KiB window from 32,768 pieces per block). Every block must expand to exactly
 * its declared size.
 */

/** Largest decompressed .x accepted (the biggest real files are a few tens of MiB). */
export const MAX_X_DECOMPRESSED = 512 * 1024 * 1024;

const WINDOW = 32 * 1024;
const BLOCK_HEADER = 4;
/** First guess of the expansion ratio (the corpus files expand 2.4× to 4×); the buffer grows past it as needed. */
const FIRST_RATIO = 16;

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

  // One byte beyond each block's declared size lets an overlong block show itself (fflate stops at the buffer's end).
  const limit = X_HEADER_SIZE + wanted + 1;
  let result: Uint8Array = new Uint8Array(Math.min(limit, X_HEADER_SIZE + FIRST_RATIO * bytes.length + 65536));
  result.set(bytes.subarray(0, X_HEADER_SIZE));
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
    const o = X_HEADER_SIZE + produced;
    if (o + rawSize + 1 > result.length) result = grown(result, o, Math.min(limit, Math.max(2 * result.length, o + rawSize + 1)));
    const dictionary = produced > 0 ? result.subarray(Math.max(X_HEADER_SIZE, o - WINDOW), o) : undefined;
    let block: Uint8Array;
    try {
      block = inflateSync(bytes.subarray(pos + 2, pos + packedSize), { out: result.subarray(o, o + rawSize + 1), dictionary });
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      return fail(`${where} is corrupt: its deflate data cannot be expanded (${reason})`, at);
    }
    if (block.length !== rawSize) {
      const got = block.length > rawSize ? `more than ${rawSize}` : `${block.length}`;
      fail(`${where} is corrupt: it expands to ${got} bytes, its header says ${rawSize}`, at);
    }
    produced += rawSize;
    pos += packedSize;
    index++;
  }
  if (pos < bytes.length) {
    warnings.push(`ignored ${bytes.length - pos} bytes after the last compressed block (byte ${pos})`);
  }

  const size = X_HEADER_SIZE + produced;
  // Trimmed by a copy only when the doubling left much more than the one spare byte.
  return result.length - size > size >> 3 ? result.slice(0, size) : result.subarray(0, size);
}

/** `buffer` moved into a new buffer of `size` bytes, its first `used` bytes kept. */
function grown(buffer: Uint8Array, used: number, size: number): Uint8Array {
  const next = new Uint8Array(size);
  next.set(buffer.subarray(0, used));
  return next;
}
