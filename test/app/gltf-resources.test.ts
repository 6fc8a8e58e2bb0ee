import { afterEach, describe, expect, it, vi } from 'vitest';
import { companionName } from '../../src/app/companion-names.ts';
import { fileSource, TooLargeError, urlSource } from '../../src/app/model-source.ts';
import { withEmbeddedImages } from '../../src/gpu/textures.ts';
import { isKtx2 } from '../../src/loaders/textures/sniff.ts';

/**
 * The page's side of a glTF's external files: how a URI as written finds its file (resource), how embedded
 * images come before companion files (withEmbeddedImages), and KTX2 recognised.
 */

// model-source needs only the size limit from load-model; the parsers behind it are not under test here.
vi.mock('../../src/loaders/load-model.ts', () => ({ MAX_MODEL_BYTES: 256 * 1024 * 1024 }));

const never = new AbortController().signal;

describe('companionName', () => {
  it('percent-decodes the URI and drops query and fragment; bad encodings stay as written', () => {
    expect(companionName('Fox%20skin.png')).toBe('Fox skin.png');
    expect(companionName('buffers/scene.bin?v=2#x')).toBe('buffers/scene.bin');
    expect(companionName('100%.bin')).toBe('100%.bin');
    expect(companionName('plain.bin')).toBe('plain.bin');
  });
});

describe('resource', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('URLs: the decoded base name beside the model, case variants after a 404, null when absent', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (href: string) => {
      asked.push(href);
      if (href === 'http://host/m/Fox%20data.bin') return new Response(new Uint8Array([1, 2, 3, 4]));
      return new Response('not found', { status: 404 });
    });
    const source = urlSource('m/fox.gltf', 'http://host/');
    expect(await source.resource('sub/Fox%20data.bin', 1000, never)).toEqual(new Uint8Array([1, 2, 3, 4]));
    expect(asked).toEqual(['http://host/m/Fox%20data.bin']);
    expect(await source.resource('../../etc/missing.bin', 1000, never)).toBeNull();
    expect(asked.slice(1).every((h) => h.toLowerCase().startsWith('http://host/m/missing.bin'))).toBe(true);
  });

  it('URLs: a file over the limit throws TooLargeError naming its address instead of reading it', async () => {
    vi.stubGlobal('fetch', async () => new Response(new Uint8Array(64), { headers: { 'content-length': '64' } }));
    const err = await urlSource('fox.gltf', 'http://host/').resource('big.bin', 10, never).catch((e: Error) => e);
    expect(err).toBeInstanceOf(TooLargeError);
    expect((err as Error).message).toContain('http://host/big.bin');
  });

  it('files: matched among the files given by decoded base name, any case; over the limit throws', async () => {
    const bin = new File([new Uint8Array([5, 6])], 'Fox Data.BIN');
    const model = new File([new Uint8Array(1)], 'fox.gltf');
    const source = fileSource(model, [model, bin]);
    expect(await source.resource('c:\\x\\fox%20data.bin', 100, never)).toEqual(new Uint8Array([5, 6]));
    expect(await source.resource('other.bin', 100, never)).toBeNull();
    await expect(source.resource('Fox Data.bin', 1, never)).rejects.toThrow(/Fox Data\.BIN: .*limit for model files/);
  });
});

describe('withEmbeddedImages', () => {
  it('an embedded image by name first, any other name from the companions; the companions unchanged without images', async () => {
    const asked: string[] = [];
    const companions = async (name: string): Promise<Uint8Array | null> => {
      asked.push(name);
      return name === 'skin.png' ? new Uint8Array([7]) : null;
    };
    expect(withEmbeddedImages(undefined, companions)).toBe(companions);
    expect(withEmbeddedImages([], companions)).toBe(companions);
    const embedded = new Uint8Array([1, 2]);
    const source = withEmbeddedImages([{ name: 'image0', mimeType: 'image/png', bytes: embedded }], companions);
    expect(await source('image0')).toBe(embedded);
    expect(await source(' image0 ')).toBe(embedded);
    expect(await source('skin.png')).toEqual(new Uint8Array([7]));
    expect(await source('gone.png')).toBeNull();
    expect(asked).toEqual(['skin.png', 'gone.png']);
  });

  it('recognises KTX2 by its identifier', () => {
    const ktx2 = new Uint8Array([0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    expect(isKtx2(ktx2)).toBe(true);
    expect(isKtx2(ktx2.subarray(0, 11))).toBe(false);
    expect(isKtx2(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]))).toBe(false);
  });
});
