import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readX } from '../../src/loaders/x/read-x.ts';
import type { XChild, XFile, XObject } from '../../src/loaders/x/xnode.ts';
import { LoadError } from '../../src/model/errors.ts';
import { CORPUS_DIR, HAVE_CORPUS, corpusBytes, describeCorpus } from '../corpus.ts';
import { threadCpuMs } from '../thread-cpu.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function objectsOf(x: XFile | XObject, template: string): XObject[] {
  const found: XObject[] = [];
  const walk = (c: XChild): void => {
    if (c.kind !== 'object') return;
    if (c.template === template) found.push(c);
    c.children.forEach(walk);
  };
  if ('objects' in x) x.objects.forEach(walk);
  else walk(x);
  return found;
}

/** Expects two trees to match: structure, templates, names, strings, references; numbers within float32 precision. */
function expectSameTree(a: readonly XChild[], b: readonly XChild[], path = ''): void {
  expect(b.length, `child count at ${path || 'top level'}`).toBe(a.length);
  a.forEach((ca, i) => {
    const cb = b[i]!;
    const here = `${path}/${ca.kind === 'object' ? `${ca.template} ${ca.name}` : `{${ca.name}}`}`;
    expect(cb.kind, here).toBe(ca.kind);
    expect(cb.name, here).toBe(ca.name);
    if (ca.kind === 'ref' || cb.kind === 'ref') return;
    expect(cb.template, here).toBe(ca.template);
    expect(cb.strings, here).toEqual(ca.strings);
    expect(cb.numbers.length, `${here} numbers`).toBe(ca.numbers.length);
    for (let k = 0; k < ca.numbers.length; k++) {
      const x = ca.numbers[k]!;
      const y = cb.numbers[k]!;
      // Written so NaN fails: a NaN difference is not <= anything (and NaN or ±Infinity must match exactly).
      if (!(Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(x)))) expect(y, `${here} number ${k}`).toBe(x);
    }
    expectSameTree(ca.children, cb.children, here);
  });
}

interface ManifestRow {
  file: string;
  encoding: string;
}

function manifest(): ManifestRow[] {
  const lines = readFileSync(join(CORPUS_DIR, 'MANIFEST.tsv'), 'utf8').split('\n').filter((l) => l.trim() !== '');
  const head = lines[0]!.split('\t');
  const fi = head.indexOf('file');
  const ei = head.indexOf('encoding');
  return lines.slice(1).map((l) => {
    const c = l.split('\t');
    return { file: c[fi]!, encoding: c[ei]! };
  });
}

const FORMAT_OF: Record<string, XFile['format']> = { txt: 'x-text', bin: 'x-binary', tzip: 'x-tzip', bzip: 'x-bzip' };

