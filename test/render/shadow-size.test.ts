import { describe, expect, it } from 'vitest';
import { ShadowMap } from '../../src/render/shadow-map.ts';
import { SHADOW_MAP_MAX, SHADOW_MAP_MIN, shadowMapSize } from '../../src/render/shadow-size.ts';

/**
 * The key light's shadow map is sized for the view it is drawn for: 1024² texels up to views of 1024 pixels,
 * 2048² above, within the device's limit; a canvas resized across the step makes the map again at the new size,
 * and one that stays on the same side of it keeps its texture. A crowd's map (a box past the view) has 2048². Driven through a GL that records the depth
 * textures made and deleted.
 */

describe('shadowMapSize', () => {
  it('is the power of two at or above the view’s larger side, from 1024 to 2048', () => {
    expect(shadowMapSize(320, 240, 16384)).toBe(SHADOW_MAP_MIN);
    expect(shadowMapSize(800, 600, 16384)).toBe(1024);
    expect(shadowMapSize(600, 1024, 16384)).toBe(1024);
    expect(shadowMapSize(1025, 700, 16384)).toBe(2048);
    expect(shadowMapSize(1920, 1080, 16384)).toBe(2048);
    expect(shadowMapSize(3840, 2160, 16384)).toBe(SHADOW_MAP_MAX);
  });

  it('never exceeds the device’s texture limit, and stays positive for an empty buffer', () => {
    expect(shadowMapSize(1920, 1080, 1024)).toBe(1024);
    expect(shadowMapSize(0, 0, 16384)).toBe(1024);
  });
});

interface Tex {
  id: number;
  side: number;
}

/** A WebGL2 context reduced to what ShadowMap calls, with a drawing buffer the test resizes. */
function recordingGl() {
  let next = 1;
  let bound: Tex | null = null;
  const made: Tex[] = [];
  const deleted: Tex[] = [];
  const viewports: number[] = [];
  const gl = {
    drawingBufferWidth: 800,
    drawingBufferHeight: 600,
    MAX_TEXTURE_SIZE: 0x0d33,
    TEXTURE_2D: 0x0de1,
    FRAMEBUFFER: 0x8d40,
    FRAMEBUFFER_COMPLETE: 0x8cd5,
    getParameter: (p: number) => (p === 0x0d33 ? 16384 : null),
    createTexture: (): Tex => ({ id: next++, side: 0 }),
    createFramebuffer: () => ({ id: next++ }),
    bindTexture: (_t: number, tex: Tex | null) => void (bound = tex),
    texStorage2D: (_t: number, _levels: number, _format: number, w: number) => {
      bound!.side = w;
      made.push(bound!);
    },
    texParameteri: () => {},
    bindFramebuffer: () => {},
    framebufferTexture2D: () => {},
    drawBuffers: () => {},
    readBuffer: () => {},
    checkFramebufferStatus: () => 0x8cd5,
    deleteTexture: (t: Tex) => void deleted.push(t),
    deleteFramebuffer: () => {},
    viewport: (_x: number, _y: number, w: number) => void viewports.push(w),
    disable: () => {},
    enable: () => {},
    depthMask: () => {},
    clear: () => {},
    depthFunc: () => {},
    colorMask: () => {},
    polygonOffset: () => {},
    activeTexture: () => {},
  };
  return { gl, made, deleted, viewports };
}

const MIN = [-1, 0, -1];
const MAX = [1, 2, 1];
const LIGHT = [-0.6, 0.7, 0.45];

describe('ShadowMap follows the drawing buffer', () => {
  it('makes its texture at the view’s size, and again only when the size crosses a step', () => {
    const { gl, made, deleted, viewports } = recordingGl();
    const map = new ShadowMap(gl as unknown as WebGL2RenderingContext);
    map.prepare();
    expect(made.map((t) => t.side)).toEqual([1024]);
    map.fit(MIN, MAX, LIGHT);
    map.begin();
    expect(viewports).toEqual([1024]);
    expect(map.params[0]).toBe(1 / 1024);

    // Resized within the step: the same texture.
    gl.drawingBufferWidth = 1000;
    map.fit(MIN, MAX, LIGHT);
    map.begin();
    expect(made).toHaveLength(1);
    expect(deleted).toHaveLength(0);

    // Across it: the 1024² texture goes, a 2048² one is made on the next use, and the frustum's texel follows.
    const texel1024 = map.texel;
    gl.drawingBufferWidth = 1600;
    map.fit(MIN, MAX, LIGHT);
    expect(deleted.map((t) => t.side)).toEqual([1024]);
    expect(map.size).toBe(2048);
    expect(map.texel).toBeCloseTo(texel1024 / 2, 12);
    expect(map.params[0]).toBe(1 / 2048);
    map.bindTexture();
    expect(made.map((t) => t.side)).toEqual([1024, 2048]);
    map.begin();
    expect(viewports.at(-1)).toBe(2048);
  });

  it('a crowd’s box gets the most texels on a small view, and a single model after it the view’s again', () => {
    const { gl, made, deleted } = recordingGl();
    const map = new ShadowMap(gl as unknown as WebGL2RenderingContext);
    map.fit(MIN, MAX, LIGHT, false);
    map.prepare();
    expect(map.size).toBe(2048);
    expect(made.map((t) => t.side)).toEqual([2048]);
    map.fit(MIN, MAX, LIGHT, true);
    map.bindTexture();
    expect(deleted.map((t) => t.side)).toEqual([2048]);
    expect(made.map((t) => t.side)).toEqual([2048, 1024]);
  });

  it('a load’s prepare() before any frame takes the view as it is then', () => {
    const { gl, made } = recordingGl();
    const map = new ShadowMap(gl as unknown as WebGL2RenderingContext);
    gl.drawingBufferWidth = 2560;
    gl.drawingBufferHeight = 1440;
    map.prepare();
    expect(made.map((t) => t.side)).toEqual([2048]);
  });
});
