import type { FrameProbe } from './bench/window.ts';
import type { FrameDrawer } from './frame.ts';
import type { LoadedModel } from './loaded-model.ts';
/**
 * Benchmark hooks (`window.skinlab.benchFrames` / `benchSplit`): frames drawn back to back outside
 * requestAnimationFrame, each finished with a 1-pixel readPixels so the GPU work is inside the
 * measurement. Owns nothing; draws through the callback it is given. Allocates: not per frame.
 */

/**
 * `submitMs` is the median time until a frame's commands are issued (animation, palettes, uploads, draw
 * calls; Chromium runs GL in another process, so this is the page's own cost), `frameMs` the median until
 * its pixels are finished.
 */
export function benchSplit(gl: WebGL2RenderingContext, draw: (dt: number, now: number) => void, frames: number): { frameMs: number; submitMs: number } {
  const pixel = new Uint8Array(4);
  const times: number[] = [];
  const submits: number[] = [];
  for (let i = 0; i < frames; i++) {
    const t0 = performance.now();
    draw(1 / 60, t0);
    submits.push(performance.now() - t0);
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    times.push(performance.now() - t0);
  }
  const median = (a: number[]): number => a.sort((x, y) => x - y)[a.length >> 1]!;
  return { frameMs: median(times), submitMs: median(submits) };
}

/**
 * The in-page benchmark's view of a frame (app/bench/window.ts): draws `model` through the frame drawer
 * (stats recorded as in the render loop) and reads that frame's figures.
 */
export function frameProbe(f: FrameDrawer, model: LoadedModel): FrameProbe {
  return {
    draw: (dt, now) => f.draw(model, dt, now),
    cpuAnimUs: () => f.lastCpuUs,
    skinUs: () => f.figures.skinUs,
    drawCalls: () => f.figures.drawCalls,
    setup: () => f.figures.setupUs > 0,
    instances: () => f.figures.instancesDrawn,
    triangles: () => f.figures.crowdTriangles,
    crowdCounts: () => ({
      perLevel: Array.from(f.figures.instancesPerLevel.subarray(0, f.figures.lodLevels)),
      perModel: Array.from(f.figures.drawnPerModel.subarray(0, f.figures.crowdModels)),
    }),
  };
}
