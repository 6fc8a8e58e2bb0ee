import type { Stats } from '../app/app.ts';
import { INFLUENCE_COLOURS, VIEW_SUMMARY, type ViewId } from '../render/views.ts';
import { distortionLegend } from './distortion-legend.ts';
import { GESTURES, SHORTCUTS } from './shortcuts.ts';

/** Phone-sized viewports (below 700 CSS pixels): compact stats, panel starts closed; style.css uses the same width. */
export const NARROW_QUERY = '(max-width: 699.98px)';

/**
 * How long a task (a load, a precompute) runs before its progress box appears. Most loads end sooner: the box
 * would flash for a moment, and every change of it is a frame the browser composites while the page is busiest
 * (an infinite pulse for the indeterminate bar). A longer task shows it, with Cancel, after this delay.
 */
export const PROGRESS_SHOW_DELAY_MS = 400;

/**
 * How long the page's first load may take before the panel is built anyway (main.ts buildChrome, which otherwise
 * builds it just after the first model's first frame is shown): long enough that a usual model's first frame comes
 * first, short enough that a long load (a big file, a slow network) has its panel while it runs.
 */
export const PANEL_BUILD_WAIT_MS = 1000;

/**
 * The page chrome outside lil-gui: the stats box, the error banner (#error, text only), the loading
 * progress bar with Cancel, the drop target highlight and the keyboard help. Plain DOM, no GL.
 */
export class Overlay {
  readonly root: HTMLElement;
  /** The stats box (the tracks timeline hangs under its figures). */
  readonly statsEl: HTMLElement;
  private readonly statsText: HTMLElement;
  /** The teaching views' legend under the figures; rebuilt only when the view or bone changes. */
  private readonly legendEl: HTMLElement;
  private legendKey = '';
  private readonly errorEl: HTMLElement;
  private readonly errorText: HTMLElement;
  private readonly progressEl: HTMLElement;
  private readonly progressText: HTMLElement;
  private readonly progressBar: HTMLElement;
  /** The pending appearance of the progress box (PROGRESS_SHOW_DELAY_MS), or 0. */
  private progressTimer = 0;
  private readonly showProgress = (): void => {
    this.progressTimer = 0;
    this.progressEl.hidden = false;
  };
  private readonly helpEl: HTMLElement;
  private readonly warnEl: HTMLElement;
  private readonly emptyEl: HTMLElement;
  onCancel: () => void = () => {};
  /** Compact stats below 700 CSS pixels. */
  private readonly narrow = window.matchMedia(NARROW_QUERY);

  constructor(parent: HTMLElement) {
    this.root = parent;
    this.statsEl = el('div', 'stats', parent);
    this.statsEl.id = 'stats';
    this.statsEl.hidden = true;
    this.statsText = el('div', '', this.statsEl);
    this.legendEl = el('div', 'legend', this.statsEl);
    this.legendEl.style.whiteSpace = 'normal';
    this.legendEl.style.maxWidth = '46ch';
    this.legendEl.style.marginTop = '4px';
    this.legendEl.hidden = true;
    this.warnEl = el('div', 'warnings', parent);
    this.warnEl.hidden = true;
    this.emptyEl = el('div', 'empty-hint', parent);
    this.emptyEl.textContent = 'No model loaded. Drop a .glb, .gltf (with its .bin and images), .x or .m3d model (with its textures) here, press O to open one, or pick the Walker in the panel.';
    this.emptyEl.hidden = true;
    this.errorEl = el('div', 'error-banner', parent);
    this.errorEl.setAttribute('role', 'alert');
    this.errorText = el('pre', '', this.errorEl);
    this.errorText.id = 'error';
    const close = el('button', 'close', this.errorEl);
    close.textContent = '×';
    close.title = 'Dismiss (Esc)';
    close.addEventListener('click', () => this.error(null));
    this.errorEl.hidden = true;
    this.progressEl = el('div', 'progress', parent);
    this.progressText = el('div', 'progress-text', this.progressEl);
    const track = el('div', 'progress-track', this.progressEl);
    this.progressBar = el('div', 'progress-bar', track);
    const cancel = el('button', 'progress-cancel', this.progressEl);
    cancel.textContent = 'Cancel';
    cancel.addEventListener('click', () => this.onCancel());
    this.progressEl.hidden = true;
    this.helpEl = el('div', 'help', parent);
    this.helpEl.hidden = true;
    this.helpEl.addEventListener('click', () => this.toggleHelp(false));
  }

