import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseName, caseVariants, companionUrl } from '../../src/app/companion-names.ts';
import { fileSource, MAX_COMPANION_BYTES, urlSource } from '../../src/app/model-source.ts';

/** How companion (texture) names written in models find their files. */

// model-source needs only the size limit from load-model; the parsers behind it are not under test here.
vi.mock('../../src/loaders/load-model.ts', () => ({ MAX_MODEL_BYTES: 256 * 1024 * 1024 }));

describe('baseName', () => {
  it('strips every path spelling found in .x and .m3d files', () => {
    expect(baseName('Tiny_skin.dds')).toBe('Tiny_skin.dds');
    expect(baseName('C_/work/mymodels/zombie/Zombie.jpg')).toBe('Zombie.jpg');
    expect(baseName('.\\test.png')).toBe('test.png');
    expect(baseName('./test.png')).toBe('test.png');
    expect(baseName('C:\\\\some\\\\path\\\\top.tga')).toBe('top.tga');
    expect(baseName('C:\\some\\path\\top.tga')).toBe('top.tga');
    expect(baseName('C:top.tga')).toBe('top.tga');
    expect(baseName('\\\\server\\share\\maps\\Armor.dds')).toBe('Armor.dds');
    expect(baseName('  "Body.dds"  ')).toBe('Body.dds');
    expect(baseName('Pack.dds\0')).toBe('Pack.dds');
    expect(baseName('textures/')).toBe('');
    expect(baseName('')).toBe('');
  });
});

describe('caseVariants', () => {
  it('as written first, then lower, upper, and the extension in either case, without repeats', () => {
    expect(caseVariants('Zombie.jpg')).toEqual(['Zombie.jpg', 'zombie.jpg', 'ZOMBIE.JPG', 'Zombie.JPG']);
    expect(caseVariants('a.dds')).toEqual(['a.dds', 'A.DDS', 'a.DDS']);
    expect(caseVariants('README')).toEqual(['README', 'readme']);
  });
});

describe('companion lookup', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('dropped files match by base name, ignoring case', async () => {
    const zombie = new File([new Uint8Array([1, 2, 3])], 'ZOMBIE.JPG');
    const model = new File([new Uint8Array(1)], 'dbpro_zombie.x');
    const source = fileSource(model, [model, zombie]);
    expect(await source.companions('C_/work/mymodels/zombie/Zombie.jpg')).toEqual(new Uint8Array([1, 2, 3]));
    expect(await source.companions('missing.dds')).toBeNull();
  });

  it('URLs: tried as written, then other cases after a 404, only beside the model', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (href: string) => {
      asked.push(href);
      if (href.endsWith('/models/ZOMBIE.JPG')) return new Response(new Uint8Array([9, 8]), { headers: { 'content-type': 'image/jpeg' } });
      return new Response('not found', { status: 404 });
    });
    const source = urlSource('models/dbpro_zombie.x', 'http://host/app/');
    expect(await source.companions('C_/work/mymodels/zombie/Zombie.jpg')).toEqual(new Uint8Array([9, 8]));
    expect(asked).toEqual(['http://host/app/models/Zombie.jpg', 'http://host/app/models/zombie.jpg', 'http://host/app/models/ZOMBIE.JPG']);
    asked.length = 0;
    expect(await source.companions('..\\..\\secret.dds')).toBeNull();
    expect(asked.every((h) => h.startsWith('http://host/app/models/'))).toBe(true);
  });

  it('URLs: a single-page server\'s HTML answer counts as not found; a server error stops the search', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (href: string) => {
      asked.push(href);
      if (href.endsWith('/skin.dds')) return new Response(new Uint8Array([1]), { headers: { 'content-type': 'image/vnd-ms.dds' } });
      if (href.endsWith('/Skin.dds')) return new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } });
      return new Response('oops', { status: 500 });
    });
    const source = urlSource('http://host/m/a.x', 'http://host/');
    expect(await source.companions('Skin.dds')).toEqual(new Uint8Array([1]));
    asked.length = 0;
    expect(await source.companions('Other.dds')).toBeNull();
    expect(asked).toEqual(['http://host/m/Other.dds']);
  });
});

