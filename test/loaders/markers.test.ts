import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/loaders/load-model.ts';
import { parseM3d } from '../../src/loaders/m3d/parse-m3d.ts';
import { writeM3d } from '../../src/loaders/m3d/write-m3d.ts';
import { CLIP_MARKER_GUID } from '../../src/loaders/x/scene-markers.ts';
import { LoadError } from '../../src/model/errors.ts';
import type { Clip, ClipMarker, Scene } from '../../src/model/types.ts';
import { validateScene } from '../../src/model/validate.ts';
import { plainScene, talkClip } from './morph-fixtures.ts';
import { writeBinaryX, writeTextX, type XItem, type XSpec } from './x-writer.ts';

/** Clip markers (callback keys) in both model formats, and their validation (docs/m3d-morph-extension.md). */

const STEPS: ClipMarker[] = [
  { time: 0.25, name: 'footstep_l' },
  { time: 0.75, name: 'footstep_r' },
];

function markedScene(): Scene {
  const idle: Clip = { ...talkClip(), name: 'idle' };
  return { ...plainScene(), clips: [{ ...talkClip(), markers: STEPS }, idle, { ...talkClip(), name: 'wave', markers: [{ time: 0, name: 'wave.start' }, { time: 1, name: 'sfx:swoosh' }] }] };
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

describe('.m3d ClipMarkers chunk', () => {
  it('round-trips markers through writeM3d and parseM3d; clips without markers get none', () => {
    const text = writeM3d(markedScene());
    expect(text).toContain('***************ClipMarkers*****************\r\n#ClipMarkers 2\r\nClip talk #Markers: 2\r\n{\r\n\tTime: 0.25 Name: footstep_l\r\n');
    const back = parseM3d(text, 'marked.m3d');
    expect(back.clips.map((c) => c.name)).toEqual(['talk', 'idle', 'wave']);
    expect(back.clips[0]!.markers).toEqual(STEPS);
    expect(back.clips[1]!.markers).toBeUndefined();
    expect(back.clips[2]!.markers).toEqual([{ time: 0, name: 'wave.start' }, { time: 1, name: 'sfx:swoosh' }]);
    expect(back.warnings).toEqual([]);
    // And once more: what was read writes the same text.
    expect(writeM3d(back)).toBe(text);
  });

  it('writes no chunk for a scene without markers', () => {
    expect(writeM3d(plainScene())).not.toContain('ClipMarkers');
  });

  it('clamps markers outside the clip and sorts them, with warnings', () => {
    const text = writeM3d(markedScene()).replace('Time: 0.25 Name: footstep_l', 'Time: 3 Name: footstep_l');
    const back = parseM3d(text, 'late.m3d');
    expect(back.clips[0]!.markers).toEqual([{ time: 0.75, name: 'footstep_r' }, { time: 1, name: 'footstep_l' }]);
    expect(back.warnings.join('\n')).toMatch(/clip 'talk': 1 marker outside 0\.\.1 s clamped/);
    expect(back.warnings.join('\n')).toMatch(/clip 'talk': markers were not in time order: sorted/);
  });

  it('refuses hostile or broken chunks with a LoadError on the right line', () => {
    const good = writeM3d(markedScene());
    const lineOf = (text: string, needle: string): number => {
      const lines = text.split('\r\n');
      for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.includes(needle)) return i + 1;
      return 0;
    };
    const cases: [string, string, string, RegExp][] = [
      ['an unknown clip', 'Clip talk #Markers', 'Clip nope #Markers', /names clip 'nope', which the file does not have/],
      ['a count larger than the text left', 'Clip talk #Markers: 2', 'Clip talk #Markers: 900000', /900000/],
      ['a block count larger than the text left', '#ClipMarkers 2', '#ClipMarkers 60000', /60000/],
      ['a bad name', 'Name: footstep_r', 'Name: {oops', /is named '\{oops'/],
      ['a NaN time', 'Time: 0.75', 'Time: nan', /marker time|time NaN|number/i],
      ['a clip named twice', 'Clip wave #Markers', 'Clip talk #Markers', /two marker blocks/],
    ];
    for (const [what, from, to, pattern] of cases) {
      const text = good.replace(from, to);
      expect(text, what).not.toBe(good);
      const e = loadError(() => parseM3d(text, 'bad.m3d'));
      expect(e.message, what).toMatch(pattern);
      if (what !== 'a block count larger than the text left' && what !== 'a count larger than the text left') expect(e.line, what).toBe(lineOf(text, to));
      else expect(e.line, what).toBeGreaterThan(0);
    }
    // Out of order with the other chunks.
    const moved = good.replace(/\r\n\*+ClipMarkers\*+[\s\S]*$/, '\r\n');
    const chunk = good.slice(good.indexOf('***************ClipMarkers'));
    const twice = moved + chunk + chunk;
    expect(loadError(() => parseM3d(twice, 'twice.m3d')).message).toMatch(/out of place/);
  });
});

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** A triangle on frame `root` with a child `bone`, set `walk` of 1 s (4800 ticks), and markers at the top level. */
function xScene(markers: { set: string; name: string; ticks: number }[]): XSpec[] {
  const key = (t: number, v: number[]): XItem[] => [{ dwords: [t, 3] }, { floats: v }];
  return [
    { template: 'Header', data: [{ dwords: [1, 0, 1] }] },
    ...markers.map((m): XSpec => ({ template: 'SkinlabClipMarker', data: [{ string: m.set }, { string: m.name }, { dwords: [m.ticks] }] })),
    {
      template: 'Frame',
      name: 'root',
      children: [
        { template: 'FrameTransformMatrix', data: [{ floats: IDENTITY }] },
        { template: 'Frame', name: 'bone', children: [{ template: 'FrameTransformMatrix', data: [{ floats: IDENTITY }] }] },
        { template: 'Mesh', name: 'tri', data: [{ dwords: [3] }, { floats: [0, 0, 0, 1, 0, 0, 0, 1, 0] }, { dwords: [1, 3, 0, 1, 2] }] },
      ],
    },
    { template: 'AnimTicksPerSecond', data: [{ dwords: [4800] }] },
    {
      template: 'AnimationSet',
      name: 'walk',
      children: [{ template: 'Animation', children: [{ ref: 'bone' }, { template: 'AnimationKey', data: [{ dwords: [2, 2] }, ...key(0, [0, 0, 0]), ...key(4800, [0, 1, 0])] }] }],
    },
  ];
}

