import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import playwrightConfig from '../../playwright.config.ts';
import { findBuiltin } from '../app/builtins.ts';
import { buildManifest, describeShot, manifestText, type Manifest, type ManifestEntry, type RecordApi, type RecordRequest, type ShardInfo, type Shot } from '../app/record-plan.ts';
import { parseScreenshotsArgs, SCREENSHOTS_USAGE, UsageError, type ScreenshotsArgs } from './shots-args.ts';
import { coverageMask, encodeMask, MASK_DIR } from './shots-coverage.ts';
import { modelParam, startShotsServer, type ModelTarget } from './shots-server.ts';
import { shardRange } from './shots-shard.ts';

/**
 * `npm run screenshots -- --model … --out DIR`: serves the built site (dist/) and the model's files on
 * 127.0.0.1, opens the page in headless Chromium with the browser tests' flags (playwright.config.ts:
 * SwiftShader WebGL2, device scale factor 1), and records each planned shot through the page's
 * `window.skinlab.recordPlan/capture` — the same code the in-app Record folder runs — into DIR as PNGs
 * plus manifest.json (src/app/record-plan.ts), and each shot's coverage mask into DIR/masks/ (drawn once
 * more with the floor off, shots-coverage.ts). `--shard I/N` records only the I-th slice of the plan
 * (shots-shard.ts). Exit status: 0 done, 1 the page or browser failed,
 * 2 bad arguments or no build.
 */

type RecordWindow = Window & { skinlab: RecordApi & { info(): Record<string, unknown>; set(params: Record<string, unknown>): Promise<void> } };

/** A failure to report as one `error:` line (exit 1). */
export class ShotsError extends Error {
  override readonly name = 'ShotsError';
}

