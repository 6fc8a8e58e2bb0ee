import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { externalUris, looksLikeGltf, readGltfContainer } from '../loaders/gltf/gltf-container.ts';
import { MAX_MODEL_BYTES } from '../loaders/load-model.ts';

/**
 * What `inspect` needs for glTF beyond the loader: the external files a .gltf names, found next to the model,
 * and Khronos glTF-Validator's report (`--validate`). Files are looked up by the URI's base name (decoded)
 * in the model's own folder and nowhere else, so a URI such as `../../etc/passwd` reads at most
 * `<folder>/passwd`. Node only (CLI).
 */

/** The files `json` names, keyed by the URI exactly as written; missing ones are left out (the loader names them). */
export function gltfResources(modelPath: string, bytes: Uint8Array): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  if (!looksLikeGltf(modelPath, bytes)) return out;
  const { buffers, images } = externalUris(readGltfContainer(basename(modelPath), bytes).json);
  for (const uri of [...buffers, ...images]) {
    const file = resourcePath(modelPath, uri);
    if (file !== null) out.set(uri, new Uint8Array(readFileSync(file)));
  }
  return out;
}

/** `<model folder>/<base name of the decoded URI>` when that is a file no larger than the model limit, else null. */
export function resourcePath(modelPath: string, uri: string): string | null {
  let name: string;
  try {
    name = decodeURIComponent(uri.split(/[?#]/)[0]!);
  } catch {
    name = uri;
  }
  name = basename(name.replace(/\\/g, '/'));
  if (name === '' || name === '.' || name === '..') return null;
  const file = join(dirname(modelPath), name);
  try {
    return existsSync(file) && statSync(file).isFile() && statSync(file).size <= MAX_MODEL_BYTES ? file : null;
  } catch {
    return null;
  }
}

interface ValidatorMessage {
  readonly code: string;
  readonly message: string;
  readonly severity: number;
  readonly pointer?: string;
  readonly offset?: number;
}

interface ValidatorReport {
  readonly validatorVersion?: string;
  readonly issues: {
    readonly numErrors: number;
    readonly numWarnings: number;
    readonly numInfos: number;
    readonly numHints: number;
    readonly messages: readonly ValidatorMessage[];
    readonly truncated?: boolean;
  };
}

interface ValidatorModule {
  validateBytes(data: Uint8Array, options: Record<string, unknown>): Promise<ValidatorReport>;
}

/** Messages shown per report. */
export const VALIDATE_SHOWN = 8;
const SEVERITY = ['error', 'warning', 'info', 'hint'];

export interface ValidateSummary {
  readonly validator: string;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  readonly hints: number;
  /** The first VALIDATE_SHOWN messages, errors first. */
  readonly messages: { severity: string; code: string; message: string; where: string }[];
}

/** Runs Khronos glTF-Validator over the model; its external resources are read next to it as above. */
export async function validateGltf(modelPath: string, bytes: Uint8Array): Promise<ValidateSummary> {
  const specifier = 'gltf-validator';
  const loaded = (await import(/* @vite-ignore */ specifier)) as ValidatorModule & { default?: ValidatorModule };
  const validator = loaded.default ?? loaded;
  const report = await validator.validateBytes(bytes, {
    uri: basename(modelPath),
    maxIssues: 0,
    writeTimestamp: false,
    externalResourceFunction: (uri: string) => {
      const file = resourcePath(modelPath, uri);
      return file === null ? Promise.reject(new Error(`${uri}: not found next to the model`)) : Promise.resolve(new Uint8Array(readFileSync(file)));
    },
  });
  const i = report.issues;
  const messages = [...i.messages]
    .sort((a, b) => a.severity - b.severity)
    .slice(0, VALIDATE_SHOWN)
    .map((m) => ({ severity: SEVERITY[m.severity] ?? String(m.severity), code: m.code, message: m.message, where: m.pointer ?? (m.offset !== undefined ? `byte offset ${m.offset}` : '') }));
  return { validator: report.validatorVersion ?? '', errors: i.numErrors, warnings: i.numWarnings, infos: i.numInfos, hints: i.numHints, messages };
}

export function validateTable(file: string, v: ValidateSummary): string {
  const lines = [`${file}: glTF-Validator ${v.validator}: ${v.errors} errors, ${v.warnings} warnings, ${v.infos} infos, ${v.hints} hints`];
  for (const m of v.messages) lines.push(`  ${m.severity.padEnd(7)} ${m.code}${m.where ? ` at ${m.where}` : ''}: ${m.message}`);
  const total = v.errors + v.warnings + v.infos + v.hints;
  if (total > v.messages.length) lines.push(`  (${total - v.messages.length} more; --json lists the first ${VALIDATE_SHOWN} too)`);
  return lines.join('\n');
}
