import type { BenchProgress } from '../app/bench/options.ts';
import { rankOrder, timerFlag, NO_TIMER_NOTE } from '../app/bench/rows.ts';
import type { QualityPoseResult } from '../app/bench/quality.ts';
import type { BenchReport } from '../app/bench/runner.ts';
import { barChart, formatMs, lineChart, seriesColour, type Series } from './bench-chart.ts';
import { downloadBlob } from './download.ts';

/**
 * The benchmark overlay (`#bench-view`): while a run goes on, its progress (what is measured, step n of m);
 * then the report — the renderer string and the date, whether GPU times come from the timer extension or wall
 * time stands in, a bar chart of each model's techniques (GPU time per frame where the timer is trusted, else
 * wall), crowd frame time against N (log-log, one line per crowd path and three.js), every row in a table
 * (flagged GPU figures marked), Download JSON (the rows as bench-results.json) and Close; Esc closes.
 * Plain DOM and SVG; no GL.
 */
export class BenchView {
  private readonly root: HTMLElement;
  private readonly body: HTMLElement;
  private readonly status: HTMLElement;
  private readonly download: HTMLButtonElement;
  private report: BenchReport | null = null;

  constructor(parent: HTMLElement) {
    const root = document.createElement('div');
    root.id = 'bench-view';
    root.className = 'bench-view';
    root.setAttribute('role', 'dialog');
    root.setAttribute('aria-label', 'Benchmark');
    root.hidden = true;
    const head = document.createElement('div');
    head.className = 'bench-head';
    const title = document.createElement('strong');
    title.textContent = 'Benchmark';
    this.status = document.createElement('div');
    this.status.className = 'bench-status';
    this.download = document.createElement('button');
    this.download.textContent = 'Download JSON';
    this.download.className = 'bench-download';
    this.download.disabled = true;
    this.download.addEventListener('click', () => this.downloadJson());
    const close = document.createElement('button');
    close.textContent = 'Close';
    close.className = 'bench-close';
    close.title = 'Close (Esc)';
    close.addEventListener('click', () => this.close());
    head.append(title, this.status, this.download, close);
    this.body = document.createElement('div');
    this.body.className = 'bench-body';
    root.append(head, this.body);
    parent.appendChild(root);
    this.root = root;
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && !this.root.hidden) {
        e.stopPropagation();
        this.close();
      }
    }, true);
  }

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  close(): void {
    this.root.hidden = true;
  }

  /** Opens the overlay on a run in progress. */
  progress(p: BenchProgress): void {
    this.root.hidden = false;
    this.download.disabled = true;
    this.status.textContent = `Running… ${p.step} of ${p.steps}: ${p.text}`;
    if (this.report !== null || this.body.childElementCount > 0) {
      this.report = null;
      this.body.replaceChildren();
    }
  }

  error(message: string): void {
    this.root.hidden = false;
    this.status.textContent = `Benchmark failed: ${message}`;
  }

  show(r: BenchReport): void {
    this.report = r;
    this.root.hidden = false;
    this.download.disabled = false;
    const date = r.date.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
    this.status.textContent = `${r.renderer} · ${r.canvas.width}×${r.canvas.height} · ${date} · ${r.seconds.toFixed(0)} s${r.quick ? ' · quick' : ''}`;
    const parts: HTMLElement[] = [];
    const timing = document.createElement('p');
    timing.className = r.timer ? 'bench-note' : 'bench-note bench-warn';
    timing.textContent = r.timer
      ? 'GPU times: EXT_disjoint_timer_query_webgl2, one query over K frames drawn back to back. Wall: the same K frames ended by one readPixels. ⚠ marks a GPU time that disagrees with wall time (then wall time ranks).'
      : `⚠ ${NO_TIMER_NOTE}. Charts show wall time per frame.`;
    parts.push(timing);
    if (r.techniques.length > 0) {
      const sec = section('Techniques: time per frame (shadows off), fastest first');
      const grid = document.createElement('div');
      grid.className = 'bench-grid';
      const ids = [...new Set(r.techniques.flatMap((m) => m.results.map((x) => x.id)))];
      const colour = (id: string): string => seriesColour(ids.indexOf(id));
      for (const m of r.techniques) {
        const order = rankOrder(m.results.map((x) => ({ id: x.id, w: x.off })));
        const kind = order[0]?.kind ?? 'wall';
        const bars = order.map((o) => {
          const w = m.results.find((x) => x.id === o.id)!.off;
          return { id: o.id, ms: o.ms, flag: timerFlag(w.gpuMs, w.wallMs, w.submitMs) !== null };
        });
        grid.appendChild(barChart(`${m.label} — ${kind === 'gpu' ? 'GPU' : 'wall'} ms`, 'ms', bars, colour));
      }
      sec.appendChild(grid);
      parts.push(sec);
    }
    if (r.quality.length > 0) parts.push(qualityTable(r.quality));
    if (r.crowd && r.crowd.sizes.length > 0) {
      const sec = section('Crowd: wall time per frame against N');
      const series: Series[] = r.crowd.paths.map((path) => ({
        name: `skinlab ${path}`,
        points: r.crowd!.sizes.flatMap((c) => c.ours.filter((o) => o.path === path).map((o) => ({ n: c.n, ms: o.w.wallMs }))),
      }));
      const peer = r.crowd.sizes.filter((c) => c.peer).map((c) => ({ n: c.n, ms: c.peer!.wallMs }));
      if (peer.length > 0) series.push({ name: 'three.js', points: peer });
      sec.appendChild(lineChart('tiny.x crowd', 'ms', series));
      parts.push(sec);
    }
    if (r.skipped.length > 0) {
      const p = document.createElement('p');
      p.className = 'bench-note';
      p.textContent = `Left out: ${r.skipped.join('; ')}`;
      parts.push(p);
    }
    const sec = section(`All rows (${r.rows.length})`);
    const table = document.createElement('table');
    table.className = 'bench-table';
    const head = table.createTHead().insertRow();
    for (const h of ['name', 'value', 'unit', 'note']) head.appendChild(document.createElement('th')).textContent = h;
    const tbody = table.createTBody();
    for (const row of r.rows) {
      const tr = tbody.insertRow();
      if (row.note?.includes('FLAGGED')) tr.className = 'bench-flagged';
      tr.insertCell().textContent = row.name;
      const v = tr.insertCell();
      v.textContent = row.unit === 'ms' ? formatMs(row.value) : String(row.value);
      v.className = 'num';
      tr.insertCell().textContent = row.unit;
      const note = tr.insertCell();
      note.textContent = row.note ?? '';
      note.title = row.note ?? '';
    }
    sec.appendChild(table);
    parts.push(sec);
    this.body.replaceChildren(...parts);
  }

  private downloadJson(): void {
    const r = this.report;
    if (!r) return;
    const stamp = r.date.replace(/[:.]/g, '-').replace(/-\d+Z$/, 'Z');
    downloadBlob(new Blob([`${JSON.stringify(r.rows, null, 2)}\n`], { type: 'application/json' }), `bench-results-${stamp}.json`);
  }
}

