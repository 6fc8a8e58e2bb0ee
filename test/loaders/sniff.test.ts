import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadModel, loadModelAsync } from '../../src/loaders/load-model.ts';
import { describeBytes, looksBinary, sniffFormat } from '../../src/loaders/sniff.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const tiny = (): Uint8Array => new Uint8Array(readFileSync('public/models/tiny/tiny.x'));

describe('formats by content', () => {
  it('recognises each format by its bytes, whatever the name', () => {
    expect(sniffFormat(enc('glTF\u0002\u0000\u0000\u0000'))).toBe('glb');
    expect(sniffFormat(enc('xof 0303txt 0032\n'))).toBe('x');
    expect(sniffFormat(enc('\ufeff  { "asset": { "version": "2.0" } }'))).toBe('gltf');
    expect(sniffFormat(enc('***************m3d-File-Header***************\n'))).toBe('m3d');
    expect(sniffFormat(enc('{ "name": "not a gltf" }'))).toBe(null);
    expect(sniffFormat(new Uint8Array(0))).toBe(null);
  });

  it('a .x renamed .glb loads as the .x it is; garbage named .x says what it looks like', async () => {
    const bytes = tiny();
    const renamed = await loadModelAsync('tiny.glb', bytes.slice());
    const original = loadModel('tiny.x', bytes.slice());
    expect(renamed.meshes.length).toBe(original.meshes.length);
    expect(renamed.meshes[0]!.vertexCount).toBe(original.meshes[0]!.vertexCount);
    expect(() => loadModel('shot.x', Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10))).toThrow(/not a DirectX \.x file: .*\(it looks like a PNG image\)/);
  });

  it('binary bytes named .m3d are refused by what they look like, never quoted', () => {
    const garbage = Uint8Array.from({ length: 300 }, (_, i) => (i * 97 + 13) & 0xff);
    let message = '';
    try {
      loadModel('broken.m3d', garbage);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^broken\.m3d: not a Luna \.m3d text file: it looks like binary data starting with bytes 0d 6e cf 30$/);
    // Printable ASCII only.
    expect(message).toMatch(/^[\x20-\x7e]*$/);
  });

  it('names what unknown bytes are, in words', () => {
    expect(describeBytes(Uint8Array.of(0x50, 0x4b, 3, 4, 0))).toBe('a ZIP archive');
    expect(describeBytes(enc('Kaydara FBX Binary  \u0000'))).toBe('an FBX file (binary)');
    expect(describeBytes(enc('# Blender\nmtllib a.mtl\no Cube\nv 1.0 1.0 -1.0\n'))).toBe('an OBJ mesh');
    expect(describeBytes(enc('<?xml version="1.0"?>\n<COLLADA xmlns="x">'))).toBe('a COLLADA (.dae) file');
    expect(describeBytes(enc('<!DOCTYPE html><html>'))).toBe('an HTML page');
    expect(describeBytes(enc('hello\tworld, a note of a few words \u0007 and more'))).toBe('text starting "hello world, a note of a"');
    expect(describeBytes(new Uint8Array(0))).toBe('an empty file');
    expect(looksBinary(enc('plain text\n'))).toBe(false);
    expect(looksBinary(Uint8Array.of(0xff, 0xd8, 0xff, 0xe0))).toBe(true);
    expect(() => loadModel('notes.txt', enc('hello'))).toThrow(/unsupported file type \.txt; .*\(the file looks like text starting "hello"\)$/);
  });
});
