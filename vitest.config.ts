import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      include: ['test/**/*.test.ts'],
      environment: 'node',
      testTimeout: 30_000,
      // Vitest's default leaves one core to its main thread; here the main thread mostly waits, so a
      // 2-core machine runs two test files at once (about half the unit suite's time there).
      maxWorkers: 2,
    },
  }),
);
