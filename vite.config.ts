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
 * The page's main script (src/main.ts) is named in index.html by a module script after the entry script's
 * (src/boot.ts), added here: Vite bundles every module script an HTML page names into one entry, which would make
 * the entry wait for the whole page. In a build main.ts is an input of its own; the browser asks for both, with
 * the main script's chunks (modulepreload) and its stylesheet, as it reads the page, and runs each once it has
 * arrived, the entry first. Under the dev server the script names the source.
 *
 * The main script is render-blocking (`blocking="render"`): the browser paints the page first once it has run,
 * not as soon as the page's stylesheet is in. Until then there is nothing to see but the page's background, and
 * with a software GPU each frame the browser draws is read back by the GPU process's one thread, the thread that
 * is making the page's WebGL context meanwhile (src/boot.ts): a frame fewer there makes the context sooner.
 */
function pageScript(): Plugin {
  return {
    name: 'skinlab-page-script',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (ctx.path !== '/index.html') return [];
        if (!ctx.bundle) return [{ tag: 'script', attrs: { type: 'module', blocking: 'render', src: '/src/main.ts' }, injectTo: 'body' as const }];
        const page = Object.values(ctx.bundle).find((c) => c.type === 'chunk' && c.isEntry && c.facadeModuleId?.endsWith('/src/main.ts'));
        if (!page || page.type !== 'chunk') throw new Error('the build has no chunk for src/main.ts');
        // Less what the entry's own chunk is and what index.html names already.
        const entry = Object.values(ctx.bundle).find((c) => c.type === 'chunk' && c.isEntry && c.facadeModuleId?.endsWith('/index.html'));
        const have = new Set(entry?.type === 'chunk' ? [entry.fileName, ...entry.imports] : []);
        const files = page.imports.filter((f) => !have.has(f));
        const css = [...(page.viteMetadata?.importedCss ?? [])];
        return [
          { tag: 'script', attrs: { type: 'module', crossorigin: true, blocking: 'render', src: `./${page.fileName}` }, injectTo: 'head' as const },
          ...files.map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}` }, injectTo: 'head' as const })),
          ...css.map((f) => ({ tag: 'link', attrs: { rel: 'stylesheet', crossorigin: true, href: `./${f}` }, injectTo: 'head' as const })),
        ];
      },
    },
  };
}

/**
 * The page's entry chunk holds every module src/boot.ts runs (its static imports, at any depth): it imports no
 * other chunk, so the browser runs it, and the parse worker starts, as soon as its own few kilobytes have arrived.
 * A module the page's main script shares with it (the built-in list) is taken from this chunk, already run. The
 * three.js peer pages must share none with it: their chunks would run the entry script (e2e/first-frame.spec.ts).
 */
function entryChunk(): (id: string, meta: { getModuleInfo(id: string): { importedIds: readonly string[] } | null }) => string | undefined {
  const boot = join(root, 'src', 'boot.ts');
  let members: Set<string> | null = null;
  return (id, { getModuleInfo }) => {
    if (!members) {
      members = new Set();
      const stack = [boot];
      while (stack.length > 0) {
        const m = stack.pop()!;
        if (members.has(m)) continue;
        members.add(m);
        stack.push(...(getModuleInfo(m)?.importedIds ?? []));
      }
    }
    return members.has(id) ? 'boot' : undefined;
  };
}

export default defineConfig({
  // Relative asset URLs: dist/ works from any static server under any base path.
  base: './',
  plugins: [glsl(), pageScript()],
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 1024,
    // Every browser with WebGL2 and module workers supports <link rel="modulepreload">: no polyfill script to
    // fetch before the entry can run.
    modulePreload: { polyfill: false },
    // The app, and the benchmarks' three.js peer pages (src/bench/browser.ts opens bench/three-crowd.html,
    // src/bench/ttff-bench.ts bench/three-gltf.html).
    rollupOptions: {
      input: { main: join(root, 'index.html'), page: join(root, 'src', 'main.ts'), 'three-crowd': join(root, 'bench', 'three-crowd.html'), 'three-gltf': join(root, 'bench', 'three-gltf.html') },
      output: { manualChunks: entryChunk() },
    },
  },
  // The parse worker (src/app/parse-worker.ts) is a module worker: bundled as an ES module chunk of its own.
  worker: { format: 'es' },
  server: { port: 5173 },
  preview: { port: 4173, strictPort: true },
});
