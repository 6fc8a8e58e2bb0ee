import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';

/**
 * The static server `screenshots` drives the page through (127.0.0.1, a free port):
 * - `/…` the built site (`dist/`); unknown paths are 404, never the index page, so missing companion
 *   files are reported as missing;
 * - `/__model/NAME` files of one local model's folder (base names only: nothing outside that folder);
 * - `/__remote/ENCODED_DIR/NAME` a remote model's folder fetched on the page's behalf (no CORS needed).
 * The page is then opened with `model=` the URL `modelUrl()` returns, and companions resolve beside it.
 */

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.wasm': 'application/wasm',
  '.ico': 'image/x-icon',
};

export interface ShotsServer {
  /** Base URL of the site, ending in '/'. */
  readonly url: string;
  close(): Promise<void>;
}

/** What the page's `model` parameter should be for a --model value: a built-in id, a local file, a URL. */
export type ModelTarget = { kind: 'builtin'; id: string } | { kind: 'file'; path: string } | { kind: 'url'; url: string };

/** The page's `model=` value for a target (relative to the site's URL). */
export function modelParam(target: ModelTarget): string {
  switch (target.kind) {
    case 'builtin':
      return target.id;
    case 'file':
      return `__model/${encodeURIComponent(basename(target.path))}`;
    case 'url': {
      const u = new URL(target.url);
      const cut = u.pathname.lastIndexOf('/') + 1;
      const dir = `${u.origin}${u.pathname.slice(0, cut)}`;
      return `__remote/${encodeURIComponent(dir)}/${u.pathname.slice(cut)}${u.search}`;
    }
  }
}

/** Starts the server; `dist` must hold a build (index.html). */
export async function startShotsServer(dist: string, target: ModelTarget): Promise<ShotsServer> {
  const root = resolve(dist);
  const modelDir = target.kind === 'file' ? dirname(resolve(target.path)) : null;
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: Uint8Array | string, type = 'text/plain; charset=utf-8'): void => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      let path: string;
      try {
        path = decodeURIComponent(url.pathname);
      } catch {
        return send(400, 'bad path');
      }
      if (path.startsWith('/__model/')) {
        const name = path.slice('/__model/'.length);
        if (!modelDir || name === '' || name.includes('/') || name.includes('\\') || name === '..') return send(404, 'not found');
        return sendFile(join(modelDir, name), modelDir, send, 'application/octet-stream');
      }
      if (url.pathname.startsWith('/__remote/')) {
        const rest = url.pathname.slice('/__remote/'.length);
        const slash = rest.indexOf('/');
        if (slash < 0) return send(404, 'not found');
        const dir = decodeURIComponent(rest.slice(0, slash));
        if (!/^https?:\/\//.test(dir)) return send(404, 'not found');
        try {
          const upstream = await fetch(new URL(rest.slice(slash + 1) + url.search, dir));
          const body = new Uint8Array(await upstream.arrayBuffer());
          return send(upstream.status, body, upstream.headers.get('content-type') ?? 'application/octet-stream');
        } catch (e) {
          return send(502, `fetching ${dir}: ${(e as Error).message}`);
        }
      }
      const rel = path === '/' || path.endsWith('/') ? `${path}index.html` : path;
      return sendFile(join(root, rel), root, send, TYPES[extname(rel).toLowerCase()] ?? 'application/octet-stream');
    })();
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

function sendFile(file: string, within: string, send: (status: number, body: Uint8Array | string, type?: string) => void, type: string): void {
  const full = resolve(file);
  if (full !== within && !full.startsWith(within + sep)) return send(404, 'not found');
  if (!existsSync(full) || !statSync(full).isFile()) return send(404, 'not found');
  send(200, readFileSync(full), type);
}
