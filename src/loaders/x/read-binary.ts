import { LoadError } from '../../model/errors.ts';
import { quoted } from '../../model/message.ts';
import { decodeText } from './read-decode.ts';
import { MAX_X_DEPTH, XTreeBuilder } from './read-tree.ts';
import type { XObject } from './xnode.ts';

/**
 * The binary encoding of .x (X File Format Reference, "Binary Encoding": Tokens, Token Records,
 * Templates, Data) read into the XObject tree. All values are little-endian; every token is a 16-bit word.
 *
 * Record-bearing tokens and their records as read here:
 *   NAME 1          uint32 count, count bytes of name
 *   STRING 2        uint32 count, count bytes of string; then a separate ';' or ',' token (the reference
 *                   also allows that terminator as a 32-bit value: its two zero high bytes are skipped)
 *   INTEGER 3       uint32 value
 *   GUID 5          16 bytes (skipped)
 *   INTEGER_LIST 6  uint32 count, count uint32 values
 *   FLOAT_LIST 7    uint32 count, count floats of 4 or 8 bytes as the header's float size says
 * Integers are read as unsigned 32-bit (DWORD, the type of every count and index in the standard
 * templates; DeclData's DWORDs carry float bits). Template declarations (TOKEN_TEMPLATE ... '}') are
 * skipped with their records. Separators are dropped.
 *
 * Every count is checked against the bytes left before anything is read or allocated from it. Errors are
 * LoadErrors naming the byte offset (in `data`; `where` labels it, e.g. ' of the decompressed data').
 */
export function readBinaryX(
  data: Uint8Array,
  start: number,
  floatBits: 32 | 64,
  fileName: string,
  where: string,
  warnings: string[],
): XObject[] {
  return new BinaryReader(data, start, floatBits, fileName, where, warnings).read();
}

const T_EOF = -1;
const T_NAME = 1;
const T_STRING = 2;
const T_INTEGER = 3;
const T_GUID = 5;
const T_INTEGER_LIST = 6;
const T_FLOAT_LIST = 7;
const T_OBRACE = 10;
const T_CBRACE = 11;
const T_COMMA = 19;
const T_SEMICOLON = 20;
const T_TEMPLATE = 31;

const TOKEN_TEXT = new Map<number, string>([
  [T_NAME, 'a name'],
  [T_STRING, 'a string'],
  [T_INTEGER, 'an integer'],
  [T_GUID, 'a GUID'],
  [T_INTEGER_LIST, 'an integer list'],
  [T_FLOAT_LIST, 'a float list'],
  [T_OBRACE, "'{'"],
  [T_CBRACE, "'}'"],
  [12, "'('"],
  [13, "')'"],
  [14, "'['"],
  [15, "']'"],
  [16, "'<'"],
  [17, "'>'"],
  [18, "'.'"],
  [T_COMMA, "','"],
  [T_SEMICOLON, "';'"],
  [T_TEMPLATE, "'template'"],
  [40, "'WORD'"],
  [41, "'DWORD'"],
  [42, "'FLOAT'"],
  [43, "'DOUBLE'"],
  [44, "'CHAR'"],
  [45, "'UCHAR'"],
  [46, "'SWORD'"],
  [47, "'SDWORD'"],
  [48, "'void'"],
  [49, "'LPSTR'"],
  [50, "'UNICODE'"],
  [51, "'CSTRING'"],
  [52, "'array'"],
]);

class BinaryReader {
  private pos: number;
  private readonly end: number;
  private readonly view: DataView;
  private readonly floatBytes: number;
  private readonly tree = new XTreeBuilder();
  private guidRefs = 0;

  constructor(
    private readonly data: Uint8Array,
    start: number,
    floatBits: 32 | 64,
    private readonly fileName: string,
    private readonly where: string,
    private readonly warnings: string[],
  ) {
    this.pos = start;
    this.end = data.length;
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    this.floatBytes = floatBits / 8;
  }

