import type { App } from '../app/app.ts';
import { FileSet, type GivenFile } from '../app/file-set.ts';
import { fileSource } from '../app/model-source.ts';
import { MODEL_EXTENSIONS } from '../loaders/model-formats.ts';

/**
 * Opening what the user gives the page: files picked in "Open file…" or dropped, and dropped folders (read
 * recursively through the File System entries API, DataTransferItem.webkitGetAsEntry). One model is loaded —
 * the first model file, the shallowest first in a folder — with every other file given as its companions
 * (textures, a glTF's .bin files, found by the paths the model writes: app/file-set.ts); a notice names the
 * other model files, which are not loaded.
 */

export function isModelFile(name: string): boolean {
  const lower = name.toLowerCase();
  return MODEL_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** ".obj", or "(no extension)". */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot).toLowerCase() : '(no extension)';
}

/** Most files read from dropped folders, and how deep they are followed: a dropped home folder must not hang the page. */
export const FOLDER_LIMITS = { files: 2000, depth: 12 } as const;

/** What open() needs of a File System entry (FileSystemEntry's shape; fakes in tests). */
export interface EntryLike {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly name: string;
  file?(ok: (f: File) => void, fail: (e: unknown) => void): void;
  createReader?(): { readEntries(ok: (entries: EntryLike[]) => void, fail: (e: unknown) => void): void };
}

/**
 * The files under `entries` (files and folders), each with its path from the dropped item ("Robot/tex/a.png"),
 * in a stable order (by path). Stops at `limits.files` files and `limits.depth` folders deep; `skipped` counts
 * what was left out (unreadable entries count too). Never throws.
 */
export async function readEntries(entries: readonly EntryLike[], limits: { files: number; depth: number } = FOLDER_LIMITS): Promise<{ files: GivenFile[]; skipped: number }> {
  const files: GivenFile[] = [];
  let skipped = 0;
  const visit = async (entry: EntryLike, prefix: string, depth: number): Promise<void> => {
    const path = prefix + entry.name;
    if (entry.isFile && entry.file) {
      if (files.length >= limits.files) {
        skipped++;
        return;
      }
      try {
        const file = await new Promise<File>((ok, fail) => entry.file!(ok, fail));
        files.push({ file, path });
      } catch {
        skipped++;
      }
      return;
    }
    if (!entry.isDirectory || !entry.createReader) return;
    if (depth >= limits.depth) {
      skipped++;
      return;
    }
    const reader = entry.createReader();
    // readEntries hands a folder's entries over in batches (100 in Chromium) until it returns none.
    for (;;) {
      let batch: EntryLike[];
      try {
        batch = await new Promise<EntryLike[]>((ok, fail) => reader.readEntries(ok, fail));
      } catch {
        skipped++;
        return;
      }
      if (batch.length === 0) return;
      for (const child of batch) {
        if (files.length >= limits.files && child.isFile) skipped++;
        else await visit(child, `${path}/`, depth + 1);
      }
    }
  };
  for (const e of entries) await visit(e, '', 0);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, skipped };
}

/** Folder depth of a path ("a.x" 0, "Robot/a.x" 1). */
function depthOf(path: string): number {
  return path.split('/').length - 1;
}

/**
 * Loads the model among `given` with the rest as its companions; `notice` tells of model files left unloaded
 * and of a folder read only in part. With no model file, nothing is read and one error names what was given.
 */
export async function openFiles(app: App, given: readonly File[] | FileSet, notice: (message: string) => void, skipped = 0): Promise<void> {
  const set = given instanceof FileSet ? given : FileSet.of(given);
  const models = set.files.filter((f) => isModelFile(f.path));
  if (models.length === 0) {
    const names = set.files.map((f) => f.path).join(', ') || '(nothing readable)';
    const exts = [...new Set(set.files.map((f) => extensionOf(f.file.name)))];
    app.fail(
      `${names}: unsupported file type${exts.length > 1 ? 's' : ''} ${exts.join(', ')}; skinlab loads ${MODEL_EXTENSIONS.join(', ')} models (drop the model together with its textures)`,
    );
    return;
  }
  // The first given (a folder's shallowest first): a folder's main model before the ones in its subfolders.
  const model = models.reduce((best, f) => (depthOf(f.path) < depthOf(best.path) ? f : best));
  const others = models.filter((f) => f !== model).map((f) => f.path);
  const notes: string[] = [];
  if (others.length > 0) notes.push(`Loaded ${model.path}; one model at a time, so not ${others.length > 4 ? `${others.slice(0, 4).join(', ')} and ${others.length - 4} more` : others.join(', ')}`);
  if (skipped > 0) notes.push(`${skipped} file${skipped > 1 ? 's' : ''} of the folder left out (at most ${FOLDER_LIMITS.files} files, ${FOLDER_LIMITS.depth} folders deep)`);
  if (notes.length > 0) notice(notes.join(' — '));
  await app.load(fileSource(model.file, set), model.file.name, model.file.name);
}

/**
 * A drop: folders among the items are read recursively (their files keep their paths), loose files are taken
 * as they are. Must be called from the drop event itself: the items are only readable during it.
 */
export function openDrop(app: App, data: DataTransfer | null, notice: (message: string) => void): void {
  if (!data) return;
  const entries: EntryLike[] = [];
  for (const item of Array.from(data.items ?? [])) {
    const entry = item.kind === 'file' ? (item.webkitGetAsEntry?.() as EntryLike | null) : null;
    if (entry) entries.push(entry);
  }
  const files = Array.from(data.files ?? []);
  if (!entries.some((e) => e.isDirectory)) {
    if (files.length > 0) void openFiles(app, files, notice);
    return;
  }
  void readEntries(entries).then(({ files: read, skipped }) => openFiles(app, new FileSet(read), notice, skipped));
}
