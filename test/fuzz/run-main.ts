import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_OPTIONS, describeFailures, runCampaign } from './campaign.ts';
import { CURRENT_LOADER, describeTime, isFailure, loaderIn, runCase, runCaseAsync, signature, type Loader } from './check.ts';
import { gltfSeedFiles } from './gltf-seeds.ts';
import { runKtx2Fuzz } from './ktx2-fuzz.ts';
import { minimize } from './minimize.ts';
import { packMszip } from './mszip-pack.ts';
import { corpusFiles } from './plan.ts';
import { analyse } from './structure.ts';

/**
 * The fuzz command line (`npm run fuzz -- ...`, or `npx tsx test/fuzz/run.ts ...`):
 *
 *   --minutes N | --seconds N   time budget (default: SKINLAB_FUZZ_MINUTES, else 1 minute)
 *   --seed N                    campaign seed (default: SKINLAB_FUZZ_SEED, else the time)
 *   --workers N                 worker threads (default 1; the suite shares a 2-core machine)
 *   --out DIR                   where failing inputs, failures.tsv and summary.json go (default /tmp/fuzz-failures-<seed>)
 *   --sweep N                   truncation sweep size (default 300 per minute of budget, at most 5000)
 *   --max-cases N               stop after N cases
 *   --slow-ms N / --hang-ms N   a load using more than N ms of the loading thread's CPU time fails / is killed
 *                               (defaults 2000 / 5000); --hang-wall-ms N: killed after N ms of wall time
 *                               whatever its CPU (default 10 × --hang-ms)
 *   --corpus DIR                corpus (default CORPUS_DIR, else ../shared/corpus); --no-generated skips public/models/generated
 *   --no-gltf / --gltf-only     leave out / fuzz only the glTF seeds of test/fixtures/gltf-fuzz (included by default)
 *   --no-ktx2                   leave out the KTX2 decoder's run (ktx2-fuzz.ts), which follows the campaign in this
 *                               process for a tenth of the budget (at least 5 s), its failing inputs written to DIR
 *   --replay FILE [--name N]    load one input in-process (through loadModelAsync) and print the verdict (N: name given to the loader)
 *   --minimize FILE [--name N] [--inner] [--to F]   (.x and .m3d: minimising runs the synchronous loadModel)
 *                               shrink a failing input keeping its failure signature; --inner shrinks the
 *                               decompressed stream of a tzip/bzip file and re-packs it
 *   --against DIR               fuzz, replay or minimise the loaders of another checkout (DIR/src/...), e.g.
 *                               `git archive HEAD src | tar -x -C DIR` to shrink an input a fix no longer fails on
 * Prints the inputs tried and every distinct failure; exits 1 when anything failed.
 */

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function numberOption(args: string[], name: string, fallback: number): number {
  const v = option(args, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`${name} needs a number, got '${v}'`);
  return n;
}

