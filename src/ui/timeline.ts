import type { App } from '../app/app.ts';

/**
 * The tracks timeline under the stats box: one row per enabled track of the current model's controller,
 * its clip's span with a cursor at the track's time, its weight as the bar's fill, and its callback keys
 * (clip markers) as ticks that flash when they fire. An inline SVG, not a canvas: a 2D canvas's first draw
 * makes the page's shared GPU context, a synchronous call to the GPU process that, under a software GPU busy
 * drawing a big model, held this thread for over a second right after that model's first frame; SVG is painted
 * with the rest of the page. Updated from the page's animation-frame loop at most 30 times a second and only
 * while shown, through the elements' numeric attributes (no per-frame allocation; the rows are rebuilt when
 * the tracks or their keys change). Hidden without a model or a clip. Clicking and dragging it seeks
 * (timeline-seek.ts), so it shows for a single clip too.
 */

/** Row height, strip width and the label column's width before the bars, CSS pixels. */
export const ROW = 16;
export const WIDTH = 260;
export const LABEL = 86;
/** How long a fired marker stays lit (ms). */
const FLASH_MS = 350;
const MAX_ROWS = 8;
const BAR_W = WIDTH - LABEL - 2;

const SVG = 'http://www.w3.org/2000/svg';

/** One row's elements; `keys` holds one tick per marker of `clip`. */
interface Row {
  readonly g: SVGGElement;
  readonly label: SVGTextElement;
  readonly fill: SVGRectElement;
  readonly cursor: SVGRectElement;
  readonly notch: SVGRectElement;
  keys: SVGRectElement[];
  /** Which ticks are drawn lit (to touch a tick's class only when it changes). */
  lit: Uint8Array;
  clip: number;
  labelText: string;
  priority: string;
  additive: boolean;
}

function el<K extends keyof SVGElementTagNameMap>(tag: K, parent: Element, cls = ''): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  if (cls) e.setAttribute('class', cls);
  parent.appendChild(e);
  return e;
}

function rect(parent: Element, cls: string, x: number, y: number, w: number, h: number): SVGRectElement {
  const r = el('rect', parent, cls);
  r.x.baseVal.value = x;
  r.y.baseVal.value = y;
  r.width.baseVal.value = w;
  r.height.baseVal.value = h;
  return r;
}

export class Timeline {
  /** The strip (class `timeline`): what timeline-seek.ts listens on. */
  readonly element: SVGSVGElement;
  private lastDraw = 0;
  private seenFired = 0;
  /** Per (clip, marker), the time it last fired (performance.now ms); rebuilt per model. */
  private flashAt: Float64Array[] = [];
  private model: unknown = null;
  private visible = true;
  private readonly rows: Row[] = [];
  private shownRows = 0;
  /** The strip's height attribute (CSS px). */
  private height = ROW;
  private readonly guide: SVGRectElement;
  /** Where the pointer hovers over the bars (CSS px from the left edge; -1: not over them): a seek guide is drawn there. */
  hoverX = -1;

  constructor(parent: HTMLElement, private readonly app: App) {
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('class', 'timeline');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', 'Tracks timeline: each enabled track with its time and markers; click or drag to seek');
    // Attributes, not the lengths' values: an <svg> not yet in the page has no viewport to resolve its own against.
    svg.setAttribute('width', String(WIDTH));
    svg.setAttribute('height', String(ROW));
    svg.style.display = 'block';
    svg.style.marginTop = '4px';
    svg.style.font = '10px ui-monospace, Menlo, Consolas, monospace';
    this.element = svg;
    for (let i = 0; i < MAX_ROWS; i++) {
      const g = el('g', svg);
      g.transform.baseVal.appendItem(svg.createSVGTransform());
      g.transform.baseVal.getItem(0).setTranslate(0, i * ROW);
      const label = el('text', g, 'label');
      label.setAttribute('x', '2');
      label.setAttribute('y', String(ROW / 2));
      label.setAttribute('dominant-baseline', 'central');
      rect(g, 'bar', LABEL, 3, BAR_W, ROW - 6);
      const fill = rect(g, 'fill', LABEL, 3, 0, ROW - 6);
      const cursor = rect(g, 'cursor', LABEL - 1, 1, 2, ROW - 2);
      const notch = rect(g, 'guide', 0, 0, 5, 2);
      notch.style.display = 'none';
      g.style.display = 'none';
      this.rows.push({ g, label, fill, cursor, notch, keys: [], lit: new Uint8Array(0), clip: -2, labelText: '', priority: '', additive: false });
    }
    this.guide = rect(svg, 'guide', 0, 0, 1, ROW);
    this.guide.style.display = 'none';
    svg.style.display = 'none';
    parent.appendChild(svg);
  }

  setVisible(visible: boolean): void {
    this.visible = visible;
    if (!visible) this.show(false);
  }

  private show(on: boolean): void {
    const d = on ? 'block' : 'none';
    if (this.element.style.display !== d) this.element.style.display = d;
  }

