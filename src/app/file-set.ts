/**
 * The files a user gave the page at once (picked, dropped, or read from a dropped folder), each with its path
 * inside what was given ("Robot/textures/skin.png"; just the name for loose files), and how a model among
 * them finds the files it names. Pure: no DOM beyond the File type, no reading.
 *
 * find(model, name) tries, in order:
 * 1. the name as a path relative to the model's folder ("textures/skin.png", "../maps/a.png", "tex\\a.png"),
 *    exactly as written, then ignoring case (files written on Windows name "Skin.PNG" for "skin.png");
 * 2. the base name ignoring case, anywhere among the files, nearest the model's folder first (a .x written
 *    with an absolute "C:\\maps\\skin.png" and the texture dropped beside it; the flat lists of today).
 * A path never leaves what was given: ".." above the top and absolute paths fall to step 2.
 */

export interface GivenFile {
  readonly file: File;
  /** Path inside what was given, '/'-separated, no leading '/'. */
  readonly path: string;
}

/** Directory part of a '/'-path ('' at the top). */
function folderOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut >= 0 ? path.slice(0, cut) : '';
}

/**
 * `name` resolved against `folder` ('/'-separated, both): '\\' read as '/', '.' and empty parts dropped, '..'
 * climbing; null when it climbs above the top or the name is absolute or carries a scheme/drive (C:, data:).
 */
export function resolvePath(folder: string, name: string): string | null {
  const n = name.trim().replace(/\\/g, '/');
  if (n === '' || n.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(n)) return null;
  const parts = folder === '' ? [] : folder.split('/');
  for (const part of n.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

function baseOf(path: string): string {
  const p = path.replace(/\\/g, '/');
  return p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf(':')) + 1).trim();
}

/** How many folders apart two paths' folders are (shared leading parts count as one place). */
function distance(a: string, b: string): number {
  const pa = folderOf(a).split('/').filter(Boolean);
  const pb = folderOf(b).split('/').filter(Boolean);
  let same = 0;
  while (same < pa.length && same < pb.length && pa[same] === pb[same]) same++;
  return pa.length - same + (pb.length - same);
}

export class FileSet {
  readonly files: readonly GivenFile[];
  private readonly byPath = new Map<string, GivenFile>();
  private readonly byLowerPath = new Map<string, GivenFile>();

  constructor(files: readonly GivenFile[]) {
    this.files = files;
    for (const f of files) {
      if (!this.byPath.has(f.path)) this.byPath.set(f.path, f);
      const lower = f.path.toLowerCase();
      if (!this.byLowerPath.has(lower)) this.byLowerPath.set(lower, f);
    }
  }

  /** Loose files: each at its own name (or the relative path a folder picker gave it). */
  static of(files: readonly File[]): FileSet {
    return new FileSet(files.map((file) => ({ file, path: (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name })));
  }

  /** The file `model` names as `name` (see the file comment), or null. */
  find(model: GivenFile, written: string): File | null {
    const name = written.replace(/^[\s"\0]+|[\s"\0]+$/g, '');
    const rel = resolvePath(folderOf(model.path), name);
    if (rel !== null) {
      const hit = this.byPath.get(rel) ?? this.byLowerPath.get(rel.toLowerCase());
      if (hit) return hit.file;
    }
    const base = baseOf(name).toLowerCase();
    if (base === '' || base === '.' || base === '..') return null;
    let best: GivenFile | null = null;
    let bestDistance = Infinity;
    for (const f of this.files) {
      if (baseOf(f.path).toLowerCase() !== base) continue;
      const d = distance(model.path, f.path);
      if (d < bestDistance) {
        best = f;
        bestDistance = d;
      }
    }
    return best?.file ?? null;
  }

  /** The entry of `file`, or a loose one at its name. */
  entry(file: File): GivenFile {
    return this.files.find((f) => f.file === file) ?? { file, path: file.name };
  }
}