const TEMPLATE = `template SkinlabClipMarker {\n <${CLIP_MARKER_GUID}>\n STRING animationSet;\n STRING name;\n DWORD time;\n}\n\n`;

/** The text file with skinlab's template declared after the header line. */
function textX(objects: XSpec[]): Uint8Array {
  const text = new TextDecoder().decode(writeTextX(objects, false));
  const nl = text.indexOf('\n') + 1;
  return new TextEncoder().encode(text.slice(0, nl) + TEMPLATE + text.slice(nl));
}

describe('.x SkinlabClipMarker', () => {
  const steps = [
    { set: 'walk', name: 'footstep_r', ticks: 3600 },
    { set: 'walk', name: 'footstep_l', ticks: 1200 },
  ];

  it('reads top-level markers naming their AnimationSet, in text and binary, as seconds, sorted, without a skipped-template warning', () => {
    for (const [what, bytes] of [['text', textX(xScene(steps))], ['binary', writeBinaryX(xScene(steps), false)]] as const) {
      const scene = loadModel(`m.x`, bytes);
      const walk = scene.clips.find((c) => c.name === 'walk')!;
      expect(walk.duration, what).toBe(1);
      expect(walk.markers, what).toEqual([{ time: 0.25, name: 'footstep_l' }, { time: 0.75, name: 'footstep_r' }]);
      expect(scene.warnings.join('\n'), what).not.toMatch(/SkinlabClipMarker/);
      expect(scene.warnings.join('\n'), what).toMatch(/markers were not in time order: sorted/);
    }
    const text = new TextDecoder().decode(textX(xScene(steps)));
    expect(text).toContain('SkinlabClipMarker {\n <6B1E5C52-3F0A-4C7E-9B8D-2E41A7D05F13>');
    expect(text).toMatch(/SkinlabClipMarker \{\s*"walk";\s*"footstep_r";\s*3600;/);
  });

  it('warns and skips markers of a set the file does not have; clamps a marker past the clip', () => {
    const scene = loadModel('m.x', textX(xScene([{ set: 'run', name: 'footstep_l', ticks: 0 }, { set: 'walk', name: 'end', ticks: 9600 }])));
    expect(scene.warnings.join('\n')).toMatch(/1 SkinlabClipMarker object name AnimationSet 'run', which the file does not have; skipped/);
    expect(scene.clips[0]!.markers).toEqual([{ time: 1, name: 'end' }]);
    expect(scene.warnings.join('\n')).toMatch(/1 marker outside 0\.\.1 s clamped/);
  });

  it('refuses a marker without a valid name with a LoadError', () => {
    expect(loadError(() => loadModel('m.x', textX(xScene([{ set: 'walk', name: 'two words', ticks: 0 }])))).message).toMatch(/SkinlabClipMarker.*not one word/);
  });
});

describe('marker validation (validateScene)', () => {
  it('shifts markers with a clip whose keys start before 0, keeps in-range sorted markers untouched, drops an empty list', () => {
    const times = Float32Array.from([-0.5, 0.5]);
    const clip: Clip = {
      name: 'early',
      duration: 0.5,
      ticksPerSecond: 0,
      tracks: [{ node: 1, translation: { times, values: new Float32Array(6) }, rotation: null, scale: null }],
      markers: [{ time: -0.5, name: 'a' }, { time: 0, name: 'b' }],
    };
    const scene: Scene = { ...plainScene(), clips: [clip, { ...talkClip(), markers: [] }], warnings: [] };
    validateScene(scene);
    expect(scene.clips[0]!.markers).toEqual([{ time: 0, name: 'a' }, { time: 0.5, name: 'b' }]);
    expect(scene.clips[1]!.markers).toBeUndefined();
    const before = scene.warnings.length;
    validateScene(scene);
    expect(scene.warnings.slice(before).filter((w) => /marker/.test(w)), 'validated markers pass again silently').toEqual([]);
  });

  it('refuses a NaN marker time or a name with whitespace', () => {
    for (const m of [{ time: NaN, name: 'x' }, { time: 0, name: 'a b' }, { time: 0, name: '' }]) {
      const scene: Scene = { ...plainScene(), clips: [{ ...talkClip(), markers: [m] }], warnings: [] };
      expect(() => validateScene(scene)).toThrow(LoadError);
    }
  });
});
