import { LoadError } from '../../model/errors.ts';
import { quoted } from '../../model/message.ts';
import { exactDecimal } from '../text/exact-decimal.ts';
import { decodeText, excerpt } from './read-decode.ts';
import { MAX_X_DEPTH, XTreeBuilder } from './read-tree.ts';
import type { XObject } from './xnode.ts';

/**
 * The text encoding of .x (X File Format Reference, "Text Encoding") read straight from bytes into the
 * XObject tree, in one linear pass with no regular expressions and no per-number strings.
 *
 * Tokens: `{` `}`, separators `;` `,` (skipped, so `;;` and `;,` need nothing special), GUIDs `<...>`
 * (skipped), strings `"..."` (no escapes: a backslash is kept as written, Windows paths need that),
 * numbers (sign, digits, fraction, exponent; MSVC's `1.#QNAN`, `-1.#IND00`, `1.#INF` and the words
 * `nan`/`inf` read as NaN/±Infinity with one warning), and words: any run of bytes up to whitespace or one
 * of `{ } ; , " < >`, so names such as `Bip01-L.Hand` or `01_root` read as written. `//` and `#` start a
 * comment at the start of a token or right after a number. CR, LF and CRLF all end a line.
 *
 * Grammar, as read: `template Name { ... }` declarations (skipped, braces balanced, wherever they appear),
 * data objects `Template [name] [<guid>] { [<guid>] data... }`; inside a data object, numbers and strings
 * are its data, `{ name [<guid>] }` / `{ <guid> }` are references, a word starts a nested data object.
 *
 * `start` is where the text begins (after the 16-byte header); offsets are positions in `data` and lines
 * count from the start of `data` (the header line is line 1). `where` labels positions in messages
 * (e.g. ' of the decompressed text'). Errors are LoadErrors naming the line and what was expected.
 */
export function readTextX(data: Uint8Array, start: number, fileName: string, where: string, warnings: string[]): XObject[] {
  return new TextReader(data, start, fileName, where, warnings).read();
}

const EOF = 0;
const LBRACE = 1;
const RBRACE = 2;
const SEPARATOR = 3;
const GUID = 4;
const STRING = 5;
const NUMBER = 6;
const WORD = 7;
/** A non-finite number written the MSVC way (`1.#QNAN`); its value is in `num`. */
const ODD_NUMBER = 8;

/** Bytes that end a word or a number: controls, space, `{ } ; , " < >`. */
const DELIMITER = new Uint8Array(256);
for (let c = 0; c <= 32; c++) DELIMITER[c] = 1;
for (const ch of '{};,"<>') DELIMITER[ch.charCodeAt(0)] = 1;

class TextReader {
  private pos: number;
  private line = 1;
  private readonly end: number;
  private readonly tree = new XTreeBuilder();

  /** The current token: where it starts and ends, its line, its value for numbers and strings. */
  private tokStart = 0;
  private tokEnd = 0;
  private tokLine = 1;
  private num = 0;
  private str = '';

  private oddCount = 0;
  private oddFirst = '';
  private guidRefs = 0;

  constructor(
    private readonly data: Uint8Array,
    start: number,
    private readonly fileName: string,
    private readonly where: string,
    private readonly warnings: string[],
  ) {
    this.pos = start;
    this.end = data.length;
    for (let i = 0; i < start; i++) if (data[i] === 10 || (data[i] === 13 && data[i + 1] !== 10)) this.line++;
  }