  /** Called every animation frame; redraws at most every 33 ms. */
  frame(now: number): void {
    const m = this.app.current;
    if (!m || !this.visible) {
      this.show(false);
      return;
    }
    const c = m.player.controller;
    if (this.model !== m) {
      this.model = m;
      this.flashAt = m.scene.clips.map((_, i) => new Float64Array(c.markerCount(i)).fill(-Infinity));
      this.seenFired = c.firedCount;
      for (const r of this.rows) r.clip = -2;
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
      const clip = c.trackClip(t);
      if (!c.trackEnabled(t) || clip < 0) continue;
      this.drawRow(this.rows[rows]!, t, clip, now);
      rows++;
    }
    for (let r = rows; r < this.shownRows; r++) this.rows[r]!.g.style.display = 'none';
    for (let r = this.shownRows; r < rows; r++) this.rows[r]!.g.style.display = '';
    this.shownRows = rows;
    this.show(rows > 0);
    if (rows === 0) return;
    const h = rows * ROW;
    if (this.height !== h) {
      this.height = h;
      this.element.setAttribute('height', String(h));
    }
    const hover = this.hoverX >= LABEL;
    const guideShown = this.guide.style.display !== 'none';
    if (hover !== guideShown) {
      const d = hover ? '' : 'none';
      this.guide.style.display = d;
      for (const r of this.rows) r.notch.style.display = d;
    }
    if (hover) {
      // Cyan, unlike the grey markers and the white cursor; a notch at the top of each row.
      const gx = Math.min(this.hoverX, WIDTH - 2);
      this.guide.x.baseVal.value = gx - 0.5;
      this.guide.height.baseVal.value = h;
      for (let r = 0; r < rows; r++) this.rows[r]!.notch.x.baseVal.value = gx - 2.5;
    }
  }

  /** Track `t` (playing `clip`) into `row`: its label, weight, keys and cursor. */
  private drawRow(row: Row, t: number, clip: number, now: number): void {
    const c = (this.app.current!).player.controller;
    const count = c.markerCount(clip);
    // Keys added from the page (skinlab.addMarker) grow the row (only then: no per-frame allocation).
    if (this.flashAt[clip] !== undefined && this.flashAt[clip]!.length !== count) this.flashAt[clip] = new Float64Array(count).fill(-Infinity);
    const duration = c.trackDuration(t);
    if (row.clip !== clip || row.keys.length !== count) this.buildKeys(row, clip, count, duration);
    const priority = c.trackPriority(t);
    if (row.priority !== priority) {
      row.priority = priority;
      row.label.setAttribute('class', priority === 'high' ? 'label high' : 'label');
    }
    const additive = c.trackAdditive(t);
    if (row.additive !== additive) {
      row.additive = additive;
      row.fill.setAttribute('class', additive ? 'fill additive' : 'fill');
    }
    const w = Math.max(0, Math.min(1, c.trackWeight(t)));
    row.fill.width.baseVal.value = BAR_W * w;
    const flashes = this.flashAt[clip];
    for (let i = 0; i < count; i++) {
      const lit = flashes !== undefined && now - flashes[i]! < FLASH_MS ? 1 : 0;
      if (row.lit[i] === lit) continue;
      row.lit[i] = lit;
      const k = row.keys[i]!;
      const x = LABEL + (duration > 0 ? (c.marker(clip, i).time / duration) * BAR_W : 0);
      k.setAttribute('class', lit ? 'key lit' : 'key');
      k.x.baseVal.value = x - (lit ? 1.5 : 0.5);
      k.y.baseVal.value = lit ? 0 : 2;
      k.width.baseVal.value = lit ? 3 : 1;
      k.height.baseVal.value = lit ? ROW : ROW - 4;
    }
    row.cursor.x.baseVal.value = LABEL + (duration > 0 ? (c.trackTime(t) / duration) * BAR_W : 0) - 1;
  }

  /** Makes `row` show `clip`: its name and one tick per key (when the clip or its key count changed). */
  private buildKeys(row: Row, clip: number, count: number, duration: number): void {
    const c = (this.app.current!).player.controller;
    const name = this.app.current!.scene.clips[clip]!.name;
    const text = name.length > 11 ? `${name.slice(0, 10)}…` : name;
    if (row.labelText !== text) {
      row.labelText = text;
      row.label.textContent = text;
    }
    row.clip = clip;
    for (const k of row.keys) k.remove();
    row.keys = [];
    for (let i = 0; i < count; i++) {
      const x = LABEL + (duration > 0 ? (c.marker(clip, i).time / duration) * BAR_W : 0);
      row.keys.push(rect(row.g, 'key', x - 0.5, 2, 1, ROW - 4));
    }
    // The cursor stays above the keys.
    row.g.appendChild(row.cursor);
    row.g.appendChild(row.notch);
    row.lit = new Uint8Array(count);
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
