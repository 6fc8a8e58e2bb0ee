import { describe, expect, it } from 'vitest';
import { placeCamera, ZOOM_FARTHEST, ZOOM_NEAREST } from '../../src/app/camera-placement.ts';
import type { Framing } from '../../src/app/framing.ts';
import { OrbitCamera } from '../../src/render/camera.ts';
import { plazaRadius } from '../../src/render/crowd-plaza.ts';

/** A person 1.8 tall standing on y = 0, centred off the origin. */
const framing: Framing = { min: [-0.4, 0, -0.3], max: [0.6, 1.8, 0.3], centre: [0.1, 0.9, 0], radius: 1.05, floorY: 0 };

describe('camera placement: the plaza', () => {
  // Spacing 3: a model far wider than it is tall (a quadruped), whose plaza is wider than 20 orbit distances.
  for (const [n, spacing] of [[60, 1], [10000, 3]] as const) {
    it(`N = ${n}, spacing ${spacing}: the eye at a person's height at the plaza's edge, looking slightly down across it, the far side inside the far plane`, () => {
      const camera = new OrbitCamera();
      camera.aspect = 4 / 3;
      const edge = plazaRadius(n, spacing) + 0.7 * spacing;
      placeCamera(camera, framing, null, n, [edge, edge], edge);
      camera.update();
      const eye = camera.position;
      expect(eye[1]).toBeCloseTo(0.93 * 1.8, 4);
      expect(Math.hypot(eye[0]! - 0.1, eye[2]! - 0)).toBeCloseTo(edge, 4);
      expect(camera.pitchDeg).toBeGreaterThanOrEqual(6 - 1e-9);
      expect(camera.pitchDeg).toBeLessThan(20);
      // The target is on the floor, inside the plaza.
      expect(camera.target[1]).toBeCloseTo(0, 6);
      expect(Math.hypot(camera.target[0]! - 0.1, camera.target[2]!)).toBeLessThan(edge);
      // The plaza's far side: 2 · edge from the eye along the floor.
      expect(camera.far).toBeGreaterThan(2 * edge);
      expect(camera.near).toBeGreaterThan(camera.far / 1e5);
      // The grid's framing comes back, and with it the usual far plane.
      placeCamera(camera, framing, null, n, [3, 3]);
      camera.update();
      expect(camera.pitchDeg).toBe(28);
      expect(camera.reach).toBe(0);
    });
  }
});

describe('camera placement: the zoom range', () => {
  it('the wheel stops near the model and far from it, whichever way it turns, and a placement from the user\'s view does not widen it', () => {
    const camera = new OrbitCamera();
    placeCamera(camera, framing, null, 1, [0, 0]);
    const framed = camera.distance;
    for (let k = 0; k < 200; k++) camera.zoom(Math.exp(-120 * 0.0015));
    expect(camera.distance).toBeCloseTo(ZOOM_NEAREST * framing.radius, 9);
    for (let k = 0; k < 400; k++) camera.zoom(Math.exp(120 * 0.0015));
    expect(camera.distance).toBeCloseTo(ZOOM_FARTHEST * framing.radius, 6);
    // The view read back and placed again (as the app keeps the user's view): the range stays.
    placeCamera(camera, framing, { yaw: 25, pitch: 10, distance: camera.distance / framing.radius, target: null }, 1, [0, 0]);
    camera.zoom(10);
    expect(camera.distance).toBeCloseTo(ZOOM_FARTHEST * framing.radius, 6);
    expect(framed).toBeGreaterThan(camera.minDistance);
    expect(framed).toBeLessThan(camera.maxDistance);
  });

  it('a crowd framed whole can be seen whole: the range reaches past its framing', () => {
    const camera = new OrbitCamera();
    placeCamera(camera, framing, null, 10000, [150, 150]);
    expect(camera.maxDistance).toBeGreaterThan(camera.distance * 5);
    expect(camera.minDistance).toBeCloseTo(ZOOM_NEAREST * framing.radius, 9);
  });

  it('a distance set outside the range (a link) is kept; zooming only moves it back towards the range', () => {
    const camera = new OrbitCamera();
    placeCamera(camera, framing, { yaw: 0, pitch: 0, distance: 500, target: null }, 1, [0, 0]);
    expect(camera.distance).toBeCloseTo(500 * framing.radius, 6);
    camera.zoom(2);
    expect(camera.distance).toBeCloseTo(500 * framing.radius, 6);
    camera.zoom(0.5);
    expect(camera.distance).toBeCloseTo(250 * framing.radius, 6);
  });
});
