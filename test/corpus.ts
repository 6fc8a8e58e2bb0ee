import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';

/**
 * The shared third-party corpus lives beside the repository (../shared/corpus, or CORPUS_DIR). Files of
 * unknown licence are not copied into the project, so tests that need them skip, visibly, without it.
 */
const here = dirname(fileURLToPath(import.meta.url));
export const CORPUS_DIR = process.env.CORPUS_DIR ?? join(here, '..', '..', 'shared', 'corpus');
export const HAVE_CORPUS = existsSync(join(CORPUS_DIR, 'ORACLE.json'));

if (!HAVE_CORPUS) console.warn(`[skinlab tests] SKIPPING corpus tests: no corpus at ${CORPUS_DIR} (set CORPUS_DIR)`);

export function corpusBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(CORPUS_DIR, name)));
}

export interface OracleEntry {
  file: string;
  assimp?: Record<string, unknown>;
  m3dNative?: {
    header: Record<string, number>;
    counted: Record<string, number>;
    clips: { name: string; boneTracks: number; endTime: number; startTime: number }[];
  };
}

export function oracle(file: string): OracleEntry {
  const all = JSON.parse(readFileSync(join(CORPUS_DIR, 'ORACLE.json'), 'utf8')) as OracleEntry[];
  const e = all.find((x) => x.file === file);
  if (!e) throw new Error(`ORACLE.json has no entry for ${file}`);
  return e;
}

/** describe() that runs only with the corpus present. */
export const describeCorpus = HAVE_CORPUS ? describe : describe.skip;