/** Deformation quality: pose × technique, each cell the volume ratio, the p95 area change and the time per frame. */
function qualityTable(results: readonly QualityPoseResult[]): HTMLElement {
  const sec = section('Deformation quality: volume (posed / rest), p95 |log₂ area change|, ms per frame');
  const table = document.createElement('table');
  table.className = 'bench-table bench-quality';
  const head = table.createTHead().insertRow();
  head.appendChild(document.createElement('th')).textContent = 'pose';
  for (const c of results[0]!.cells) head.appendChild(document.createElement('th')).textContent = c.technique;
  const body = table.createTBody();
  for (const p of results) {
    const tr = body.insertRow();
    tr.insertCell().textContent = p.label;
    for (const c of p.cells) {
      const cell = tr.insertCell();
      cell.className = 'num';
      const volume = c.volume === null ? '—' : `${(c.volume * 100).toFixed(1)} %${c.open ? '*' : ''}`;
      const time = c.ms === null ? '' : ` · ${formatMs(c.ms)} ms${c.msKind === 'wall' ? ' wall' : ''}`;
      cell.textContent = `${volume} · ${c.areaP95.toFixed(3)}${time}`;
    }
  }
  sec.appendChild(table);
  const note = document.createElement('p');
  note.className = 'bench-note';
  note.textContent = 'Figures from each technique\'s GPU readback at a fixed pose (docs/quality.md); * an open mesh. Time per frame from the techniques part where it measured that model (GPU ms, else wall).';
  sec.appendChild(note);
  return sec;
}

function section(title: string): HTMLElement {
  const s = document.createElement('section');
  const h = document.createElement('h3');
  h.textContent = title;
  s.appendChild(h);
  return s;
}
