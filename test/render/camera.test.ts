import { vec3, vec4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { OrbitCamera } from '../../src/render/camera.ts';

describe('OrbitCamera', () => {
  it('frames a bounding sphere so that its extreme points project inside the view', () => {
    for (const aspect of [0.5, 1, 2]) {
      const cam = new OrbitCamera();
      cam.aspect = aspect;
      cam.frame([1, 2, 3], 5);
      cam.update();
      for (const d of [[5, 0, 0], [-5, 0, 0], [0, 5, 0], [0, -5, 0]]) {
        const p = vec4.transformMat4(vec4.create(), [1 + d[0]!, 2 + d[1]!, 3 + d[2]!, 1], cam.viewProj);
        expect(Math.abs(p[0]! / p[3]!)).toBeLessThan(1);
        expect(Math.abs(p[1]! / p[3]!)).toBeLessThan(1);
      }
    }
  });

  it('frames a tall box tighter than its sphere, keeping its corners in view', () => {
    const cam = new OrbitCamera();
    cam.aspect = 4 / 3;
    cam.frameBox([-0.3, 0, -0.2], [0.3, 1.8, 0.2]);
    cam.update();
    const boxDistance = cam.distance;
    for (const x of [-0.3, 0.3]) for (const y of [0, 1.8]) for (const z of [-0.2, 0.2]) {
      const p = vec4.transformMat4(vec4.create(), [x, y, z, 1], cam.viewProj);
      expect(Math.abs(p[0]! / p[3]!)).toBeLessThan(1);
      expect(Math.abs(p[1]! / p[3]!)).toBeLessThan(1);
      expect(Math.abs(p[1]! / p[3]!)).toBeGreaterThan(0.5); // and fills most of the height
    }
    cam.frame([0, 0.9, 0], Math.hypot(0.6, 1.8, 0.4) / 2);
    expect(boxDistance).toBeLessThan(cam.distance);
  });

  it('yaw 0 looks at the front of a character facing +Z', () => {
    const cam = new OrbitCamera();
    cam.yawDeg = 0;
    cam.pitchDeg = 0;
    cam.distance = 4;
    cam.update();
    expect(cam.position[2]).toBeCloseTo(cam.target[2]! + 4, 5);
    cam.orbit(90, 200);
    expect(cam.pitchDeg).toBe(89);
  });
});

describe('OrbitCamera after a resize', () => {
  /** A camera with every input set, updated once, as after a model load. */
  function loaded(aspect: number): OrbitCamera {
    const cam = new OrbitCamera();
    cam.yawDeg = 37;
    cam.pitchDeg = -14;
    cam.distance = 2.75;
    cam.target[0] = 0.2;
    cam.target[1] = 1.1;
    cam.target[2] = -0.4;
    cam.fovYDeg = 45;
    cam.aspect = aspect;
    cam.update();
    return cam;
  }

  function expectSameMatrices(cam: OrbitCamera, fresh: OrbitCamera): void {
    for (const key of ['projection', 'view', 'viewProj'] as const) {
      for (let i = 0; i < 16; i++) {
        expect(cam[key][i], `${key}[${i}]`).toBeCloseTo(fresh[key][i]!, 12);
      }
    }
    for (let i = 0; i < 3; i++) expect(cam.position[i]).toBeCloseTo(fresh.position[i]!, 12);
    expect(cam.near).toBe(fresh.near);
    expect(cam.far).toBe(fresh.far);
  }

  it('rebuilds projection and view-projection when only the aspect changes', () => {
    // A window widened after load, then narrowed past square, then back: each state matches a camera built
    // at that aspect from scratch, so the picture is never stretched by a stale projection.
    const cam = loaded(1);
    for (const aspect of [16 / 9, 0.6, 1, 2.4]) {
      cam.aspect = aspect;
      cam.update();
      expectSameMatrices(cam, loaded(aspect));
      // The user-visible consequence: a point at the target's right keeps its true horizontal offset on screen.
      const px = vec4.transformMat4(vec4.create(), [cam.target[0]! + 0.1, cam.target[1]!, cam.target[2]!, 1], cam.viewProj);
      const fx = vec4.transformMat4(vec4.create(), [cam.target[0]! + 0.1, cam.target[1]!, cam.target[2]!, 1], loaded(aspect).viewProj);
      expect(px[0]! / px[3]!).toBeCloseTo(fx[0]! / fx[3]!, 9);
    }
  });

  it('the projection x scale is the y scale divided by the aspect after an aspect-only change', () => {
    const cam = loaded(1);
    expect(cam.projection[0]).toBeCloseTo(cam.projection[5]!, 12);
    cam.aspect = 2;
    cam.update();
    expect(cam.projection[0]).toBeCloseTo(cam.projection[5]! / 2, 12);
  });

  it('rebuilds the projection when only the field of view changes', () => {
    const cam = loaded(4 / 3);
    cam.fovYDeg = 60;
    cam.update();
    const fresh = new OrbitCamera();
    Object.assign(fresh, { yawDeg: 37, pitchDeg: -14, distance: 2.75, fovYDeg: 60, aspect: 4 / 3 });
    vec3.copy(fresh.target, cam.target);
    fresh.update();
    expectSameMatrices(cam, fresh);
  });
});
