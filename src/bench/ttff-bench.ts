import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from '@playwright/test';
import { modelParam, startShotsServer, type ModelTarget, type ShotsServer } from '../cli/shots-server.ts';
import type { FirstFrame } from '../app/first-frame.ts';
import type { ThreeGltfFirstFrame } from './three-gltf-page.ts';
import type { Metric } from './metric.ts';
import { dracoScenePath } from './draco-scene.ts';
import { median } from './timing.ts';

/**
 * Time to first frame in the page (the `ttff` part of src/bench/browser.ts): a fresh page opened on
 * `?model=…` until the first frame drawn with the model is finished — the app's stats().firstFrame
 * (src/app/first-frame.ts) — against three.js for the glTF files: bench/three-gltf.html (GLTFLoader,
 * renderer.compile, one render, gl.finish; src/bench/three-gltf-page.ts) on the same bytes from the same server.
 *
 * Fair by construction: both pages are timed on their own clock from navigation start (performance.now() at the
 * finished frame: the page's scripts, the fetch, the parse, textures, shaders and the draw all inside); each round
 * opens each side in a new browser context (an empty HTTP cache; the server sends no-store as well) half a
 * second after the previous one closed (SETTLE_MS: its teardown is not charged to the next page), the order
 * alternating between rounds; one round first is not counted (the OS's file cache, Chromium's shader disk cache
 * is per context and starts empty each time). The medians of the rounds are reported. Neither page is touched
 * until it says it is done: the bench asks through the DevTools protocol, injecting nothing (until()).
 *
 * Rows: ttff_<id>_ms (ours, from navigation), ttff_<id>_load_ms (ours, from the model asked for: stats().firstFrameMs,
 * with its parts in the note), ttff_<id>_threejs_ms and ttff_<id>_ratio_vs_threejs (three ms / ours ms) for glTF.
 * The peer draws the model alone; our first frame also draws the stage (the key light's shadow map, the floor that
 * receives it, the grid). ttff_<id>_threejs_stage_ms and ttff_<id>_ratio_vs_threejs_stage time the peer page
 * drawing that stage as well (`stage=1`: a shadow-casting key light, a shadow catcher and a grid), in the same rounds.
 * LittlestTokyo (4 MB, Draco) is taken from SKINLAB_TTFF_DIR or ../shared/corpus-gltf when present; the synthetic
 * Draco scene (draco-scene.ts: 60 compressed meshes, 240 animated nodes, 3 shared textures) is made when missing.
 * SKINLAB_TTFF_MODELS: a comma list of row ids (tiny_x, dawn_high, fox_glb, …) to measure only those.
 */

interface TtffModel {
  /** Row id. */
  readonly id: string;
  /** A built-in (page query) or a local file served beside the site. */
  readonly builtin?: string;
  readonly path?: string;
  /** Measure three.js on the same file. */
  readonly peer: boolean;
}

const SHARED = '../shared/corpus-gltf';

/** LittlestTokyo.glb under SKINLAB_TTFF_DIR or the shared glTF corpus (two levels deep), or null. */
function findLittlestTokyo(): string | null {
  for (const dir of [process.env.SKINLAB_TTFF_DIR, SHARED]) {
    if (!dir || !existsSync(dir)) continue;
    const stack = [{ dir, depth: 0 }];
    while (stack.length > 0) {
      const { dir: d, depth } = stack.pop()!;
      for (const name of readdirSync(d)) {
        const full = join(d, name);
        if (name.toLowerCase() === 'littlesttokyo.glb') return full;
        if (depth < 2 && statSync(full).isDirectory()) stack.push({ dir: full, depth: depth + 1 });
      }
    }
  }
  return null;
}

/** The rows' models; `dracoScene`: the synthetic large Draco scene's path (draco-scene.ts), or null to leave it out. */
export function ttffModels(log: (line: string) => void, dracoScene: string | null = null): TtffModel[] {
  const models: TtffModel[] = [
    { id: 'tiny_x', builtin: 'model=tiny', peer: false },
    { id: 'dawn_high', builtin: 'model=dawn&detail=high', peer: false },
  ];
  const files: [string, string][] = [
    ['fox_glb', `${SHARED}/khronos/Fox.glb`],
    ['cesiumman_glb', `${SHARED}/khronos/CesiumMan.glb`],
    ['cesiumman_draco_gltf', `${SHARED}/khronos/CesiumMan-Draco/CesiumMan.gltf`],
    ['robotexpressive_glb', `${SHARED}/threejs/RobotExpressive.glb`],
  ];
  if (dracoScene) files.push(['draco_scene_glb', dracoScene]);
  const tokyo = findLittlestTokyo();
  if (tokyo) files.push(['littlesttokyo_glb', tokyo]);
  else log(`ttff littlesttokyo_glb: skipped, LittlestTokyo.glb is absent (looked in SKINLAB_TTFF_DIR and ${SHARED})`);
  for (const [id, path] of files) {
    if (existsSync(path)) models.push({ id, path: resolve(path), peer: true });
    else log(`ttff ${id}: skipped, ${path} is absent`);
  }
  return models;
}