describe('companion URLs stay beside the model', () => {
  const model = new URL('http://host/app/models/hero.x');
  const hostile = [
    '..',
    '.',
    '../secret.dds',
    '..\\..\\secret.dds',
    '/etc/passwd',
    'C:\\Windows\\win.ini',
    '//evil.example/x.png',
    'http://evil.example/x.png',
    'https://evil.example/a/b/x.png',
    'data:image/png;base64,iVBORw0KGgo=',
    'javascript:alert(1)',
    'x%2f..%2f..%2fsecret.dds',
    '%2e%2e',
    '%2e%2e%2fsecret.dds',
    'a/..%2f..%2fsecret.dds',
    'evil.example%2fx.png',
    'skin.dds?x=1#frag',
    '\\\\server\\share\\x.dds',
    'file:///etc/passwd',
  ];

  it.each(hostile)('%s: in the model folder on the model origin, or nothing', (name) => {
    const url = companionUrl(name, model);
    if (url === null) return;
    expect(url.origin).toBe('http://host');
    expect(url.pathname.startsWith('/app/models/')).toBe(true);
    // One path segment: no slash after the folder, encoded or not, and no dot segment.
    const rest = url.pathname.slice('/app/models/'.length);
    expect(rest).not.toMatch(/\/|^\.\.?$/);
    expect(url.search).toBe('');
    expect(url.hash).toBe('');
  });

  it('dot segments and names with nothing left resolve to no URL at all', () => {
    expect(companionUrl('..', model)).toBeNull();
    expect(companionUrl('.', model)).toBeNull();
    expect(companionUrl('textures/', model)).toBeNull();
    expect(companionUrl('', model)).toBeNull();
  });

  it('scheme-looking names become plain files in the folder', () => {
    expect(companionUrl('data:image/png;base64,AAAA', model)?.href).toBe('http://host/app/models/png%3Bbase64%2CAAAA');
    expect(companionUrl('javascript:alert(1)', model)?.href).toBe('http://host/app/models/alert(1)');
    expect(companionUrl('x%2f..%2fsecret.dds', model)?.href).toBe('http://host/app/models/x%252f..%252fsecret.dds');
    expect(companionUrl('//evil.example/x.png', model)?.href).toBe('http://host/app/models/x.png');
  });

  it('a URL source never asks another origin or folder, whatever the model wrote', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (href: string) => {
      asked.push(href);
      return new Response('not found', { status: 404 });
    });
    const source = urlSource('models/hero.x', 'http://host/app/');
    for (const name of hostile) expect(await source.companions(name)).toBeNull();
    expect(asked.length).toBeGreaterThan(0);
    for (const href of asked) {
      const u = new URL(href);
      expect(u.origin).toBe('http://host');
      expect(u.pathname).toMatch(/^\/app\/models\/[^/]+$/);
    }
    vi.unstubAllGlobals();
  });

  it('dropped files: a path in the name finds only a dropped file of that base name', async () => {
    const skin = new File([new Uint8Array([5])], 'skin.dds');
    const model = new File([new Uint8Array(1)], 'hero.x');
    const source = fileSource(model, [model, skin]);
    expect(await source.companions('../../skin.dds')).toEqual(new Uint8Array([5]));
    expect(await source.companions('http://evil.example/skin.dds')).toEqual(new Uint8Array([5]));
    expect(await source.companions('../../other.dds')).toBeNull();
  });
});

describe('size limits', () => {
  afterEach(() => vi.unstubAllGlobals());
  const never = new AbortController().signal;

  /** A File whose size says `size` without holding the bytes (the limit must be checked before reading). */
  function hugeFile(name: string, size: number): File {
    const f = new File([new Uint8Array(4)], name);
    Object.defineProperty(f, 'size', { value: size });
    let read = false;
    Object.defineProperty(f, 'stream', { value: () => ((read = true), new Blob([]).stream()) });
    Object.defineProperty(f, 'arrayBuffer', { value: async () => ((read = true), new ArrayBuffer(0)) });
    Object.defineProperty(f, 'wasRead', { get: () => read });
    return f;
  }

  it('a model file over 256 MiB is refused from File.size, unread', async () => {
    const f = hugeFile('big.x', 300 * 1048576);
    const err = await fileSource(f, [f]).read(() => {}, never).catch((e: Error) => e);
    expect((err as Error).message).toBe('big.x: 300.0 MiB is larger than the 256 MiB limit for models');
    expect((f as unknown as { wasRead: boolean }).wasRead).toBe(false);
  });

  it('a dropped texture over the limit is not read and is named in the notes', async () => {
    const model = new File([new Uint8Array(1)], 'hero.x');
    const tex = hugeFile('skin.dds', MAX_COMPANION_BYTES + 1);
    const source = fileSource(model, [model, tex]);
    expect(await source.companions('skin.dds')).toBeNull();
    expect((tex as unknown as { wasRead: boolean }).wasRead).toBe(false);
    expect(source.notes).toEqual(["texture 'skin.dds': 64.0 MiB is larger than the 64 MiB limit for textures; not loaded"]);
  });

  it('a URL with a Content-Length over the limit is refused before its body is read', async () => {
    let pulled = 0;
    vi.stubGlobal('fetch', async () => {
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          pulled++;
          c.enqueue(new Uint8Array(1024));
        },
      });
      return new Response(body, { headers: { 'content-length': String(257 * 1048576) } });
    });
    const err = await urlSource('m/big.m3d', 'http://host/').read(() => {}, never).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/^257\.0 MiB is larger than the 256 MiB limit for models \(http:\/\/host\/m\/big\.m3d\)$/);
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('a stream without Content-Length stops once it passes the limit', async () => {
    const chunk = new Uint8Array(16 * 1048576);
    let sent = 0;
    vi.stubGlobal('fetch', async (href: string) => {
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          sent += chunk.length;
          c.enqueue(chunk);
        },
      });
      return new Response(body, { headers: { 'content-type': href.endsWith('.dds') ? 'image/vnd-ms.dds' : 'application/octet-stream' } });
    });
    const err = await urlSource('m/endless.x', 'http://host/').read(() => {}, never).catch((e: Error) => e);
    expect((err as Error).message).toBe('more than 256 MiB arrived: larger than the 256 MiB limit for models');
    expect(sent).toBeLessThanOrEqual(256 * 1048576 + 2 * chunk.length);
    sent = 0;
    const source = urlSource('m/endless.x', 'http://host/');
    expect(await source.companions('skin.dds')).toBeNull();
    expect(sent).toBeLessThanOrEqual(64 * 1048576 + 2 * chunk.length);
    expect(source.notes).toEqual(["texture 'skin.dds': more than 64 MiB arrived: larger than the 64 MiB limit for textures; not loaded"]);
  });

  it('a network failure says so instead of "Failed to fetch"', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const err = await urlSource('https://elsewhere.example/m.x', 'http://host/').read(() => {}, never).catch((e: Error) => e);
    expect((err as Error).message).toContain('could not fetch https://elsewhere.example/m.x');
  });
});
