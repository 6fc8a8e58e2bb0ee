import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readX } from '../../src/loaders/x/read-x.ts';
import type { XObject } from '../../src/loaders/x/xnode.ts';
import { LoadError } from '../../src/model/errors.ts';
import { corpusBytes, describeCorpus } from '../corpus.ts';
import { threadCpuMs } from '../thread-cpu.ts';

/** Damaged and hostile .x input: each case must end quickly in one LoadError that says where and what. */

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function loadError(bytes: Uint8Array, fileName: string, pattern: RegExp): LoadError {
  const t0 = threadCpuMs();
  let error: unknown;
  try {
    readX(bytes, fileName);
  } catch (e) {
    error = e;
  }
  expect(threadCpuMs() - t0, 'CPU time to fail (ms)').toBeLessThan(1000);
  expect(error).toBeInstanceOf(LoadError);
  expect((error as LoadError).message).toMatch(pattern);
  return error as LoadError;
}

/** Little-endian binary .x tokens. */
class Tokens {
  private readonly out: number[] = [];
  constructor(header = 'xof 0303bin 0032') {
    this.raw(enc(header));
  }
  raw(b: Iterable<number>): this {
    for (const v of b) this.out.push(v);
    return this;
  }
  u16(v: number): this {
    return this.raw([v & 0xff, (v >>> 8) & 0xff]);
  }
  u32(v: number): this {
    return this.raw([v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff]);
  }
  name(s: string): this {
    return this.u16(1).u32(s.length).raw(enc(s));
  }
  string(s: string, terminator = 20): this {
    return this.u16(2).u32(s.length).raw(enc(s)).u16(terminator);
  }
  ints(...v: number[]): this {
    this.u16(6).u32(v.length);
    for (const x of v) this.u32(x);
    return this;
  }
  floats(...v: number[]): this {
    this.u16(7).u32(v.length);
    const f = new Float32Array(v);
    return this.raw(new Uint8Array(f.buffer));
  }
  open(): this {
    return this.u16(10);
  }
  close(): this {
    return this.u16(11);
  }
  bytes(): Uint8Array {
    return new Uint8Array(this.out);
  }
}

/** MSZIP framing of `payload` after `header`, in blocks of `blockSize`, each deflated against the last 32 KiB. */
function mszip(header: string, payload: Uint8Array, blockSize = 32768, declared = 16 + payload.length): Uint8Array {
  const parts: number[] = [...enc(header)];
  const push32 = (v: number): void => void parts.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  push32(declared);
  for (let at = 0; at < payload.length; at += blockSize) {
    const chunk = payload.subarray(at, Math.min(payload.length, at + blockSize));
    const dictionary = at === 0 ? undefined : payload.subarray(Math.max(0, at - 32768), at);
    const packed = deflateSync(chunk, dictionary ? { dictionary } : {});
    parts.push(chunk.length & 0xff, chunk.length >>> 8, (packed.length + 2) & 0xff, (packed.length + 2) >>> 8, 0x43, 0x4b, ...packed);
  }
  return new Uint8Array(parts);
}

describe('readX header errors', () => {
  it('refuses an empty file, a foreign file and a truncated header', () => {
    loadError(new Uint8Array(0), 'e.x', /^e\.x: the file is empty \(0 bytes\)/);
    loadError(enc('PK\x03\x04 not a model'), 'zip.x', /^zip\.x: byte 0: not a DirectX \.x file: expected 'xof ', found 'PK\\x03\\x04'/);
    loadError(enc('xof 0303t'), 'short.x', /^short\.x: byte 9: truncated header: the file has 9 bytes, a \.x header needs 16/);
  });

  it('names an unknown format or float size', () => {
    loadError(enc('xof 0303com 0032'), 'f.x', /^f\.x: byte 8: unknown \.x format 'com ': expected 'txt ', 'bin ', 'tzip' or 'bzip'/);
    loadError(enc('xof 0303txt 0016\n'), 'f.x', /^f\.x: byte 12: unknown float size '0016'/);
    loadError(enc('xof 03a3txt 0032\n'), 'f.x', /^f\.x: byte 4: expected a four-digit version/);
  });
});

