/**
 * The page canvas's drawing-buffer size: its CSS size times the device's pixel ratio, the ratio capped at 2 (a
 * 3× phone would shade 2.25× the pixels for a picture no one can tell apart). FrameLoop keeps the buffer at this
 * size every frame; the entry script (src/boot.ts) gives the canvas this size before its WebGL context exists,
 * so the context's buffers are made once at the size the first frame draws at, not made small and then remade
 * while that frame waits. Pure, no allocation.
 */

/** Drawing-buffer pixels per CSS pixel. */
export function pixelRatio(): number {
  return Math.min(window.devicePixelRatio || 1, 2);
}

/** The drawing-buffer width or height for a CSS width or height (at least 1). */
export function bufferPixels(css: number, ratio: number): number {
  return Math.max(1, Math.round(css * ratio));
}

/**
 * Sizes `canvas`'s drawing buffer for the whole viewport — the page canvas's size in style.css (#view: fixed,
 * 100vw × 100vh, no scroll bars) — without reading any layout: for the entry script, before the stylesheet has
 * arrived and before the canvas has a context. Where the CSS size turns out otherwise, the first frame resizes.
 */
export function sizeForViewport(canvas: HTMLCanvasElement): void {
  const ratio = pixelRatio();
  canvas.width = bufferPixels(window.innerWidth, ratio);
  canvas.height = bufferPixels(window.innerHeight, ratio);
}
