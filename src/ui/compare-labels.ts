import type { Stats } from '../app/frame-stats.ts';

/**
 * Side-by-side compare's labels: over each half, its technique and its live figures (the cost panel's: CPU
 * skinning µs, bytes uploaded and draw calls per frame, GPU ms where a timer measured it). Plain DOM in the
 * page chrome (hidden with it: `gui=0`, H), never in the canvas, so pictures and recordings stay clean.
 * Updated a few times a second by the composition root, not per frame.
 */

/** One half as its label shows it: A or B, the technique, its stats window, GPU ms when measured. */
export interface CompareHalf {
  side: 'A' | 'B';
  technique: string;
  stats: Stats;
  gpuMs: number | null;
}

/**
 * Extra figures a half's label shows under the cost figures (e.g. artifact metrics: volume ratio, p95 area
 * change): each provider gets the half and returns a line, or null for none. Register with addLabelFigures.
 */
export type LabelFigures = (half: CompareHalf) => string | null;
const extraFigures: LabelFigures[] = [];

/** Adds a provider of one more label line per half (shown in registration order). */
export function addLabelFigures(provider: LabelFigures): void {
  extraFigures.push(provider);
}

/** The lines of a half's label: `A  technique`, then its figures (measuring… until a second is averaged), then the providers'. */
export function compareLabelLines(half: CompareHalf): string[] {
  const st = half.stats;
  const lines = [`${half.side}  ${half.technique}`];
  if (st.fps > 0 && st.technique === half.technique) {
    lines.push(`skin ${st.cpuSkinUs.toFixed(0)} µs  up ${formatBytes(st.uploadBytes)}  draws ${st.drawCalls}` + (half.gpuMs !== null ? `  GPU ${half.gpuMs.toFixed(2)} ms` : ''));
  } else lines.push('measuring…');
  for (const provider of extraFigures) {
    const line = provider(half);
    if (line) lines.push(line);
  }
  return lines;
}

function formatBytes(b: number): string {
  return b >= 10240 ? `${(b / 1024).toFixed(0)} KiB` : `${b.toFixed(0)} B`;
}

/** The two labels, placed at the centre of their halves (the divider's share `split` of the width). */
export class CompareLabels {
  readonly left: HTMLElement;
  readonly right: HTMLElement;

  constructor(layer: HTMLElement) {
    this.left = label(layer, 'left');
    this.right = label(layer, 'right');
  }

  /** Shows the halves' lines, centred in their halves. */
  update(a: CompareHalf, b: CompareHalf, split: number): void {
    this.left.textContent = compareLabelLines(a).join('\n');
    this.right.textContent = compareLabelLines(b).join('\n');
    this.place(split);
  }

  place(split: number): void {
    this.left.style.left = `${(split * 50).toFixed(2)}%`;
    this.right.style.left = `${((split + 1) * 50).toFixed(2)}%`;
  }
}

function label(layer: HTMLElement, side: string): HTMLElement {
  const el = document.createElement('div');
  el.className = `compare-label compare-label-${side}`;
  layer.appendChild(el);
  return el;
}