describe('readX hostile text', () => {
  it('reports a file cut in the middle of an object with the open object and its line', () => {
    const e = loadError(
      enc('xof 0303txt 0032\nFrame Root {\n FrameTransformMatrix {\n  1.0, 0.0,'),
      'cut.x',
      /^cut\.x: line 4: unexpected end of file: data object 'FrameTransformMatrix' opened at line 3 is missing its '\}' \(is the file truncated\?\)/,
    );
    expect(e.line).toBe(4);
  });

  it('reports an unbalanced closing brace at its line', () => {
    const e = loadError(enc('xof 0303txt 0032\nHeader { 1; 0; 1; }\n}\n'), 'u.x', /^u\.x: line 3: unbalanced '\}': no data object is open here/);
    expect(e.line).toBe(3);
    expect(e.offset).toBe(37);
  });

  it('reports an unterminated string at the line where it starts', () => {
    loadError(
      enc('xof 0303txt 0032\nMaterial m {\n TextureFilename { "skin.dds; }\n}\n'),
      's.x',
      /^s\.x: line 3: unterminated string starting at line 3: no closing '"' before the end of the file/,
    );
  });

  it('reports a bad token, a bad reference and an unterminated GUID', () => {
    loadError(enc('xof 0303txt 0032\n1.0;\n'), 'b.x', /^b\.x: line 2: expected a template declaration or a data object .*found the number 1\.0/);
    loadError(enc('xof 0303txt 0032\nA {\n { 12 13 }\n}'), 'r.x', /^r\.x: line 3: expected '\}' to close the reference to '12' opened at line 3, found the number 13/);
    loadError(enc('xof 0303txt 0032\nA {\n { ; }\n}'), 'r.x', /^r\.x: line 3: expected an object name or a GUID in the reference opened by '\{' at line 3, found ';'/);
    loadError(enc('xof 0303txt 0032\nA { <1234-5678\n }'), 'g.x', /^g\.x: line 2: unterminated GUID '<1234-5678': expected '>'/);
    loadError(enc('xof 0303txt 0032\ntemplate T {\n <1234>\n DWORD x;\n'), 't.x', /^t\.x: line 5: unexpected end of file: template declaration 'T' opened at line 2 is missing its '\}'/);
  });

  it('refuses 10,000 nested objects at the 257th level, quickly', () => {
    loadError(enc(`xof 0303txt 0032\n${'Frame {\n'.repeat(10000)}`), 'deep.x', /^deep\.x: line 258: data objects are nested more than 256 levels deep at 'Frame'/);
    loadError(enc(`xof 0303txt 0032\nA ${'{'.repeat(10000)}`), 'braces.x', /^braces\.x: line 2: expected an object name or a GUID in the reference .* found '\{'/);
  });
});

describe('readX hostile binary', () => {
  it('refuses a list count larger than the bytes left before allocating', () => {
    const ints = new Tokens().name('Mesh').open().u16(6).u32(0x7fffffff).u32(1).u32(2).bytes();
    loadError(ints, 'ints.x', /^ints\.x: byte 28: integer list of 2147483647 items of 4 bytes is larger than the 8 bytes left in the file/);
    const floats = new Tokens('xof 0303bin 0064').name('Mesh').open().u16(7).u32(0x7fffffff).u32(1).bytes();
    loadError(floats, 'floats.x', /^floats\.x: byte 28: float list of 2147483647 items of 8 bytes is larger than the 4 bytes left/);
    const name = new Tokens().u16(1).u32(0xffffffff).raw(enc('Mesh')).bytes();
    loadError(name, 'name.x', /^name\.x: byte 16: name of 4294967295 bytes is larger than the 4 bytes left/);
    const str = new Tokens().name('T').open().u16(2).u32(0x7fffffff).raw(enc('abc')).bytes();
    loadError(str, 'str.x', /^str\.x: byte 25: string of 2147483647 bytes is larger than the 3 bytes left/);
  });

  it('reports a truncated record and a missing brace at byte offsets', () => {
    const cutList = new Tokens().name('Mesh').open().u16(7).u32(16).raw(new Uint8Array(8)).bytes();
    loadError(cutList, 'cut.x', /^cut\.x: byte 28: float list of 16 items of 4 bytes is larger than the 8 bytes left/);
    const cutInt = new Tokens().name('A').open().u16(3).raw([1, 2]).bytes();
    loadError(cutInt, 'cut.x', /^cut\.x: byte 27: truncated file: expected an integer \(4 bytes\), only 2 bytes left/);
    const open = new Tokens().name('Frame').name('Root').open().ints(1, 2).bytes();
    loadError(open, 'open.x', /^open\.x: byte 53: unexpected end of file: data object 'Frame Root' opened at byte 16 is missing its '\}'/);
    loadError(new Tokens().name('A').open().close().close().bytes(), 'u.x', /^u\.x: byte 27: unbalanced '\}'/);
    loadError(new Tokens().name('A').open().u16(0x1234).bytes(), 'k.x', /^k\.x: byte 25: unexpected unknown token 4660 \(0x1234\).* inside data object 'A'/);
  });

  it('refuses 10,000 nested objects, quickly', () => {
    const t = new Tokens();
    for (let i = 0; i < 10000; i++) t.name('Frame').open();
    loadError(t.bytes(), 'deep.x', /^deep\.x: byte 3344: data objects are nested more than 256 levels deep/);
  });

  it('reads strings with either terminator form and skips templates with their records', () => {
    const x = readX(
      new Tokens()
        .u16(31).name('T').open().u16(5).raw(new Uint8Array(16)).u16(41).name('n').u16(20).u16(52).u16(42).name('v').u16(14).name('n').u16(15).u16(20).close()
        .name('T').name('t1').open().ints(3, 0xffffffff).floats(0.5, -2).string('a.png').raw([0, 0]).string('b', 19).u16(3).u32(9).open().name('t1').close().close()
        .bytes(),
      'bin.x',
    );
    expect(x.objects).toHaveLength(1);
    const o = x.objects[0]!;
    expect([o.template, o.name, o.offset, o.line]).toEqual(['T', 't1', 82, 0]);
    expect(Array.from(o.numbers)).toEqual([3, 4294967295, 0.5, -2, 9]);
    expect(o.strings).toEqual(['a.png', 'b']);
    expect(o.children).toEqual([{ kind: 'ref', name: 't1', line: 0, offset: 157 }]);
  });
});

