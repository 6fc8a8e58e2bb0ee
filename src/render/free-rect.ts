/**
 * The part of the canvas that page overlays (the control panel, the stats box) leave free, for framing the
 * model there instead of under them. Pure maths in normalised device coordinates of the canvas (x right,
 * y up, each −1…1); the page measures its overlays (ui/free-view.ts) and the camera fits into the result
 * (OrbitCamera.frameBox).
 */

export interface NdcRect {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

export const FULL_VIEW: NdcRect = { x0: -1, y0: -1, x1: 1, y1: 1 };

/** A client-pixel rectangle (DOMRect's fields) in NDC of the canvas's client rectangle; null when it misses the canvas or is empty. */
export function toNdc(r: { left: number; top: number; right: number; bottom: number }, canvas: { left: number; top: number; width: number; height: number }): NdcRect | null {
  if (canvas.width <= 0 || canvas.height <= 0) return null;
  const x0 = Math.max(-1, ((r.left - canvas.left) / canvas.width) * 2 - 1);
  const x1 = Math.min(1, ((r.right - canvas.left) / canvas.width) * 2 - 1);
  const y0 = Math.max(-1, 1 - ((r.bottom - canvas.top) / canvas.height) * 2);
  const y1 = Math.min(1, 1 - ((r.top - canvas.top) / canvas.height) * 2);
  return x1 > x0 && y1 > y0 ? { x0, y0, x1, y1 } : null;
}

/**
 * The rectangles of the canvas clear of every cover: each cover is left on one of its four sides (the free
 * part left of, right of, below or above it) and the canvas cut accordingly; every combination is a
 * candidate. Candidates narrower or lower than `minSide` (NDC units: 2 is the whole canvas) are dropped,
 * and so are duplicates and candidates inside another. [FULL_VIEW] without covers, or when no candidate is
 * wide and tall enough (a panel over most of a phone's screen: the model is then framed as without it).
 */
export function freeRects(covers: readonly NdcRect[], minSide = 0.6): NdcRect[] {
  if (covers.length === 0) return [FULL_VIEW];
  let rects: NdcRect[] = [FULL_VIEW];
  for (const c of covers) {
    const next: NdcRect[] = [];
    for (const r of rects) {
      // A cover that misses this rectangle leaves it whole.
      if (c.x1 <= r.x0 || c.x0 >= r.x1 || c.y1 <= r.y0 || c.y0 >= r.y1) {
        next.push(r);
        continue;
      }
      next.push({ ...r, x1: Math.min(r.x1, c.x0) }, { ...r, x0: Math.max(r.x0, c.x1) }, { ...r, y1: Math.min(r.y1, c.y0) }, { ...r, y0: Math.max(r.y0, c.y1) });
    }
    rects = next.filter((r) => r.x1 - r.x0 >= minSide && r.y1 - r.y0 >= minSide);
  }
  const inside = (a: NdcRect, b: NdcRect): boolean => a.x0 >= b.x0 && a.x1 <= b.x1 && a.y0 >= b.y0 && a.y1 <= b.y1;
  const kept = rects.filter((r, i) => !rects.some((o, j) => j !== i && inside(r, o) && (!inside(o, r) || j < i)));
  return kept.length > 0 ? kept : [FULL_VIEW];
}
