/**
 * A model's companion files by name: the names a model writes for its textures and buffers, and the addresses
 * they stand for beside a model read from a URL. Pure string and URL rules, importing nothing, shared by the
 * URL source (model-source.ts) and the parse worker's entry, which asks for a glTF's files before the rest of
 * the worker has loaded (early-gltf.ts).
 */

/**
 * The URL of a companion named `name` (as a model wrote it) for the model at `modelUrl`: its base name
 * in the model's own folder, or null when nothing usable is left. Path parts (.., absolute paths,
 * //host, drive letters, scheme prefixes such as data: or javascript:) are dropped by baseName, and the
 * rest is percent-encoded as one path segment, so an encoded slash or dot stays part of the file name.
 * The result is checked to lie directly in the model's folder, on the model's origin.
 */
export function companionUrl(name: string, modelUrl: URL): URL | null {
  const file = baseName(name);
  if (!file || file === '.' || file === '..') return null;
  const folder = new URL('./', modelUrl);
  const url = new URL(encodeURIComponent(file), folder);
  if (url.origin !== folder.origin || !url.pathname.startsWith(folder.pathname)) return null;
  if (url.pathname.slice(folder.pathname.length).includes('/')) return null;
  return url;
}

/**
 * Base name of a path written by any tool: Windows or POSIX separators (also doubled, as text escaping
 * leaves them: C:\\maps\\top.tga), a drive prefix without a separator (C:top.tga), D3D-style
 * "C_/..." mangling, ./ and .\ prefixes, surrounding quotes, blanks and NULs. '' when nothing is left.
 */
export function baseName(path: string): string {
  const p = path.replace(/^[\s"\0]+|[\s"\0]+$/g, '');
  const cut = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'), p.lastIndexOf(':'));
  return p.slice(cut + 1);
}

/**
 * The file names to try, in order, for a companion on a case-sensitive server: as written, then all
 * lower case, all upper case, and the stem as written with the extension lowered or raised
 * (ZOMBIE.JPG named as Zombie.jpg). No duplicates.
 */
export function caseVariants(file: string): string[] {
  const dot = file.lastIndexOf('.');
  const stem = dot > 0 ? file.slice(0, dot) : file;
  const ext = dot > 0 ? file.slice(dot) : '';
  return [...new Set([file, file.toLowerCase(), file.toUpperCase(), stem + ext.toLowerCase(), stem + ext.toUpperCase()])];
}

/**
 * The file name a URI reference stands for: percent-decoded (a glTF writes "Fox%20skin.png" for the file
 * "Fox skin.png"), query and fragment dropped. Names that are not valid percent-encoding stay as written.
 */
export function companionName(uri: string): string {
  const cut = uri.search(/[?#]/);
  return safeDecode(cut >= 0 ? uri.slice(0, cut) : uri);
}

/** `decodeURIComponent`, or the text unchanged when it is not valid percent-encoding. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
