import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { earlyFromName, workerName } from '../../src/app/parse-job.ts';
import { errorFields, errorFromFields, ownedBytes, transferables } from '../../src/app/parse-protocol.ts';
import { loadModel, loadModelAsync } from '../../src/loaders/load-model.ts';
import { LoadError } from '../../src/model/errors.ts';
import type { Scene } from '../../src/model/types.ts';
import { corpusBytes, HAVE_CORPUS } from '../corpus.ts';
import { corpusFile, HAVE_GLTF_CORPUS } from '../loaders/gltf/gltf-corpus.ts';

/** What the parse worker sends back: a Scene survives structured clone exactly, its buffers moved, not copied. */

const GENERATED = join(process.cwd(), 'public', 'models', 'generated');

/** Every typed array in a scene with its path, in a fixed order. */
function typedArrays(value: unknown, path = 'scene', out: [string, ArrayBufferView][] = []): [string, ArrayBufferView][] {
  if (ArrayBuffer.isView(value)) out.push([path, value]);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) typedArrays(v, `${path}.${k}`, out);
  return out;
}

function expectClonesExactly(name: string, bytes: Uint8Array): void {
  const scene = loadModel(name, bytes);
  const reference = loadModel(name, bytes);
  const transfer = transferables(scene);
  const clone = structuredClone(scene, { transfer }) as Scene;
  expect(clone).toEqual(reference);
  // Moved, not copied: every view of the sender is detached, so the transfer list held every buffer.
  for (const [path, view] of typedArrays(scene)) expect(view.byteLength, `${path} was copied, not transferred`).toBe(0);
  expect(typedArrays(clone).length).toBe(typedArrays(reference).length);
}

describe('a parsed Scene crosses to the page', () => {
  const generated = ['walker.m3d', 'twist.m3d', 'dawn-low.m3d'].filter((f) => existsSync(join(GENERATED, f)));
  it.skipIf(generated.length === 0)(`generated models clone exactly with every buffer transferred (${generated.join(', ') || 'run npm run gen'})`, () => {
    for (const f of generated) expectClonesExactly(f, new Uint8Array(readFileSync(join(GENERATED, f))));
  });

  describe.skipIf(!HAVE_CORPUS)('corpus', () => {
    it.each(['tiny.x', 'soldier.m3d', 'dbpro_zombie.x', 'heli.x'])('%s', (f) => {
      expectClonesExactly(f, corpusBytes(f));
    });
  });

  it.skipIf(!HAVE_GLTF_CORPUS)('a glTF Scene, whose embedded images are views over the file, arrives whole with the file buffer listed once', async () => {
    const { bytes } = corpusFile('khronos/CesiumMan.glb');
    const scene = await loadModelAsync('CesiumMan.glb', bytes);
    const reference = await loadModelAsync('CesiumMan.glb', bytes.slice());
    expect(scene.images?.length).toBeGreaterThan(0);
    const transfer = transferables(scene);
    expect(new Set(transfer).size).toBe(transfer.length);
    const clone = structuredClone(scene, { transfer }) as Scene;
    expect(clone).toEqual(reference);
    for (const [path, view] of typedArrays(scene)) expect(view.byteLength, `${path} was copied, not transferred`).toBe(0);
  });

  it('views sharing one buffer list it once; non-views add nothing', () => {
    const buffer = new ArrayBuffer(64);
    const a = new Float32Array(buffer, 0, 4);
    const b = new Uint16Array(buffer, 16, 8);
    const c = new Uint32Array(3);
    const list = transferables({ a, nested: [{ b }, { c, n: 1, s: 'x', nothing: null }], again: a });
    expect(list).toHaveLength(2);
    expect(list).toContain(buffer);
    expect(list).toContain(c.buffer);
  });
});

describe('errors come back as they were thrown', () => {
  it('a LoadError keeps its class, message, line and offset', () => {
    let thrown: unknown;
    try {
      loadModel('noise.x', new Uint8Array([0x13, 0x37, 0xfe, 0x00, 0x42]));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(LoadError);
    const back = errorFromFields(structuredClone(errorFields(thrown)));
    expect(back).toBeInstanceOf(LoadError);
    expect(back.message).toBe((thrown as LoadError).message);
    expect((back as LoadError).line).toBe((thrown as LoadError).line);
    expect((back as LoadError).offset).toBe((thrown as LoadError).offset);
  });

  it('a text LoadError keeps its line', () => {
    const back = errorFromFields(structuredClone(errorFields(new LoadError('a.m3d: line 7: expected a number', 7))));
    expect(back).toBeInstanceOf(LoadError);
    expect((back as LoadError).line).toBe(7);
  });

  it('other errors keep name and message; non-errors become text', () => {
    const back = errorFromFields(errorFields(new RangeError('Array buffer allocation failed')));
    expect(back).not.toBeInstanceOf(LoadError);
    expect(back.name).toBe('RangeError');
    expect(back.message).toBe('Array buffer allocation failed');
    expect(errorFromFields(errorFields('boom')).message).toBe('boom');
  });
});

describe('ownedBytes', () => {
  it('passes a whole-buffer view through and copies a window of a larger buffer', () => {
    const whole = new Uint8Array([1, 2, 3]);
    expect(ownedBytes(whole)).toBe(whole);
    const big = new Uint8Array([9, 1, 2, 3, 9]);
    const part = ownedBytes(big.subarray(1, 4));
    expect(part).toEqual(new Uint8Array([1, 2, 3]));
    expect(part.buffer.byteLength).toBe(3);
  });
});

describe("a worker started ahead: its job in its name", () => {
  it('round-trips the first model and its load options; other names carry none', () => {
    const early = { type: 'early' as const, url: 'http://x.test/models/a b.glb?v=1', prep: { up: 'z' as const, orient: { up: '-z' as const, forward: '-y' as const } } };
    expect(earlyFromName(workerName(early))).toEqual(early);
    expect(workerName()).toBe('skinlab-parse');
    expect(earlyFromName(workerName())).toBeNull();
    expect(earlyFromName('skinlab-parse {not json')).toBeNull();
    expect(earlyFromName('skinlab-parse {"type":"early"}')).toBeNull();
    expect(earlyFromName('other {"type":"early","url":"u","prep":{"up":"y"}}')).toBeNull();
  });
});