  error(message: string | null): void {
    this.errorEl.hidden = message === null;
    this.errorText.textContent = message ?? '';
  }

  warnings(list: readonly string[]): void {
    this.warnEl.hidden = list.length === 0;
    this.warnEl.textContent = list.length === 0 ? '' : `⚠ ${list.length} warning${list.length > 1 ? 's' : ''}: ${list.slice(0, 3).join(' · ')}${list.length > 3 ? ' …' : ''}`;
    this.warnEl.title = list.join('\n');
  }

  /**
   * The progress box: `message` (with `fraction` a determinate bar, without it an indeterminate one) or null to
   * end it. The text follows every call at once (it is the page's record of the task, read by its tests); the
   * box itself appears only once a task has lasted PROGRESS_SHOW_DELAY_MS.
   */
  progress(message: string | null, fraction?: number): void {
    if (message === null) {
      clearTimeout(this.progressTimer);
      this.progressTimer = 0;
      this.progressEl.hidden = true;
      return;
    }
    if (this.progressEl.hidden && this.progressTimer === 0) this.progressTimer = window.setTimeout(this.showProgress, PROGRESS_SHOW_DELAY_MS);
    this.progressText.textContent = message;
    this.progressBar.style.width = fraction === undefined ? '100%' : `${Math.round(Math.min(1, fraction) * 100)}%`;
    this.progressBar.classList.toggle('indeterminate', fraction === undefined);
  }

  private lostEl: HTMLElement | null = null;

  /** The "context lost" notice over the canvas (role=status), shown from a WebGL context loss until the page draws again. */
  contextLost(show: boolean): void {
    if (!this.lostEl) {
      if (!show) return;
      this.lostEl = el('div', 'context-lost', this.root);
      this.lostEl.id = 'context-lost';
      this.lostEl.setAttribute('role', 'status');
      this.lostEl.textContent = 'WebGL context lost — restoring…';
    }
    this.lostEl.hidden = !show;
  }

  /** The hint shown while no model has loaded (after a failed first load). */
  empty(show: boolean): void {
    this.emptyEl.hidden = !show;
  }

