import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseName, caseVariants, fileSource, urlSource } from '../../src/app/model-source.ts';

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
