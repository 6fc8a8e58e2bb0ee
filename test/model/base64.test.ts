import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '../../src/model/base64.ts';

/** The project's own base64 (saved glTF data: URIs, recordings, the baked environment): exact both ways. */
describe('base64', () => {
  it('round-trips every byte value, and lengths around the chunking', () => {
    for (const n of [0, 1, 2, 3, 255, 256, 0x8000 - 1, 0x8000, 0x8000 * 2 + 5]) {
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) bytes[i] = (i * 131 + 7) & 255;
      const text = bytesToBase64(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64'));
      expect(base64ToBytes(text)).toEqual(bytes);
    }
  });

  it('text that is not base64 gives null', () => {
    expect(base64ToBytes('no$t base64')).toBeNull();
  });
});
