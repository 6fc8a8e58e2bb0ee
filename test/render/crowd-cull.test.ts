import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { compactInstances, frustumPlanes, shadowInFrustum, sphereInFrustum } from '../../src/render/crowd-cull.ts';

/** A camera at (0, 1, 10) looking down -z, 60° vertical field of view, square, near 0.1, far 100. */
function viewProj(): mat4 {
  const proj = mat4.perspective(mat4.create(), Math.PI / 3, 1, 0.1, 100);
  const view = mat4.lookAt(mat4.create(), [0, 1, 10], [0, 1, 0], [0, 1, 0]);
  return mat4.multiply(mat4.create(), proj, view);
}

describe('crowd culling', () => {
  const planes = new Float32Array(24);
  frustumPlanes(viewProj(), planes);

  it('takes unit-normal planes from the view-projection', () => {
    for (let p = 0; p < 6; p++) expect(Math.hypot(planes[p * 4]!, planes[p * 4 + 1]!, planes[p * 4 + 2]!)).toBeCloseTo(1, 6);
    // Near plane (p = 5: row 3 − row 2 is far, + is near): the camera looks down -z from z = 10.
    expect(planes[4 * 4 + 2]).toBeCloseTo(-1, 6);
  });

  it('keeps spheres inside or straddling the frustum and drops those outside it', () => {
    expect(sphereInFrustum(planes, 0, 1, 0, 0.5)).toBe(true);
    expect(sphereInFrustum(planes, 0, 1, 20, 0.5)).toBe(false); // behind the camera
    expect(sphereInFrustum(planes, 0, 1, -200, 0.5)).toBe(false); // past the far plane
    // At distance 10 the half-width is 10 · tan 30° ≈ 5.77: a sphere centred at x = 6.5 reaches in with radius 1, not 0.3.
    expect(sphereInFrustum(planes, 6.5, 1, 0, 1)).toBe(true);
    expect(sphereInFrustum(planes, 6.5, 1, 0, 0.3)).toBe(false);
    expect(sphereInFrustum(planes, 0, 1, 20, Infinity)).toBe(true);
  });

  it('keeps a caster off screen whose shadow reaches the view, and drops one whose shadow cannot', () => {
    // Light from the upper left-front: shadows fall towards +x and -z, down at 45°.
    const down = [Math.SQRT1_2, -Math.SQRT1_2, 0];
    // Left of the view at x = -7.5 (the half-width at z = 0 is about 5.8), 1 above the floor at 0: its shadow
    // runs 1.5 to the right, onto the visible floor.
    expect(sphereInFrustum(planes, -7.5, 1, 0, 0.5)).toBe(false);
    expect(shadowInFrustum(planes, -7.5, 1, 0, 0.5, down, 0)).toBe(true);
    // The same on the right: its shadow falls further right, away from the view.
    expect(shadowInFrustum(planes, 7.5, 1, 0, 0.5, down, 0)).toBe(false);
    // Behind the camera: the shadow runs along x, never in front of it.
    expect(shadowInFrustum(planes, 0, 1, 20, 0.5, down, 0)).toBe(false);
    // A light that does not point down sweeps nothing: the sphere test.
    expect(shadowInFrustum(planes, -7.5, 1, 0, 0.5, [1, 0, 0], 0)).toBe(false);
    // Inside the view it is always kept.
    expect(shadowInFrustum(planes, 0, 1, 0, 0.5, down, 0)).toBe(true);
  });

  it('compacts the live instances first, in instance order, then the culled ones', () => {
    // Five instances along x at -20, -5, 0, 5, 20 (z 0): the outer two are off screen.
    const offsets = Float32Array.of(-20, 0, -3, 0, 0, 0, 3, 0, 20, 0);
    const order = new Int32Array(5);
    const live = compactInstances(planes, [0, 1, 0], 0.5, offsets, 5, order);
    expect(live).toBe(3);
    expect(Array.from(order)).toEqual([1, 2, 3, 0, 4]);
    // A sphere centre offset from the grid origin moves with every instance.
    expect(compactInstances(planes, [18, 1, 0], 0.5, offsets, 5, order)).toBe(1);
    expect(Array.from(order)).toEqual([0, 1, 2, 3, 4]);
  });
});
