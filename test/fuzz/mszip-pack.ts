import { deflateSync } from 'fflate';

/**
 * The writer side of MSZIP .x (X File Format Reference, "Compressed"): `stream` is a decompressed .x
 * (its 16-byte header, 'tzip' or 'bzip', kept as is) and comes back framed as
 *   header, uint32 total size (header included), blocks of { uint16 rawSize, uint16 packedSize, 'CK', deflate },
 * each block deflated with the previous 32 KiB of output as its dictionary. `blockSize` is clamped to
 * 1..65000 (rawSize and packedSize are 16 bits; a stored, incompressible block of 65000 bytes still fits).
 * Without `dictionaries` each block is deflated on its own (still valid: back-references are optional),
 * which is much faster for thousands of tiny blocks. Used to re-pack mutated payloads so the decompressor accepts them and
 * the mutation reaches the text or binary reader behind it.
 */
export function packMszip(stream: Uint8Array, blockSize: number, dictionaries = true): Uint8Array {
  const size = Math.max(1, Math.min(65000, Math.floor(blockSize)));
  const payload = stream.subarray(16);
  const blocks: Uint8Array[] = [];
  const raws: Uint8Array[] = [];
  let total = 20;
  for (let at = 0; at < payload.length; at += size) {
    const chunk = payload.subarray(at, Math.min(payload.length, at + size));
    const dictionary = at > 0 && dictionaries ? payload.subarray(Math.max(0, at - 32768), at) : undefined;
    let packed = deflateSync(chunk, dictionary ? { dictionary } : {});
    if (packed.length + 2 > 65535) packed = deflateSync(chunk, { level: 0 });
    raws.push(chunk);
    blocks.push(packed);
    total += 6 + packed.length;
  }
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set(stream.subarray(0, 16));
  view.setUint32(16, stream.length, true);
  let o = 20;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    view.setUint16(o, raws[i]!.length, true);
    view.setUint16(o + 2, b.length + 2, true);
    out[o + 4] = 0x43;
    out[o + 5] = 0x4b;
    out.set(b, o + 6);
    o += 6 + b.length;
  }
  return out;
}
