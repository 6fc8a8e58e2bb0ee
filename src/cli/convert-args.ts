import { UsageError } from './inspect-args.ts';

/**
 * The command line of `convert`. Pure: parsing only, no file system. Every problem is a UsageError
 * whose message is meant for the user (convert prints it as `error: ...` and exits 1).
 */

export const CONVERT_USAGE = `usage: npm run convert -- IN OUT.glb|OUT.gltf

  IN          any model skinlab reads (.x, .m3d, .gltf, .glb); its textures are looked for next to it
              (by base name, case-insensitively, never outside IN's folder)
  OUT.glb     one binary glTF file, images inside
  OUT.gltf    OUT.gltf (JSON, images as data: URIs) and OUT.bin beside it`;

export interface ConvertArgs {
  input: string;
  output: string;
  /** OUT ends with .glb. */
  binary: boolean;
  help: boolean;
}

export function parseConvertArgs(argv: readonly string[]): ConvertArgs {
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') return { input: '', output: '', binary: true, help: true };
    if (a === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (/^--?[A-Za-z]/.test(a)) throw new UsageError(`unknown option ${a}; ${CONVERT_USAGE.split('\n')[0]}`);
    positional.push(a);
  }
  if (positional.length !== 2) throw new UsageError(CONVERT_USAGE.split('\n')[0]!);
  const [input, output] = positional as [string, string];
  const ext = /\.(glb|gltf)$/i.exec(output)?.[1]?.toLowerCase();
  if (!ext) throw new UsageError(`${output}: the output must end with .glb or .gltf`);
  return { input, output, binary: ext === 'glb', help: false };
}
