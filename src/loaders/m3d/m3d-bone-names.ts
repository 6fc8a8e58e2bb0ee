import { quoted } from '../../model/message.ts';
import type { TextScanner } from '../text/scanner.ts';

/**
 * skinlab's ***BoneNames*** chunk of .m3d (docs/m3d-morph-extension.md): the names of the file's bones,
 * which Luna's format does not hold (its bones are only `BoneOffsetK`, `ParentIndexOfBoneK:`, `BoneK`).
 * It is the last skinlab chunk, after ClipMarkers; Luna's reader stops before it.
 *
 *   ***************BoneNames*******************
 *   #BoneNames 3                         N = the header's #Bones
 *   Bone0: root                          one line per bone, in file order: `BoneK:` and the name
 *   Bone1: spine_01
 *   Bone2: neck
 *
 * K is the bone's index in the file, as in BoneOffsetK and ParentIndexOfBoneK; the parser names the bones
 * in file order before validateScene reorders a skeleton whose parents come after their children, so a
 * name moves with its bone. A name is one word of letters, digits and _ . : -, starting with a letter,
 * digit or _, at most 128 characters; names are unique. Reading: a count other than #Bones, a label out
 * of order, a missing, malformed or repeated name is a LoadError with the line. Without the chunk the
 * bones keep the names `Bone0`..`BoneN-1`.
 */

export const BONE_NAMES_CHUNK = 'BoneNames';
/** A bone name: one token of the chunk, starting with a letter, digit or underscore. */
export const BONE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,127}$/;
/** `Bone0: a` */
const MIN_CHARS_NAME = 8;
const RULE = 'a bone name is one word of letters, digits and _ . : - (at most 128 characters, not starting with . : -)';

/** The name a bone has without the chunk. */
export const defaultBoneName = (k: number): string => `Bone${k}`;

/**
 * Reads the chunk (its heading is the scanner's next token): `boneCount` names in file order. The caller
 * has read the header's #Bones; a skeleton-less file (#Bones 0) may only carry `#BoneNames 0`.
 */
export function readBoneNames(s: TextScanner, boneCount: number): string[] {
  s.next();
  s.expect(`#${BONE_NAMES_CHUNK}`);
  const countLine = s.tokenLine;
  const n = s.int('bone name count', 0, 32767);
  if (n !== boneCount) s.error(`the ${BONE_NAMES_CHUNK} chunk names ${n} bones, but the header declares ${boneCount}`, countLine);
  s.checkCount(n, MIN_CHARS_NAME, 'bone name');
  const names: string[] = [];
  const seen = new Map<string, number>();
  for (let k = 0; k < n; k++) {
    s.expect(`${defaultBoneName(k)}:`);
    const line = s.tokenLine;
    // One `BoneK: name` per line: a label whose name is missing is reported on its own line.
    const name = s.peek();
    if (name === null || s.line !== line) s.error(`bone ${k} has no name on its line`, line);
    s.next();
    if (!BONE_NAME.test(name)) s.error(`bone ${k} is named ${quoted(name)}; ${RULE}`);
    const first = seen.get(name);
    if (first !== undefined) s.error(`bone ${k} is named ${quoted(name)}, like bone ${first}; bone names must be unique`);
    seen.set(name, k);
    names.push(name);
  }
  return names;
}

/**
 * The chunk's lines for the written bones (none when every bone k of `names` is `Bone${k}`, so a scene
 * Luna's format holds is written byte for byte as before). Throws when a name cannot be written
 * faithfully: one breaking BONE_NAME, or two bones with one name.
 */
export function boneNameLines(names: readonly string[], boneCount: number): string[] {
  let named = false;
  for (let k = 0; k < boneCount; k++) if (names[k] !== defaultBoneName(k)) named = true;
  if (!named) return [];
  const out = ['', `***************${BONE_NAMES_CHUNK}*******************`, `#${BONE_NAMES_CHUNK} ${boneCount}`];
  const seen = new Map<string, number>();
  for (let k = 0; k < boneCount; k++) {
    const name = names[k] ?? '';
    if (!BONE_NAME.test(name)) throw new Error(`.m3d: bone ${k} is named ${quoted(name)}; ${RULE}`);
    const first = seen.get(name);
    if (first !== undefined) throw new Error(`.m3d: bones ${first} and ${k} are both named ${quoted(name)}; the BoneNames chunk needs unique names`);
    seen.set(name, k);
    out.push(`${defaultBoneName(k)}: ${name}`);
  }
  return out;
}
