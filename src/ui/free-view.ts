import type { App } from '../app/app.ts';
import { freeRects, toNdc, type NdcRect } from '../render/free-rect.ts';

/** Edges that move less than this (CSS pixels) since the last framing do not re-frame: the stats text changing width by a digit must not shake the view. */
const SETTLE_PX = 24;

/**
 * Keeps the camera's free rectangles (render/free-rect.ts) up to date with the overlays drawn over the canvas —
 * the control panel and the stats box — measured from their DOM rectangles four times a second and on resize.
 * When they change (a resize, the panel folded or opened, the chrome hidden), an automatic view is framed
 * again into what they leave free; a view the user placed keeps its place and uses them at its next placement.
 * Without visible overlays (`gui=0`, hidden chrome) the list is empty and framing is exactly the plain one.
 * Compare mode frames each half on its own and gets no free rectangles.
 */
export function trackFreeView(app: App, canvas: HTMLCanvasElement, overlays: () => readonly (HTMLElement | null | undefined)[]): void {
  let applied: DOMRect[] = [];
  const measure = (): void => {
    const shown = app.state.gui && app.state.compare === null;
    const rects = shown ? overlays().flatMap((el) => (el && !el.hidden ? [el.getBoundingClientRect()] : [])).filter((r) => r.width > 0 && r.height > 0) : [];
    const c = canvas.getBoundingClientRect();
    const settled =
      rects.length === applied.length &&
      rects.every((r, i) => {
        const a = applied[i]!;
        return Math.abs(r.left - a.left) < SETTLE_PX && Math.abs(r.right - a.right) < SETTLE_PX && Math.abs(r.top - a.top) < SETTLE_PX && Math.abs(r.bottom - a.bottom) < SETTLE_PX;
      });
    if (settled) return;
    applied = rects;
    const covers = rects.map((r) => toNdc(r, c)).filter((r): r is NdcRect => r !== null);
    app.camera.freeRects = covers.length > 0 ? freeRects(covers) : [];
    if (app.state.camera === null) app.frameModel();
  };
  setInterval(measure, 250);
  window.addEventListener('resize', measure);
  measure();
}