const READY_MS = 300_000;

/** The WebGL renderer string of the first page measured (logged once per run). */
let rendererName = '';

/**
 * Waits until `expression` (evaluated in the page) is true, asking through the DevTools protocol every POLL_MS:
 * nothing is injected into the page (Playwright's waitForFunction would evaluate its own script of some
 * hundred kilobytes on the page's thread while the page starts, delaying whichever page is measured).
 */
async function until(page: Page, expression: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const deadline = Date.now() + READY_MS;
    for (;;) {
      const r = await cdp.send('Runtime.evaluate', { expression, returnByValue: true });
      if (r.result.value === true) return;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
      await new Promise((res) => setTimeout(res, POLL_MS));
    }
  } finally {
    await cdp.detach().catch(() => {});
  }
}

const POLL_MS = 20;
/** Pause before each fresh page (runTtffBench's once()). */
const SETTLE_MS = 500;

/** Our page, fresh: the finished first frame's figures (stats().firstFrame). */
async function ours(page: Page, url: string): Promise<FirstFrame> {
  await page.goto(url, { waitUntil: 'commit' });
  await until(page, `['ready', 'error'].includes(document.documentElement.dataset.state ?? '')`);
  const result = await page.evaluate(() => ({ state: document.documentElement.dataset.state, ff: window.skinlab.stats().firstFrame, renderer: String(window.skinlab.info().renderer), error: document.getElementById('error')?.textContent ?? '' }));
  rendererName ||= result.renderer;
  if (result.state !== 'ready' || !result.ff) throw new Error(`the page reported an error: ${result.error.trim() || '(no message)'}`);
  return result.ff;
}

