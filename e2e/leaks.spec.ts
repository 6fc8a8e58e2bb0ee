import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { HAVE_CORPUS, openApp, serveCorpus, watchConsole } from './helpers.ts';

/**
 * Hours of use must not pile up GL objects or JS heap. The page counts its own live GL objects
 * (window.skinlab.glObjects(), src/gpu/gl-census.ts); switching models and techniques many times and
 * coming back to where we started must leave every count where it was. Programs are cached per shader
 * variant by design, so the counts are taken after a warm-up pass that has compiled every variant the
 * loop will ask for: from then on nothing may grow. The JS heap is measured after a forced GC (CDP).
 */

type Counts = Record<string, number>;

const TECHNIQUES = ['software', 'ff-nonindexed', 'ff-indexed', 'vs-asm', 'vs-hlsl', 'accumulated', 'dual-quat', 'cor', 'texture', 'stream-out', 'ddm'];
const VIEWS = ['shaded', 'wireframe', 'skeleton', 'weights', 'influences', 'groups', 'diff'];
/**
 * Small models with different make-ups: nine rigid meshes, a skinned .x with a JPEG texture, a static .x with
 * a BMP texture, and a binary .x cube from the corpus (the generated twist rig without it).
 */
const MODELS = ['heli', 'zombie', 'tiger', HAVE_CORPUS ? 'corpus/test_cube_binary.x' : 'twist'];

async function glObjects(page: Page): Promise<Counts> {
  return page.evaluate(() => window.skinlab.glObjects() as unknown as Record<string, number>);
}

/** Used JS heap in bytes after two full garbage collections. */
async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize;
}

function mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(2)} MiB`;
}

test('100 model switches leave the GL object counts and the JS heap where they started', async ({ page }) => {
  // About a minute on an idle 2-core machine with SwiftShader; the margin is for a busy one.
  test.setTimeout(300_000);
  // Leaks are about objects, not pixels: a small canvas keeps SwiftShader's per-frame work short.
  await page.setViewportSize({ width: 320, height: 240 });
  const con = watchConsole(page);
  const cdp = await page.context().newCDPSession(page);
  await serveCorpus(page);
  await openApp(page, `?model=${MODELS[0]}&gui=0&t=0.5&technique=vs-hlsl`);
  const start = await glObjects(page);
  expect(start.buffers, 'the census sees the first model').toBeGreaterThan(0);
  expect(start.programs).toBeGreaterThan(0);

  // Warm-up: every model with every technique once and in crowd mode once, and the diff view once: every
  // program variant the loop below can need is compiled (ProgramCache keeps them).
  const t0 = Date.now();
  await page.evaluate(
    async ([models, techniques]) => {
      for (const model of models) {
        await window.skinlab.set({ model });
        for (const technique of techniques) await window.skinlab.set({ technique });
        // Each model as a crowd: its crowd program (per influence count, and per crowd path: a model without
        // a clip draws the cpu path).
        await window.skinlab.set({ crowd: 4 });
        await window.skinlab.set({ crowd: 1 });
      }
      await window.skinlab.set({ view: 'diff' });
      await window.skinlab.set({ view: 'shaded' });
      // A crowd whose detail levels have arrived draws impostors: their capture and draw programs too.
      await window.skinlab.set({ model: 'zombie', crowd: 4, impostors: 'all' });
      const t = performance.now();
      while (performance.now() - t < 60_000 && !(window.skinlab.info().lod as { levels: { detail: string }[] }).levels.some((l) => l.detail === 'impostor')) {
        await new Promise((r) => setTimeout(r, 50));
        await window.skinlab.set({});
      }
      await window.skinlab.set({ crowd: 1, impostors: 'far' });
    },
    [MODELS, TECHNIQUES] as const,
  );
  await page.evaluate(([model]) => window.skinlab.set({ model, technique: 'vs-hlsl' }), [MODELS[0]!] as const);
  const warm = await glObjects(page);
  const heapWarm = await heapAfterGc(cdp);
  console.log(`[leaks] warm-up ${((Date.now() - t0) / 1000).toFixed(1)} s\n  start ${JSON.stringify(start)}\n  warm  ${JSON.stringify(warm)}`);
  // The warm-up may only add cached programs and the diff view's targets (the renderer keeps them once made:
  // 2 colour textures, 2 framebuffers, 2 depth renderbuffers, 1 vertex array); the model's own objects are as before.
  const diffView: Counts = { textures: 2, framebuffers: 2, renderbuffers: 2, vertexArrays: 1 };
  for (const kind of Object.keys(start)) if (kind !== 'programs') expect(warm[kind], kind).toBe(start[kind]! + (diffView[kind] ?? 0));

  // 100 switches in two rounds of 50: each to the next model with a technique, now and then in the diff view
  // or as a crowd; after each round back to the start. Counts must equal the warm ones after both rounds;
  // the heap may settle after the first round but not keep growing in the second.
  const heaps = [heapWarm];
  for (const round of [0, 1]) {
    const t1 = Date.now();
    const loaded = await page.evaluate(
      async ([models, techniques, round]) => {
        const seen: string[] = [];
        for (let i = round * 50 + 1; i <= round * 50 + 50; i++) {
          const model = models[i % models.length]!;
          const technique = techniques[i % techniques.length]!;
          await window.skinlab.set({ model, technique, view: i % 20 === 0 ? 'diff' : 'shaded', crowd: i % 25 === 0 ? 4 : 1 });
          seen.push(String(window.skinlab.info().model));
        }
        return seen;
      },
      [MODELS, TECHNIQUES, round] as const,
    );
    expect(loaded.slice(0, 4)).toEqual([1, 2, 3, 4].map((k) => MODELS[(round * 50 + k) % MODELS.length]));
    // Back to the start as the warm-up left it: the first model freshly loaded with vs-hlsl (a model keeps the
    // mesh state of every technique it has drawn with until it is replaced, so the return goes through another model).
    await page.evaluate(
      async ([other, model]) => {
        await window.skinlab.set({ model: other, view: 'shaded', crowd: 1 });
        await window.skinlab.set({ model, technique: 'vs-hlsl' });
      },
      [MODELS[1]!, MODELS[0]!] as const,
    );
    const end = await glObjects(page);
    heaps.push(await heapAfterGc(cdp));
    console.log(`[leaks] model switches ${round * 50 + 1}..${round * 50 + 50}: ${((Date.now() - t1) / 1000).toFixed(1)} s\n  end   ${JSON.stringify(end)}\n  heap ${heaps.map(mib).join(' → ')}`);
    expect(end, `GL objects after ${round * 50 + 50} model switches`).toEqual(warm);
  }
  expect(heaps[2]! - heaps[0]!, 'JS heap growth over 100 model switches').toBeLessThan(4 * 1048576);
  expect(heaps[2]! - heaps[1]!, 'JS heap growth over the second 50 model switches').toBeLessThan(1048576);
  expect(con.errors).toEqual([]);
});

test('400 technique and view switches leave the GL object counts and the JS heap where they started', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 320, height: 240 });
  const con = watchConsole(page);
  const cdp = await page.context().newCDPSession(page);
  await openApp(page, '?model=twist&gui=0&t=0.5&technique=vs-hlsl');
  // Warm-up: every technique in every view.
  await page.evaluate(
    async ([techniques, views]) => {
      for (const view of views) for (const technique of techniques) await window.skinlab.set({ technique, view });
      await window.skinlab.set({ technique: 'vs-hlsl', view: 'shaded' });
    },
    [TECHNIQUES, VIEWS] as const,
  );
  const warm = await glObjects(page);
  const heapWarm = await heapAfterGc(cdp);
  const t1 = Date.now();
  const drawn = await page.evaluate(
    async ([techniques, views]) => {
      // Switches without waiting for a frame, each 4th one awaited: the state a frame draws is whatever the
      // last switch set, so the awaited one is drawn (set() resolves after the frame with it).
      let checked = 0;
      for (let i = 1; i <= 400; i++) {
        const technique = techniques[i % techniques.length]!;
        const view = views[Math.floor(i / techniques.length) % views.length]!;
        const done = window.skinlab.set({ technique, view });
        if (i % 4 === 0) {
          await done;
          const s = window.skinlab.stats();
          if (s.technique !== technique || s.view !== view) throw new Error(`switch ${i}: drew ${s.technique}/${s.view}, wanted ${technique}/${view}`);
          checked++;
        }
      }
      await window.skinlab.set({ technique: 'vs-hlsl', view: 'shaded' });
      return checked;
    },
    [TECHNIQUES, VIEWS] as const,
  );
  expect(drawn).toBe(100);
  const end = await glObjects(page);
  const heapEnd = await heapAfterGc(cdp);
  console.log(`[leaks] 400 technique/view switches ${((Date.now() - t1) / 1000).toFixed(1)} s\n  warm ${JSON.stringify(warm)}\n  end  ${JSON.stringify(end)}\n  heap ${mib(heapWarm)} → ${mib(heapEnd)}`);
  expect(end).toEqual(warm);
  expect(heapEnd - heapWarm, 'JS heap growth over 400 switches').toBeLessThan(2 * 1048576);
  expect(con.errors).toEqual([]);
});
