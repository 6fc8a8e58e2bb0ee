import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Scene } from '../../src/model/types.ts';

/**
 * The first model's images decoded ahead (early-images.ts), and the parse's own head start taking them
 * (image-predecode.ts): a decode started ahead is used for exactly the same bytes and MIME type, once; anything
 * else is decoded as before; whatever is not taken is closed once decoded, and nothing starts after that.
 */

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 9, 9, 9]);

interface FakeBitmap {
  readonly bytes: Uint8Array;
  readonly type: string;
  closed: boolean;
  close(): void;
}

/** createImageBitmap stubbed: each call makes a bitmap that remembers its blob's bytes and type. */
function stubDecoder(): FakeBitmap[] {
  const made: FakeBitmap[] = [];
  vi.stubGlobal('createImageBitmap', async (blob: Blob) => {
    const bitmap: FakeBitmap = { bytes: new Uint8Array(await blob.arrayBuffer()), type: blob.type, closed: false, close: () => void (bitmap.closed = true) };
    made.push(bitmap);
    return bitmap;
  });
  return made;
}

/** A scene with one material whose diffuse map is `bytes`, carried by the file as `name`. */
function sceneWith(name: string, bytes: Uint8Array): Scene {
  return { images: [{ name, mimeType: '', bytes }], materials: [{ diffuseMap: name }] } as unknown as Scene;
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 10));

describe('early image decodes', () => {
  beforeEach(() => vi.resetModules());
  afterEach(() => vi.unstubAllGlobals());

  it('are taken by the parse for the same bytes: one decode in all', async () => {
    const made = stubDecoder();
    const early = await import('../../src/app/early-images.ts');
    const { predecodeImages } = await import('../../src/app/image-predecode.ts');
    early.decodeEarly(PNG.slice());
    await settle();
    expect(made.length).toBe(1);
    const bitmaps = await predecodeImages(sceneWith('skin.png', PNG.slice()));
    expect(made.length).toBe(1);
    expect(bitmaps.get('skin.png')).toBe(made[0]);
    expect(made[0]!.type).toBe('image/png');
    expect(made[0]!.closed).toBe(false);
  });

  it('are not used for other bytes, and those not taken are closed', async () => {
    const made = stubDecoder();
    const early = await import('../../src/app/early-images.ts');
    const { predecodeImages } = await import('../../src/app/image-predecode.ts');
    early.decodeEarly(PNG.slice());
    const other = PNG.slice();
    other[other.length - 1] = 99; // same length and signature, one byte apart
    const bitmaps = await predecodeImages(sceneWith('skin.png', other));
    await settle();
    expect(made.length).toBe(2);
    expect((bitmaps.get('skin.png') as unknown as FakeBitmap | undefined)?.bytes).toEqual(other);
    expect(made.find((b) => b.bytes[b.bytes.length - 1] === 4)?.closed).toBe(true);
    // Nothing starts once the parse has taken what it needed.
    early.decodeEarly(JPEG.slice());
    await settle();
    expect(made.length).toBe(2);
  });

  it('start only for formats the browser decodes, and at most MAX_EARLY_IMAGES', async () => {
    const made = stubDecoder();
    const early = await import('../../src/app/early-images.ts');
    early.decodeEarly(Uint8Array.from([0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a])); // KTX2
    early.decodeEarly(new TextEncoder().encode('DDS |not an image the browser reads'));
    early.decodeEarly(new Uint8Array(0));
    expect(early.earlyImageCount()).toBe(0);
    for (let i = 0; i < early.MAX_EARLY_IMAGES + 5; i++) early.decodeEarly(JPEG.slice());
    expect(early.earlyImageCount()).toBe(early.MAX_EARLY_IMAGES);
    await settle();
    expect(made.length).toBe(early.MAX_EARLY_IMAGES);
    expect(made[0]!.type).toBe('image/jpeg');
    // Each decode is taken once, and only as the MIME type it was started with.
    expect(early.takeEarlyImage(JPEG, 'image/png')).toBeNull();
    for (let i = 0; i < early.MAX_EARLY_IMAGES; i++) expect(early.takeEarlyImage(JPEG, 'image/jpeg')).not.toBeNull();
    expect(early.takeEarlyImage(JPEG, 'image/jpeg')).toBeNull();
  });
});
