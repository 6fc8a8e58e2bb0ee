import { describe, expect, it } from 'vitest';
import { fillColours } from '../../src/render/vertex-colours.ts';

describe('vertex colours in a technique vertex order', () => {
  it('technique vertex v gets mesh vertex sourceVertex[v]\'s RGBA (copies and reordering included)', () => {
    const colors = Float32Array.of(1, 0, 0, 1, 0, 1, 0, 0.5, 0, 0, 1, 0.25);
    const out = new Float32Array(5 * 4).fill(-1);
    fillColours(colors, Uint32Array.of(2, 0, 0, 1), out);
    expect(Array.from(out)).toEqual([0, 0, 1, 0.25, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0.5, -1, -1, -1, -1]);
  });
});
