import { looksLikeGltf } from '../loaders/gltf/gltf-container.ts';
import { loadModelAsync } from '../loaders/load-model.ts';
import { LoadError } from '../model/errors.ts';
import { inspectQuality, inspectQualityTable } from './inspect-quality.ts';
import { INSPECT_USAGE, parseInspectArgs, UsageError, type InspectArgs } from './inspect-args.ts';
import { validateGltf, validateTable } from './inspect-gltf.ts';
import { summarise, table } from './inspect-summary.ts';
import { gltfResources, readModelInput } from './model-files.ts';

/**
 * `npm run inspect -- FILE [--clip NAME|INDEX | --tracks SPEC] [--t SECONDS ...] [--json]`
 * `npm run inspect -- FILE [--clip C | --tracks SPEC] --t T --quality [--techniques a,b] [--json]`: artifact
 * figures per technique at that pose (inspect-quality.ts)
 * `npm run inspect -- FILE --validate [--json]` (glTF: Khronos glTF-Validator's report; exit 1 when it
 * reports errors, 0 when it reports none, whatever the warnings)
 * Loads a model in Node with the page's own loaders (loadModelAsync: a .gltf's external buffers and images
 * are read from the model's folder, inspect-gltf.ts) and prints its summary (docs/api.md#inspect).
 * The command line is parsed by inspect-args.ts (options and FILE in any order).
 * Failure: exit 1 with a single `error:` line on stderr, never a stack trace.
 */

async function main(): Promise<number> {
  let opts: InspectArgs;
  try {
    opts = parseInspectArgs(process.argv.slice(2));
    if (opts.help) {
      process.stdout.write(`${INSPECT_USAGE}\n`);
      return 0;
    }
    const bytes = readModelInput(opts.file);
    if (opts.validate) {
      if (!looksLikeGltf(opts.file, bytes)) throw new UsageError(`${opts.file}: --validate checks glTF files (.gltf, .glb) only, and this is not one`);
      const report = await validateGltf(opts.file, bytes);
      process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : `${validateTable(opts.file, report)}\n`);
      // A gate for CI jobs: errors fail, warnings, infos and hints alone do not.
      return report.errors > 0 ? 1 : 0;
    }
    const scene = await loadModelAsync(opts.file, bytes, gltfResources(opts.file, bytes));
    if (opts.tracks !== null && opts.times.length === 0) throw new UsageError('--tracks poses the model: give the times with --t');
    if (opts.quality) {
      const q = inspectQuality(scene, opts.clip, opts.tracks, opts.times, opts.techniques ?? []);
      process.stdout.write(opts.json ? `${JSON.stringify(q, null, 2)}\n` : `${inspectQualityTable(q)}\n`);
      return 0;
    }
    const summary = summarise(scene, opts.clip, opts.times, opts.tracks);
    process.stdout.write(opts.json ? `${JSON.stringify(summary, null, 2)}\n` : `${table(summary)}\n`);
    return 0;
  } catch (e) {
    const msg = e instanceof LoadError || e instanceof UsageError ? e.message : `internal error: ${(e as Error)?.message ?? String(e)}`;
    process.stderr.write(`error: ${msg.replace(/\n/g, ' ')}\n`);
    return 1;
  }
}

process.exitCode = await main();
