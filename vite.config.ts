import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { resolveIncludes } from './src/gpu/glsl-include.ts';

const root = dirname(fileURLToPath(import.meta.url));
const includeDir = join(root, 'glsl', 'include');

/** Imports glsl/*.vert|frag as strings with `#include <chunk>` resolved; an unresolved include fails the build. */
function glsl(): Plugin {
  return {
    name: 'skinlab-glsl',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (!/\.(vert|frag|glsl)$/.test(file)) return null;
      const lookup = (name: string): string | undefined => {
        const path = join(includeDir, `${name}.glsl`);
        if (!existsSync(path)) return undefined;
        this.addWatchFile(path);
        return readFileSync(path, 'utf8');
      };
      try {
        const out = resolveIncludes(code, lookup, file.slice(root.length + 1));
        return { code: `export default ${JSON.stringify(out)};`, map: null };
      } catch (e) {
        this.error((e as Error).message);
      }
    },
  };
}

/**
 * The page's entry (src/boot.ts) starts the first model's worker, then imports the page itself (src/main.ts)
 * dynamically, so main.ts's chunk and the chunks it imports would only be asked for once boot.ts has arrived and
 * run. Preload hints in index.html ask for them with the entry instead: the page's script is there sooner.
 */
function preloadPage(): Plugin {
  return {
    name: 'skinlab-preload-page',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle || ctx.path !== '/index.html') return [];
        const page = Object.values(ctx.bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/src/main.ts'));
        if (!page || page.type !== 'chunk') return [];
        // Less what the entry's own chunk is and what index.html preloads already.
        const entry = Object.values(ctx.bundle).find((c) => c.type === 'chunk' && c.isEntry && c.facadeModuleId?.endsWith('/index.html'));
        const have = new Set(entry?.type === 'chunk' ? [entry.fileName, ...entry.imports] : []);
        const files = [page.fileName, ...page.imports].filter((f) => !have.has(f));
        const css = [...(page.viteMetadata?.importedCss ?? [])];
        return [
          ...files.map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}` }, injectTo: 'head' as const })),
          ...css.map((f) => ({ tag: 'link', attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `./${f}` }, injectTo: 'head' as const })),
        ];
      },
    },
  };
}

export default defineConfig({
  // Relative asset URLs: dist/ works from any static server under any base path.
  base: './',
  plugins: [glsl(), preloadPage()],
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 1024,
    // Every browser with WebGL2 and module workers supports <link rel="modulepreload">: no polyfill script to
    // fetch before the entry can run.
    modulePreload: { polyfill: false },
    // The app, and the benchmarks' three.js peer pages (src/bench/browser.ts opens bench/three-crowd.html,
    // src/bench/ttff-bench.ts bench/three-gltf.html).
    rollupOptions: { input: { main: join(root, 'index.html'), 'three-crowd': join(root, 'bench', 'three-crowd.html'), 'three-gltf': join(root, 'bench', 'three-gltf.html') } },
  },
  // The parse worker (src/app/parse-worker.ts) is a module worker: bundled as an ES module chunk of its own.
  worker: { format: 'es' },
  server: { port: 5173 },
  preview: { port: 4173, strictPort: true },
});
