import { LoadError } from '../../model/errors.ts';
import type { GltfJson } from './gltf-container.ts';

/**
 * Shared vocabulary of the glTF structural checks: a context that names the file, reads untrusted JSON fields
 * with their types checked, and throws one LoadError whose message is `file: /json/pointer: what is wrong`.
 */

export type Obj = Record<string, unknown>;

/** Component types (glTF accessor.componentType) and their sizes in bytes. */
export const COMPONENT_SIZE: Readonly<Record<number, number>> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
export const COMPONENT_NAME: Readonly<Record<number, string>> = {
  5120: 'BYTE', 5121: 'UNSIGNED_BYTE', 5122: 'SHORT', 5123: 'UNSIGNED_SHORT', 5125: 'UNSIGNED_INT', 5126: 'FLOAT',
};
/** Accessor types and their component counts. */
export const TYPE_COMPONENTS: Readonly<Record<string, number>> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
export const FLOAT = 5126;

/** Bytes of one element: matrix columns start on 4-byte boundaries (glTF 2.0 §3.6.2.4). */
export function elementSize(type: string, componentType: number): number {
  const size = COMPONENT_SIZE[componentType]!;
  if (type === 'MAT2' && size === 1) return 8;
  if (type === 'MAT3' && size === 1) return 12;
  if (type === 'MAT3' && size === 2) return 24;
  return TYPE_COMPONENTS[type]! * size;
}

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function show(v: unknown): string {
  if (typeof v === 'string') return `'${v.slice(0, 40)}'`;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  return Array.isArray(v) ? 'an array' : 'an object';
}

export class CheckContext {
  readonly warnings: string[] = [];
  constructor(
    readonly fileName: string,
    readonly json: GltfJson,
  ) {}

  fail(pointer: string, what: string, offset = -1): never {
    throw new LoadError(`${this.fileName}: ${pointer}: ${what}`, -1, offset);
  }

  warn(pointer: string, what: string): void {
    this.warnings.push(pointer ? `${pointer}: ${what}` : what);
  }

  /** The top-level array `key` (empty when absent); each entry must be an object. */
  top(key: string): Obj[] {
    const v = this.json[key];
    if (v === undefined) return [];
    if (!Array.isArray(v)) this.fail(`/${key}`, `is ${show(v)}, not an array`);
    for (let i = 0; i < v.length; i++) if (!isObj(v[i])) this.fail(`/${key}/${i}`, `is ${show(v[i])}, not an object`);
    return v as Obj[];
  }

  /** An optional object field. */
  obj(o: Obj, key: string, ptr: string): Obj | undefined {
    const v = o[key];
    if (v === undefined) return undefined;
    if (!isObj(v)) this.fail(`${ptr}/${key}`, `is ${show(v)}, not an object`);
    return v;
  }

  /** An optional array field. */
  arr(o: Obj, key: string, ptr: string): unknown[] | undefined {
    const v = o[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) this.fail(`${ptr}/${key}`, `is ${show(v)}, not an array`);
    return v;
  }

  /** An optional integer field in [min, max]. */
  int(o: Obj, key: string, ptr: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const v = o[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v)) this.fail(`${ptr}/${key}`, `is ${show(v)}, not an integer`);
    if (v < min || v > max) this.fail(`${ptr}/${key}`, `${v} is outside ${min}..${max}`);
    return v;
  }

  /** A required integer field in [min, max]. */
  reqInt(o: Obj, key: string, ptr: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const v = this.int(o, key, ptr, min, max);
    if (v === undefined) this.fail(`${ptr}/${key}`, 'is missing');
    return v;
  }

  /** An optional string field. */
  str(o: Obj, key: string, ptr: string): string | undefined {
    const v = o[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') this.fail(`${ptr}/${key}`, `is ${show(v)}, not a string`);
    return v;
  }

  /** Checks that `v` (at `ptr`) is an index into the array `kind` of `count` entries that `owner` holds. */
  index(v: unknown, ptr: string, kind: string, count: number, owner = 'the file'): number {
    if (typeof v !== 'number' || !Number.isInteger(v)) this.fail(ptr, `is ${show(v)}, not an index into ${kind}`);
    if (v < 0 || v >= count) {
      this.fail(ptr, `${kind === 'meshes' ? 'mesh' : kind.replace(/s$/, '')} ${v} does not exist (${owner} has ${count} ${kind})`);
    }
    return v;
  }

  /** An optional index field into the top-level array `kind`. */
  ref(o: Obj, key: string, ptr: string, kind: string): number | undefined {
    const v = o[key];
    if (v === undefined) return undefined;
    return this.index(v, `${ptr}/${key}`, kind, this.count(kind));
  }

  count(kind: string): number {
    const v = this.json[kind];
    return Array.isArray(v) ? v.length : 0;
  }
}
