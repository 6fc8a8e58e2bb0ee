import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { openApp, watchConsole } from './helpers.ts';

/**
 * The artifact figures in the page on the twist rig at its 180° twist (t = 2 s): `skinlab.quality()` from
 * the GPU readback against the CPU reference, the stats box's figures, and the distortion view's colours
 * (blue where the surface shrinks) with its legend. Small canvas (720 × 300: the full stats box, not the phone one).
 */

const TWIST = '?model=twist&clip=twist&t=2&camera=front&grid=0&shadows=0';

interface Entry {
  technique: string;
  source: string;
  volume: { ratio: number; open: boolean };
  area: { p95: number; shrink: number; worstVertex: { bones: string[] } };
  deviation: { vs: string; max: number };
  agreement: number;
  cpu: { volume: { ratio: number } };
}

async function quality(page: Page, technique?: string): Promise<{ techniques: Entry[]; clip: string; t: number }> {
  return page.evaluate((t) => window.skinlab.quality(t) as never, technique);
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 720, height: 300 });
});

test('quality(): linear blending loses volume at the 180° twist, dual-quat keeps it; GPU and CPU agree', async ({ page }) => {
  test.setTimeout(90_000);
  const con = watchConsole(page);
  await openApp(page, `${TWIST}&technique=vs-hlsl`);
  const q = await quality(page);
  expect([q.clip, q.t]).toEqual(['twist', 2]);
  expect(q.techniques.map((e) => e.technique)).toEqual(['vs-hlsl']);
  const lbs = q.techniques[0]!;
  expect(lbs.source).toBe('gpu');
  expect(lbs.agreement).toBeLessThanOrEqual(1e-4);
  expect(lbs.volume.open).toBe(false);
  expect(lbs.volume.ratio).toBeLessThan(0.9);
  expect(Math.abs(lbs.volume.ratio - lbs.cpu.volume.ratio)).toBeLessThan(1e-3);
  expect(lbs.area.shrink).toBeLessThan(-3);
  expect(lbs.area.worstVertex.bones).toEqual(['inner', 'outer']);

  const dq = (await quality(page, 'dual-quat')).techniques[0]!;
  expect(dq.agreement).toBeLessThanOrEqual(1e-4);
  expect(Math.abs(dq.volume.ratio - 1)).toBeLessThan(0.02);
  expect(dq.deviation.vs).toBe('software');
  expect(dq.deviation.max).toBeGreaterThan(0.1);
  // Every technique's GPU positions agree with its CPU reference.
  const all = await page.evaluate(() => (window.skinlab.info().techniques as string[]).map((t) => [t, window.skinlab.quality(t).techniques[0]!.agreement] as const));
  expect(all.length).toBeGreaterThanOrEqual(9);
  for (const [t, agreement] of all) expect(agreement, t).toBeLessThanOrEqual(1e-4);
  console.log(`quality twist 180°: vs-hlsl volume ${lbs.volume.ratio} (agreement ${lbs.agreement.toExponential(2)}), dual-quat ${dq.volume.ratio} (agreement ${dq.agreement.toExponential(2)})`);

  // The stats box shows the technique on screen's figures.
  await expect.poll(() => page.evaluate(() => window.skinlab.stats().volumeRatio as number | null), { timeout: 30_000 }).not.toBeNull();
  const stats = await page.evaluate(() => window.skinlab.stats());
  expect(stats.volumeRatio as number).toBeCloseTo(lbs.cpu.volume.ratio, 3);
  await expect(page.locator('#stats')).toContainText(/quality\s+volume 87\.\d %\s+area change p95 1\.\d\d/);
  expect(con.errors).toEqual([]);
});

test('view=distortion: the collapsed twist joint is blue, the rigid ends white, and the legend shows the scale', async ({ page }) => {
  test.setTimeout(90_000);
  const con = watchConsole(page);
  await openApp(page, `${TWIST}&technique=vs-hlsl&view=distortion`);
  await expect(page.locator('#distortion-legend')).toBeVisible();
  await expect(page.locator('#stats .legend')).toContainText('distortion');
  const shot = async (name: string): Promise<PNG> => {
    await page.evaluate(() => window.skinlab.set({ gui: 0 }));
    const bytes = await page.locator('#view').screenshot();
    await test.info().attach(name, { body: bytes, contentType: 'image/png' });
    await page.evaluate(() => window.skinlab.set({ gui: 1 }));
    return PNG.sync.read(bytes);
  };
  const lbs = await shot('distortion-vs-hlsl.png');
  const blue = (png: PNG): number => countPixels(png, (r, g, b) => b > 150 && b > r + 60 && b > g + 30);
  const white = (png: PNG): number => countPixels(png, (r, g, b) => r > 140 && Math.abs(r - b) < 25 && Math.abs(g - b) < 25);
  const lbsBlue = blue(lbs);
  expect(lbsBlue, 'blue (shrunk) pixels at the joint').toBeGreaterThan(200);
  expect(white(lbs), 'white (unchanged) pixels on the rigid ends').toBeGreaterThan(2000);
  // The blue lies in the middle of the silhouette, where the joint is.
  const { mean } = blueColumns(lbs);
  expect(Math.abs(mean - lbs.width / 2)).toBeLessThan(lbs.width * 0.1);

  // Every technique colours by its own CPU reference: the linear-blend ones like vs-hlsl (through their own
  // vertex copies and group draws).
  const techniques = (await page.evaluate(() => window.skinlab.info().techniques)) as string[];
  expect(techniques).toContain('ff-nonindexed');
  for (const technique of techniques) {
    await page.evaluate((t) => window.skinlab.set({ technique: t }), technique);
    const n = blue(await shot(`distortion-${technique}.png`));
    // Dual quaternions and centres of rotation keep the twist's areas; delta mush collapses less than linear blending.
    if (technique === 'dual-quat' || technique === 'cor') expect(n, technique).toBeLessThan(lbsBlue / 10);
    else if (technique === 'ddm') expect(n, technique).toBeLessThan(lbsBlue * 0.9);
    else expect(Math.abs(n - lbsBlue), technique).toBeLessThan(lbsBlue * 0.1);
  }

  // A new pose updates the colours: at rest nothing has changed.
  await page.evaluate(() => window.skinlab.set({ technique: 'vs-hlsl', t: 0 }));
  const rest = await shot('distortion-rest.png');
  expect(blue(rest)).toBeLessThan(lbsBlue / 10);
  // The bind pose drawn at the twisted time shows the rest shape: nothing changed.
  await page.evaluate(() => window.skinlab.set({ t: 2, bindPose: 1 }));
  expect(blue(await shot('distortion-bind-pose.png'))).toBeLessThan(lbsBlue / 10);
  expect(con.errors).toEqual([]);
});

function countPixels(png: PNG, match: (r: number, g: number, b: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) if (match(png.data[i]!, png.data[i + 1]!, png.data[i + 2]!)) n++;
  return n;
}

function blueColumns(png: PNG): { mean: number } {
  let sum = 0;
  let n = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      const r = png.data[i]!, g = png.data[i + 1]!, b = png.data[i + 2]!;
      if (b > 150 && b > r + 60 && b > g + 30) {
        sum += x;
        n++;
      }
    }
  }
  return { mean: n > 0 ? sum / n : -1 };
}
