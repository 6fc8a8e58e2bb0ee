/**
 * Bytes to and from base64 for the data the project itself writes: a saved glTF's data: URIs
 * (export/export-gltf.ts), a recording's images (ui/recorder.ts), the baked studio environment
 * (render/half-float.ts). A file's data: URIs are decoded by the glTF loader's own strict reader
 * (loaders/gltf/data-uri.ts), which names the bad character and checks a size limit first.
 */

/** The base64 text of `bytes` (standard alphabet, padded). */
export function bytesToBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Uint8Array.fromBase64 (ES2026; Chrome 140, Firefox 133, Safari 18.2), when the engine has it. */
const fromBase64 = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array }).fromBase64;

/** The bytes of base64 `text` (ASCII whitespace ignored), or null when it is not base64. Native where the engine has it. */
export function base64ToBytes(text: string): Uint8Array | null {
  try {
    if (fromBase64) return fromBase64.call(Uint8Array, text);
    const bin = atob(text);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}