  stats(s: Stats, info: { bones: number; vertices: number; triangles: number; technique: string; clip: string | null; t: number }): void {
    if (this.statsVisible) this.statsEl.hidden = false;
    this.legend(s.view as ViewId, s.bone);
    if (this.narrow.matches) {
      // Phones: the figures a user checks at a glance (style.css shrinks the box to match).
      this.statsText.textContent =
        `${s.fps > 0 ? `${s.fps.toFixed(0)} fps` : 'measuring…'}  ${info.technique}\n` +
        `draws ${s.drawCalls}  bones ${info.bones}\n` +
        `${info.clip ?? '—'}  t ${info.t.toFixed(2)} s` +
        (s.warning ? `\n⚠ ${s.warning}` : '');
      return;
    }
    this.statsText.textContent =
      `${s.fps > 0 ? `${s.fps.toFixed(0)} fps` : 'measuring…'}   ${info.technique}\n` +
      // Per-frame times only once a whole second is averaged: a single first frame says little.
      `CPU anim  ${s.fps > 0 ? s.cpuAnimUs.toFixed(0) : '…'} µs/frame   skin ${s.fps > 0 ? s.cpuSkinUs.toFixed(0) : '…'} µs/frame\n` +
      (s.oneTime ? `one-time  ${s.oneTime.ms.toFixed(1)} ms: ${s.oneTime.what}\n` : '') +
      `palette   ${s.paletteBytes} B  (uploaded ${s.uploadBytes.toFixed(0)} B/frame)\n` +
      `draws     ${s.drawCalls}  (mesh ${s.meshDrawCalls})   groups ${s.groups}\n` +
      `passes    ${s.passes}   skinned ${s.skinnedVerticesPerFrame} vertices/frame` +
      (s.feedbackBytes > 0 ? `   stream-out ${formatKiB(Math.round(s.feedbackBytes))}/frame\n` : '\n') +
      `vertices  ${formatKiB(s.vertexBytes)}   duplicated ${s.duplicatedVertices}\n` +
      (s.crowd > 1 ? `instances ${s.instancesDrawn} drawn   ${s.instancesCulled} culled   ${formatCount(s.crowdTriangles)} triangles/frame\n` : '') +
      (s.crowd > 1 && s.instancesPerModel.length > 1 ? `models    ${s.instancesPerModel.join(' + ')} (drawn per model)\n` : '') +
      (s.crowd > 1 && s.instancesPerLevel.length > 1 ? `LOD       ${s.instancesPerLevel.join(' + ')} (near → far)\n` : '') +
      (s.wanderUsPerInstance > 0 ? `wander    ${s.wanderUsPerInstance.toFixed(1)} µs/instance   footsteps ${s.footstepsPerSecond.toFixed(0)}/s\n` : '') +
      (s.approximatedTriangles > 0 ? `⚠ ${s.approximatedTriangles} triangles need more bones than a group: influences reduced\n` : '') +
      (s.warning ? `⚠ ${s.warning}\n` : '') +
      `bones     ${info.bones}   vertices ${info.vertices}   triangles ${info.triangles}\n` +
      `clip      ${info.clip ?? '—'}  t = ${info.t.toFixed(3)} s\n` +
      `quality   volume ${s.volumeRatio === null ? '—' : `${(s.volumeRatio * 100).toFixed(1)} %`}   area change p95 ${s.areaP95 === null ? '—' : `${s.areaP95.toFixed(2)} (|log2|)`}` +
      (s.view === 'diff' && s.diffPixels >= 0 ? `\ndiff      ${s.diffPixels} px differ from software (${(s.diffShare * 100).toFixed(2)} %)` : '');
  }

  /** The legend of the teaching views: the weight ramp with the bone, the influence colours, the diff's marks. */
  private legend(view: ViewId, bone: string): void {
    const key = `${view}|${bone}`;
    if (key === this.legendKey) return;
    this.legendKey = key;
    const box = this.legendEl;
    box.replaceChildren();
    const teaching = view === 'weights' || view === 'influences' || view === 'groups' || view === 'diff' || view === 'distortion' || view === 'tangents';
    box.hidden = !teaching;
    if (!teaching) return;
    const line = el('div', '', box);
    line.textContent = `${view}: ${VIEW_SUMMARY[view]}`;
    if (view === 'distortion') {
      distortionLegend(box);
      return;
    }
    const row = el('div', '', box);
    row.style.display = 'flex';
    row.style.alignItems = 'center';
    row.style.gap = '6px';
    row.style.marginTop = '3px';
    const swatch = (css: string, label: string, width = 14): void => {
      const s = el('span', '', row);
      s.style.display = 'inline-block';
      s.style.width = `${width}px`;
      s.style.height = '10px';
      s.style.background = css;
      s.style.borderRadius = '2px';
      const t = el('span', '', row);
      t.textContent = label;
    };
    const rgb = (c: readonly number[]): string => `rgb(${c.map((x) => Math.round(x * 255)).join(',')})`;
    if (view === 'weights') {
      // Samples of glsl/include/debug_views.glsl weightRamp at 0, 0.25, 0.5, 0.75, 1.
      swatch('linear-gradient(90deg, rgb(73,88,221), rgb(40,218,192), rgb(158,249,76), rgb(255,152,33), rgb(171,24,4))', '', 90);
      const t = el('span', '', row);
      t.textContent = `0 → 1   bone ${bone || '—'}`;
    } else if (view === 'influences') {
      INFLUENCE_COLOURS.forEach((c, i) => swatch(rgb(c), String(i + 1)));
    } else if (view === 'groups') {
      for (let g = 0; g < 6; g++) swatch(rgb(groupColour(g)), g === 5 ? '…' : '', 10);
    } else if (view === 'tangents') {
      // lit.frag VIEW_TANGENTS: 0.5 + 0.5 · t per axis; grey where a mesh has no tangents.
      swatch('rgb(255,128,128)', '+x');
      swatch('rgb(128,255,128)', '+y');
      swatch('rgb(128,128,255)', '+z');
      swatch('rgb(140,140,140)', 'no tangents');
    } else {
      swatch('rgb(242,20,13)', 'small');
      swatch('rgb(255,235,51)', 'large difference');
    }
  }

