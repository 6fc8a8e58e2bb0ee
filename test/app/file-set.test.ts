import { describe, expect, it } from 'vitest';
import { FileSet, resolvePath } from '../../src/app/file-set.ts';
import { readEntries, type EntryLike } from '../../src/ui/open-files.ts';

const file = (name: string, text = name): File => new File([text], name);

describe('resolvePath', () => {
  it('resolves relative paths inside what was given, and refuses the rest', () => {
    expect(resolvePath('Robot', 'textures/skin.png')).toBe('Robot/textures/skin.png');
    expect(resolvePath('Robot/scene', '../maps\\a.png')).toBe('Robot/maps/a.png');
    expect(resolvePath('', './a.bin')).toBe('a.bin');
    expect(resolvePath('Robot', '../../a.png')).toBeNull();
    expect(resolvePath('Robot', '/etc/passwd')).toBeNull();
    expect(resolvePath('Robot', 'C:\\maps\\a.png')).toBeNull();
    expect(resolvePath('Robot', 'data:image/png;base64,AAAA')).toBeNull();
  });
});

describe('FileSet.find', () => {
  const model = file('scene.gltf');
  const bin = file('scene.bin');
  const skin = file('Skin.PNG', 'folder skin');
  const other = file('skin.png', 'other skin');
  const set = new FileSet([
    { file: model, path: 'Robot/scene.gltf' },
    { file: bin, path: 'Robot/scene.bin' },
    { file: skin, path: 'Robot/textures/Skin.PNG' },
    { file: other, path: 'Elsewhere/deep/skin.png' },
  ]);
  const self = set.entry(model);

  it('finds a file by the path the model writes, relative to its folder, then ignoring case', () => {
    expect(set.find(self, 'scene.bin')).toBe(bin);
    expect(set.find(self, 'textures/Skin.PNG')).toBe(skin);
    expect(set.find(self, 'textures/skin.png')).toBe(skin);
    expect(set.find(self, 'TEXTURES\\SKIN.png')).toBe(skin);
  });

  it('falls back to the base name, nearest the model first, for absolute or missing paths', () => {
    expect(set.find(self, 'C:\\maps\\skin.png')).toBe(skin);
    expect(set.find(self, '"skin.png"')).toBe(skin);
    expect(set.find(self, 'nothere.png')).toBeNull();
    expect(set.find(self, '../..')).toBeNull();
  });

  it('matches loose files by name, case-blind, as before', () => {
    const x = file('zombie.x');
    const tex = file('ZOMBIE.JPG');
    const loose = FileSet.of([x, tex]);
    expect(loose.find(loose.entry(x), 'Zombie.jpg')).toBe(tex);
  });
});

/** A fake folder tree with FileSystemEntry's callback shape; readEntries hands out `batch` entries at a time. */
function dir(name: string, children: EntryLike[], batch = 2): EntryLike {
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (ok) => {
          const out = children.slice(at, at + batch);
          at += out.length;
          setTimeout(() => ok(out), 0);
        },
      };
    },
  };
}
function leaf(name: string): EntryLike {
  return { isFile: true, isDirectory: false, name, file: (ok) => setTimeout(() => ok(file(name)), 0) };
}

describe('readEntries (a dropped folder)', () => {
  it('reads every file under the folder with its path, across readEntries batches and subfolders', async () => {
    const tree = dir('Figure', [leaf('figure.gltf'), leaf('figure.bin'), dir('textures', [leaf('Skin.png')]), leaf('notes.txt')]);
    const { files, skipped } = await readEntries([tree]);
    expect(files.map((f) => f.path)).toEqual(['Figure/figure.bin', 'Figure/figure.gltf', 'Figure/notes.txt', 'Figure/textures/Skin.png']);
    expect(files[0]!.file.name).toBe('figure.bin');
    expect(skipped).toBe(0);
  });

  it('stops at the file and depth limits and counts what it left out', async () => {
    const many = dir('Many', Array.from({ length: 10 }, (_, i) => leaf(`f${i}.png`)), 3);
    const r = await readEntries([many], { files: 4, depth: 12 });
    expect(r.files).toHaveLength(4);
    expect(r.skipped).toBe(6);
    const deep = dir('a', [dir('b', [dir('c', [leaf('x.gltf')])]), leaf('top.x')]);
    const d = await readEntries([deep], { files: 100, depth: 2 });
    expect(d.files.map((f) => f.path)).toEqual(['a/top.x']);
    expect(d.skipped).toBe(1);
  });

  it('skips an unreadable entry instead of failing the drop', async () => {
    const bad: EntryLike = { isFile: true, isDirectory: false, name: 'locked.png', file: (_ok, fail) => fail(new Error('denied')) };
    const r = await readEntries([dir('D', [bad, leaf('m.x')])]);
    expect(r.files.map((f) => f.path)).toEqual(['D/m.x']);
    expect(r.skipped).toBe(1);
  });
});
