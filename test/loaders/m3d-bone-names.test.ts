import { describe, expect, it } from 'vitest';
import { LookAt } from '../../src/anim/look-at.ts';
import { generateHumanoid } from '../../src/gen/humanoid.ts';
import { generateTwist } from '../../src/gen/twist.ts';
import { parseM3d } from '../../src/loaders/m3d/parse-m3d.ts';
import { writeM3d } from '../../src/loaders/m3d/write-m3d.ts';
import { LoadError } from '../../src/model/errors.ts';
import type { Scene } from '../../src/model/types.ts';
import { morphScene, plainScene } from './morph-fixtures.ts';

/** The .m3d BoneNames chunk (docs/m3d-morph-extension.md, src/loaders/m3d/m3d-bone-names.ts). */

function named(scene: Scene, names: string[]): Scene {
  return { ...scene, skeleton: { ...scene.skeleton, names } };
}

function loadError(f: () => unknown): LoadError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(LoadError);
    return e as LoadError;
  }
  throw new Error('expected a LoadError');
}

/** 1-based line of the last line of `text` containing `needle`. */
function lineOf(text: string, needle: string): number {
  const lines = text.split('\r\n');
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.includes(needle)) return i + 1;
  throw new Error(`'${needle}' is not in the text`);
}

const CHUNK = '***************BoneNames*******************\r\n#BoneNames 2\r\nBone0: root\r\nBone1: jaw\r\n';

