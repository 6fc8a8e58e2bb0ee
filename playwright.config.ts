import { defineConfig } from '@playwright/test';

/**
 * Browser tests on the system's headless Chromium (never a downloaded one), WebGL2 through SwiftShader.
 * The page is the production build served by `vite preview`. Fixed viewport and device scale factor
 * make screenshots repeatable on one machine.
 */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Another port or built folder lets two runs share a machine (`SKINLAB_PORT=4174 SKINLAB_DIST=dist-b SKINLAB_RESULTS=test-results-b`). */
const port = Number(process.env.SKINLAB_PORT ?? 4173);
const dist = process.env.SKINLAB_DIST ?? 'dist';
/**
 * Two spec files at a time by default: a page spends much of a test waiting (loads, workers, frames), so two
 * share two cores well. Every check judges time by CPU time or wide margins, so a busy machine does not fail
 * it. SKINLAB_WORKERS=1 runs one file at a time.
 */
const workers = Math.max(1, Number(process.env.SKINLAB_WORKERS ?? 2) || 1);

export default defineConfig({
  testDir: 'e2e',
  timeout: 90_000,
  expect: { timeout: 30_000, toHaveScreenshot: { maxDiffPixelRatio: 0.01, threshold: 0.15 } },
  fullyParallel: false,
  workers,
  retries: 0,
  reporter: [['list']],
  outputDir: process.env.SKINLAB_RESULTS ?? 'test-results',
  snapshotPathTemplate: '{testDir}/__screenshots__/{testFilePath}/{arg}{ext}',
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    viewport: { width: 800, height: 600 },
    deviceScaleFactor: 1,
    launchOptions: {
      executablePath,
      args: [
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
        '--ignore-gpu-blocklist',
        '--no-sandbox',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-default-apps',
        '--metrics-recording-only',
      ],
    },
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort --outDir ${dist}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
