import type { App } from '../app/app.ts';

/**
 * The tracks timeline under the stats box: one row per enabled track of the current model's controller,
 * its clip's span with a cursor at the track's time, its weight as the bar's fill, and its callback keys
 * (clip markers) as ticks that flash when they fire. Plain 2D canvas, no GL; drawn from the page's
 * animation-frame loop at most 30 times a second and only while shown. Hidden without a model or a clip.
 * Clicking and dragging it seeks (timeline-seek.ts), so it shows for a single clip too.
 */

/** Row height, canvas width and the label column's width before the bars, CSS pixels. */
export const ROW = 16;
export const WIDTH = 260;
export const LABEL = 86;
/** How long a fired marker stays lit (ms). */
const FLASH_MS = 350;
const MAX_ROWS = 8;

export class Timeline {
  readonly canvas: HTMLCanvasElement;
  private readonly g: CanvasRenderingContext2D | null;
  private lastDraw = 0;
  private seenFired = 0;
  /** Per (clip, marker), the time it last fired (performance.now ms); rebuilt per model. */
  private flashAt: Float64Array[] = [];
  private model: unknown = null;
  private visible = true;
  /** Where the pointer hovers over the bars (CSS px from the left edge; -1: not over them): a seek guide is drawn there. */
  hoverX = -1;

  constructor(parent: HTMLElement, private readonly app: App) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'timeline';
    this.canvas.setAttribute('aria-label', 'Tracks timeline: each enabled track with its time and markers; click or drag to seek');
    this.canvas.width = WIDTH * devicePixelRatio;
    this.canvas.height = ROW * devicePixelRatio;
    this.canvas.style.width = `${WIDTH}px`;
    this.canvas.style.height = `${ROW}px`;
    this.canvas.style.display = 'block';
    this.canvas.style.marginTop = '4px';
    this.canvas.hidden = true;
    parent.appendChild(this.canvas);
    // Drawn by the CPU (a strip this small costs it nothing) rather than by a GPU-backed canvas. Its first draw
    // still makes the page's shared GPU context, a synchronous call to the GPU process: under a software GPU busy
    // drawing the model, 200–300 ms of this thread once, right after the first model's first frame.
    this.g = this.canvas.getContext('2d', { willReadFrequently: true });
  }

  setVisible(visible: boolean): void {
    this.visible = visible;
    if (!visible) this.canvas.hidden = true;
  }

  /** Called every animation frame; redraws at most every 33 ms. */
  frame(now: number): void {
    const m = this.app.current;
    const g = this.g;
    if (!m || !g || !this.visible) {
      this.canvas.hidden = true;
      return;
    }
    const c = m.player.controller;
    if (this.model !== m) {
      this.model = m;
      this.flashAt = m.scene.clips.map((_, i) => new Float64Array(c.markerCount(i)).fill(-Infinity));
      this.seenFired = c.firedCount;
    }
    // Newly fired markers light up (the ring holds the last 32; older ones were shown already or are gone).
    const fresh = Math.min(32, c.firedCount - this.seenFired);
    for (let k = 0; k < fresh; k++) {
      const row = this.flashAt[c.firedClip(k)];
      const i = c.firedMarker(k);
      if (row && i < row.length) row[i] = now;
    }
    this.seenFired = c.firedCount;
    if (now - this.lastDraw < 33) return;
    this.lastDraw = now;
    let rows = 0;
    for (let t = 0; t < c.trackCount && rows < MAX_ROWS; t++) {
      if (!c.trackEnabled(t) || c.trackClip(t) < 0) continue;
      rows++;
    }
    this.canvas.hidden = rows === 0;
    if (this.canvas.hidden) return;
    const dpr = devicePixelRatio;
    const h = rows * ROW;
    if (this.canvas.height !== Math.round(h * dpr)) {
      this.canvas.height = Math.round(h * dpr);
      this.canvas.style.height = `${h}px`;
    }
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, WIDTH, h);
    g.font = '10px ui-monospace, Menlo, Consolas, monospace';
    g.textBaseline = 'middle';
    let y = 0;
    const barX = LABEL;
    const barW = WIDTH - LABEL - 2;
    for (let t = 0; t < c.trackCount && y < h; t++) {
      const clip = c.trackClip(t);
      if (!c.trackEnabled(t) || clip < 0) continue;
      const name = m.scene.clips[clip]!.name;
      const w = Math.max(0, Math.min(1, c.trackWeight(t)));
      const duration = c.trackDuration(t);
      g.fillStyle = c.trackPriority(t) === 'high' ? '#f0c674' : '#cfd6df';
      g.fillText(name.length > 11 ? `${name.slice(0, 10)}…` : name, 2, y + ROW / 2);
      g.fillStyle = 'rgba(255,255,255,0.12)';
      g.fillRect(barX, y + 3, barW, ROW - 6);
      g.fillStyle = c.trackAdditive(t) ? 'rgba(178,148,255,0.55)' : 'rgba(110,170,255,0.55)';
      g.fillRect(barX, y + 3, barW * w, ROW - 6);
      const count = c.markerCount(clip);
      // Keys added from the page (skinlab.addMarker) grow the row (only then: no per-frame allocation).
      if (this.flashAt[clip] !== undefined && this.flashAt[clip]!.length !== count) this.flashAt[clip] = new Float64Array(count).fill(-Infinity);
      const flashes = this.flashAt[clip];
      for (let i = 0; i < count; i++) {
        const x = barX + (duration > 0 ? (c.marker(clip, i).time / duration) * barW : 0);
        const lit = flashes !== undefined && now - flashes[i]! < FLASH_MS;
        g.fillStyle = lit ? '#ffe14d' : '#8a939e';
        g.fillRect(x - (lit ? 1.5 : 0.5), y + (lit ? 0 : 2), lit ? 3 : 1, lit ? ROW : ROW - 4);
      }
      const cx = barX + (duration > 0 ? (c.trackTime(t) / duration) * barW : 0);
      g.fillStyle = '#ffffff';
      g.fillRect(cx - 1, y + 1, 2, ROW - 2);
      y += ROW;
    }
    if (this.hoverX >= LABEL) {
      // Cyan, unlike the grey markers and the white cursor; a notch at the top of each row.
      const gx = Math.min(this.hoverX, WIDTH - 2);
      g.fillStyle = 'rgba(120,225,255,0.85)';
      g.fillRect(gx - 0.5, 0, 1, h);
      for (let r = 0; r < h; r += ROW) g.fillRect(gx - 2.5, r, 5, 2);
    }
  }
}

/** The track drawn in row `row` (frame()'s rule: enabled tracks with a clip, in order, MAX_ROWS at most), or -1. */
export function trackOfRow(c: { trackCount: number; trackEnabled(t: number): boolean; trackClip(t: number): number }, row: number): number {
  let r = 0;
  for (let t = 0; t < c.trackCount && r < MAX_ROWS; t++) {
    if (!c.trackEnabled(t) || c.trackClip(t) < 0) continue;
    if (r === row) return t;
    r++;
  }
  return -1;
}
