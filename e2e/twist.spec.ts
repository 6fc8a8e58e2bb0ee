import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { openApp, watchConsole } from './helpers.ts';

/**
 * The twist rig (src/gen/twist.ts) at its 180° twist, seen from the side (`camera=front`: the cylinder
 * lies along the screen's x axis with the twisting joint at the centre): linear blending (vs-hlsl)
 * pinches the joint to a point, the candy wrapper; dual quaternions (dual-quat) keep it as thick as
 * the rest of the cylinder. Measured on the silhouette: model pixels per screen column.
 */

/** Seconds into `twist` where the far half has turned 180° (TWIST_PEAK_TIME). */
const PEAK = 2;

interface Profile {
  /** Model pixels in the thinnest column of the middle tenth of the silhouette (the joint). */
  joint: number;
  /** Median model pixels per column over the outer fifths of the silhouette (rigid parts, rest radius). */
  body: number;
}

/**
 * Column coverage of the model in a screenshot of the canvas taken with the floor off: a pixel is the
 * model's when it differs clearly (sum of channel differences > 30) from the background at the corner.
 */
async function columnProfile(page: Page, name: string): Promise<Profile> {
  const bytes = await page.locator('#view').screenshot();
  await test.info().attach(name, { body: bytes, contentType: 'image/png' });
  const png = PNG.sync.read(bytes);
  const { width, height, data } = png;
  const bg = [data[0]!, data[1]!, data[2]!];
  const columns = new Array<number>(width).fill(0);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (Math.abs(data[i]! - bg[0]!) + Math.abs(data[i + 1]! - bg[1]!) + Math.abs(data[i + 2]! - bg[2]!) > 30) columns[x]!++;
    }
  }
  const x0 = columns.findIndex((c) => c > 0);
  const x1 = width - 1 - [...columns].reverse().findIndex((c) => c > 0);
  expect(x0, 'the model is on screen').toBeGreaterThanOrEqual(0);
  const span = x1 - x0 + 1;
  const mid = (x0 + x1) / 2;
  let joint = Infinity;
  for (let x = Math.round(mid - span * 0.05); x <= Math.round(mid + span * 0.05); x++) joint = Math.min(joint, columns[x]!);
  const outer: number[] = [];
  for (let x = x0; x <= x1; x++) if (Math.abs(x - mid) > span * 0.3) outer.push(columns[x]!);
  outer.sort((a, b) => a - b);
  return { joint, body: outer[outer.length >> 1]! };
}

test('twisted 180°: linear blending pinches the joint (candy wrapper), dual quaternions keep its thickness', async ({ page }) => {
  test.setTimeout(120_000);
  const con = watchConsole(page);
  const profiles: Record<string, Profile> = {};
  for (const technique of ['vs-hlsl', 'dual-quat']) {
    await openApp(page, `?model=twist&clip=twist&t=${PEAK}&gui=0&grid=0&camera=front&technique=${technique}`);
    const info = await page.evaluate(() => window.skinlab.info());
    expect([info.model, info.clip, info.t, info.technique]).toEqual(['twist', 'twist', PEAK, technique]);
    profiles[technique] = await columnProfile(page, `twist-${technique}.png`);
  }
  const lbs = profiles['vs-hlsl']!;
  const dq = profiles['dual-quat']!;
  const measured = `vs-hlsl ${lbs.joint} of ${lbs.body}, dual-quat ${dq.joint} of ${dq.body}`;
  test.info().annotations.push({ type: 'joint thickness (px)', description: measured });
  console.log(`twist 180° joint thickness (px): ${measured}`);
  // Both show the same undeformed ends, about the rest diameter.
  expect(lbs.body).toBeGreaterThan(40);
  expect(Math.abs(dq.body - lbs.body)).toBeLessThanOrEqual(0.05 * lbs.body);
  // Linear blending: the joint collapses to (nearly) a point.
  expect(lbs.joint).toBeLessThan(0.3 * lbs.body);
  // Dual quaternions: the joint stays (nearly) as thick as the ends.
  expect(dq.joint).toBeGreaterThan(0.9 * dq.body);
  expect(dq.joint).toBeGreaterThan(3 * lbs.joint);
  expect(con.errors).toEqual([]);
});
