import { basename, dirname } from 'node:path';
import { ModelFolder } from './model-files.ts';

/**
 * `inspect --validate`: Khronos glTF-Validator's report on a glTF file, its external files read beside the model
 * by the companion rules of model-files.ts. Node only (CLI).
 */

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

/** Runs Khronos glTF-Validator over the model; its external resources are read next to it (model-files.ts). */
export async function validateGltf(modelPath: string, bytes: Uint8Array): Promise<ValidateSummary> {
  const specifier = 'gltf-validator';
  const loaded = (await import(/* @vite-ignore */ specifier)) as ValidatorModule & { default?: ValidatorModule };
  const validator = loaded.default ?? loaded;
  const folder = new ModelFolder(dirname(modelPath));
  const report = await validator.validateBytes(bytes, {
    uri: basename(modelPath),
    maxIssues: 0,
    writeTimestamp: false,
    externalResourceFunction: (uri: string) => {
      const found = folder.read(uri);
      return found === null ? Promise.reject(new Error(`${uri}: not found next to the model`)) : Promise.resolve(found);
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
