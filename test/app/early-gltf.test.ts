import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { askedAhead } from '../../src/app/early-fetch.ts';
import { startFromGltfJson } from '../../src/app/early-gltf.ts';
import { fetchResources } from '../../src/app/model-resources.ts';
import { urlSource } from '../../src/app/model-source.ts';

/**
 * The parse worker's head start from the first model's JSON (early-gltf.ts): the files a glTF names are asked for
 * as soon as its head arrives, at the addresses the parse's own reads use, so each file crosses the network once;
 * the model's response stays whole for the parse; a head that is not whole JSON asks for nothing.
 */

vi.mock('../../src/loaders/load-model.ts', () => ({ MAX_MODEL_BYTES: 256 * 1024 * 1024 }));
// The decodes started ahead, recorded (early-images.ts is tested on its own).
const decoded: Uint8Array[] = [];
vi.mock('../../src/app/early-images.ts', () => ({ MAX_EARLY_IMAGES: 16, decodeEarly: (bytes: Uint8Array) => void decoded.push(bytes.slice()) }));

const MODEL = 'http://site.test/models/walker.gltf';
const never = new AbortController().signal;

/** A fetch that answers every address with its own name and records what it was asked for. */
function serve(): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (href: string) => {
    asked.push(String(href));
    return new Response(new TextEncoder().encode(String(href)), { headers: { 'content-type': 'application/octet-stream' } });
  });
  return asked;
}

/** Lets the head start's promise chain run to its end. */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 20));

function glb(json: object, bin: Uint8Array): Uint8Array<ArrayBuffer> {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = Math.ceil(text.length / 4) * 4;
  const out = new Uint8Array(12 + 8 + jsonLength + 8 + bin.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jsonLength);
  out.set(text, 20);
  view.setUint32(20 + jsonLength, bin.length, true);
  view.setUint32(24 + jsonLength, 0x004e4942, true);
  out.set(bin, 28 + jsonLength);
  return out;
}

/** A response whose body records how many bytes were pulled from it. */
function counted(bytes: Uint8Array, chunk = 1024): { response: Response; pulled: () => number } {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
  return { response: new Response(body), pulled: () => Math.min(at, bytes.length) };
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 5, 6, 7, 8]);