describeCorpus('readX over the corpus', () => {
  const xFiles = readdirSync(CORPUS_DIR).filter((f) => /\.x$/i.test(f));

  it('has every .x file of the directory in MANIFEST.tsv', () => {
    const listed = new Set(manifest().map((r) => r.file));
    expect(xFiles.length).toBeGreaterThanOrEqual(18);
    for (const f of xFiles) expect(listed.has(f), f).toBe(true);
  });

  for (const row of HAVE_CORPUS ? manifest().filter((r) => /\.x$/i.test(r.file)) : []) {
    const m = /^(txt|bin|tzip|bzip)\/(0032|0064) \(xof (\d{4})\)/.exec(row.encoding);
    if (m === null) {
      it(`${row.file} (${row.encoding}) is refused with a clear LoadError`, () => {
        expect(() => readX(corpusBytes(row.file), row.file)).toThrow(LoadError);
        expect(() => readX(corpusBytes(row.file), row.file)).toThrow(/^empty\.x: the file is empty/);
      });
      continue;
    }
    it(`${row.file} reads as ${row.encoding}`, () => {
      const x = readX(corpusBytes(row.file), row.file);
      expect(x.format).toBe(FORMAT_OF[m[1]!]);
      expect(x.floatBits).toBe(m[2] === '0064' ? 64 : 32);
      expect(x.version).toBe(m[3]);
      expect(x.objects.length).toBeGreaterThan(0);
      expect(x.warnings).toEqual([]);
      for (const o of x.objects) expect(o.template).not.toBe('template');
    });
  }

  it('reads test_cube text, binary and compressed to the same tree', () => {
    const text = readX(corpusBytes('test_cube_text.x'), 'test_cube_text.x');
    const bin = readX(corpusBytes('test_cube_binary.x'), 'test_cube_binary.x');
    const zip = readX(corpusBytes('test_cube_compressed.x'), 'test_cube_compressed.x');
    expect(text.objects.map((o) => o.template)).toEqual(['AnimTicksPerSecond', 'Material', 'Frame']);
    const mesh = objectsOf(text, 'Mesh')[0]!;
    expect(mesh.name).toBe('Cube');
    expect(mesh.numbers[0]).toBe(24);
    expect(Array.from(mesh.numbers.subarray(1, 4))).toEqual([-1, -1, 1]);
    expect(objectsOf(text, 'SkinWeights')[0]!.strings).toEqual(['Cube']);
    expect(objectsOf(text, 'MeshMaterialList')[0]!.children).toMatchObject([{ kind: 'ref', name: 'Material' }]);
    expectSameTree(text.objects, bin.objects);
    expectSameTree(bin.objects, zip.objects);
    // The compressed twin expands to the binary file byte for byte, so positions agree too.
    expect(zip.objects.map((o) => o.offset)).toEqual(bin.objects.map((o) => o.offset));
  });

  it('expands wine_compressed_object.x (tzip, 0064) to one Header object with 1, 2, 3', () => {
    const x = readX(corpusBytes('wine_compressed_object.x'), 'wine_compressed_object.x');
    expect(x.format).toBe('x-tzip');
    expect(x.floatBits).toBe(64);
    expect(x.objects).toHaveLength(1);
    const h = x.objects[0]!;
    expect(h.template).toBe('Header');
    expect(h.name).toBe('Object');
    expect(Array.from(h.numbers)).toEqual([1, 2, 3]);
    // The decompressed text continues the header's line: 'xof 0302tzip0064Header Object'.
    expect(h.line).toBe(1);
    expect(h.offset).toBe(16);
  });

  it('reads the multi-block bzip files bat.x and Dwarf_MS.x to the end', () => {
    const dwarf = readX(corpusBytes('Dwarf_MS.x'), 'Dwarf_MS.x');
    const meshes = objectsOf(dwarf, 'Mesh');
    expect(meshes).toHaveLength(6);
    expect(objectsOf(dwarf, 'Material')).toHaveLength(9);
    const textures = objectsOf(dwarf, 'TextureFilename').map((t) => t.strings[0]);
    expect(new Set(textures)).toEqual(new Set(['Weapons.dds', 'Pack.dds', 'Body.dds', 'Armor.dds', 'DwarfHead.dds', 'Headgear.dds']));
    for (const m of meshes) {
      const nVertices = m.numbers[0]!;
      const nFaces = m.numbers[1 + nVertices * 3]!;
      expect(Number.isInteger(nFaces) && nFaces > 0, m.name).toBe(true);
    }

    const bat = readX(corpusBytes('bat.x'), 'bat.x');
    expect(objectsOf(bat, 'SkinWeights')).toHaveLength(34);
    const sets = objectsOf(bat, 'AnimationSet');
    expect(sets.map((s) => s.name)).toEqual(['Anim-1']);
    // The last object of the file is the animation set: the whole stream was read.
    expect(bat.objects[bat.objects.length - 1]!.template).toBe('AnimationSet');
  });

  it('reads the old binary sphere0.x (0302) with its float lists', () => {
    const x = readX(corpusBytes('sphere0.x'), 'sphere0.x');
    expect(x.format).toBe('x-binary');
    expect(x.version).toBe('0302');
    expect(x.objects[0]!.template).toBe('Header');
    const mesh = objectsOf(x, 'Mesh')[0]!;
    const n = mesh.numbers[0]!;
    expect(n).toBeGreaterThan(10);
    for (let i = 1; i <= n * 3; i++) expect(Math.abs(mesh.numbers[i]!)).toBeLessThan(10);
  });

  it('reads the named skinned text files with their structure', () => {
    const tiny = readX(corpusBytes('tiny.x'), 'tiny.x');
    expect(objectsOf(tiny, 'SkinWeights')).toHaveLength(35);
    expect(objectsOf(tiny, 'AnimationSet')).toHaveLength(1);
    const wuson = readX(corpusBytes('Testwuson.X'), 'Testwuson.X');
    expect(objectsOf(wuson, 'AnimationSet').map((s) => s.name)).toEqual(['Wuson_Run', 'Wuson_Walk', 'Wuson_Bind']);
    expect(objectsOf(wuson, 'AnimTicksPerSecond')).toHaveLength(3);
    expect(objectsOf(readX(corpusBytes('dbpro_zombie.x'), 'dbpro_zombie.x'), 'TextureFileName')[0]!.strings[0]).toMatch(/Zombie\.jpg$/);
  });

  it('reads tiny.x and Testwuson.X in well under 100 ms of CPU', () => {
    for (const f of ['tiny.x', 'Testwuson.X']) {
      const b = corpusBytes(f);
      readX(b, f);
      const t0 = threadCpuMs();
      readX(b, f);
      expect(threadCpuMs() - t0, f).toBeLessThan(100);
    }
  });
});