export async function main(args: string[]): Promise<number> {
  const against = option(args, '--against');
  const loader = against === undefined ? CURRENT_LOADER : await loaderIn(against);
  const replay = option(args, '--replay');
  if (replay !== undefined) return await replayOne(replay, option(args, '--name') ?? basename(replay), numberOption(args, '--slow-ms', 2000), loader);
  const toMinimize = option(args, '--minimize');
  if (toMinimize !== undefined) {
    const to = option(args, '--to') ?? `${toMinimize}.min`;
    return minimizeOne(toMinimize, option(args, '--name') ?? basename(toMinimize), args.includes('--inner'), to, loader);
  }

  const envMinutes = Number(process.env.SKINLAB_FUZZ_MINUTES ?? '');
  const minutes = numberOption(args, '--minutes', Number.isFinite(envMinutes) && envMinutes > 0 ? envMinutes : 1);
  const seconds = numberOption(args, '--seconds', minutes * 60);
  const envSeed = Number(process.env.SKINLAB_FUZZ_SEED ?? '');
  const seed = numberOption(args, '--seed', Number.isInteger(envSeed) && process.env.SKINLAB_FUZZ_SEED ? envSeed : Date.now() % 1_000_000) >>> 0;
  const corpus = option(args, '--corpus') ?? process.env.CORPUS_DIR ?? join(repo, '..', 'shared', 'corpus');
  const gltfOnly = args.includes('--gltf-only');
  if (!gltfOnly && !existsSync(corpus)) {
    console.error(`no corpus at ${corpus} (set CORPUS_DIR or --corpus, or --gltf-only)`);
    return 2;
  }
  const files = [
    ...(gltfOnly ? [] : corpusFiles(corpus, args.includes('--no-generated') ? null : join(repo, 'public', 'models', 'generated'))),
    ...(args.includes('--no-gltf') ? [] : gltfSeedFiles(join(here, '..', 'fixtures', 'gltf-fuzz'))),
  ];
  const outDir = option(args, '--out') ?? `/tmp/fuzz-failures-${seed}`;
  console.log(`fuzzing ${files.length} files for ${seconds} s, seed ${seed}; failures go to ${outDir}`);
  const result = await runCampaign({
    ...DEFAULT_OPTIONS,
    files,
    seed,
    seconds,
    maxCases: numberOption(args, '--max-cases', Infinity),
    sweepUnits: numberOption(args, '--sweep', Math.min(5000, Math.round(300 * Math.max(1, seconds / 60)))),
    workers: numberOption(args, '--workers', 1),
    slowMs: numberOption(args, '--slow-ms', DEFAULT_OPTIONS.slowMs),
    hangMs: numberOption(args, '--hang-ms', DEFAULT_OPTIONS.hangMs),
    hangWallMs: numberOption(args, '--hang-wall-ms', 10 * numberOption(args, '--hang-ms', DEFAULT_OPTIONS.hangMs)),
    outDir,
    against: against ?? null,
    log: (line) => console.log(line),
  });
  console.log(`\n${result.tried} inputs tried in ${result.seconds.toFixed(0)} s (seed ${seed}, sweep ${result.sweepCases}): ` +
    `${result.ok} loaded, ${result.loadErrors} LoadError, ${result.failures.length} failures (${result.bySignature.size} distinct); ` +
    `largest allocation total of one input ${result.maxAllocMiB} MiB; ${result.restarts} worker restarts`);
  console.log(`per file: ${result.perFile.map((f) => `${f.name} ${f.tried}`).join(', ')}`);
  for (const line of describeFailures(result)) console.log(`  ${line}`);
  if (result.failures.length > 0) console.log(`failing inputs and failures.tsv in ${outDir}`);
  let ktx2Failures = 0;
  if (!args.includes('--no-ktx2')) {
    const ktx2 = await runKtx2Fuzz(seed, numberOption(args, '--max-cases', Infinity), Math.max(5, seconds / 10), numberOption(args, '--slow-ms', 2000), (c, _v, i) => {
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, `ktx2-${i}.ktx2`), c.bytes);
    });
    ktx2Failures = ktx2.failures.length;
    console.log(`KTX2 decoder: ${ktx2.tried} inputs (seed ${seed}): ${ktx2.ok} decoded, ${ktx2.refused} refused, ${ktx2Failures} failures`);
    for (const line of ktx2.failures) console.log(`  ${line}`);
  }
  return result.failures.length + ktx2Failures > 0 ? 1 : 0;
}

async function replayOne(path: string, name: string, slowMs: number, loader: Loader): Promise<number> {
  const r = await runCaseAsync(new Uint8Array(readFileSync(path)), name, slowMs, loader);
  console.log(`${r.verdict} in ${describeTime(r)}, ${(r.allocated / 1048576).toFixed(1)} MiB allocated\n${r.message}`);
  if (r.stack) console.log(r.stack);
  if (isFailure(r.verdict)) console.log(`signature: ${signature(r)}`);
  return isFailure(r.verdict) ? 1 : 0;
}

function minimizeOne(path: string, name: string, inner: boolean, to: string, loader: Loader): number {
  const original = new Uint8Array(readFileSync(path));
  const first = runCase(original, name, Infinity, loader);
  if (!isFailure(first.verdict)) {
    console.error(`${path} does not fail (${first.verdict}: ${first.message})`);
    return 1;
  }
  const wanted = signature(first);
  console.log(`minimising ${original.length} bytes keeping: ${wanted}`);
  const fails = (b: Uint8Array): boolean => {
    const r = runCase(b, name, Infinity, loader);
    return isFailure(r.verdict) && signature(r) === wanted;
  };
  let out: Uint8Array;
  if (inner) {
    const stream = analyse(original, name).inner?.bytes;
    if (stream === undefined) {
      console.error(`${path}: not a compressed .x whose blocks expand`);
      return 1;
    }
    const pack = (s: Uint8Array): Uint8Array => packMszip(s, 32768);
    const head = stream.subarray(0, 16);
    const body = minimize(stream.subarray(16), (b) => fails(pack(join2(head, b))));
    out = pack(join2(head, body));
  } else out = minimize(original, fails);
  writeFileSync(to, out);
  console.log(`wrote ${out.length} bytes to ${to}`);
  return 0;
}

function join2(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
