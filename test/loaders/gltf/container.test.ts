import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LoadError } from '../../../src/model/errors.ts';
import { decodeDataUri, isDataUri } from '../../../src/loaders/gltf/data-uri.ts';
import { looksLikeGltf, MAX_GLTF_JSON_DEPTH, peekGltfContainer, readGltfContainer } from '../../../src/loaders/gltf/gltf-container.ts';
import { externalUris } from '../../../src/loaders/gltf/gltf-uris.ts';
import { fixture, toGlb } from './check-fixture.ts';

const here = dirname(fileURLToPath(import.meta.url));
const GLTF_CORPUS = process.env.GLTF_CORPUS_DIR ?? join(here, '..', '..', '..', '..', 'shared', 'corpus-gltf');
const HAVE_GLTF_CORPUS = existsSync(join(GLTF_CORPUS, 'MANIFEST.tsv'));
if (!HAVE_GLTF_CORPUS) console.warn(`[skinlab tests] SKIPPING glTF corpus tests: no corpus at ${GLTF_CORPUS} (set GLTF_CORPUS_DIR)`);

const text = (s: string) => new TextEncoder().encode(s);

function loadError(f: () => unknown): LoadError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(LoadError);
    return e as LoadError;
  }
  throw new Error('expected a LoadError');
}

function withU32(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer).setUint32(offset, value, true);
  return out;
}

describe('looksLikeGltf', () => {
  it('recognises the GLB magic, the extensions and JSON with an asset key', () => {
    const { json, bin } = fixture();
    expect(looksLikeGltf('model.bin', toGlb(json, bin))).toBe(true);
    expect(looksLikeGltf('Fox.GLB', new Uint8Array(4))).toBe(true);
    expect(looksLikeGltf('a.gltf', text('nonsense'))).toBe(true);
    expect(looksLikeGltf('noext', text('\ufeff  {"asset": {"version": "2.0"}}'))).toBe(true);
    expect(looksLikeGltf('tiny.x', text('xof 0303txt 0032'))).toBe(false);
    expect(looksLikeGltf('data.json', text('{"name": 1}'))).toBe(false);
  });
});

