import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { openApp, waitState, watchConsole } from './helpers.ts';

/**
 * The viewer behaves like the tools people know: a Z-up file stands upright (detected, or `up=z`; `up=y` keeps
 * it as stored), a drop of several models loads the first and names the rest, a dropped folder's model finds
 * its .bin and texture by the paths it writes, and framing keeps the model clear of the panel and the stats box.
 *
 * The fixture (e2e/fixtures/zup, written by scripts/make-zup-fixture.ts) is a 168-vertex stick figure stored
 * Z-up with an external .bin and a texture in a subfolder; it is served at /e2e-fixtures/ by the test itself.
 */

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(here, 'fixtures');

async function serveFixtures(page: Page): Promise<void> {
  await page.route('**/e2e-fixtures/**', async (route) => {
    const name = decodeURIComponent(new URL(route.request().url()).pathname.split('/e2e-fixtures/')[1] ?? '');
    const path = join(FIXTURES, name);
    if (!name.includes('..') && existsSync(path)) await route.fulfill({ body: readFileSync(path), contentType: 'application/octet-stream' });
    else await route.fulfill({ status: 404, body: 'not found', contentType: 'text/plain' });
  });
}

interface UpInfo {
  up: { axis: string; by: string; asked: string };
  bounds: { min: number[]; max: number[] };
}
const upInfo = (page: Page): Promise<UpInfo> => page.evaluate(() => window.skinlab.info() as unknown as UpInfo);
const extent = (b: UpInfo['bounds']): number[] => b.max.map((v, k) => v - b.min[k]!);

test.describe('up axis', () => {
  test.use({ viewport: { width: 320, height: 240 } });

  test('a Z-up file is detected and stands upright (tallest along Y), says so, and up=y keeps it as stored', async ({ page }) => {
    const con = watchConsole(page);
    await serveFixtures(page);
    await openApp(page, '?model=e2e-fixtures/zup/figure.gltf&t=0');
    const auto = await upInfo(page);
    expect(auto.up).toEqual({ axis: 'z', by: 'detected', asked: 'auto' });
    const [ax, ay, az] = extent(auto.bounds);
    expect(ay).toBeGreaterThan(1.7);
    expect(ay).toBeGreaterThan(2 * Math.max(ax!, az!));
    await expect(page.locator('#toast')).toContainText('Z-up file, turned upright');

    // up=y: as stored, lying along Z; the link carries it.
    await page.evaluate(() => window.skinlab.set({ up: 'y' }));
    const stored = await upInfo(page);
    expect(stored.up).toEqual({ axis: 'y', by: 'stored', asked: 'y' });
    const [, sy, sz] = extent(stored.bounds);
    expect(sz).toBeCloseTo(ay!, 4);
    expect(sz).toBeGreaterThan(2 * sy!);
    expect(await page.evaluate(() => window.skinlab.link().url)).toContain('up=y');

    // up=z asked: upright again, and said to be asked for.
    await page.evaluate(() => window.skinlab.set({ up: 'z' }));
    const asked = await upInfo(page);
    expect(asked.up).toEqual({ axis: 'z', by: 'asked', asked: 'z' });
    expect(extent(asked.bounds)[1]).toBeCloseTo(ay!, 4);
    expect(con.errors.filter((e) => !e.includes('404'))).toEqual([]);
  });

  test('an upright built-in is left as it stands; a bad up value is refused with the values it takes', async ({ page }) => {
    await openApp(page, '?model=twist&t=0&gui=0&up=sideways', 'error');
    await expect(page.locator('#error')).toContainText('up=sideways');
    const info = await upInfo(page);
    expect(info.up).toEqual({ axis: 'y', by: 'stored', asked: 'auto' });
  });
});

/** Puts the fixture's files into the page as File objects (name → fixture path). */
async function dropFiles(page: Page, files: Record<string, string>, folder: boolean): Promise<void> {
  const payload = Object.entries(files).map(([path, from]) => ({ path, bytes: [...readFileSync(join(FIXTURES, from))] }));
  await page.evaluate(
    ({ payload, folder }) => {
      const made = payload.map((f) => ({ path: f.path, file: new File([new Uint8Array(f.bytes)], f.path.split('/').pop()!) }));
      let data: unknown;
      if (!folder) {
        const dt = new DataTransfer();
        for (const f of made) dt.items.add(f.file);
        data = dt;
      } else {
        // A dropped folder as the File System entries API hands it over (a real drop's items cannot be made by a script).
        type Node = { isFile: boolean; isDirectory: boolean; name: string; file?: (ok: (f: File) => void) => void; children?: Map<string, Node> };
        const root: Node = { isFile: false, isDirectory: true, name: made[0]!.path.split('/')[0]!, children: new Map() };
        for (const f of made) {
          const parts = f.path.split('/').slice(1);
          let at = root;
          parts.forEach((p, i) => {
            if (i === parts.length - 1) at.children!.set(p, { isFile: true, isDirectory: false, name: p, file: (ok) => ok(f.file) });
            else {
              if (!at.children!.has(p)) at.children!.set(p, { isFile: false, isDirectory: true, name: p, children: new Map() });
              at = at.children!.get(p)!;
            }
          });
        }
        const entry = (n: Node): unknown => ({
          isFile: n.isFile,
          isDirectory: n.isDirectory,
          name: n.name,
          file: n.file,
          createReader: n.children
            ? () => {
                let done = false;
                return { readEntries: (ok: (e: unknown[]) => void) => ok(done ? [] : ((done = true), [...n.children!.values()].map(entry))) };
              }
            : undefined,
        });
        data = { items: [{ kind: 'file', webkitGetAsEntry: () => entry(root) }], files: [] };
      }
      const e = new Event('drop', { cancelable: true });
      Object.defineProperty(e, 'dataTransfer', { value: data });
      window.dispatchEvent(e);
    },
    { payload, folder },
  );
}

