import { linearScale, logScale, tickLabel } from './chart-scale.ts';

/**
 * The benchmark overlay's charts as SVG elements (no chart library): a horizontal bar chart of one model's
 * techniques, and a line chart of crowd frame time against N on log-log axes. Builds DOM only; the data comes
 * from the report (bench-view.ts), the scales from chart-scale.ts.
 */

const NS = 'http://www.w3.org/2000/svg';
const PALETTE = ['#6cb4ff', '#f5a25d', '#7bd88f', '#e06c75', '#c792ea', '#e5c07b', '#56d4d4', '#ff9ec7', '#a0a8b8', '#b3e05c'];

export function seriesColour(i: number): string {
  return PALETTE[i % PALETTE.length]!;
}

function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, parent?: Element): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent?.appendChild(e);
  return e;
}

function text(parent: Element, x: number, y: number, s: string, attrs: Record<string, string | number> = {}): SVGTextElement {
  const t = el('text', { x, y, fill: '#cfd6e0', 'font-size': 11, ...attrs }, parent);
  t.textContent = s;
  return t;
}

export interface Bar {
  readonly id: string;
  readonly ms: number;
  /** A mark after the value (a flagged GPU figure). */
  readonly flag?: boolean;
}

/** One model's techniques, fastest first as given: a bar each, value in ms at its end. */
export function barChart(title: string, unit: string, bars: readonly Bar[], colourOf: (id: string) => string, width = 340): SVGSVGElement {
  const rowH = 16;
  const left = 92;
  const right = 58;
  const top = 22;
  const height = top + bars.length * rowH + 24;
  const svg = el('svg', { width, height, viewBox: `0 0 ${width} ${height}`, class: 'bench-chart', role: 'img', 'aria-label': title });
  text(svg, 0, 13, title, { 'font-weight': 'bold', 'font-size': 12 });
  const x = linearScale(bars.map((b) => b.ms), left, width - right, 3);
  const axisY = top + bars.length * rowH + 2;
  for (const t of x.ticks) {
    const px = x.map(t);
    el('line', { x1: px, x2: px, y1: top - 2, y2: axisY, stroke: '#3a404c', 'stroke-width': 1 }, svg);
    text(svg, px, axisY + 13, tickLabel(t), { 'text-anchor': 'middle', 'font-size': 10, fill: '#8d96a5' });
  }
  text(svg, width - 2, axisY + 13, unit, { 'text-anchor': 'end', 'font-size': 10, fill: '#8d96a5' });
  bars.forEach((b, i) => {
    const y = top + i * rowH;
    text(svg, left - 6, y + 11, b.id, { 'text-anchor': 'end' });
    const w = Math.max(1, x.map(b.ms) - left);
    el('rect', { x: left, y: y + 2, width: w, height: rowH - 5, fill: colourOf(b.id), rx: 2 }, svg);
    text(svg, left + w + 4, y + 11, `${formatMs(b.ms)}${b.flag ? ' ⚠' : ''}`, { 'font-size': 10 });
  });
  return svg;
}

export interface Series {
  readonly name: string;
  readonly points: readonly { n: number; ms: number }[];
}

/** Frame time against N, both axes log 10, a line and dots per series, a legend on top. */
export function lineChart(title: string, unit: string, series: readonly Series[], width = 520, height = 260): SVGSVGElement {
  const svg = el('svg', { width, height, viewBox: `0 0 ${width} ${height}`, class: 'bench-chart', role: 'img', 'aria-label': title });
  text(svg, 0, 13, title, { 'font-weight': 'bold', 'font-size': 12 });
  const left = 48;
  const bottom = height - 28;
  const top = 54;
  const right = width - 12;
  const all = series.flatMap((s) => s.points);
  const x = logScale(all.map((p) => p.n), left, right);
  const y = logScale(all.map((p) => p.ms), bottom, top);
  for (const t of x.ticks) {
    const px = x.map(t);
    el('line', { x1: px, x2: px, y1: top, y2: bottom, stroke: '#3a404c' }, svg);
    text(svg, px, bottom + 14, tickLabel(t), { 'text-anchor': 'middle', 'font-size': 10, fill: '#8d96a5' });
  }
  for (const t of y.ticks) {
    const py = y.map(t);
    el('line', { x1: left, x2: right, y1: py, y2: py, stroke: '#3a404c' }, svg);
    text(svg, left - 4, py + 3, tickLabel(t), { 'text-anchor': 'end', 'font-size': 10, fill: '#8d96a5' });
  }
  text(svg, right, bottom + 26, 'N (instances, log)', { 'text-anchor': 'end', 'font-size': 10, fill: '#8d96a5' });
  text(svg, 2, top - 8, `${unit} (log)`, { 'font-size': 10, fill: '#8d96a5' });
  let lx = 0;
  series.forEach((s, i) => {
    const c = seriesColour(i);
    const pts = [...s.points].filter((p) => p.ms > 0).sort((a, b) => a.n - b.n);
    if (pts.length > 1) el('polyline', { points: pts.map((p) => `${x.map(p.n).toFixed(1)},${y.map(p.ms).toFixed(1)}`).join(' '), fill: 'none', stroke: c, 'stroke-width': 2 }, svg);
    for (const p of pts) el('circle', { cx: x.map(p.n), cy: y.map(p.ms), r: 3, fill: c }, svg);
    el('rect', { x: lx, y: 20, width: 10, height: 10, fill: c }, svg);
    text(svg, lx + 14, 29, s.name);
    lx += 24 + s.name.length * 6.5;
  });
  return svg;
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toPrecision(2);
}