  read(): XObject[] {
    const tree = this.tree;
    for (;;) {
      const k = this.next();
      if (tree.depth > 0) {
        switch (k) {
          case NUMBER:
            tree.number(this.num);
            continue;
          case SEPARATOR:
          case GUID:
            continue;
          case STRING:
            tree.string(this.str);
            continue;
          case RBRACE:
            tree.close();
            continue;
          case LBRACE:
            this.reference();
            continue;
          case ODD_NUMBER:
            this.odd(this.num);
            continue;
          case WORD: {
            const v = nonFiniteWord(this.data, this.tokStart, this.tokEnd);
            if (v !== undefined) this.odd(v);
            else if (this.isWord('template')) this.skipTemplate();
            else this.beginObject();
            continue;
          }
          default: {
            const o = tree.describeOpen()!;
            this.fail(
              `unexpected end of file: data object ${label(o.template, o.name)} opened at line ${o.line} is missing its '}' (is the file truncated?)`,
              this.line,
              this.end,
            );
          }
        }
      }
      if (k === EOF) break;
      if (k === WORD) {
        if (this.isWord('template')) this.skipTemplate();
        else this.beginObject();
      } else if (k === RBRACE) {
        this.fail(`unbalanced '}': no data object is open here`);
      } else {
        this.fail(`expected a template declaration or a data object (a template name such as 'Frame'), found ${this.describe(k)}`);
      }
    }
    this.finishWarnings();
    return tree.finish();
  }

  /** The current token is a data object's template name: read `[name] [<guid>] {` and open it. */
  private beginObject(): void {
    const template = this.tokenText();
    const line = this.tokLine;
    const offset = this.tokStart;
    let name = '';
    let k = this.next();
    if (k === WORD || k === NUMBER || k === ODD_NUMBER) {
      name = this.tokenText();
      k = this.next();
    }
    if (k === GUID) k = this.next();
    if (k !== LBRACE) {
      const opened = this.tokLine === line ? '' : ` (line ${line})`;
      this.fail(`expected '{' to open data object ${label(template, name)}${opened}, found ${this.describe(k)}`);
    }
    if (this.tree.depth >= MAX_X_DEPTH) {
      this.fail(`data objects are nested more than ${MAX_X_DEPTH} levels deep at ${label(template, name)}; the file is corrupt`, line, offset);
    }
    this.tree.open(template, name, line, offset);
  }

  /** The current token is the '{' of a reference: `{ name [<guid>] }` or `{ <guid> }`. */
  private reference(): void {
    const line = this.tokLine;
    const offset = this.tokStart;
    let name = '';
    let k = this.next();
    if (k === WORD || k === NUMBER || k === ODD_NUMBER) {
      name = this.tokenText();
      k = this.next();
      if (k === GUID) k = this.next();
    } else if (k === GUID) {
      this.guidRefs++;
      k = this.next();
    } else {
      this.fail(`expected an object name or a GUID in the reference opened by '{' at line ${line}, found ${this.describe(k)}`);
    }
    if (k !== RBRACE) {
      const what = name === '' ? 'the reference' : `the reference to ${quoted(name)}`;
      this.fail(`expected '}' to close ${what} opened at line ${line}, found ${this.describe(k)}`);
    }
    this.tree.reference(name, line, offset);
  }

  /** The current token is `template`: skip `Name { ... }` with its braces balanced. */
  private skipTemplate(): void {
    const line = this.tokLine;
    let k = this.next();
    const name = k === WORD ? this.tokenText() : '';
    if (k === WORD) k = this.next();
    if (k !== LBRACE) this.fail(`expected '{' to open the template declaration ${name === '' ? '' : `${quoted(name)} `}at line ${line}, found ${this.describe(k)}`);
    let depth = 1;
    while (depth > 0) {
      k = this.next();
      if (k === LBRACE) depth++;
      else if (k === RBRACE) depth--;
      else if (k === EOF) {
        this.fail(`unexpected end of file: template declaration ${quoted(name)} opened at line ${line} is missing its '}' (is the file truncated?)`);
      }
    }
  }

  private odd(v: number): void {
    if (this.oddCount++ === 0) this.oddFirst = `'${excerpt(this.data, this.tokStart, this.tokEnd)}' at line ${this.tokLine}`;
    this.tree.number(v);
  }

  private finishWarnings(): void {
    if (this.oddCount > 0) {
      this.warnings.push(
        `${this.oddCount} number${this.oddCount === 1 ? ' is' : 's are'} not finite (first ${this.oddFirst}${this.where}); read as NaN or Infinity`,
      );
    }
    if (this.guidRefs > 0) {
      this.warnings.push(`${this.guidRefs} reference${this.guidRefs === 1 ? '' : 's'} by GUID only ('{ <guid> }') kept without a name; they cannot be resolved`);
    }
  }

