import { LoadError } from '../../model/errors.ts';
import { clipped, quoted } from '../../model/message.ts';
import type { XChild, XFile, XObject } from './xnode.ts';

/**
 * Shared reading helpers for the .x scene builder: template-name matching, positioned errors and a
 * cursor over one object's numbers that checks every count against what is left before anything is
 * allocated from it.
 */

/** Where an object sits, for messages: "line 12" (text) or "byte 345" (binary), decompressed stream noted. */
export function describePosition(file: XFile, line: number, offset: number): string {
  if (line > 0) return file.format === 'x-tzip' ? `line ${line} of the decompressed text` : `line ${line}`;
  const packed = file.format === 'x-tzip' || file.format === 'x-bzip' ? ' of the decompressed data' : '';
  return `byte ${offset}${packed}`;
}

/** `Template 'name'` or `Template` for anonymous objects. */
export function describeObject(obj: XObject): string {
  return obj.name !== '' ? `${clipped(obj.template)} ${quoted(obj.name)}` : clipped(obj.template);
}

/** Context every scene-building step shares: the file, its name and the warnings list. */
export interface XContext {
  readonly file: XFile;
  readonly fileName: string;
  readonly warnings: string[];
  /** Unknown or unsupported templates seen, by lower-case name → [name as written, count]. */
  readonly skipped: Map<string, [string, number]>;
  /** Meshes whose triangles were wound against their normals and were turned round. */
  readonly turnedRound: string[];
}

/** LoadError "file: line N: Template 'name': message" carrying the object's line and offset. */
export function objectError(ctx: XContext, obj: XObject, message: string): LoadError {
  const where = describePosition(ctx.file, obj.line, obj.offset);
  return new LoadError(`${ctx.fileName}: ${where}: ${describeObject(obj)}: ${message}`, obj.line > 0 ? obj.line : -1, obj.offset);
}

declare const matched: unique symbol;
/**
 * An XObject known to be of a template. The brand keeps the guard one-sided: a failed test narrows
 * nothing, so `else if (isTemplate(c, ...))` chains keep their type.
 */
export type MatchedObject = XObject & { readonly [matched]: true };

/** Template names are matched case-insensitively (exporters write both TextureFilename and TextureFileName). */
export function isTemplate(obj: XChild, template: string): obj is MatchedObject {
  return obj.kind === 'object' && obj.template.length === template.length && obj.template.toLowerCase() === template.toLowerCase();
}

/** Counts an object whose template the builder does not use; reported once per template at the end. */
export function noteSkipped(ctx: XContext, obj: XObject): void {
  const key = obj.template.toLowerCase();
  const seen = ctx.skipped.get(key);
  if (seen) seen[1]++;
  else ctx.skipped.set(key, [obj.template, 1]);
}

/**
 * Sequential reader over `obj.numbers`. Every read is bounds-checked; `count()` refuses a count whose
 * items cannot fit in the numbers left, so callers may allocate `count × perItem` safely afterwards.
 */
export class NumberCursor {
  pos = 0;
  constructor(
    readonly ctx: XContext,
    readonly obj: XObject,
  ) {}

  get left(): number {
    return this.obj.numbers.length - this.pos;
  }

  fail(message: string): never {
    throw objectError(this.ctx, this.obj, message);
  }

  /** One number; `what` names it in the error when the object's data has run out. */
  next(what: string): number {
    if (this.pos >= this.obj.numbers.length) {
      this.fail(`expected ${what}, but the object's data ends after ${this.obj.numbers.length} numbers`);
    }
    return this.obj.numbers[this.pos++]!;
  }

  /** A non-negative integer (DWORD) that is also a valid index below `limit` when given. */
  index(what: string, limit: number): number {
    const v = this.next(what);
    if (!Number.isInteger(v) || v < 0 || v >= limit) {
      this.fail(limit === Infinity ? `${what} is ${v}, not a non-negative integer` : `${what} is ${v}, outside 0..${limit - 1}`);
    }
    return v;
  }

  /**
   * A count of items taking at least `minPerItem` numbers each; refused (LoadError) when the numbers left
   * cannot hold that many, before anything is allocated from it.
   */
  count(what: string, minPerItem: number): number {
    const n = this.next(`the number of ${what}`);
    if (!Number.isInteger(n) || n < 0) this.fail(`the number of ${what} is ${n}, not a non-negative integer`);
    if (n * minPerItem > this.left) {
      this.fail(`claims ${n} ${what}, but only ${this.left} numbers follow (at least ${n * minPerItem} needed)`);
    }
    return n;
  }

  /** Copies `n` numbers into out[o..o+n). */
  read(out: Float32Array | Float64Array, o: number, n: number, what: string): void {
    if (n > this.left) this.fail(`expected ${n} numbers for ${what}, but only ${this.left} follow`);
    const src = this.obj.numbers;
    for (let k = 0; k < n; k++) out[o + k] = src[this.pos + k]!;
    this.pos += n;
  }
}

/** Names made unique within one set: `base`, else `base-2`, `base-3`... Linear over many requests for one base. */
export class UniqueNames {
  private readonly used = new Set<string>();
  private readonly nextSuffix = new Map<string, number>();
  add(name: string): void {
    this.used.add(name);
  }
  has(name: string): boolean {
    return this.used.has(name);
  }
  make(base: string): string {
    let name = base;
    let k = this.nextSuffix.get(base) ?? 2;
    while (this.used.has(name)) name = `${base}-${k++}`;
    this.nextSuffix.set(base, k);
    this.used.add(name);
    return name;
  }
}