test.describe('drops', () => {
  test.use({ viewport: { width: 320, height: 240 } });

  test('the drop hint shows while files are dragged over the page, and only then', async ({ page }) => {
    await openApp(page, '?model=twist&gui=0');
    const hint = page.locator('.drop-hint');
    await expect(hint).toBeHidden();
    await page.evaluate(() => window.dispatchEvent(new Event('dragenter', { cancelable: true })));
    await expect(hint).toBeVisible();
    await page.evaluate(() => window.dispatchEvent(new Event('dragleave')));
    await expect(hint).toBeHidden();
  });

  test('a drop of two models loads the first and a notice names the other', async ({ page }) => {
    await openApp(page, '?model=twist&gui=0');
    await dropFiles(page, { 'figure.gltf': 'zup/figure.gltf', 'figure.bin': 'zup/figure.bin', 'Skin.png': 'zup/textures/Skin.png', 'SimpleSkin.gltf': 'gltf/SimpleSkin/SimpleSkin.gltf' }, false);
    await expect.poll(() => page.evaluate(() => window.skinlab.info().model)).toBe('figure.gltf');
    await waitState(page);
    await expect(page.locator('#toast')).toContainText('not SimpleSkin.gltf');
    const info = await page.evaluate(() => window.skinlab.info() as { origin: string; parse: { resources: number } });
    expect(info.origin).toBe('file');
    // The .bin and the texture (named textures/Skin.png in the model, given loose) found by name.
    expect(info.parse.resources).toBe(2);
  });

  test('a dropped folder loads its model with the .bin and the texture from its subfolder (names matched case-blind)', async ({ page }) => {
    await openApp(page, '?model=twist&gui=0');
    await dropFiles(page, { 'Figure/figure.gltf': 'zup/figure.gltf', 'Figure/figure.bin': 'zup/figure.bin', 'Figure/Textures/SKIN.png': 'zup/textures/Skin.png', 'Figure/notes/readme.txt': 'zup/figure.gltf' }, true);
    await expect.poll(() => page.evaluate(() => window.skinlab.info().model)).toBe('figure.gltf');
    await waitState(page);
    const info = await page.evaluate(() => window.skinlab.info() as { warnings: string[]; parse: { resources: number }; up: { by: string } });
    expect(info.parse.resources).toBe(2);
    expect(info.warnings.join('\n')).not.toContain('Skin.png');
    expect(info.up.by).toBe('detected');
  });
});

test('framing at 800×600 with the panel and the stats box keeps the model clear of both', async ({ page }) => {
  await serveFixtures(page);
  await openApp(page, '?model=e2e-fixtures/zup/figure.gltf&t=0&grid=0&up=y');
  const rects = async (): Promise<{ x: number; y: number; right: number; bottom: number }[]> =>
    page.evaluate(() =>
      ['.lil-gui.lil-root', '#stats'].map((s) => {
        const r = document.querySelector(s)!.getBoundingClientRect();
        return { x: r.left, y: r.top, right: r.right, bottom: r.bottom };
      }),
    );
  for (const up of ['y', 'z']) {
    if (up === 'z') await page.evaluate(() => window.skinlab.set({ up: 'z' }));
    // The stats box fills in after the load; the view is framed again when it has (4 Hz).
    await page.waitForTimeout(800);
    await page.evaluate(() => window.skinlab.set({}));
    const covers = await rects();
    expect(covers[0]!.right - covers[0]!.x).toBeGreaterThan(200);
    // The overlays made invisible (their boxes stay), then the model's pixels on the canvas.
    await page.addStyleTag({ content: '.lil-gui.lil-root, #stats, #toast, .warnings { visibility: hidden !important; }' });
    await page.evaluate(() => window.skinlab.set({}));
    const png = PNG.sync.read(await page.locator('#view').screenshot());
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let y = 0; y < png.height; y++) {
      for (let x = 0; x < png.width; x++) {
        const i = (y * png.width + x) * 4;
        if (Math.abs(png.data[i]! - 27) + Math.abs(png.data[i + 1]! - 29) + Math.abs(png.data[i + 2]! - 34) <= 30) continue;
        x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
      }
    }
    expect(x1, `up=${up}: the model is drawn`).toBeGreaterThan(x0 + 20);
    for (const c of covers) {
      const clear = x1 < c.x || x0 > c.right || y1 < c.y || y0 > c.bottom;
      expect(clear, `up=${up}: model ${[x0, y0, x1, y1]} against overlay ${JSON.stringify(c)}`).toBe(true);
    }
    // And it is framed, not lost: at least a third of the free height or width.
    expect(Math.max((y1 - y0) / 600, (x1 - x0) / 800)).toBeGreaterThan(0.33);
    await page.evaluate(() => document.querySelectorAll('style').forEach((s) => s.textContent?.includes('visibility: hidden !important') && s.remove()));
  }
});