describe('readX text syntax', () => {
  const SAMPLE = [
    'xof 0303txt 0032',
    '// a comment with { braces } and "quotes"',
    '# another comment',
    'template Custom {',
    ' <12345678-1234-1234-1234-123456789ABC>',
    ' DWORD n;',
    ' array FLOAT v[n];',
    ' STRING s;',
    ' [...]',
    '}',
    'template Restricted { <11111111-2222-3333-4444-555555555555> [ Custom <12345678-1234-1234-1234-123456789ABC> ] }',
    '',
    'Custom first {',
    ' <AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE>',
    ' 3;',
    ' 1.5, -2.0e1, .25;;  // trailing comment',
    ' "C:\\tex\\skin.dds";,',
    ' Nested child-1.x {',
    '  7; 8;,',
    '  { first }',
    '  -0.5E+1;',
    ' }',
    ' { first <12345678-1234-1234-1234-123456789ABC> }',
    ' "two";',
    '}',
    'Frame 01_root {',
    ' FrameTransformMatrix { 1,0,0,0, 0,1,0,0, 0,0,1,0, 10,20,30,1;; }',
    '}',
    'Mesh {',
    ' 2;',
    ' 1.000000;2.000000;3.000000;,',
    ' 4.000000;5.000000;6.000000;;',
    '}',
  ].join('\n');

  it('skips templates, comments and GUIDs and keeps data, names and references in order', () => {
    const x = readX(enc(SAMPLE), 'sample.x');
    expect(x.format).toBe('x-text');
    expect(x.version).toBe('0303');
    expect(x.floatBits).toBe(32);
    expect(x.warnings).toEqual([]);
    expect(x.objects.map((o) => [o.template, o.name])).toEqual([
      ['Custom', 'first'],
      ['Frame', '01_root'],
      ['Mesh', ''],
    ]);
    const first = x.objects[0]!;
    expect(Array.from(first.numbers)).toEqual([3, 1.5, -20, 0.25]);
    expect(first.strings).toEqual(['C:\\tex\\skin.dds', 'two']);
    expect(first.line).toBe(13);
    expect(first.children).toHaveLength(2);
    const nested = first.children[0] as XObject;
    expect(nested).toMatchObject({ kind: 'object', template: 'Nested', name: 'child-1.x', line: 18 });
    expect(Array.from(nested.numbers)).toEqual([7, 8, -5]);
    expect(nested.children).toEqual([{ kind: 'ref', name: 'first', line: 20, offset: SAMPLE.indexOf('{ first }') }]);
    expect(first.children[1]).toMatchObject({ kind: 'ref', name: 'first', line: 23 });
    const m = x.objects[1]!.children[0] as XObject;
    expect(m.template).toBe('FrameTransformMatrix');
    expect(Array.from(m.numbers.subarray(12))).toEqual([10, 20, 30, 1]);
    expect(Array.from(x.objects[2]!.numbers)).toEqual([2, 1, 2, 3, 4, 5, 6]);
    expect(x.objects[2]!.offset).toBe(SAMPLE.indexOf('Mesh {'));
  });

  it('counts lines the same with LF, CRLF and CR line ends', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const x = readX(enc(SAMPLE.replace(/\n/g, eol)), 'sample.x');
      expect(x.objects.map((o) => o.line)).toEqual([13, 26, 29]);
      const bad = `xof 0303txt 0032${eol}Header {${eol}1;${eol}2;${eol}]${eol}}`;
      expect(() => readX(enc(bad), 'bad.x')).toThrow(/^bad\.x: line 6: expected '\{' to open data object '\]' \(line 5\), found '\}'/);
    }
  });

  it('reads numbers exactly as Number() does', () => {
    const values = ['0', '-0.000000', '1', '-1', '0.639216', '96.078430', '1e-7', '-2.5E+3', '123456789012345678', '0.1234567890123456789', '4294967295', '3.', '.5', '+7', '1e300', '5e-324'];
    const x = readX(enc(`xof 0303txt 0064\nN { ${values.join('; ')}; }`), 'n.x');
    expect(Array.from(x.objects[0]!.numbers)).toEqual(values.map(Number));
    const commented = readX(enc('xof 0303txt 0032\nN {\n1.5// one\n2#two\n3;# three\n}'), 'c.x');
    expect(Array.from(commented.objects[0]!.numbers)).toEqual([1.5, 2, 3]);
  });

  it('reads non-finite numbers as NaN or Infinity with one warning', () => {
    const x = readX(enc('xof 0303txt 0032\nMeshNormals {\n1;\n1.#QNAN0;-1.#IND00;1.#INF00;,\n-nan(ind); inf;\n}'), 'nan.x');
    const n = Array.from(x.objects[0]!.numbers);
    expect(n[0]).toBe(1);
    expect(n[1]).toBeNaN();
    expect(n[2]).toBeNaN();
    expect(n[3]).toBe(Infinity);
    expect(n[4]).toBeNaN();
    expect(n[5]).toBe(Infinity);
    expect(x.warnings).toHaveLength(1);
    expect(x.warnings[0]).toMatch(/5 numbers are not finite \(first '1\.#QNAN0' at line 4\)/);
  });

  it('warns about an unusual version but reads the file', () => {
    const x = readX(enc('xof 0304txt 0064\nHeader { 1; 0; 1; }'), 'v.x');
    expect(x.version).toBe('0304');
    expect(x.floatBits).toBe(64);
    expect(x.warnings[0]).toMatch(/unusual \.x version '0304'/);
  });

  it('reads names and strings that are not ASCII', () => {
    const utf8 = readX(enc('xof 0303txt 0032\nFrame Kn\u00f6chel { TextureFilename { "t\u00e9te.png"; } }'), 'u.x');
    expect(utf8.objects[0]!.name).toBe('Kn\u00f6chel');
    expect((utf8.objects[0]!.children[0] as XObject).strings).toEqual(['t\u00e9te.png']);
    const ansi = enc('xof 0303txt 0032\nT { "t?te"; }');
    ansi[ansi.indexOf(0x3f)] = 0xe9;
    expect(readX(ansi, 'a.x').objects[0]!.strings).toEqual(['t\u00e9te']);
  });
});
