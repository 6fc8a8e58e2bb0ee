import type { App } from '../app/app.ts';
import { freeRects, toNdc, type NdcRect } from '../render/free-rect.ts';

/**
 * Keeps the camera's free rectangles (render/free-rect.ts) up to date with what the page draws over the
 * canvas: the control panel (its DOM rectangle) and the stats box. The stats box counts at a nominal size —
 * STATS_COLUMNS × STATS_LINES of its font (ten lines of figures, the timeline row, one to spare), at its stylesheet place — shown or not yet: its text changes
 * with timings and the lines a state adds, and a view framed from its measured size would differ between a
 * page and the link that reproduces it. (A crowd's extra lines may reach below the reserve.)
 *
 * measure() runs four times a second, on resize and when a model arrives (before its first framed frame), and
 * does nothing before the first model (reading rectangles then would only force the page's layout early);
 * when the rectangles change (a resize, the panel folded or opened, the chrome hidden) an automatic view is
 * framed again, a view the user placed takes them at its next placement. Without the chrome (`gui=0`,
 * hidden) and in compare mode (each half framed on its own) the list is empty: framing is exactly the plain one.
 */
const STATS_COLUMNS = 66;
const STATS_LINES = 12;
/** Compact stats on phones (overlay.ts NARROW_QUERY): three short lines. */
const STATS_COLUMNS_NARROW = 40;
const STATS_LINES_NARROW = 3;

/** A client rectangle (DOMRect's fields). */
export interface PanelRect {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly width: number;
  readonly height: number;
}

/**
 * The rectangle the panel will cover, from its root alone (gui.ts panelRoot, before the Panel fills it): the root's
 * place and width, and when it is open the height of the window (its stylesheet's most). A filled panel is taller
 * than 70 % of any usual window, and the free rectangles (render/free-rect.ts, minSide) of a cover that tall are
 * those of one reaching the bottom: the first model is framed as it will be once the panel is there. Closed (phones),
 * the title bar is all it covers, as here.
 */
export function panelReserve(root: HTMLElement, open: boolean): PanelRect {
  const r = root.getBoundingClientRect();
  const bottom = open ? Math.max(r.bottom, window.innerHeight) : r.bottom;
  return { left: r.left, top: r.top, right: r.right, bottom, width: r.width, height: bottom - r.top };
}

export interface FreeView {
  /** Measures the overlays now and re-frames an automatic view when they changed. */
  measure(): void;
}

/** The stats box's nominal client rectangle from its computed style (valid while it is hidden too), or null. */
function statsReserve(stats: HTMLElement, narrow: boolean): { left: number; top: number; right: number; bottom: number } | null {
  const cs = getComputedStyle(stats);
  const font = parseFloat(cs.fontSize) || 11;
  const line = parseFloat(cs.lineHeight) || font * 1.45;
  const padX = (parseFloat(cs.paddingLeft) || 0) + (parseFloat(cs.paddingRight) || 0);
  const padY = (parseFloat(cs.paddingTop) || 0) + (parseFloat(cs.paddingBottom) || 0);
  // A monospace advance is about 0.6 em.
  const width = (narrow ? STATS_COLUMNS_NARROW : STATS_COLUMNS) * 0.6 * font + padX;
  const height = (narrow ? STATS_LINES_NARROW : STATS_LINES) * line + padY;
  const left = parseFloat(cs.left);
  const top = parseFloat(cs.top);
  const bottom = parseFloat(cs.bottom);
  if (!Number.isFinite(left)) return null;
  const y = Number.isFinite(top) ? top : Number.isFinite(bottom) ? window.innerHeight - bottom - height : NaN;
  return Number.isFinite(y) ? { left, top: y, right: left + Math.min(width, window.innerWidth - 2 * left), bottom: y + height } : null;
}

export function trackFreeView(app: App, canvas: HTMLCanvasElement, panel: () => PanelRect | undefined, stats: HTMLElement, narrow: MediaQueryList): FreeView {
  let last = '';
  const measure = (): void => {
    // Nothing to frame yet: no layout is forced while the page builds itself (the model's arrival measures).
    if (app.current === null) return;
    const panelRect = panel();
    // The chrome is shown when the panel is (the H key and gui=0 hide both).
    const shown = app.state.gui && app.state.compare === null && panelRect !== undefined && panelRect.width > 0 && panelRect.height > 0;
    const c = canvas.getBoundingClientRect();
    const covers: NdcRect[] = [];
    if (shown) {
      for (const r of [panelRect, statsReserve(stats, narrow.matches)]) {
        const n = r ? toNdc(r, c) : null;
        if (n) covers.push(n);
      }
    }
    const key = covers.map((r) => `${r.x0.toFixed(4)},${r.y0.toFixed(4)},${r.x1.toFixed(4)},${r.y1.toFixed(4)}`).join(' ');
    if (key === last) return;
    last = key;
    app.camera.freeRects = covers.length > 0 ? freeRects(covers) : [];
    if (app.state.camera === null) app.frameModel();
  };
  setInterval(measure, 250);
  window.addEventListener('resize', measure);
  measure();
  return { measure };
}