  toggleHelp(show = this.helpEl.hidden): void {
    // Filled the first time it is shown: nobody waits for it while the page starts.
    if (show && this.helpEl.childElementCount === 0) fillHelp(this.helpEl);
    this.helpEl.hidden = !show;
  }

  get helpVisible(): boolean {
    return !this.helpEl.hidden;
  }

  private statsVisible = true;

  setVisible(visible: boolean): void {
    this.statsVisible = visible;
    this.statsEl.hidden = !visible || this.statsText.textContent === '';
    this.root.classList.toggle('chrome-hidden', !visible);
  }
}

/** glsl/include/debug_views.glsl groupColour, for the legend's samples. */
function groupColour(g: number): [number, number, number] {
  const h = (((g * 0.61803399 + 0.12) % 1) + 1) % 1;
  const v = g % 2 === 0 ? 0.95 : 0.75;
  const sat = g % 3 === 0 ? 0.55 : 0.75;
  const k = [0, 4, 2].map((o) => Math.min(1, Math.max(0, Math.abs((((h * 6 + o) % 6) + 6) % 6 - 3) - 1)));
  return [0, 1, 2].map((i) => v * (1 + (k[i]! - 1) * sat)) as [number, number, number];
}

function formatKiB(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(0)} KiB`;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, parent: HTMLElement): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  parent.appendChild(e);
  return e;
}

/** A count in plain units, thousands (k) or millions (M), three significant digits. */
function formatCount(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toPrecision(3)} M`;
  if (n >= 1e4) return `${(n / 1e3).toPrecision(3)} k`;
  return String(Math.round(n));
}

/**
 * The help's content: the gestures, then every keyboard shortcut of the key handler's table (shortcuts.ts),
 * in two columns so that it fits an 800×600 window without scrolling; each key row carries its action in
 * `data-action`.
 */
function fillHelp(help: HTMLElement): void {
  el('h2', '', help).textContent = 'skinlab — keys, mouse and touch';
  const columns = el('div', 'help-columns', help);
  const rows: [string, string, string][] = [...GESTURES.map(([k, w]): [string, string, string] => [k, w, '']), ...SHORTCUTS.map((s): [string, string, string] => [s.label, s.help, s.action])];
  const half = Math.ceil(rows.length / 2);
  for (const part of [rows.slice(0, half), rows.slice(half)]) {
    const table = el('table', '', columns);
    for (const [keys, what, action] of part) {
      const tr = el('tr', '', table);
      if (action) tr.dataset.action = action;
      el('td', '', tr).textContent = keys;
      el('td', '', tr).textContent = what;
    }
  }
  el('p', '', help).innerHTML =
    "Drop a <code>.glb</code>, <code>.gltf</code>, <code>.x</code> or <code>.m3d</code> model, together with its files (a <code>.gltf</code>'s <code>.bin</code> and images, a <code>.x</code>'s textures), anywhere on the page.";
}