describe('readGltfContainer', () => {
  it('splits a GLB into its JSON and BIN chunks and skips unknown chunks', () => {
    const { json, bin } = fixture();
    const c = readGltfContainer('f.glb', toGlb(json, bin, [{ type: 0x12345678, data: new Uint8Array(8) }]));
    expect(c.format).toBe('glb');
    expect(c.json).toEqual(json);
    expect(Array.from(c.bin!)).toEqual(Array.from(bin));
  });

  it('reads .gltf text (a BOM tolerated)', () => {
    const { json } = fixture();
    const c = readGltfContainer('f.gltf', text('\ufeff' + JSON.stringify(json)));
    expect(c).toMatchObject({ format: 'gltf', bin: null });
    expect(c.json).toEqual(json);
  });

  it('refuses what is not glTF at all', () => {
    expect(loadError(() => readGltfContainer('m.dat', text('hello'))).message).toMatch(/^m\.dat: not a glTF file/);
    const e = loadError(() => readGltfContainer('m.glb', text('PK\u0003\u0004zip')));
    expect(e.message).toBe("m.glb: byte offset 0: not a GLB file: it starts with bytes 50 4b 03 04 instead of the magic 'glTF'");
    expect(e.offset).toBe(0);
  });

  it('checks the GLB header: version, total length, size', () => {
    const { json, bin } = fixture();
    const glb = toGlb(json, bin);
    expect(loadError(() => readGltfContainer('a.glb', withU32(glb, 4, 1))).message).toMatch(/^a\.glb: byte offset 4: GLB version 1 is not supported/);
    const short = loadError(() => readGltfContainer('a.glb', withU32(glb, 8, glb.length - 4)));
    expect(short.message).toMatch(/byte offset 8: the GLB header says \d+ bytes but the file has \d+/);
    expect(short.offset).toBe(8);
    expect(loadError(() => readGltfContainer('a.glb', glb.subarray(0, glb.length - 4))).message).toMatch(/the file is truncated/);
    expect(loadError(() => readGltfContainer('a.glb', glb.subarray(0, 8))).message).toMatch(/the GLB header needs 12 bytes/);
  });

  it('checks chunk lengths, alignment and order', () => {
    const { json, bin } = fixture();
    const glb = toGlb(json, bin);
    const jsonLen = new DataView(glb.buffer).getUint32(12, true);
    const binHeader = 12 + 8 + jsonLen;
    const past = loadError(() => readGltfContainer('a.glb', withU32(glb, binHeader, bin.length + 4)));
    expect(past.message).toMatch(new RegExp(`byte offset ${binHeader}: chunk 1 'BIN' \\(0x004e4942\\) of ${bin.length + 4} bytes runs past the end`));
    expect(past.offset).toBe(binHeader);
    const odd = toGlb(json, null, [{ type: 0x58585858, data: new Uint8Array(6) }]);
    expect(loadError(() => readGltfContainer('a.glb', odd)).message).toMatch(/chunk 1 'XXXX' .* is 6 bytes long, not a multiple of 4/);
    expect(loadError(() => readGltfContainer('a.glb', withU32(glb, 16, 0x004e4942))).message).toMatch(/byte offset 16: the first chunk is 'BIN'.*not the JSON chunk/);
    const twoBins = toGlb(json, bin, [{ type: 0x004e4942, data: new Uint8Array(4) }]);
    expect(loadError(() => readGltfContainer('a.glb', twoBins)).message).toMatch(/a second BIN chunk/);
  });

  it('says where invalid JSON breaks: line and column in .gltf, byte offset in a GLB', () => {
    const e = loadError(() => readGltfContainer('a.gltf', text('{\n  "asset": {"version": "2.0"},\n  "nodes": [,]\n}')));
    expect(e.message).toMatch(/^a\.gltf: line 3, column 13: invalid JSON/);
    expect(e.line).toBe(3);
    const glb = toGlb({ asset: { version: '2.0' } }, null);
    glb[20 + 8] = 0x7d; // '}' in place of the ':' after "asset"
    const g = loadError(() => readGltfContainer('a.glb', glb));
    expect(g.message).toBe("a.glb: JSON chunk line 1, column 9: invalid JSON: unexpected '}' where ':' belongs");
    expect(g.offset).toBe(20);
  });

  it('bounds the JSON nesting', () => {
    const deep = `{"asset":{"version":"2.0"},"extras":${'['.repeat(MAX_GLTF_JSON_DEPTH)}${']'.repeat(MAX_GLTF_JSON_DEPTH)}}`;
    expect(loadError(() => readGltfContainer('d.gltf', text(deep))).message).toMatch(/nests deeper than 128 levels/);
    const ok = `{"asset":{"version":"2.0"},"extras":"${'['.repeat(1000)}"}`;
    expect(readGltfContainer('d.gltf', text(ok)).format).toBe('gltf');
  });

  it('finds the first opener past the limit exactly as a byte-by-byte scan does, strings and escapes skipped', () => {
    // The plain scan: every byte in order, a string skipped to its closing quote (one not preceded by an odd run of
    // backslashes), an unterminated string running to the end.
    const firstTooDeep = (b: Uint8Array): number => {
      let depth = 0;
      for (let i = 0; i < b.length; i++) {
        if (b[i] === 0x22) {
          let j = i + 1;
          for (; j < b.length; j++) {
            if (b[j] !== 0x22) continue;
            let slashes = 0;
            while (b[j - 1 - slashes] === 0x5c && j - 1 - slashes > i) slashes++;
            if ((slashes & 1) === 0) break;
          }
          i = j;
        } else if (b[i] === 0x7b || b[i] === 0x5b) {
          if (++depth > MAX_GLTF_JSON_DEPTH) return i;
        } else if (b[i] === 0x7d || b[i] === 0x5d) depth--;
      }
      return -1;
    };
    let x = 12345;
    const next = (k: number): number => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return (x >>> 8) % k;
    };
    const alphabet = ['[', '[', '[', '[', '[', '[', '{', ']', '}', '"', '\\', 'a', '1', ','];
    let deep = 0;
    for (let round = 0; round < 300; round++) {
      let body = '';
      const len = 200 + next(800);
      for (let k = 0; k < len; k++) body += alphabet[next(alphabet.length)];
      const bytes = text(`{"asset":{"version":"2.0"},"extras":${body}}`);
      const at = firstTooDeep(bytes);
      let message = 'read';
      try {
        readGltfContainer('r.gltf', bytes);
      } catch (e) {
        message = (e as Error).message;
      }
      if (at >= 0) {
        deep++;
        expect(message).toBe(`r.gltf: byte offset ${at}: the JSON nests deeper than ${MAX_GLTF_JSON_DEPTH} levels`);
      } else expect(message).not.toMatch(/nests deeper/);
    }
    expect(deep).toBeGreaterThan(30);
    expect(deep).toBeLessThan(270);
  });

  it('checks asset.version and minVersion', () => {
    const read = (asset: unknown) => readGltfContainer('v.gltf', text(JSON.stringify({ asset })));
    expect(loadError(() => readGltfContainer('v.gltf', text('{}'))).message).toMatch(/^v\.gltf: \/asset: missing/);
    expect(loadError(() => read({})).message).toMatch(/^v\.gltf: \/asset\/version: missing/);
    expect(loadError(() => read({ version: '1.0' })).message).toMatch(/\/asset\/version: glTF 1\.0 is not supported/);
    expect(loadError(() => read({ version: '2.0', minVersion: '2.1' })).message).toMatch(/\/asset\/minVersion: the file needs a glTF 2\.1 reader/);
    expect(read({ version: '2.1' }).format).toBe('gltf');
    expect(loadError(() => readGltfContainer('v.gltf', text('[1]'))).message).toMatch(/not a glTF file/);
  });

  it('lists external URIs once each, leaving data: URIs out', () => {
    const json = {
      buffers: [{ uri: 'a.bin' }, { uri: 'data:application/octet-stream;base64,AAAA' }, { uri: 'a.bin' }, {}],
      images: [{ uri: 'tex/skin.png' }, { bufferView: 0 }, { uri: 42 }],
    };
    expect(externalUris(json)).toEqual({ buffers: ['a.bin'], images: ['tex/skin.png'] });
    expect(externalUris({ buffers: 'x' })).toEqual({ buffers: [], images: [] });
  });
});