  /** Advances to the next token and returns its kind. */
  private next(): number {
    const d = this.data;
    const n = this.end;
    let p = this.pos;
    let c = 0;
    for (;;) {
      if (p >= n) {
        this.pos = p;
        this.tokStart = this.tokEnd = p;
        this.tokLine = this.line;
        return EOF;
      }
      c = d[p]!;
      if (c > 32) {
        if (c === 47 && d[p + 1] === 47) p = this.skipLine(p);
        else if (c === 35) p = this.skipLine(p);
        else break;
      } else if (c === 10) {
        this.line++;
        p++;
      } else if (c === 13) {
        this.line++;
        p++;
        if (p < n && d[p] === 10) p++;
      } else p++;
    }
    this.tokStart = p;
    this.tokLine = this.line;

    switch (c) {
      case 123:
        this.pos = this.tokEnd = p + 1;
        return LBRACE;
      case 125:
        this.pos = this.tokEnd = p + 1;
        return RBRACE;
      case 59:
      case 44:
        this.pos = this.tokEnd = p + 1;
        return SEPARATOR;
      case 34:
        return this.scanString(p);
      case 60:
        return this.scanGuid(p);
    }

    if ((c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46) {
      const e = this.scanNumber(p);
      if (e >= 0) {
        const after = e < n ? d[e]! : 32;
        if (after === 35 && d[e - 1] === 46) {
          const we = this.wordEnd(e);
          this.num = msvcNonFinite(d, p, we);
          this.pos = this.tokEnd = we;
          return ODD_NUMBER;
        }
        if (DELIMITER[after] === 1 || after === 35 || (after === 47 && d[e + 1] === 47)) {
          this.pos = this.tokEnd = e;
          return NUMBER;
        }
      }
    }
    const we = this.wordEnd(p);
    this.pos = this.tokEnd = we > p ? we : p + 1;
    return WORD;
  }

  private wordEnd(p: number): number {
    const d = this.data;
    const n = this.end;
    while (p < n && DELIMITER[d[p]!] === 0) p++;
    return p;
  }

  /** From a comment start to its line end (the line end itself is left for the caller to count). */
  private skipLine(p: number): number {
    const d = this.data;
    const n = this.end;
    while (p < n && d[p] !== 10 && d[p] !== 13) p++;
    return p;
  }

  private scanString(open: number): number {
    const d = this.data;
    const n = this.end;
    const startLine = this.line;
    let p = open + 1;
    for (; p < n; p++) {
      const c = d[p]!;
      if (c === 34) break;
      if (c === 10) this.line++;
      else if (c === 13 && d[p + 1] !== 10) this.line++;
    }
    if (p >= n) {
      this.fail(`unterminated string starting at line ${startLine}: no closing '"' before the end of the file`, startLine, open);
    }
    this.str = decodeText(d, open + 1, p);
    this.pos = this.tokEnd = p + 1;
    return STRING;
  }

  private scanGuid(open: number): number {
    const d = this.data;
    const n = this.end;
    let p = open + 1;
    while (p < n && d[p] !== 62 && d[p] !== 10 && d[p] !== 13) p++;
    if (p >= n || d[p] !== 62) this.fail(`unterminated GUID '${excerpt(d, open, p)}': expected '>' on the same line`);
    this.pos = this.tokEnd = p + 1;
    return GUID;
  }

  /**
   * A decimal number at `p`: returns the index after it and sets `num`, or -1 when no digits are there.
   * Up to 15 significant digits and a decimal exponent within ±22 are converted exactly (one correctly
   * rounded multiply or divide by an exact power of ten); anything longer goes through Number().
   */
  private scanNumber(p: number): number {
    const d = this.data;
    const n = this.end;
    const first = p;
    let neg = false;
    let c = d[p]!;
    if (c === 45) {
      neg = true;
      p++;
    } else if (c === 43) p++;
    let m = 0;
    let sig = 0;
    let scale = 0;
    let digits = 0;
    let slow = false;
    for (; p < n; p++) {
      c = d[p]!;
      if (c < 48 || c > 57) break;
      digits++;
      if (sig < 15) {
        m = m * 10 + (c - 48);
        if (m !== 0) sig++;
      } else slow = true;
    }
    if (p < n && d[p] === 46) {
      for (p++; p < n; p++) {
        c = d[p]!;
        if (c < 48 || c > 57) break;
        digits++;
        if (sig < 15) {
          m = m * 10 + (c - 48);
          if (m !== 0) sig++;
          scale--;
        } else slow = true;
      }
    }
    if (digits === 0) return -1;
    if (p < n && (d[p] === 101 || d[p] === 69)) {
      let q = p + 1;
      let eneg = false;
      if (q < n && (d[q] === 45 || d[q] === 43)) eneg = d[q++] === 45;
      const qs = q;
      let e = 0;
      for (; q < n; q++) {
        c = d[q]!;
        if (c < 48 || c > 57) break;
        if (e < 100000) e = e * 10 + (c - 48);
      }
      if (q > qs) {
        p = q;
        scale += eneg ? -e : e;
      }
    }
    const exact = slow ? undefined : exactDecimal(m, scale);
    if (exact !== undefined) this.num = neg ? -exact : exact;
    else {
      this.num = Number(decodeText(d, first, p));
      if (!Number.isFinite(this.num)) {
        this.tokEnd = p;
        this.oddCount++;
        if (this.oddCount === 1) this.oddFirst = `'${excerpt(d, first, p)}' at line ${this.tokLine}`;
      }
    }
    return p;
  }

  private isWord(w: string): boolean {
    if (this.tokEnd - this.tokStart !== w.length) return false;
    for (let i = 0; i < w.length; i++) if (this.data[this.tokStart + i] !== w.charCodeAt(i)) return false;
    return true;
  }

  private tokenText(): string {
    return decodeText(this.data, this.tokStart, this.tokEnd);
  }

  private describe(k: number): string {
    switch (k) {
      case EOF:
        return 'the end of the file (is it truncated?)';
      case LBRACE:
        return "'{'";
      case RBRACE:
        return "'}'";
      case SEPARATOR:
        return `'${String.fromCharCode(this.data[this.tokStart]!)}'`;
      case GUID:
        return 'a GUID';
      case STRING:
        return `the string "${excerpt(this.data, this.tokStart + 1, this.tokEnd - 1)}"`;
      case NUMBER:
      case ODD_NUMBER:
        return `the number ${excerpt(this.data, this.tokStart, this.tokEnd)}`;
      default:
        return `'${excerpt(this.data, this.tokStart, this.tokEnd)}'`;
    }
  }

  private fail(message: string, line = this.tokLine, offset = this.tokStart): never {
    throw new LoadError(`${this.fileName}: line ${line}${this.where}: ${message}`, line, offset);
  }
}

function label(template: string, name: string): string {
  return quoted(name === '' ? template : `${template} ${name}`);
}

/** `1.#QNAN`, `-1.#IND00`, `1.#INF`, `1.#SNAN` (MSVC printf of non-finite values). */
function msvcNonFinite(d: Uint8Array, start: number, end: number): number {
  for (let i = start; i + 2 < end; i++) {
    if (d[i] === 73 && d[i + 1] === 78 && d[i + 2] === 70) return d[start] === 45 ? -Infinity : Infinity;
  }
  return NaN;
}

/** `nan`, `-nan`, `inf`, `-inf`, `-nan(ind)`, `infinity` in any case (C runtimes other than MSVC), else undefined. */
function nonFiniteWord(d: Uint8Array, start: number, end: number): number | undefined {
  if (end - start > 12) return undefined;
  let i = start;
  let neg = false;
  if (d[i] === 45 || d[i] === 43) neg = d[i++] === 45;
  let w = '';
  for (; i < end; i++) w += String.fromCharCode(d[i]! | 0x20);
  if (w === 'nan' || w === 'nan(ind)' || w === 'nan(snan)' || w === 'qnan') return NaN;
  if (w === 'inf' || w === 'infinity') return neg ? -Infinity : Infinity;
  return undefined;
}
