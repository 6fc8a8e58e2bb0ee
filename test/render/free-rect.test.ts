import { vec4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { OrbitCamera } from '../../src/render/camera.ts';
import { FULL_VIEW, freeRects, toNdc, type NdcRect } from '../../src/render/free-rect.ts';

/** The page at 800×600: the panel down the right (x 485…800), the stats box top-left (455×180). */
const CANVAS = { left: 0, top: 0, width: 800, height: 600 };
const PANEL = toNdc({ left: 485, top: 0, right: 800, bottom: 600 }, CANVAS)!;
const STATS = toNdc({ left: 8, top: 8, right: 456, bottom: 180 }, CANVAS)!;

/** NDC of every corner of the box through the camera's viewProj. */
function projected(cam: OrbitCamera, min: number[], max: number[]): [number, number][] {
  cam.update();
  const out: [number, number][] = [];
  const v = vec4.create();
  for (let i = 0; i < 8; i++) {
    vec4.set(v, i & 1 ? max[0]! : min[0]!, i & 2 ? max[1]! : min[1]!, i & 4 ? max[2]! : min[2]!, 1);
    vec4.transformMat4(v, v, cam.viewProj);
    out.push([v[0]! / v[3]!, v[1]! / v[3]!]);
  }
  return out;
}

function overlaps(p: [number, number][], r: NdcRect): boolean {
  const x0 = Math.min(...p.map((q) => q[0])), x1 = Math.max(...p.map((q) => q[0]));
  const y0 = Math.min(...p.map((q) => q[1])), y1 = Math.max(...p.map((q) => q[1]));
  return x1 > r.x0 && x0 < r.x1 && y1 > r.y0 && y0 < r.y1;
}

describe('toNdc and freeRects', () => {
  it('maps client pixels to the canvas NDC (y up) and drops what misses the canvas', () => {
    expect(PANEL.x0).toBeCloseTo(485 / 400 - 1, 9);
    expect(PANEL).toMatchObject({ x1: 1, y0: -1, y1: 1 });
    expect(STATS.y0).toBeCloseTo(1 - 360 / 600, 9);
    expect(toNdc({ left: 900, top: 0, right: 1000, bottom: 50 }, CANVAS)).toBeNull();
  });

  it('is the whole canvas without covers, or when no free part is big enough', () => {
    expect(freeRects([])).toEqual([FULL_VIEW]);
    expect(freeRects([{ x0: -0.9, y0: -0.9, x1: 0.9, y1: 0.9 }])).toEqual([FULL_VIEW]);
  });

  it('offers each side of every cover, clear of all of them, without rectangles inside others', () => {
    const rects = freeRects([PANEL, STATS]);
    expect(rects.length).toBeGreaterThan(0);
    for (const r of rects) {
      for (const c of [PANEL, STATS]) expect(r.x1 <= c.x0 || r.x0 >= c.x1 || r.y1 <= c.y0 || r.y0 >= c.y1).toBe(true);
      expect(r.x1 - r.x0).toBeGreaterThanOrEqual(0.6);
    }
    // Left of the panel and below the stats box: the tall free area a standing character is framed in.
    expect(rects).toContainEqual({ x0: -1, x1: PANEL.x0, y0: -1, y1: STATS.y0 });
  });
});

describe('OrbitCamera.frameBox in the free rectangles', () => {
  const tall = { min: [-0.4, 0, -0.2], max: [0.4, 1.8, 0.2] };
  const wide = { min: [-6, 0, -7], max: [6, 3, 7] };

  it('frames exactly as before without free rectangles (gui=0): centred, same distance', () => {
    const a = new OrbitCamera();
    a.aspect = 800 / 600;
    a.frameBox(tall.min, tall.max);
    const b = new OrbitCamera();
    b.aspect = 800 / 600;
    b.freeRects = [FULL_VIEW];
    b.frameBox(tall.min, tall.max);
    expect([a.shiftX, a.shiftY]).toEqual([0, 0]);
    expect(b.distance).toBe(a.distance);
    a.update();
    expect(a.projection[8]).toBe(0);
  });

  for (const [name, box] of [['a tall figure', tall], ['a wide model', wide]] as const) {
    it(`keeps ${name}'s projected box out of the panel and the stats box, inside the canvas`, () => {
      const cam = new OrbitCamera();
      cam.aspect = 800 / 600;
      cam.yawDeg = 25;
      cam.pitchDeg = 10;
      cam.freeRects = freeRects([PANEL, STATS]);
      cam.frameBox(box.min, box.max);
      const p = projected(cam, box.min, box.max);
      expect(overlaps(p, PANEL)).toBe(false);
      expect(overlaps(p, STATS)).toBe(false);
      for (const [x, y] of p) {
        expect(Math.abs(x)).toBeLessThanOrEqual(1);
        expect(Math.abs(y)).toBeLessThanOrEqual(1);
      }
      // The target is drawn at the chosen rectangle's centre, left of the panel.
      expect(cam.shiftX).toBeLessThan(0);
      // Fitted, not just shrunk: some corner reaches near the free rectangle's edge (the 1.08 margin aside).
      const r = cam.freeRects.find((q) => Math.abs((q.x0 + q.x1) / 2 - cam.shiftX) < 1e-12 && Math.abs((q.y0 + q.y1) / 2 - cam.shiftY) < 1e-12)!;
      const reach = Math.max(...p.map(([x, y]) => Math.max((2 * Math.abs(x - cam.shiftX)) / (r.x1 - r.x0), (2 * Math.abs(y - cam.shiftY)) / (r.y1 - r.y0))));
      expect(reach).toBeGreaterThan(0.85);
    });
  }

  it('fitShift centres a placed view on the same free rectangle and keeps its distance and target', () => {
    const cam = new OrbitCamera();
    cam.aspect = 800 / 600;
    cam.freeRects = freeRects([PANEL, STATS]);
    cam.distance = 5;
    (cam.target as Float32Array).set([1, 2, 3]);
    cam.fitShift(tall.min, tall.max);
    expect(cam.distance).toBe(5);
    expect(Array.from(cam.target)).toEqual([1, 2, 3]);
    expect(cam.shiftX).toBeLessThan(0);
  });
});