describe('startFromGltfJson', () => {
  beforeEach(() => void (decoded.length = 0));
  afterEach(() => vi.unstubAllGlobals());

  it("asks for a .gltf's buffers and images once, and the parse's reads take those responses", async () => {
    const asked = serve();
    const json = {
      asset: { version: '2.0' },
      buffers: [{ uri: 'walker.bin', byteLength: 4 }, { uri: 'data:application/octet-stream;base64,AAAA', byteLength: 3 }],
      images: [{ uri: 'Skin%20map.png' }, { uri: '../elsewhere/walker.bin' }],
    };
    const bytes = new TextEncoder().encode(JSON.stringify(json));
    const response = Promise.resolve(new Response(bytes));
    startFromGltfJson(response, MODEL);
    await settle();
    // The parse's reads: the buffer, the image as its base name beside the model (the same file as the buffer's).
    expect(asked.sort()).toEqual(['http://site.test/models/Skin%20map.png', 'http://site.test/models/walker.bin']);
    const resources = await fetchResources(urlSource(MODEL, MODEL), bytes, never, () => {});
    expect([...resources.keys()].sort()).toEqual(['../elsewhere/walker.bin', 'Skin%20map.png', 'walker.bin']);
    expect(new TextDecoder().decode(resources.get('walker.bin'))).toBe('http://site.test/models/walker.bin');
    // The second URI names the same file: read once more by the parse (the head start keeps one response per address).
    expect(asked.filter((a) => a.endsWith('/walker.bin')).length).toBe(2);
    expect(asked.filter((a) => a.endsWith('/Skin%20map.png')).length).toBe(1);
    // The model's own response is still whole for the parse.
    expect(new Uint8Array(await (await response).arrayBuffer())).toEqual(bytes);
  });

  it('askedAhead settles only once the files the JSON names are asked for: the parse reads them after that, once each', async () => {
    const asked = serve();
    const json = { asset: { version: '2.0' }, buffers: [{ uri: 'walker.bin', byteLength: 4 }], images: [{ uri: 'skin.png' }] };
    const bytes = new TextEncoder().encode(JSON.stringify(json));
    let deliver = (): void => {};
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        deliver = () => {
          c.enqueue(bytes);
          c.close();
        };
      },
    });
    const response = Promise.resolve(new Response(body));
    startFromGltfJson(response, MODEL);
    let settled = false;
    const gate = askedAhead().then(() => void (settled = true));
    await settle();
    expect(settled, 'not before the JSON has arrived').toBe(false);
    deliver();
    // The parse (parse-early.ts): the whole file, then its files once those asked for ahead are.
    const whole = new Uint8Array(await (await response).arrayBuffer());
    await gate;
    const files = ['http://site.test/models/skin.png', 'http://site.test/models/walker.bin'];
    expect([...asked].sort(), 'asked for before the parse reads them').toEqual(files);
    await fetchResources(urlSource(MODEL, MODEL), whole, never, () => {});
    expect(asked.sort(), 'and not again by the parse').toEqual(files);
  });

  it("reads a .glb's JSON chunk, not its binary chunk, when no texture shows an image stored there", async () => {
    const asked = serve();
    const json = {
      asset: { version: '2.0' },
      buffers: [{ byteLength: 65536 }, { uri: 'extra.bin', byteLength: 8 }],
      bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 12 }],
      images: [{ bufferView: 0, mimeType: 'image/png' }], // no texture shows it
    };
    const file = glb(json, new Uint8Array(64 * 1024).fill(7));
    const { response, pulled } = counted(file);
    startFromGltfJson(Promise.resolve(response), 'http://site.test/models/walker.glb');
    await settle();
    expect(asked).toEqual(['http://site.test/models/extra.bin']);
    expect(decoded).toEqual([]);
    expect(pulled()).toBeLessThan(file.length / 2);
  });

  it("decodes the images a .glb's textures show from its binary chunk, the exact bytes, while the response stays whole", async () => {
    serve();
    const bin = new Uint8Array(4096).fill(3);
    bin.set(PNG, 100);
    bin.set(PNG.map((b, i) => (i < 8 ? b : 200 + i)), 2000);
    const json = {
      asset: { version: '2.0' },
      buffers: [{ byteLength: bin.length }],
      bufferViews: [{ buffer: 0, byteOffset: 100, byteLength: PNG.length }, { buffer: 0, byteOffset: 2000, byteLength: PNG.length }, { buffer: 0, byteOffset: 4000, byteLength: 200 }],
      images: [{ bufferView: 1, mimeType: 'image/png' }, { bufferView: 0, mimeType: 'image/png' }, { bufferView: 2, mimeType: 'image/png' }],
      textures: [{ source: 1 }, { source: 0 }, { source: 1 }, { source: 2 }], // the third view runs past the chunk
    };
    const file = glb(json, bin);
    const response = Promise.resolve(new Response(file));
    startFromGltfJson(response, 'http://site.test/models/walker.glb');
    await settle();
    expect(decoded).toEqual([bin.slice(100, 100 + PNG.length), bin.slice(2000, 2000 + PNG.length)]);
    expect(new Uint8Array(await (await response).arrayBuffer())).toEqual(file);
  });

  it("decodes a .gltf's image files from copies of the responses the parse then reads", async () => {
    vi.stubGlobal('fetch', async (href: string) => new Response(String(href).endsWith('.png') ? PNG : new Uint8Array(4), { headers: { 'content-length': String(String(href).endsWith('.png') ? PNG.length : 4) } }));
    const json = { asset: { version: '2.0' }, buffers: [{ uri: 'walker.bin', byteLength: 4 }], images: [{ uri: 'skin.png' }, { uri: 'unused.png' }], textures: [{ source: 0 }] };
    const bytes = new TextEncoder().encode(JSON.stringify(json));
    startFromGltfJson(Promise.resolve(new Response(bytes)), MODEL);
    await settle();
    expect(decoded).toEqual([PNG]);
    const resources = await fetchResources(urlSource(MODEL, MODEL), bytes, never, () => {});
    expect(resources.get('skin.png')).toEqual(PNG);
  });

  it('asks for a bounded number of files ahead, whatever the JSON lists', async () => {
    const asked = serve();
    const buffers = Array.from({ length: 5000 }, (_, i) => ({ uri: `part${i}.bin`, byteLength: 4 }));
    startFromGltfJson(Promise.resolve(new Response(JSON.stringify({ asset: { version: '2.0' }, buffers }))), MODEL);
    await settle();
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.length).toBeLessThanOrEqual(32);
  });

  it('asks for nothing when the head is not whole JSON, or the response failed', async () => {
    const asked = serve();
    startFromGltfJson(Promise.resolve(new Response('{"asset":{"version":"2.0"},"buffers":[{"uri":"a.bin"')), MODEL);
    startFromGltfJson(Promise.resolve(new Response('not found', { status: 404 })), MODEL);
    startFromGltfJson(Promise.reject(new TypeError('offline')), MODEL);
    await settle();
    expect(asked).toEqual([]);
  });
});
