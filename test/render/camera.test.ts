import { vec4 } from 'gl-matrix';
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