  read(): XObject[] {
    const tree = this.tree;
    for (;;) {
      const at = this.pos;
      const t = this.token();
      if (tree.depth > 0) {
        switch (t) {
          case T_FLOAT_LIST:
            this.floatList();
            continue;
          case T_INTEGER_LIST:
            this.integerList();
            continue;
          case T_INTEGER:
            tree.number(this.u32('an integer'));
            continue;
          case T_COMMA:
          case T_SEMICOLON:
            continue;
          case T_STRING:
            tree.string(this.counted('string'));
            this.stringTerminator();
            continue;
          case T_GUID:
            this.skip(16, 'a GUID');
            continue;
          case T_CBRACE:
            tree.close();
            continue;
          case T_OBRACE:
            this.reference(at);
            continue;
          case T_NAME:
            this.beginObject(at);
            continue;
          case T_EOF: {
            const o = tree.describeOpen()!;
            this.fail(
              `unexpected end of file: data object ${label(o.template, o.name)} opened at byte ${o.offset} is missing its '}' (is the file truncated?)`,
              this.end,
            );
          }
          default:
            this.fail(`unexpected ${this.describe(t)} inside data object ${this.openLabel()}`, at);
        }
      }
      if (t === T_EOF) break;
      if (t === T_NAME) this.beginObject(at);
      else if (t === T_TEMPLATE) this.skipTemplate(at);
      else if (t === 0 && this.zeroTail(at)) break;
      else if (t === T_CBRACE) this.fail(`unbalanced '}': no data object is open here`, at);
      else this.fail(`expected a template declaration or a data object (a name token), found ${this.describe(t)}`, at);
    }
    if (this.guidRefs > 0) {
      this.warnings.push(`${this.guidRefs} reference${this.guidRefs === 1 ? '' : 's'} by GUID only kept without a name; they cannot be resolved`);
    }
    return tree.finish();
  }

  /** A NAME token at `at` has been read (its record not yet): read `name [name] [guid] {` and open it. */
  private beginObject(at: number): void {
    const template = this.counted('name');
    let name = '';
    let t = this.token();
    if (t === T_NAME) {
      name = this.counted('name');
      t = this.token();
    }
    if (t === T_GUID) {
      this.skip(16, 'a GUID');
      t = this.token();
    }
    if (t !== T_OBRACE) {
      this.fail(`expected '{' to open data object ${label(template, name)}, found ${this.describe(t)}`, this.pos - 2);
    }
    if (this.tree.depth >= MAX_X_DEPTH) {
      this.fail(`data objects are nested more than ${MAX_X_DEPTH} levels deep at ${label(template, name)}; the file is corrupt`, at);
    }
    this.tree.open(template, name, 0, at);
  }

  /** The '{' of a reference at `at` has been read: `name [guid] }` or `guid }`. */
  private reference(at: number): void {
    let name = '';
    let t = this.token();
    if (t === T_NAME) {
      name = this.counted('name');
      t = this.token();
      if (t === T_GUID) {
        this.skip(16, 'a GUID');
        t = this.token();
      }
    } else if (t === T_GUID) {
      this.skip(16, 'a GUID');
      this.guidRefs++;
      t = this.token();
    } else {
      this.fail(`expected a name or a GUID in the reference opened by '{' at byte ${at}, found ${this.describe(t)}`, this.pos - 2);
    }
    if (t !== T_CBRACE) {
      const what = name === '' ? 'the reference' : `the reference to ${quoted(name)}`;
      this.fail(`expected '}' to close ${what} opened at byte ${at}, found ${this.describe(t)}`, this.pos - 2);
    }
    this.tree.reference(name, 0, at);
  }

  /** TOKEN_TEMPLATE at `at` has been read: skip the declaration to its matching '}'. */
  private skipTemplate(at: number): void {
    let t = this.token();
    const name = t === T_NAME ? this.counted('name') : '';
    if (t === T_NAME) t = this.token();
    if (t !== T_OBRACE) {
      this.fail(`expected '{' to open the template declaration${name === '' ? '' : ` ${quoted(name)}`} at byte ${at}, found ${this.describe(t)}`, this.pos - 2);
    }
    let depth = 1;
    while (depth > 0) {
      const tokAt = this.pos;
      t = this.token();
      switch (t) {
        case T_OBRACE:
          depth++;
          break;
        case T_CBRACE:
          depth--;
          break;
        case T_NAME:
        case T_STRING:
          this.skipCounted(1, t === T_NAME ? 'name' : 'string');
          break;
        case T_INTEGER:
          this.skip(4, 'an integer');
          break;
        case T_GUID:
          this.skip(16, 'a GUID');
          break;
        case T_INTEGER_LIST:
          this.skipCounted(4, 'integer list');
          break;
        case T_FLOAT_LIST:
          this.skipCounted(this.floatBytes, 'float list');
          break;
        case T_EOF:
          this.fail(`unexpected end of file: template declaration ${quoted(name)} opened at byte ${at} is missing its '}' (is the file truncated?)`, this.end);
        default:
          if (!TOKEN_TEXT.has(t)) this.fail(`${this.describe(t)} in template declaration ${quoted(name)}`, tokAt);
      }
    }
  }