describe('decodeDataUri', () => {
  it('decodes base64 and percent-encoded data', () => {
    expect(isDataUri('DATA:,x')).toBe(true);
    expect(Array.from(decodeDataUri('data:application/octet-stream;base64,AAECAwQ=', 100, 'w'))).toEqual([0, 1, 2, 3, 4]);
    expect(Array.from(decodeDataUri('data:application/gltf-buffer;base64,/w==', 100, 'w'))).toEqual([255]);
    expect(Array.from(decodeDataUri('data:,A%20b%ff', 100, 'w'))).toEqual([65, 32, 98, 255]);
  });

  it('refuses bad data and sizes over the bound before allocating', () => {
    expect(() => decodeDataUri('data:;base64,AA*A', 100, 'f.gltf: /buffers/0')).toThrow(/^f\.gltf: \/buffers\/0: data: URI has '\*' at character 15/);
    expect(() => decodeDataUri('data:;base64,' + 'A'.repeat(4000), 100, 'w')).toThrow(/3000 bytes, more than the 100-byte limit/);
    expect(() => decodeDataUri('data:;base64', 100, 'w')).toThrow(/no ','/);
    expect(() => decodeDataUri('data:,%4', 100, 'w')).toThrow(/bad percent escape/);
  });
});

(HAVE_GLTF_CORPUS ? describe : describe.skip)('malformed GLB files from glTF-Validator', () => {
  const read = (name: string) => new Uint8Array(readFileSync(join(GLTF_CORPUS, 'malformed/validator/glb', name)));
  it('invalid_magic.glb: the magic at offset 0, as the validator reports', () => {
    const e = loadError(() => readGltfContainer('invalid_magic.glb', read('invalid_magic.glb')));
    expect(e.message).toMatch(/byte offset 0: not a GLB file/);
    expect(e.offset).toBe(0);
  });
  it('truncated_chunk_data.glb: the end of the data at offset 47, as the validator reports', () => {
    const e = loadError(() => readGltfContainer('truncated_chunk_data.glb', read('truncated_chunk_data.glb')));
    expect(e.message).toBe('truncated_chunk_data.glb: byte offset 47: the file is truncated: its GLB header says 48 bytes, the file has 47');
    expect(e.offset).toBe(47);
  });
});

describe('peekGltfContainer', () => {
  it("parses a load's JSON once: the reader's readGltfContainer of the same bytes and name takes what a peek read", () => {
    const { json, bin } = fixture();
    const glb = toGlb(json, bin);
    const peeked = peekGltfContainer('a.glb', glb);
    expect(peekGltfContainer('a.glb', glb)).toBe(peeked);
    expect(readGltfContainer('a.glb', glb)).toBe(peeked);
    // Taken: the next read parses the bytes anew (an equal container, not the same objects).
    const again = readGltfContainer('a.glb', glb);
    expect(again).not.toBe(peeked);
    expect(again.json).toEqual(peeked.json);
    // Another name: read anew, and what was kept is dropped.
    const other = peekGltfContainer('a.glb', glb);
    expect(readGltfContainer('b.glb', glb)).not.toBe(other);
    expect(readGltfContainer('a.glb', glb)).not.toBe(other);
  });

  it('throws as readGltfContainer does and keeps nothing', () => {
    const bad = text('{"asset": ');
    expect(loadError(() => peekGltfContainer('bad.gltf', bad)).message).toBe(loadError(() => readGltfContainer('bad.gltf', bad)).message);
  });
});