/** The three.js peer page, fresh. */
async function peer(page: Page, url: string): Promise<ThreeGltfFirstFrame> {
  await page.goto(url, { waitUntil: 'commit' });
  await until(page, 'window.threeGltf !== undefined');
  const r = await page.evaluate(() => window.threeGltf);
  if (r.error) throw new Error(`three.js peer: ${r.error}`);
  return r;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

export interface TtffBenchOptions {
  readonly browser: Browser;
  readonly dist: string;
  readonly context: BrowserContextOptions;
  readonly quick: boolean;
  readonly log: (line: string) => void;
}

export async function runTtffBench(opts: TtffBenchOptions): Promise<Metric[]> {
  const { browser, log } = opts;
  const rounds = opts.quick ? 3 : 7;
  const out: Metric[] = [];
  rendererName = '';
  let rendererLogged = false;
  const only = process.env.SKINLAB_TTFF_MODELS?.split(',').map((x) => x.trim());
  const wanted = (id: string): boolean => !only || only.includes(id);
  for (const m of ttffModels(log, wanted('draco_scene_glb') ? await dracoScenePath() : null)) {
    if (only && !only.includes(m.id)) continue;
    const target: ModelTarget = m.path ? { kind: 'file', path: m.path } : { kind: 'builtin', id: 'default' };
    const server: ShotsServer = await startShotsServer(opts.dist, target);
    try {
      const query = m.builtin ?? `model=${modelParam(target)}`;
      const oursUrl = `${server.url}?${query}`;
      const peerUrl = `${server.url}bench/three-gltf.html?model=../${modelParam(target)}&w=${opts.context.viewport?.width ?? 800}&h=${opts.context.viewport?.height ?? 600}`;
      const samples: { ours: FirstFrame[]; three: ThreeGltfFirstFrame[]; staged: ThreeGltfFirstFrame[] } = { ours: [], three: [], staged: [] };
      const once = async <T>(run: (page: Page) => Promise<T>): Promise<T> => {
        // The browser settles first: the previous page's context is torn down (its GPU objects released by the
        // GPU process, its renderer exiting) before the next page starts, so neither side pays for the other.
        await new Promise((res) => setTimeout(res, SETTLE_MS));
        const context = await browser.newContext(opts.context);
        try {
          const page = await context.newPage();
          page.on('pageerror', (e) => log(`page error (ttff ${m.id}): ${e.message}`));
          return await run(page);
        } finally {
          await context.close();
        }
      };
      for (let r = 0; r <= rounds; r++) {
        const steps: (() => Promise<void>)[] = [
          async () => {
            const ff = await once((p) => ours(p, oursUrl));
            if (r > 0) samples.ours.push(ff);
          },
        ];
        if (m.peer) {
          steps.push(async () => {
            const t = await once((p) => peer(p, peerUrl));
            if (r > 0) samples.three.push(t);
          });
          steps.push(async () => {
            const t = await once((p) => peer(p, `${peerUrl}&stage=1`));
            if (r > 0) samples.staged.push(t);
          });
        }
        if (r % 2 === 1) steps.reverse();
        for (const s of steps) await s();
      }
      const med = (f: (x: FirstFrame) => number): number => round1(median(samples.ours.map(f)));
      const page = med((x) => x.pageMs);
      const load = med((x) => x.totalMs);
      const parts = `fetch ${med((x) => x.fetchMs)}, parse (worker) ${med((x) => x.parseMs)}, prepare ${med((x) => x.prepareMs)}, upload ${med((x) => x.uploadMs)}, shaders ${med((x) => x.shadersMs)}, wait ${med((x) => x.waitMs)}, draw ${med((x) => x.drawMs)}`;
      const what = m.path ? basename(m.path) : query;
      out.push({ name: `ttff_${m.id}_ms`, value: page, unit: 'ms', note: `${what}: a fresh page (new context, empty cache) from navigation start to the first frame drawn with the model and finished (stats().firstFrame.pageMs), median of ${rounds}` });
      out.push({ name: `ttff_${m.id}_load_ms`, value: load, unit: 'ms', note: `${what}: from the model asked for to that frame (stats().firstFrameMs); medians of the parts, ms: ${parts}` });
      let line = `ttff ${m.id}: ${page} ms from navigation (load ${load} ms: ${parts})`;
      if (m.peer && samples.three.length > 0) {
        const tm = (f: (x: ThreeGltfFirstFrame) => number): number => round1(median(samples.three.map(f)));
        const three = tm((x) => x.pageMs);
        const threeParts = `fetch ${tm((x) => x.fetchMs)}, GLTFLoader.parseAsync ${tm((x) => x.parseMs)}, renderer + compile ${tm((x) => x.compileMs)}, render + finish ${tm((x) => x.drawMs)}; fetch started at ${tm((x) => x.startMs)}`;
        out.push({ name: `ttff_${m.id}_threejs_ms`, value: three, unit: 'ms', note: `${what}: three.js ${'r' + (await threeRevision())} page (bench/three-gltf.html), same server, same fresh-context rule, from navigation start to the first render finished; medians, ms: ${threeParts}` });
        out.push({ name: `ttff_${m.id}_ratio_vs_threejs`, value: Math.round((three / page) * 100) / 100, unit: 'x', note: 'three.js ms / ours ms, page clocks from navigation start (above 1: skinlab draws its first frame sooner)' });
        line += `; three.js ${three} ms (${threeParts}); ratio ${(three / page).toFixed(2)}`;
      }
      if (m.peer && samples.staged.length > 0) {
        const staged = round1(median(samples.staged.map((x) => x.pageMs)));
        const drawn = round1(median(samples.staged.map((x) => x.drawMs)));
        out.push({ name: `ttff_${m.id}_threejs_stage_ms`, value: staged, unit: 'ms', note: `${what}: the same three.js page drawing the stage skinlab's first frame draws (stage=1: the key light's PCF shadow map cast by the model, sized as ours (render/shadow-size.ts), a shadow catcher floor, a grid); median ms, render + finish ${drawn} of it` });
        out.push({ name: `ttff_${m.id}_ratio_vs_threejs_stage`, value: Math.round((staged / page) * 100) / 100, unit: 'x', note: 'three.js with the stage ms / ours ms (both pages draw the model, its shadow, the floor and the grid)' });
        line += `; three.js with the stage ${staged} ms, ratio ${(staged / page).toFixed(2)}`;
      }
      if (rendererName && !rendererLogged) {
        log(`ttff renderer: ${rendererName}`);
        rendererLogged = true;
      }
      log(line);
    } finally {
      await server.close();
    }
  }
  return out;
}

let revision: string | null = null;
async function threeRevision(): Promise<string> {
  revision ??= (await import('three')).REVISION;
  return revision;
}