describe('readX hostile compressed', () => {
  const text = enc('\nHeader {\n 1; 0; 1;\n}\n');

  it('reads its own multi-block stream whose blocks refer back across block boundaries', () => {
    const body = enc(`\n${Array.from({ length: 3000 }, (_, i) => `Item i${i % 50} { ${i % 7}; "s${i % 13}"; }\n`).join('')}`);
    const plain = readX(new Uint8Array([...enc('xof 0303txt 0032'), ...body]), 'p.x');
    for (const blockSize of [32768, 5000]) {
      const zipped = mszip('xof 0303tzip0032', body, blockSize);
      expect(zipped.length).toBeLessThan(body.length / 4);
      const x = readX(zipped, 'z.x');
      expect(x.format).toBe('x-tzip');
      expect(x.objects).toEqual(plain.objects);
    }
  });

  it('names the block whose deflate data is garbage', () => {
    const good = mszip('xof 0303tzip0032', text);
    const bad = good.slice();
    bad.fill(0xff, 26);
    loadError(bad, 'g.x', /^g\.x: byte 20: compressed block 0 \(at byte 20\) is corrupt: its deflate data cannot be expanded/);
    const noCk = good.slice();
    noCk[24] = 0x58;
    loadError(noCk, 'ck.x', /^ck\.x: byte 24: compressed block 0 \(at byte 20\) lacks its 'CK' signature/);
    const wrongSize = good.slice();
    wrongSize[20] = text.length - 1;
    loadError(wrongSize, 'w.x', /^w\.x: byte 20: compressed block 0 \(at byte 20\) is corrupt: it expands to more than 21 bytes, its header says 21/);
  });

  it('refuses a declared size that is huge, unreachable or not delivered, without allocating it', () => {
    loadError(mszip('xof 0303bzip0032', text, 32768, 0xffffffff), 'huge.x', /^huge\.x: byte 16: the compressed file declares a decompressed size of 4294967295 bytes, more than the 512 MiB/);
    loadError(mszip('xof 0303bzip0032', text, 32768, 100_000_000), 'lie.x', /^lie\.x: byte 16: the compressed file declares 100000000 decompressed bytes, more than its \d+ bytes of blocks can hold/);
    loadError(mszip('xof 0303tzip0032', text, 32768, 16 + text.length + 1), 'short.x', /^short\.x: byte \d+: truncated compressed file: compressed block 1 \(at byte \d+\) is missing; the blocks so far hold 22 of the 23 bytes/);
    loadError(enc('xof 0303bzip0032\x10\x00'), 'tiny.x', /^tiny\.x: byte 18: truncated compressed file: expected the decompressed size/);
  });

  it('places text errors inside compressed data on the decompressed line', () => {
    loadError(mszip('xof 0303tzip0032', enc('\nA {\n1;\n')), 'zt.x', /^zt\.x: line 4 of the decompressed text: unexpected end of file: data object 'A' opened at line 2/);
    const bin = new Tokens('xof 0303bzip0032').name('A').open().ints(1).bytes();
    loadError(mszip('xof 0303bzip0032', bin.subarray(16)), 'zb.x', /^zb\.x: byte 35 of the decompressed data: unexpected end of file: data object 'A'/);
  });
});

