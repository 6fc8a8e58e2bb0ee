import { describe, expect, it } from 'vitest';
import { AnimController } from '../../../src/anim/controller/controller.ts';
import { applyTracksSpec, defaultPriority, formatTracksSpec, parseTracksSpec, type TrackSpec } from '../../../src/anim/controller/track-spec.ts';
import { channel, makeClip, makeSkeleton, track } from '../fixtures.ts';

const spec = (s: Partial<TrackSpec> & { clip: string }): TrackSpec => ({ weight: 1, speed: 1, bone: null, additive: false, priority: null, ...s });

describe('parseTracksSpec / formatTracksSpec', () => {
  it('reads the grammar CLIP[:WEIGHT[:SPEED]][@BONE][~additive][!]', () => {
    const { specs, errors } = parseTracksSpec('Walk, Wave:1@Bip01_R_Clavicle,Run-fast left:0.5:-2~additive!,Breath:0.25~additive');
    expect(errors).toEqual([]);
    expect(specs).toEqual([
      spec({ clip: 'Walk' }),
      spec({ clip: 'Wave', bone: 'Bip01_R_Clavicle' }),
      spec({ clip: 'Run-fast left', weight: 0.5, speed: -2, additive: true, priority: 'high' }),
      spec({ clip: 'Breath', weight: 0.25, additive: true }),
    ]);
  });

  it('formats canonically (defaults omitted) and parse(format(x)) == x', () => {
    const text = 'Walk:1:1,Wave:1@Bip01_R_Clavicle,Run-fast left:0.5:-2~additive!,Jog:0.3,Hop:1:2';
    const { specs } = parseTracksSpec(text);
    const canonical = formatTracksSpec(specs);
    expect(canonical).toBe('Walk,Wave@Bip01_R_Clavicle,Run-fast left:0.5:-2~additive!,Jog:0.3,Hop:1:2');
    expect(parseTracksSpec(canonical)).toEqual({ specs, errors: [] });
    expect(parseTracksSpec('')).toEqual({ specs: [], errors: [] });
  });

  it('!low forces a low priority, and round-trips', () => {
    const { specs } = parseTracksSpec('Wave!low,Walk@hip!low,Jog!');
    expect(specs.map((x) => x.priority)).toEqual(['low', 'low', 'high']);
    expect(formatTracksSpec(specs)).toBe('Wave!low,Walk@hip!low,Jog!');
  });

  it('reports each bad item naming the bad word, keeping the good ones', () => {
    const { specs, errors } = parseTracksSpec('Walk:x,Jog:1:2:3,:1,Wave~loud,Loiter:1:Infinity,Ok@,,Good');
    expect(specs.map((s) => s.clip)).toEqual(['Good']);
    expect(errors).toHaveLength(7);
    expect(errors[0]).toMatch(/weight "x"/);
    expect(errors[1]).toMatch(/"3"/);
    expect(errors[2]).toMatch(/no clip/);
    expect(errors[3]).toMatch(/~loud/);
    expect(errors[4]).toMatch(/speed "Infinity"/);
    expect(errors[5]).toMatch(/bone ""/);
    expect(errors[6]).toMatch(/empty track/);
  });
});

describe('applyTracksSpec', () => {
  const skel = makeSkeleton([-1, 0, 1], [{}, {}, {}]);
  const clips = ['Walk', 'Wave', 'Jog'].map((n, i) => makeClip(n, 1 + i, [track(0, { translation: channel([0], [i, 0, 0]) })]));

  it('sets tracks 0..n-1 at position 0, enabled, default priority high when masked; disables the rest', () => {
    const c = new AnimController(skel, clips, { tracks: 4 });
    c.setTrackClip(3, 0);
    c.setTrackEnable(3, true);
    c.keyTrackWeight(3, 0, 10, 1, 'linear');
    const errors = applyTracksSpec(c, parseTracksSpec('Walk,1:0.5:2@node1,2~additive!').specs);
    expect(errors).toEqual([]);
    expect([0, 1, 2, 3].map((t) => c.trackEnabled(t))).toEqual([true, true, true, false]);
    expect([0, 1, 2].map((t) => c.trackClip(t))).toEqual([0, 1, 2]);
    expect([c.trackWeight(1), c.trackSpeed(1), c.trackMask(1), c.trackPriority(1)]).toEqual([0.5, 2, 1, 'high']);
    expect([c.trackPriority(0), c.trackAdditive(2), c.trackPriority(2), c.trackTime(1)]).toEqual(['low', true, 'high', 0]);
    expect(c.pendingEvents).toBe(0);
  });

  it('a clip that animates under half the frames of the fullest clip is a layer: high priority by default', () => {
    const wide = makeSkeleton([-1, 0, 1, 2, 3], [{}, {}, {}, {}, {}]);
    const key = (n: number) => track(n, { translation: channel([0], [n, 0, 0]) });
    const body = makeClip('Walk', 1, [0, 1, 2, 3, 4].map(key));
    const arm = makeClip('Wave', 1, [key(4), key(3)]);
    const half = makeClip('Half', 1, [key(4), key(3), key(2)]);
    const c = new AnimController(wide, [body, arm, half], { tracks: 4 });
    expect(applyTracksSpec(c, parseTracksSpec('Walk,Wave,Half,Wave!low').specs)).toEqual([]);
    expect([0, 1, 2, 3].map((t) => c.trackPriority(t))).toEqual(['low', 'high', 'low', 'low']);
    expect(defaultPriority(c, 1, -1)).toBe('high');
    expect(defaultPriority(c, 0, 2)).toBe('high');
  });

  it('errors name the bad word and list the valid ones', () => {
    const c = new AnimController(skel, clips, { tracks: 4 });
    const errors = applyTracksSpec(c, parseTracksSpec('Wlak,Walk@hand,Walk,Walk,Walk,Walk').specs);
    expect(errors[0]).toMatch(/tracks given.*4/);
    expect(errors[1]).toMatch(/unknown clip "Wlak" \(clips: Walk, Wave, Jog/);
    expect(errors[2]).toMatch(/unknown bone "hand" \(bones: node0, node1, node2\)/);
    expect([0, 1, 2, 3].map((t) => c.trackEnabled(t))).toEqual([false, false, true, true]);
  });
});
