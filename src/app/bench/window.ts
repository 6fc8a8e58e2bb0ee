import type { GpuTimer } from '../../gpu/gpu-timer.ts';

/**
 * One measurement window of the in-page benchmark: K frames drawn back to back outside requestAnimationFrame
 * with nothing that waits for the GPU between them, wrapped in ONE GPU timer query, then finished by one
 * 1-pixel readPixels. The same K frames give every figure:
 * - `gpuMs`: the query's GPU time / K (null without the timer extension, or when the query was disjoint);
 * - `wallMs`: performance.now() from the first frame's start until the readPixels returns, / K (the pipeline
 *   is drained by a readPixels before the window starts, so no earlier work is counted);
 * - `submitMs`: median time to issue one frame's commands (the page's CPU side: animation, palettes, uploads,
 *   draw calls; Chromium runs GL in another process, so this is not the GPU's work);
 * - `cpuAnimUs`, `skinUs`: mean per frame of the probe's figures (the stats box's animation and technique µs),
 *   frames that did one-time work left out; `drawCalls`: the last frame's.
 * Used by the page (app/bench/*) and by the three.js peer page (src/bench/three-crowd-page.ts). Allocates per
 * window, never per frame of the page's render loop.
 */

/** What a window needs of the thing it draws. */
export interface FrameProbe {
  /** Draws one frame `dt` seconds after the last at clock time `now` (ms). */
  draw(dt: number, now: number): void;
  /** The last frame's CPU animation time, µs (0 when the drawer has no such figure). */
  cpuAnimUs(): number;
  /** The last frame's technique time (palette, CPU skinning, uploads), µs. */
  skinUs(): number;
  /** The last frame's draw calls. */
  drawCalls(): number;
  /** True when the last frame did one-time work (a compile, a technique's first mesh state). */
  setup(): boolean;
  /** The last frame's instances drawn (crowds: after culling); absent where the drawer has no such figure. */
  instances?(): number;
  /** The last frame's triangles drawn by instanced crowd draws (every pass); absent where the drawer has no such figure. */
  triangles?(): number;
  /**
   * The last frame's crowd instances per drawn level (nearest first, the impostors last when drawn; summed over
   * the models) and per model (the camera pass's); absent where the drawer has no such figure. Allocates: read
   * once after the windows.
   */
  crowdCounts?(): { perLevel: number[]; perModel: number[] };
}

export interface WindowResult {
  frames: number;
  wallMs: number;
  submitMs: number;
  gpuMs: number | null;
  cpuAnimUs: number;
  skinUs: number;
  drawCalls: number;
  /** The last frame's instances drawn (crowds, after culling); -1 when the probe has no such figure. */
  instances: number;
  /** The last frame's crowd triangles (every pass); -1 when the probe has no such figure. */
  triangles: number;
}

const pixel = new Uint8Array(4);

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Draws `frames` frames through `probe` inside one timer query (see the file's contract). */
export async function measureWindow(gl: WebGL2RenderingContext, timer: GpuTimer, probe: FrameProbe, frames: number): Promise<WindowResult> {
  const k = Math.max(1, Math.floor(frames));
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
  const submits: number[] = [];
  let anim = 0;
  let skin = 0;
  let counted = 0;
  const t0 = performance.now();
  timer.begin();
  for (let i = 0; i < k; i++) {
    const s = performance.now();
    probe.draw(1 / 60, s);
    submits.push(performance.now() - s);
    if (!probe.setup()) {
      anim += probe.cpuAnimUs();
      skin += probe.skinUs();
      counted++;
    }
  }
  const gpu = timer.end();
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
  const wallMs = (performance.now() - t0) / k;
  const gpuTotal = await gpu;
  return {
    frames: k,
    wallMs,
    submitMs: median(submits),
    gpuMs: gpuTotal === null ? null : gpuTotal / k,
    cpuAnimUs: counted > 0 ? anim / counted : NaN,
    skinUs: counted > 0 ? skin / counted : NaN,
    drawCalls: probe.drawCalls(),
    instances: probe.instances ? probe.instances() : -1,
    triangles: probe.triangles ? probe.triangles() : -1,
  };
}

/** The best (lowest) of several windows of the same setting, figure by figure; gpuMs null if any was null. */
export function bestOf(windows: readonly WindowResult[]): WindowResult {
  const min = (f: (w: WindowResult) => number): number => {
    const v = Math.min(...windows.map(f).filter((x) => Number.isFinite(x)));
    return Number.isFinite(v) ? v : NaN;
  };
  const gpus = windows.map((w) => w.gpuMs);
  const last = windows[windows.length - 1]!;
  return {
    frames: last.frames,
    wallMs: min((w) => w.wallMs),
    submitMs: min((w) => w.submitMs),
    gpuMs: gpus.every((g) => g !== null) ? Math.min(...(gpus as number[])) : null,
    cpuAnimUs: min((w) => w.cpuAnimUs),
    skinUs: min((w) => w.skinUs),
    drawCalls: last.drawCalls,
    instances: last.instances,
    triangles: last.triangles,
  };
}