describeCorpus('readX on damaged copies of real files', () => {
  /** Reads `bytes`: the objects, or the LoadError (anything else thrown is a defect and propagates). */
  function attempt(bytes: Uint8Array, fileName: string): readonly XObject[] | LoadError {
    try {
      return readX(bytes, fileName).objects;
    } catch (e) {
      if (!(e instanceof LoadError)) throw e;
      return e;
    }
  }

  /** The LoadError `bytes` must raise: naming the file and a position. */
  function expectLoadError(result: readonly XObject[] | LoadError, fileName: string, position: RegExp, what: string): void {
    if (!(result instanceof LoadError)) expect.fail(`${what}: loaded ${result.length} objects; it must fail with a LoadError`);
    if (!result.message.startsWith(`${fileName}: `) || !position.test(result.message)) expect(result.message, what).toMatch(new RegExp(`^${fileName.replace(/\./g, '\\.')}: .*${position.source}`));
  }

  /** A corrupted copy may still be a valid file (a flipped digit); otherwise only a LoadError naming the file and a position. */
  function expectCleanFailure(bytes: Uint8Array, fileName: string, position: RegExp): void {
    try {
      readX(bytes, fileName);
    } catch (e) {
      if (!(e instanceof LoadError)) throw e;
      expect(e.message.startsWith(`${fileName}: `)).toBe(true);
      expect(e.message).toMatch(position);
    }
  }

  /**
   * A prefix of an uncompressed file is itself a valid .x file exactly when it ends between top-level data
   * objects (after the header, a template declaration or a whole object, before the next object starts):
   * it must then read to the first k objects of the whole file, k < all of them. Every other prefix, and
   * every cut from the start of the last top-level object on, cuts inside the data and must fail.
   */
  it('fails on every truncation inside the data of the test cube, text and binary', () => {
    for (const [file, position] of [
      ['test_cube_text.x', /: line \d+: /],
      ['test_cube_binary.x', /: byte \d+: /],
    ] as const) {
      const full = corpusBytes(file);
      const whole = readX(full, file).objects;
      expect(whole.length, file).toBeGreaterThanOrEqual(3);
      const lastStart = whole[whole.length - 1]!.offset;
      let loaded = 0;
      for (let n = 0; n < full.length; n++) {
        const prefix = full.subarray(0, n);
        const what = `${file} cut to ${n} of ${full.length} bytes`;
        const objects = attempt(prefix, file);
        if (n < 16 || objects instanceof LoadError) {
          expectLoadError(objects, file, n < 16 ? /./ : position, what);
          continue;
        }
        loaded++;
        const k = objects.length;
        expect(k, `${what}: read ${k} objects, the whole file has ${whole.length}`).toBeLessThan(whole.length);
        expect(n, `${what}: loaded although the cut falls inside object ${k} (${whole[k]!.template}, starting at byte ${whole[k]!.offset})`).toBeLessThanOrEqual(whole[k]!.offset);
        expect(objects, what).toEqual(whole.slice(0, k));
      }
      // The cuts between objects are few; the last object (the Frame with the mesh) holds most of the file.
      expect(full.length - lastStart, file).toBeGreaterThan(full.length / 2);
      expect(loaded, `${file}: prefixes that loaded`).toBeLessThan(40);
    }
  });

  it('fails on every truncation of the compressed test cube (its header declares the decompressed size)', () => {
    const file = 'test_cube_compressed.x';
    const full = corpusBytes(file);
    readX(full, file);
    for (let n = 0; n < full.length; n++) {
      expectLoadError(attempt(full.subarray(0, n), file), file, n < 16 ? /./ : /: (byte|line) \d+( of the decompressed data)?: /, `${file} cut to ${n} of ${full.length} bytes`);
    }
  });

  it('fails cleanly on randomly corrupted binary and compressed cubes', () => {
    let seed = 12345;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x80000000;
    };
    for (const file of ['test_cube_binary.x', 'test_cube_compressed.x', 'test_cube_text.x']) {
      const full = corpusBytes(file);
      for (let k = 0; k < 1500; k++) {
        const b = full.slice();
        const hits = 1 + Math.floor(random() * 4);
        for (let h = 0; h < hits; h++) b[16 + Math.floor(random() * (b.length - 16))] = Math.floor(random() * 256);
        expectCleanFailure(b, file, /: (byte|line) \d+/);
      }
    }
  });
});
