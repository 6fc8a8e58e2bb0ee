/**
 * `npm run bench [-- --quick] [-- --only cpu,alloc,load,quality,browser] [-- --browser PATH] [-- --gpu]`: the performance
 * suite (docs/api.md#bench, docs/api.md#bench-resultsjson). `--browser PATH`: the Chromium executable for the browser part; `--gpu`: draw with
 * the machine's GPU (ANGLE on Vulkan, src/bench/browser.ts GPU_ARGS) instead of SwiftShader.
 *
 * Parts: cpu (anim-bench: CPU animation vs three.js; tracks-bench: two layered controller tracks vs three.js's
 * AnimationMixer with two actions; wander-bench: the wander crowd per instance; bake-bench: the crowd bake's time and texture size), alloc (alloc-bench: GCs and heap growth over 100k
 * frames), load (load-bench: loaders vs assimpjs; gltf-load-bench: the glTF reader vs three.js's GLTFLoader), quality
 * (quality-bench: volume ratio and area change of linear, dual-quat, cor and ddm at fixed poses, and the
 * cor/ddm precompute times), browser (src/bench/browser.ts when present: its
 * runBrowserBench({ quick, browser, gpu }) is imported dynamically; a missing module or a throw is reported and skipped).
 * Prints a table and writes bench-results.json (an array of Metric) in the project root. Run from the
 * project root (corpus paths are relative to it). Exit status 1 only when a Node part fails.
 */

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runAllocBench } from '../bench/alloc-bench.ts';
import { runAnimBench } from '../bench/anim-bench.ts';
import { runBakeBench } from '../bench/bake-bench.ts';
import { runQualityBench } from '../bench/quality-bench.ts';
import { runGltfLoadBench } from '../bench/gltf-load-bench.ts';
import { runLoadBench } from '../bench/load-bench.ts';
import { runTracksBench } from '../bench/tracks-bench.ts';
import { runWanderBench } from '../bench/wander-bench.ts';
import type { Metric } from '../bench/metric.ts';

const PARTS = ['cpu', 'alloc', 'load', 'quality', 'browser'] as const;
type Part = (typeof PARTS)[number];

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Args {
  quick: boolean;
  only: Set<Part>;
  browser?: string;
  gpu: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  let quick = false;
  let gpu = false;
  let browser: string | undefined;
  let only = new Set<Part>(PARTS);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') quick = true;
    else if (a === '--gpu') gpu = true;
    else if (a === '--browser' || a.startsWith('--browser=')) {
      browser = a === '--browser' ? argv[++i] : a.slice('--browser='.length);
      if (!browser) throw new Error('--browser needs the path of a Chromium executable');
    }
    else if (a === '--only' || a.startsWith('--only=')) {
      const list = a === '--only' ? argv[++i] ?? '' : a.slice('--only='.length);
      const names = list.split(',').map((s) => s.trim()).filter((s) => s !== '');
      for (const n of names) {
        if (!(PARTS as readonly string[]).includes(n)) throw new Error(`unknown part "${n}" in --only (parts: ${PARTS.join(', ')})`);
      }
      only = new Set(names as Part[]);
    } else if (a === '--help' || a === '-h') {
      console.log(`usage: npm run bench [-- --quick] [-- --only ${PARTS.join(',')}] [-- --browser PATH] [-- --gpu]`);
      process.exit(0);
    } else throw new Error(`unknown option ${a} (try --help)`);
  }
  return { quick, only, browser, gpu };
}

function format(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (v !== 0 && Math.abs(v) < 0.01) return v.toExponential(2);
  if (Number.isInteger(v)) return String(v);
  return v.toFixed(Math.abs(v) >= 100 ? 1 : 2);
}

function printTable(metrics: readonly Metric[]): void {
  const w = Math.max(4, ...metrics.map((m) => m.name.length));
  console.log(`\n${'name'.padEnd(w)}  ${'value'.padStart(12)}  unit`);
  console.log(`${'-'.repeat(w)}  ${'-'.repeat(12)}  ----`);
  for (const m of metrics) console.log(`${m.name.padEnd(w)}  ${format(m.value).padStart(12)}  ${m.unit}`);
}

interface BrowserModule {
  runBrowserBench?: (opts: { quick: boolean; browser?: string; gpu?: boolean }) => Promise<Metric[]>;
}

async function runBrowser(quick: boolean, browser: string | undefined, gpu: boolean): Promise<Metric[]> {
  const file = join(root, 'src', 'bench', 'browser.ts');
  if (!existsSync(file)) {
    console.log('browser: skipped (src/bench/browser.ts does not exist)');
    return [];
  }
  try {
    const mod = (await import(pathToFileURL(file).href)) as BrowserModule;
    if (typeof mod.runBrowserBench !== 'function') {
      console.log('browser: skipped (src/bench/browser.ts does not export runBrowserBench)');
      return [];
    }
    return await mod.runBrowserBench({ quick, browser, gpu });
  } catch (e) {
    console.log(`browser: skipped (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
    return [];
  }
}

async function main(): Promise<void> {
  const { quick, only, browser, gpu } = parseArgs(process.argv.slice(2));
  process.chdir(root);
  const log = (line: string): void => console.log(line);
  const metrics: Metric[] = [];
  const started = performance.now();
  const timed = async (part: Part, fn: () => Promise<Metric[]> | Metric[]): Promise<void> => {
    if (!only.has(part)) return;
    const t0 = performance.now();
    console.log(`== ${part}${quick ? ' (quick)' : ''}`);
    metrics.push(...(await fn()));
    console.log(`== ${part}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  await timed('cpu', () => [...runAnimBench({ quick, log }), ...runTracksBench({ quick, log }), ...runWanderBench({ quick, log }), ...runBakeBench({ quick, log })]);
  await timed('alloc', () => runAllocBench({ quick, log }));
  await timed('load', async () => [...(await runLoadBench({ quick, log })), ...(await runGltfLoadBench({ quick, log }))]);
  await timed('quality', () => runQualityBench({ quick, log }));
  await timed('browser', () => runBrowser(quick, browser, gpu));
  printTable(metrics);
  const out = join(root, 'bench-results.json');
  writeFileSync(out, `${JSON.stringify(metrics, null, 2)}\n`);
  console.log(`\n${metrics.length} metrics → ${out} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

main().catch((e: unknown) => {
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