  private floatList(): void {
    const at = this.pos - 2;
    const count = this.u32('the length of a float list');
    const size = this.floatBytes;
    this.checkCount(count, size, 'float list', at);
    const tree = this.tree;
    const out = tree.reserve(count);
    let o = tree.count;
    const view = this.view;
    let p = this.pos;
    if (size === 4) {
      for (let i = 0; i < count; i++, p += 4) out[o++] = view.getFloat32(p, true);
    } else {
      for (let i = 0; i < count; i++, p += 8) out[o++] = view.getFloat64(p, true);
    }
    tree.commit(count);
    this.pos = p;
  }

  private integerList(): void {
    const at = this.pos - 2;
    const count = this.u32('the length of an integer list');
    this.checkCount(count, 4, 'integer list', at);
    const tree = this.tree;
    const out = tree.reserve(count);
    let o = tree.count;
    const view = this.view;
    let p = this.pos;
    for (let i = 0; i < count; i++, p += 4) out[o++] = view.getUint32(p, true);
    tree.commit(count);
    this.pos = p;
  }

  /** After a string record: an optional ';' or ',' token, then the two zero bytes of a 32-bit terminator. */
  private stringTerminator(): void {
    const d = this.data;
    const p = this.pos;
    if (p + 1 >= this.end || d[p + 1] !== 0 || (d[p] !== T_SEMICOLON && d[p] !== T_COMMA)) return;
    this.pos = p + 2;
    if (p + 3 < this.end && d[p + 2] === 0 && d[p + 3] === 0) this.pos = p + 4;
  }

  /** True (with a warning) when everything from `at` on is zero bytes, as some writers pad files. */
  private zeroTail(at: number): boolean {
    for (let i = at; i < this.end; i++) if (this.data[i] !== 0) return false;
    this.warnings.push(`ignored ${this.end - at} zero bytes of padding at the end of the file (byte ${at}${this.where})`);
    this.pos = this.end;
    return true;
  }

  /** Next token, or T_EOF at the end of the data. */
  private token(): number {
    const p = this.pos;
    if (p >= this.end) return T_EOF;
    if (p + 2 > this.end) this.fail(`truncated file: a token needs 2 bytes, only 1 is left`, p);
    this.pos = p + 2;
    return this.data[p]! | (this.data[p + 1]! << 8);
  }

  private u32(what: string): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  /** A NAME or STRING record after its token: uint32 count, then that many bytes. */
  private counted(what: 'name' | 'string'): string {
    const at = this.pos - 2;
    const count = this.u32(`the length of a ${what}`);
    this.checkCount(count, 1, what, at);
    const s = decodeText(this.data, this.pos, this.pos + count);
    this.pos += count;
    return s;
  }

  private skipCounted(itemBytes: number, what: string): void {
    const at = this.pos - 2;
    const count = this.u32(`the length of a ${what}`);
    this.checkCount(count, itemBytes, what, at);
    this.pos += count * itemBytes;
  }

  private skip(n: number, what: string): void {
    this.need(n, what);
    this.pos += n;
  }

  private need(n: number, what: string): void {
    const left = this.end - this.pos;
    if (left < n) {
      this.fail(`truncated file: expected ${what} (${n} bytes), only ${left} byte${left === 1 ? '' : 's'} left`, this.pos);
    }
  }

  private checkCount(count: number, itemBytes: number, what: string, at: number): void {
    const left = this.end - this.pos;
    if (count * itemBytes > left) {
      const unit = itemBytes === 1 ? 'bytes' : `items of ${itemBytes} bytes`;
      this.fail(`${what} of ${count} ${unit} is larger than the ${left} bytes left in the file (corrupt or truncated)`, at);
    }
  }

  private describe(t: number): string {
    if (t === T_EOF) return 'the end of the file (is it truncated?)';
    return TOKEN_TEXT.get(t) ?? `unknown token ${t} (0x${t.toString(16).padStart(4, '0')}): the file is corrupt or not a binary .x file`;
  }

  private openLabel(): string {
    const o = this.tree.describeOpen()!;
    return `${label(o.template, o.name)} (opened at byte ${o.offset})`;
  }

  private fail(message: string, offset: number): never {
    throw new LoadError(`${this.fileName}: byte ${offset}${this.where}: ${message}`, -1, offset);
  }
}

function label(template: string, name: string): string {
  return quoted(name === '' ? template : `${template} ${name}`);
}