describe('.m3d BoneNames chunk', () => {
  it('round-trips bone names, as the last chunk, and writes the same text again', () => {
    const text = writeM3d(named(plainScene(), ['root', 'jaw']));
    expect(text.endsWith(`\r\n\r\n${CHUNK}`)).toBe(true);
    const back = parseM3d(text, 'named.m3d');
    expect(back.skeleton.names).toEqual(['root', 'jaw']);
    expect(back.warnings).toEqual([]);
    expect(writeM3d(back)).toBe(text);
  });

  it('follows every other skinlab chunk (Meshes, MorphTargets, MorphTracks, ClipMarkers)', () => {
    const scene = morphScene();
    const marked = { ...scene, clips: scene.clips.map((c) => ({ ...c, markers: [{ time: 0.5, name: 'blink' }] })) };
    const text = writeM3d(named(marked, ['root', 'jaw.1:a-b']));
    const headings = text.split('\r\n').filter((l) => /^\*+[A-Za-z0-9-]+\*+$/.test(l)).map((l) => l.replace(/\*/g, ''));
    expect(headings.slice(-5)).toEqual(['Meshes', 'MorphTargets', 'MorphTracks', 'ClipMarkers', 'BoneNames']);
    const back = parseM3d(text, 'dawn-like.m3d');
    expect(back.skeleton.names).toEqual(['root', 'jaw.1:a-b']);
    expect(back.meshes.map((m) => m.name)).toEqual(scene.meshes.map((m) => m.name));
    expect(back.morphTargets).toEqual(scene.morphTargets);
    expect(back.clips[0]!.markers).toEqual([{ time: 0.5, name: 'blink' }]);
  });

  it('writes no chunk when every bone k is Bone<k> (the bytes Luna-only scenes always had)', () => {
    const plain = writeM3d(plainScene());
    expect(plain).not.toContain('BoneNames');
    expect(parseM3d(plain, 'plain.m3d').skeleton.names).toEqual(['Bone0', 'Bone1']);
    // One name other than the default is enough to write them all.
    expect(writeM3d(named(plainScene(), ['Bone0', 'jaw']))).toContain('#BoneNames 2\r\nBone0: Bone0\r\nBone1: jaw\r\n');
  });

  it('keeps names with their bones when the file lists a child before its parent', () => {
    // File bone 0 'root' becomes the child of file bone 1 'jaw': the loader reorders to jaw, root.
    const text = writeM3d(named(plainScene(), ['root', 'jaw'])).replace('ParentIndexOfBone0: -1\r\nParentIndexOfBone1: 0', 'ParentIndexOfBone0: 1\r\nParentIndexOfBone1: -1');
    const back = parseM3d(text, 'reordered.m3d');
    expect(back.warnings.join('\n')).toMatch(/'root' before its parent 'jaw'.*reordered/);
    const { names, parents } = back.skeleton;
    expect(names).toEqual(['jaw', 'root']);
    expect(Array.from(parents)).toEqual([-1, 0]);
    const mesh = back.meshes[0]!;
    const slot = (name: string): number => Array.from(mesh.bones).findIndex((b) => names[b] === name);
    // File vertex 0 is bound to file bone 0 ('root') only; file bone 1 ('jaw') has the offset translating by -1 in y.
    expect(names[mesh.bones[mesh.joints[0]!]!]).toBe('root');
    expect(mesh.invBind[slot('jaw') * 16 + 13]).toBeCloseTo(-1, 6);
    expect(mesh.invBind[slot('root') * 16 + 13]).toBeCloseTo(0, 6);
    // The clip's keys on file Bone1 (the jaw's turn) stay on the bone named 'jaw'.
    const turning = back.clips[0]!.tracks.filter((t) => t.rotation && t.rotation.values.length > 4 && t.rotation.values[4] !== t.rotation.values[0]);
    expect(turning.map((t) => names[t.node])).toEqual(['jaw']);
  });

  it('gives the generated Walker and Twist their rig names, so look-at finds its chain', () => {
    for (const scene of [generateHumanoid(), generateTwist()]) {
      const back = parseM3d(writeM3d(scene), `${scene.name}.m3d`);
      expect(back.skeleton.names).toEqual(scene.skeleton.names);
      expect(back.skeleton.names.some((n, k) => n !== `Bone${k}`)).toBe(true);
    }
    const walker = parseM3d(writeM3d(generateHumanoid()), 'walker.m3d');
    expect(walker.skeleton.names).toEqual(expect.arrayContaining(['neck', 'head', 'upper_arm_l']));
    const look = LookAt.find(walker.skeleton);
    expect(look).not.toBeNull();
  });

  it('refuses broken chunks with a LoadError on the right line', () => {
    const good = writeM3d(named(plainScene(), ['root', 'jaw']));
    const cases: [string, string, string, string, RegExp][] = [
      ['a count other than #Bones', '#BoneNames 2', '#BoneNames 3', '#BoneNames 3', /names 3 bones, but the header declares 2/],
      ['a count of none', '#BoneNames 2', '#BoneNames 0', '#BoneNames 0', /names 0 bones, but the header declares 2/],
      ['a duplicate name', 'Bone1: jaw', 'Bone1: root', 'Bone1: root', /bone 1 is named 'root', like bone 0; bone names must be unique/],
      ['a malformed name', 'Bone1: jaw', 'Bone1: {jaw}', 'Bone1: {jaw}', /bone 1 is named '\{jaw\}'; a bone name is one word/],
      ['a name starting with a dash', 'Bone1: jaw', 'Bone1: -1', 'Bone1: -1', /bone 1 is named '-1'/],
      ['a name too long', 'Bone1: jaw', `Bone1: ${'j'.repeat(129)}`, 'Bone1: jjj', /bone 1 is named 'j+…?'; a bone name/],
      ['labels out of order', 'Bone0: root', 'Bone1: root', 'Bone1: root', /expected 'Bone0:', found 'Bone1:'/],
      ['a label without its name', 'Bone0: root\r\n', 'Bone0:\r\nroot\r\n', 'Bone0:', /bone 0 has no name on its line/],
      ['a name missing at the end', 'Bone1: jaw\r\n', 'Bone1:\r\n', 'Bone1:', /bone 1 has no name on its line/],
      ['a non-integer count', '#BoneNames 2', '#BoneNames two', '#BoneNames two', /bone name count/],
      ['a count beyond the text left', '#BoneNames 2', '#BoneNames 30000', '#BoneNames 30000', /30000/],
    ];
    for (const [what, from, to, at, pattern] of cases) {
      const text = good.replace(from, to);
      expect(text, what).not.toBe(good);
      const e = loadError(() => parseM3d(text, 'bad.m3d'));
      expect(e.message, what).toMatch(pattern);
      expect(e.message, what).toMatch(/^bad\.m3d: line \d+: /);
      expect(e.line, what).toBe(lineOf(text, at));
    }
  });

  it('refuses the chunk out of place or twice, and a chunk naming bones a file without bones lacks', () => {
    const good = writeM3d(named(plainScene(), ['root', 'jaw']));
    const twice = good + '\r\n' + CHUNK;
    expect(loadError(() => parseM3d(twice, 'twice.m3d')).message).toMatch(/the BoneNames chunk is out of place: .* ClipMarkers, BoneNames, each at most once/);
    // Before the Meshes chunk: read as BoneNames, then Meshes comes too late.
    const multi = writeM3d(named(morphScene(), ['root', 'jaw']));
    const head = multi.slice(0, multi.indexOf('***************Meshes'));
    const meshes = multi.slice(multi.indexOf('***************Meshes'), multi.indexOf('***************BoneNames'));
    expect(loadError(() => parseM3d(head + CHUNK + '\r\n' + meshes, 'early.m3d')).message).toMatch(/the Meshes chunk is out of place/);
    // A static mesh (#Bones 0) may carry an empty chunk only.
    const rigid = writeM3d({ ...plainScene(), meshes: plainScene().meshes.map((m) => ({ ...m, skinned: false })), clips: [] });
    expect(rigid).toContain('#Bones 0');
    expect(parseM3d(`${rigid}\r\n***BoneNames***\r\n#BoneNames 0\r\n`, 'rigid.m3d').skeleton.names).toEqual(['root']);
    expect(loadError(() => parseM3d(`${rigid}\r\n***BoneNames***\r\n#BoneNames 1\r\nBone0: a\r\n`, 'rigid.m3d')).message).toMatch(/names 1 bones, but the header declares 0/);
  });

  it('the writer refuses names the chunk cannot hold', () => {
    expect(() => writeM3d(named(plainScene(), ['root', 'left jaw']))).toThrow(/bone 1 is named 'left jaw'; a bone name is one word/);
    expect(() => writeM3d(named(plainScene(), ['jaw', 'jaw']))).toThrow(/bones 0 and 1 are both named 'jaw'/);
    expect(() => writeM3d(named(plainScene(), ['root', '']))).toThrow(/bone 1 is named ''/);
  });
});