/** Decides how to hand a --model value to the page. */
export function modelTarget(model: string): ModelTarget {
  if (/^https?:\/\//i.test(model)) return { kind: 'url', url: model };
  if (existsSync(model)) return { kind: 'file', path: resolve(model) };
  if (findBuiltin(model)) return { kind: 'builtin', id: model };
  throw new UsageError(`--model ${JSON.stringify(model)}: not a built-in model id, an existing file or an http(s) URL`);
}

/** The model's name in the manifest: a built-in id, a local file's base name, or the URL as given. */
function manifestModel(target: ModelTarget): string {
  return target.kind === 'builtin' ? target.id : target.kind === 'file' ? target.path.split(/[\\/]/).pop()! : target.url;
}

/** Waits for the page's readiness (docs/api.md#readiness-and-errors); throws ShotsError with the page's error text. */
async function waitReady(page: Page, timeoutMs: number, what: string): Promise<void> {
  try {
    await page.waitForFunction(() => ['ready', 'error'].includes(document.documentElement.dataset.state ?? ''), undefined, { timeout: timeoutMs });
  } catch {
    throw new ShotsError(`${what}: the page was not ready after ${timeoutMs / 1000} s`);
  }
  const state = await page.evaluate(() => document.documentElement.dataset.state);
  if (state !== 'ready') {
    const text = (await page.locator('#error').textContent().catch(() => null))?.trim();
    throw new ShotsError(`${what}: the page reported an error: ${text || '(no message)'}`);
  }
}

export interface PageRecording {
  manifest: Manifest;
  /** PNG bytes by file name. */
  files: Map<string, Uint8Array>;
  /** Coverage mask PNGs by the shot's file name (empty unless asked for). */
  masks: Map<string, Uint8Array>;
}

/** What `recordOnPage` records beyond the shots' images. */
export interface RecordOptions {
  /** Record only this slice of the plan; the manifest says which. */
  shard?: ShardInfo | null;
  /** Also record each shot's coverage mask. */
  masks?: boolean;
}

/**
 * The shot's coverage mask (`png`: the shot as captured, base64). With the floor on, the shot is drawn again
 * with it off, where everything but the model is the clear colour, and the floor is turned back on; with
 * the floor already off (`--set grid=0`) the shot itself is that image.
 */
async function captureMask(page: Page, shot: Shot, png: string, timeoutMs: number): Promise<Uint8Array> {
  const grid = await page.evaluate(() => (window as unknown as RecordWindow).skinlab.info().grid !== false);
  let gridless = png;
  if (grid) {
    try {
      await page.evaluate(() => (window as unknown as RecordWindow).skinlab.set({ grid: 0 }));
      const result = await withTimeout(
        page.evaluate((s) => (window as unknown as RecordWindow).skinlab.capture(s), shot),
        timeoutMs,
        `${describeShot(shot)}: no coverage image after ${timeoutMs / 1000} s`,
      );
      gridless = result.png;
    } finally {
      await page.evaluate(() => (window as unknown as RecordWindow).skinlab.set({ grid: 1 }));
    }
  }
  const image = PNG.sync.read(Buffer.from(gridless, 'base64'));
  return new Uint8Array(encodeMask(coverageMask(image), image.width, image.height));
}

/**
 * Records a request on a page that has the model loaded and is ready. The page's own recorder plans and
 * renders; this only moves the bytes. `onShot` reports progress. Shared by the CLI and the browser tests.
 */
export async function recordOnPage(
  page: Page,
  request: RecordRequest,
  params: Record<string, string>,
  model: string,
  onShot: (index: number, total: number, line: string) => void = () => {},
  timeoutMs = 120_000,
  options: RecordOptions = {},
): Promise<PageRecording> {
  const hasApi = await page.evaluate(() => typeof (window as unknown as RecordWindow).skinlab?.recordPlan === 'function');
  if (!hasApi) throw new ShotsError('this build of the page has no recorder (window.skinlab.recordPlan): rebuild it with npm run build');
  let plan: Awaited<ReturnType<RecordApi['recordPlan']>>;
  try {
    plan = await page.evaluate((r) => (window as unknown as RecordWindow).skinlab.recordPlan(r), { ...request, modelName: model });
  } catch (e) {
    throw new ShotsError(pageMessage(e));
  }
  const files = new Map<string, Uint8Array>();
  const masks = new Map<string, Uint8Array>();
  const entries: ManifestEntry[] = [];
  const shard = options.shard ?? null;
  const [start, end] = shard ? shardRange(plan.shots.length, shard) : [0, plan.shots.length];
  for (let i = start; i < end; i++) {
    const { skipped, ...shot } = plan.shots[i]!;
    if (skipped !== null) {
      onShot(i, plan.shots.length, `skip  ${describeShot(shot)}: ${skipped}`);
      entries.push({ ...shot, status: 'skipped', reason: skipped });
      continue;
    }
    onShot(i, plan.shots.length, `shot  ${shot.file}`);
    let result: Awaited<ReturnType<RecordApi['capture']>>;
    try {
      result = await withTimeout(
        page.evaluate((s) => (window as unknown as RecordWindow).skinlab.capture(s), shot),
        timeoutMs,
        `${describeShot(shot)}: no image after ${timeoutMs / 1000} s`,
      );
    } catch (e) {
      throw new ShotsError(`${describeShot(shot)}: ${pageMessage(e)}`);
    }
    files.set(shot.file, new Uint8Array(Buffer.from(result.png, 'base64')));
    entries.push({ ...shot, status: 'ok', pose: result.pose });
    if (options.masks) {
      try {
        masks.set(shot.file, await captureMask(page, shot, result.png, timeoutMs));
      } catch (e) {
        throw new ShotsError(`${describeShot(shot)}: ${pageMessage(e)}`);
      }
    }
  }
  const whole = buildManifest('cli', plan, request, params, entries);
  // A shard says which slice it is, before its list of shots.
  const { shots, ...head } = whole;
  const manifest: Manifest = shard ? { ...head, shard: { index: shard.index, total: shard.total }, shots } : whole;
  return { manifest, files, masks };
}

function pageMessage(e: unknown): string {
  const text = (e as Error)?.message ?? String(e);
  // page.evaluate wraps the page's exception: keep the page's own message.
  const m = /(?:Error|RecordRequestError): (.*)/.exec(text);
  return (m ? m[1]! : text).split('\n')[0]!.trim();
}

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(message)), ms);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

