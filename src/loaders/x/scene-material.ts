import type { Material } from '../../model/types.ts';
import { quoted } from '../../model/message.ts';
import { NumberCursor, isTemplate, noteSkipped, type XContext } from './scene-read.ts';
import type { XObject } from './xnode.ts';

/**
 * .x materials → the Scene's material list.
 *
 * Material { ColorRGBA faceColor; FLOAT power; ColorRGB specularColor; ColorRGB emissiveColor; [...] }
 * with an optional TextureFilename { STRING filename; } child (the name is kept as written). A Material
 * object becomes one scene material however many meshes use it (by reference `{ name }` or inline).
 * Without a TextureFilename, an EffectInstance's EffectParamString whose parameter name looks like a
 * diffuse/albedo texture supplies the diffuse map, one naming a normal/bump map the normal map.
 * Colours are kept as the file writes them.
 */

export const DEFAULT_MATERIAL: Material = {
  name: 'default',
  diffuse: [0.8, 0.8, 0.8, 1],
  specular: [0, 0, 0],
  specularPower: 1,
  emissive: [0, 0, 0],
  diffuseMap: null,
  normalMap: null,
};

const DIFFUSE_PARAM = /diffuse|albedo|base.?col|colou?r.?map|^tex(ture)?\d*$/i;
const NORMAL_PARAM = /normal|bump/i;

export class MaterialTable {
  readonly list: Material[] = [];
  private readonly byObject = new Map<XObject, number>();
  /** Named Material objects anywhere in the file (first of a name wins), for `{ name }` references. */
  private readonly named = new Map<string, XObject>();
  private defaultIndex = -1;

  constructor(private readonly ctx: XContext) {
    const stack: XObject[] = [...ctx.file.objects];
    while (stack.length > 0) {
      const o = stack.pop()!;
      if (isTemplate(o, 'Material')) {
        if (o.name !== '' && !this.named.has(o.name)) this.named.set(o.name, o);
        continue;
      }
      if (isTemplate(o, 'AnimationSet')) continue;
      for (const c of o.children) if (c.kind === 'object') stack.push(c);
    }
  }

  /** Index of the shared default material (added on first use). */
  defaultMaterial(): number {
    if (this.defaultIndex < 0) {
      this.defaultIndex = this.list.length;
      this.list.push(DEFAULT_MATERIAL);
    }
    return this.defaultIndex;
  }

  /** Scene index of a Material object, converting it on first use. */
  fromObject(obj: XObject): number {
    const known = this.byObject.get(obj);
    if (known !== undefined) return known;
    const index = this.list.length;
    this.list.push(readMaterial(this.ctx, obj, index));
    this.byObject.set(obj, index);
    return index;
  }

  /** Scene index for a `{ name }` reference, or -1 (with a warning) when no Material has that name. */
  fromReference(name: string, meshName: string): number {
    const obj = this.named.get(name);
    if (obj === undefined) {
      this.ctx.warnings.push(`mesh ${quoted(meshName)} refers to material ${quoted(name)}, which the file does not define; default material used`);
      return -1;
    }
    return this.fromObject(obj);
  }
}

function readMaterial(ctx: XContext, obj: XObject, index: number): Material {
  const c = new NumberCursor(ctx, obj);
  const v = new Float64Array(11);
  c.read(v, 0, 11, 'faceColor (4), power, specularColor (3) and emissiveColor (3)');
  let diffuseMap: string | null = null;
  let normalMap: string | null = null;
  let effectDiffuse: string | null = null;
  for (const child of obj.children) {
    if (child.kind !== 'object') continue;
    if (isTemplate(child, 'TextureFilename')) {
      const file = child.strings[0];
      if (diffuseMap === null && file !== undefined && file !== '') diffuseMap = file;
    } else if (isTemplate(child, 'EffectInstance')) {
      for (const p of child.children) {
        if (!isTemplate(p, 'EffectParamString')) continue;
        const [param = '', value = ''] = p.strings;
        if (value === '' || !value.includes('.')) continue;
        if (effectDiffuse === null && DIFFUSE_PARAM.test(param) && !NORMAL_PARAM.test(param)) effectDiffuse = value;
        else if (normalMap === null && NORMAL_PARAM.test(param)) normalMap = value;
      }
    } else noteSkipped(ctx, child);
  }
  return {
    name: obj.name !== '' ? obj.name : `material${index}`,
    diffuse: [v[0]!, v[1]!, v[2]!, v[3]!],
    specularPower: Math.max(1, v[4]!),
    specular: [v[5]!, v[6]!, v[7]!],
    emissive: [v[8]!, v[9]!, v[10]!],
    diffuseMap: diffuseMap ?? effectDiffuse,
    normalMap,
  };
}
