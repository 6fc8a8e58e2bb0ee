import type { XChild, XObject } from './xnode.ts';

/**
 * Builds the XObject tree as a reader walks a file, the same for the text and binary encodings.
 * The reader calls `open` on a data object's '{', then `number` / `string` / `reference` for its data in
 * file order, and `close` on its '}'. Objects are created on close, so an object's `numbers` is an exact-size
 * Float64Array. Each nesting level keeps one growable scratch buffer that is reused by every object at that
 * level, so reading stays linear in the file size.
 *
 * The builder does not bound depth itself: readers check `depth` against MAX_X_DEPTH before `open`, so
 * the error can name the position.
 */

/** Deepest nesting of data objects a reader accepts; real files stay well below 32. */
export const MAX_X_DEPTH = 256;

interface Level {
  template: string;
  name: string;
  line: number;
  offset: number;
  numbers: Float64Array;
  count: number;
  strings: string[];
  children: XChild[];
}

export class XTreeBuilder {
  private readonly levels: Level[] = [];
  private readonly roots: XObject[] = [];
  private top: Level | null = null;
  /** Number of open data objects. */
  depth = 0;

  open(template: string, name: string, line: number, offset: number): void {
    let level = this.levels[this.depth];
    if (level === undefined) {
      level = { template, name, line, offset, numbers: new Float64Array(64), count: 0, strings: [], children: [] };
      this.levels.push(level);
    } else {
      level.template = template;
      level.name = name;
      level.line = line;
      level.offset = offset;
      level.count = 0;
      level.strings = [];
      level.children = [];
    }
    this.depth++;
    this.top = level;
  }

  /** Template and name of the innermost open object, for messages. */
  describeOpen(): { template: string; name: string; line: number; offset: number } | null {
    const t = this.top;
    return t === null ? null : { template: t.template, name: t.name, line: t.line, offset: t.offset };
  }

  number(v: number): void {
    const t = this.top!;
    if (t.count === t.numbers.length) this.grow(t, t.count + 1);
    t.numbers[t.count++] = v;
  }

  /**
   * Room for `n` more numbers in the innermost object, for bulk writes of binary lists: returns its
   * buffer; the caller writes `n` values from index `count` on, then calls `commit(n)`. The caller has
   * checked `n` against the bytes left, so the buffer never grows past what the file can fill.
   */
  reserve(n: number): Float64Array {
    const t = this.top!;
    if (t.count + n > t.numbers.length) this.grow(t, t.count + n);
    return t.numbers;
  }

  /** Numbers held so far by the innermost object. */
  get count(): number {
    return this.top!.count;
  }

  commit(n: number): void {
    this.top!.count += n;
  }

  string(s: string): void {
    this.top!.strings.push(s);
  }

  reference(name: string, line: number, offset: number): void {
    this.top!.children.push({ kind: 'ref', name, line, offset });
  }

  close(): void {
    const t = this.top!;
    const obj: XObject = {
      kind: 'object',
      template: t.template,
      name: t.name,
      numbers: t.numbers.slice(0, t.count),
      strings: t.strings,
      children: t.children,
      line: t.line,
      offset: t.offset,
    };
    this.depth--;
    this.top = this.depth > 0 ? this.levels[this.depth - 1]! : null;
    if (this.top === null) this.roots.push(obj);
    else this.top.children.push(obj);
  }

  /** Top-level objects read so far. */
  finish(): XObject[] {
    return this.roots;
  }

  private grow(level: Level, needed: number): void {
    let size = level.numbers.length * 2;
    while (size < needed) size *= 2;
    const next = new Float64Array(size);
    next.set(level.numbers.subarray(0, level.count));
    level.numbers = next;
  }
}