/** Runs a whole recording from parsed arguments; returns the manifest written to args.out. */
export async function runScreenshots(args: ScreenshotsArgs, log: (line: string) => void = () => {}): Promise<Manifest> {
  const dist = resolve(args.dist);
  if (!existsSync(join(dist, 'index.html'))) {
    throw new UsageError(`${args.dist}/index.html is missing: build the site first with npm run build (or pass --dist DIR)`);
  }
  const target = modelTarget(args.model);
  const launch = playwrightConfig.use?.launchOptions ?? {};
  const executablePath = args.chromium ?? launch.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new UsageError(`no browser at ${executablePath}: install Chromium (bash scripts/ensure-chromium.sh) or pass --chromium PATH`);

  const server = await startShotsServer(dist, target);
  const browser = await chromium.launch({ ...launch, executablePath, headless: true });
  try {
    const { width, height } = args.request.size;
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    page.on('console', (m) => {
      // The page looks for companion files under several spellings; the misses are expected 404s.
      if (m.type() === 'error' && !/^Failed to load resource: .* 404/.test(m.text())) log(`page error: ${m.text()}`);
    });
    page.on('pageerror', (e) => log(`page error: ${e.message}`));
    const query = new URLSearchParams({ model: modelParam(target), gui: '0', ...args.params });
    const t0 = performance.now();
    await page.goto(`${server.url}?${query}`);
    await waitReady(page, args.timeoutMs, `loading ${args.model}`);
    log(`loaded ${args.model} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const options: RecordOptions = { shard: args.shard ?? null, masks: args.masks ?? true };
    const recording = await recordOnPage(page, args.request, args.params, manifestModel(target), (i, n, line) => log(`[${i + 1}/${n}] ${line}`), args.timeoutMs, options);
    mkdirSync(args.out, { recursive: true });
    for (const [name, png] of recording.files) writeFileSync(join(args.out, name), png);
    if (recording.masks.size > 0) mkdirSync(join(args.out, MASK_DIR), { recursive: true });
    for (const [name, png] of recording.masks) writeFileSync(join(args.out, MASK_DIR, name), png);
    writeFileSync(join(args.out, 'manifest.json'), manifestText(recording.manifest));
    return recording.manifest;
  } finally {
    await browser.close();
    await server.close();
  }
}

async function main(argv: readonly string[]): Promise<number> {
  let args: ScreenshotsArgs | null;
  try {
    args = parseScreenshotsArgs(argv);
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n${SCREENSHOTS_USAGE}\n`);
    return 2;
  }
  if (!args) {
    process.stdout.write(`${SCREENSHOTS_USAGE}\n`);
    return 0;
  }
  const t0 = performance.now();
  try {
    const manifest = await runScreenshots(args, (line) => process.stderr.write(`${line}\n`));
    const ok = manifest.shots.filter((s) => s.status === 'ok').length;
    const skipped = manifest.shots.length - ok;
    const shard = manifest.shard ? `, shard ${manifest.shard.index}/${manifest.shard.total}` : '';
    process.stdout.write(`${ok} images${skipped ? ` (${skipped} skipped)` : ''}${shard} of ${manifest.model} at ${manifest.size.width}x${manifest.size.height} → ${args.out}/manifest.json in ${((performance.now() - t0) / 1000).toFixed(1)} s (${manifest.renderer})\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n`);
    return e instanceof UsageError ? 2 : 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`error: ${(e as Error)?.message ?? String(e)}\n`);
      process.exit(1);
    },
  );
}
