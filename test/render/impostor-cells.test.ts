import { mat4, vec3, vec4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import {
  atlasSize, captureViewProj, cellDirection, cellOf, IMPOSTOR_AZIMUTHS, IMPOSTOR_CELL_PX, IMPOSTOR_ELEVATIONS, IMPOSTOR_MAX_FRAMES, impostorFrames,
} from '../../src/render/impostor-cells.ts';

describe('impostor atlas cells', () => {
  it('captures about 12 frames a second, at least 1 and at most the atlas rows', () => {
    expect(impostorFrames(0)).toBe(1);
    expect(impostorFrames(NaN)).toBe(1);
    expect(impostorFrames(0.5)).toBe(6);
    expect(impostorFrames(1)).toBe(12);
    expect(impostorFrames(30)).toBe(IMPOSTOR_MAX_FRAMES);
    expect(atlasSize(12)).toEqual([IMPOSTOR_AZIMUTHS * IMPOSTOR_ELEVATIONS.length * IMPOSTOR_CELL_PX, 12 * IMPOSTOR_CELL_PX]);
  });

  it('a viewer exactly in a captured direction sees that cell, unblended', () => {
    const d = vec3.create();
    const out: number[] = [];
    for (let e = 0; e < IMPOSTOR_ELEVATIONS.length; e++) {
      for (let k = 0; k < IMPOSTOR_AZIMUTHS; k++) {
        cellDirection(k, e, d);
        expect(vec3.length(d)).toBeCloseTo(1, 6);
        cellOf(d, 0, 1, 12, out);
        // Floating point may put an exact direction a hair below its own azimuth: then it is the previous cell blended fully.
        const k0 = out[2]! > 0.999 ? out[1]! : out[0]!;
        expect(k0).toBe(k);
        expect(Math.min(out[2]!, 1 - out[2]!)).toBeLessThan(1e-6);
        expect(out[3]).toBe(e);
      }
    }
  });

  it('between two directions the blend follows the azimuth, wrapping past the last', () => {
    const out: number[] = [];
    const step = (2 * Math.PI) / IMPOSTOR_AZIMUTHS;
    const at = (az: number, el: number): number[] => cellOf([Math.cos(el) * Math.sin(az), Math.sin(el), Math.cos(el) * Math.cos(az)], 0, 1, 1, out);
    expect(at(2.25 * step, 0)).toEqual([2, 3, expect.closeTo(0.25, 6), 0, 0]);
    expect(at(-0.5 * step, 0).slice(0, 3)).toEqual([IMPOSTOR_AZIMUTHS - 1, 0, expect.closeTo(0.5, 6)]);
    // Elevation: the nearest ring.
    expect(at(0, 0.9)[3]).toBe(IMPOSTOR_ELEVATIONS.length - 1);
    expect(at(0, -0.5)[3]).toBe(0);
  });

  it('the frame is the clip time rounded down to a frame, wrapped into the clip', () => {
    const out: number[] = [];
    const d = [0, 0, 1];
    expect(cellOf(d, 0, 2, 8, out)[4]).toBe(0);
    expect(cellOf(d, 0.26, 2, 8, out)[4]).toBe(1);
    expect(cellOf(d, 1.99, 2, 8, out)[4]).toBe(7);
    expect(cellOf(d, 2.26, 2, 8, out)[4]).toBe(1);
    expect(cellOf(d, -0.1, 2, 8, out)[4]).toBe(7);
    expect(cellOf(d, 5, 0, 8, out)[4]).toBe(0);
  });

  it('a cell frames the sphere: its centre at the middle, its rim at the edges, the capture direction facing the camera', () => {
    const sphere = [3, 40, -2, 25];
    const m = mat4.create();
    const d = vec3.create();
    const p = vec4.create();
    for (const [k, e] of [[0, 0], [5, 1], [11, 0]] as const) {
      cellDirection(k, e, d);
      captureViewProj(d, sphere, m);
      vec4.transformMat4(p, [3, 40, -2, 1], m);
      expect(p[0]! / p[3]!).toBeCloseTo(0, 5);
      expect(p[1]! / p[3]!).toBeCloseTo(0, 5);
      expect(Math.abs(p[2]! / p[3]!)).toBeLessThan(1);
      // right = unit(up × d): the sphere's rim point along it lands on the cell's right edge.
      const right = vec3.normalize(vec3.create(), vec3.cross(vec3.create(), [0, 1, 0], d));
      vec4.transformMat4(p, [3 + 25 * right[0]!, 40 + 25 * right[1]!, -2 + 25 * right[2]!, 1], m);
      expect(p[0]! / p[3]!).toBeCloseTo(1, 5);
      // The whole sphere lies within the depth range.
      for (const s of [-1, 1]) {
        vec4.transformMat4(p, [3 + s * 25 * d[0]!, 40 + s * 25 * d[1]!, -2 + s * 25 * d[2]!, 1], m);
        expect(Math.abs(p[2]! / p[3]!)).toBeLessThanOrEqual(1);
      }
    }
  });
});
