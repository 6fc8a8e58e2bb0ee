/**
 * Pointer gestures on the canvas, from pointer events of any type (mouse, pen, touch), tracked by pointerId:
 * - one pointer drags: orbit, or pan for a mouse's right button or with Shift held;
 * - two pointers: the midpoint's motion pans and the ratio of their distances zooms (pinch), both at once;
 * - a double tap (touch or pen: two short, still taps close together) frames the model.
 * It owns only gesture bookkeeping and reports camera intents through `GestureSink` in CSS pixels; it knows
 * nothing about the camera, the App or GL. Pointer records are allocated at pointerdown, never per move.
 */
export interface GestureSink {
  /** One-pointer drag by (dx, dy) CSS pixels since the last report. */
  orbit(dx: number, dy: number): void;
  /** Screen-space pan by (dx, dy) CSS pixels: the model should follow the pointer(s). */
  pan(dx: number, dy: number): void;
  /** Multiplies the camera distance (below 1: closer), like the wheel. */
  zoom(factor: number): void;
  /** Two taps in quick succession. */
  doubleTap(): void;
  /** After any camera change of a move event (record the view once per event). */
  changed(): void;
}

/** A tap: lifted within this many ms of going down, having moved less than TAP_SLOP CSS pixels. */
const TAP_MS = 400;
const TAP_SLOP = 10;
/** The second tap of a double tap: down within this many ms after the first one's release, and this close to it. */
const DOUBLE_TAP_MS = 350;
const DOUBLE_TAP_SLOP = 40;

interface Tracked {
  id: number;
  x: number;
  y: number;
  downX: number;
  downY: number;
  downAt: number;
  /** Farthest distance from where it went down, for tap detection. */
  travel: number;
}

export class PointerGestures {
  private readonly pointers: Tracked[] = [];
  /** One-pointer drag pans (mouse right button, or Shift at pointerdown). */
  private panDrag = false;
  /** Set once two pointers were down together; cleared when every pointer is up. No orbit or tap until then. */
  private multi = false;
  /** The two-pointer midpoint and spread at the last report. */
  private midX = 0;
  private midY = 0;
  private spread = 0;
  private lastTapAt = -Infinity;
  private lastTapX = 0;
  private lastTapY = 0;
  /** The pointerType of the last pointerdown: a `dblclick` after touch or pen taps is the browser's echo of a double tap. */
  lastPointerType = 'mouse';

  constructor(private readonly sink: GestureSink) {}

  /** Number of pointers currently down. */
  get active(): number {
    return this.pointers.length;
  }

  down(e: PointerEvent): void {
    this.lastPointerType = e.pointerType;
    if (this.find(e.pointerId) >= 0) return;
    this.pointers.push({ id: e.pointerId, x: e.clientX, y: e.clientY, downX: e.clientX, downY: e.clientY, downAt: e.timeStamp, travel: 0 });
    if (this.pointers.length === 1) this.panDrag = e.pointerType === 'mouse' && (e.button === 2 || e.shiftKey);
    else {
      this.multi = true;
      this.measurePair();
    }
  }

  move(e: PointerEvent): void {
    const i = this.find(e.pointerId);
    if (i < 0) return;
    const p = this.pointers[i]!;
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    if (dx === 0 && dy === 0) return;
    p.x = e.clientX;
    p.y = e.clientY;
    p.travel = Math.max(p.travel, Math.hypot(p.x - p.downX, p.y - p.downY));
    const sink = this.sink;
    if (this.pointers.length >= 2) {
      // The first two pointers steer; a third finger is tracked but ignored.
      if (i > 1) return;
      const a = this.pointers[0]!;
      const b = this.pointers[1]!;
      const mx = (a.x + b.x) / 2;
      const my = (a.y + b.y) / 2;
      const spread = Math.hypot(a.x - b.x, a.y - b.y);
      sink.pan(mx - this.midX, my - this.midY);
      if (this.spread > 1 && spread > 1) sink.zoom(this.spread / spread);
      this.midX = mx;
      this.midY = my;
      this.spread = spread;
    } else if (this.multi) {
      // The finger left over from a pinch: no orbit until every finger has lifted.
      return;
    } else if (this.panDrag) sink.pan(dx, dy);
    else sink.orbit(dx, dy);
    sink.changed();
  }

  /** pointerup and pointercancel. */
  up(e: PointerEvent, cancelled = false): void {
    const i = this.find(e.pointerId);
    if (i < 0) return;
    const p = this.pointers[i]!;
    this.pointers.splice(i, 1);
    if (!cancelled && !this.multi && this.pointers.length === 0 && e.pointerType !== 'mouse') this.tap(p, e.timeStamp);
    if (this.pointers.length >= 2) this.measurePair();
    if (this.pointers.length === 0) this.multi = false;
  }

  /** A pointer lifted: counts it as a tap when short and still, and reports the second of two taps. */
  private tap(p: Tracked, at: number): void {
    if (at - p.downAt > TAP_MS || p.travel >= TAP_SLOP) {
      this.lastTapAt = -Infinity;
      return;
    }
    if (p.downAt - this.lastTapAt <= DOUBLE_TAP_MS && Math.hypot(p.x - this.lastTapX, p.y - this.lastTapY) <= DOUBLE_TAP_SLOP) {
      this.lastTapAt = -Infinity;
      this.sink.doubleTap();
      return;
    }
    this.lastTapAt = at;
    this.lastTapX = p.x;
    this.lastTapY = p.y;
  }

  /** Starts the two-pointer gesture from where the first two pointers are now (no jump when one joins or leaves). */
  private measurePair(): void {
    const a = this.pointers[0]!;
    const b = this.pointers[1]!;
    this.midX = (a.x + b.x) / 2;
    this.midY = (a.y + b.y) / 2;
    this.spread = Math.hypot(a.x - b.x, a.y - b.y);
  }

  private find(id: number): number {
    for (let i = 0; i < this.pointers.length; i++) if (this.pointers[i]!.id === id) return i;
    return -1;
  }
}
