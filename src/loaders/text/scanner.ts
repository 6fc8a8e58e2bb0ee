import { LoadError } from '../../model/errors.ts';
import { exactDecimal } from './exact-decimal.ts';

/**
 * What a value is, for the error that names it: the words, or a function that makes them, only called when
 * there is an error (a reader of many values makes one function before its loop rather than a string per value).
 */
export type What = string | (() => string);

const words = (what: What): string => (typeof what === 'string' ? what : what());

/**
 * Whitespace-separated tokens over a text file with 1-based line tracking, for the text formats.
 * Every failure throws LoadError naming the file, the line and what was expected; nothing here reads
 * past the end of the input. `checkCount` guards allocations sized by counts written in the file.
 */
export class TextScanner {
  private pos = 0;
  /** Line of the next unread character. */
  line = 1;
  /** Line on which the last token returned started. */
  tokenLine = 1;
  /** Where the last token returned starts (it ends at `pos`). */
  private tokenStart = 0;

  constructor(
    private readonly src: string,
    private readonly fileName: string,
  ) {}

  get remaining(): number {
    return this.src.length - this.pos;
  }

  error(message: string, line = this.tokenLine): never {
    const atEnd = this.pos >= this.src.length ? ' (the file ends here: is it truncated?)' : '';
    throw new LoadError(`${this.fileName}: line ${line}: ${message}${atEnd}`, line);
  }

  private skipSpace(): void {
    const s = this.src;
    let p = this.pos;
    while (p < s.length) {
      const c = s.charCodeAt(p);
      if (c === 10) this.line++;
      else if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11 && c !== 0xfeff) break;
      p++;
    }
    this.pos = p;
  }

  private tokenEnd(): number {
    const s = this.src;
    let p = this.pos;
    while (p < s.length && !isSpace(s.charCodeAt(p))) p++;
    return p;
  }

  atEnd(): boolean {
    this.skipSpace();
    return this.pos >= this.src.length;
  }

  /** The next token without consuming it, or null at the end. */
  peek(): string | null {
    this.skipSpace();
    if (this.pos >= this.src.length) return null;
    return this.src.slice(this.pos, this.tokenEnd());
  }

  /**
   * Which of `words` (each without whitespace) the next token is, compared in place; -1 for none or at the end.
   * Consumes nothing.
   */
  peekWord(words: readonly string[]): number {
    this.skipSpace();
    const s = this.src;
    const at = this.pos;
    for (let w = 0; w < words.length; w++) {
      const word = words[w]!;
      const end = at + word.length;
      if (s.startsWith(word, at) && (end >= s.length || isSpace(s.charCodeAt(end)))) return w;
    }
    return -1;
  }

  /** Consumes the next token, known to be `word` (peekWord's answer). */
  skipWord(word: string): void {
    this.skipSpace();
    this.tokenLine = this.line;
    this.tokenStart = this.pos;
    this.pos += word.length;
  }

  /** True when the next token starts like a number. */
  peekIsNumber(): boolean {
    this.skipSpace();
    if (this.pos >= this.src.length) return false;
    const c = this.src.charCodeAt(this.pos);
    return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46;
  }

  next(what: What = 'more data'): string {
    this.skipSpace();
    if (this.pos >= this.src.length) throw new LoadError(`${this.fileName}: line ${this.line}: unexpected end of file, expected ${words(what)} (is the file truncated?)`, this.line);
    this.tokenLine = this.line;
    this.tokenStart = this.pos;
    const end = this.tokenEnd();
    const t = this.src.slice(this.pos, end);
    this.pos = end;
    return t;
  }

  expect(literal: string): void {
    const t = this.next(`'${literal}'`);
    if (t !== literal) this.error(`expected '${literal}', found '${clip(t)}'`);
  }

  /** A finite number; `what` names it in the error. */
  number(what: What): number {
    const fast = this.plainDecimal();
    if (fast !== undefined) return fast;
    const t = this.next(what);
    const v = Number(t);
    if (!Number.isFinite(v) || t.length === 0) this.error(`expected ${words(what)} (a finite number), found '${clip(t)}'`);
    return v;
  }

  /** An integer in [min, max]. */
  int(what: What, min: number, max: number): number {
    const v = this.plainDecimal() ?? Number(this.next(what));
    if (!Number.isInteger(v)) this.error(`expected ${words(what)} (an integer), found '${clip(this.src.slice(this.tokenStart, this.pos))}'`);
    if (v < min || v > max) this.error(`${words(what)} ${v} is out of range [${min}, ${max}]`);
    return v;
  }

  /**
   * The next token's value, consumed, when it is a plain decimal (`[+-]digits[.digits][(e|E)[+-]digits]`, a digit
   * at least before the exponent) whose value is one exact step from its digits (exact-decimal.ts: the value
   * Number() gives). Anything else (more digits, a larger exponent, hex, Infinity, a malformed token)
   * is undefined and nothing is consumed: the caller reads the token as text, and Number() decides. No string is
   * made on this path.
   */
  private plainDecimal(): number | undefined {
    this.skipSpace();
    const s = this.src;
    let p = this.pos;
    let c = s.charCodeAt(p);
    const negative = c === 45;
    if (negative || c === 43) c = s.charCodeAt(++p);
    let m = 0;
    let digits = 0;
    let exponent = 0;
    while (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      digits++;
      c = s.charCodeAt(++p);
    }
    if (c === 46) {
      c = s.charCodeAt(++p);
      while (c >= 48 && c <= 57) {
        m = m * 10 + (c - 48);
        digits++;
        exponent--;
        c = s.charCodeAt(++p);
      }
    }
    if (digits === 0) return undefined;
    if (c === 101 || c === 69) {
      c = s.charCodeAt(++p);
      const below = c === 45;
      if (below || c === 43) c = s.charCodeAt(++p);
      let e = 0;
      let eDigits = 0;
      while (c >= 48 && c <= 57 && e < 1000) {
        e = e * 10 + (c - 48);
        eDigits++;
        c = s.charCodeAt(++p);
      }
      if (eDigits === 0) return undefined;
      exponent += below ? -e : e;
    }
    // The token ends here (whitespace or the end of the text), and the value is exact to compute.
    if (p < s.length && !isSpace(c)) return undefined;
    const magnitude = exactDecimal(m, exponent);
    if (magnitude === undefined) return undefined;
    this.tokenLine = this.line;
    this.tokenStart = this.pos;
    this.pos = p;
    return negative ? -magnitude : magnitude;
  }

  /** The rest of the current line (trimmed), consumed with its line end. */
  restOfLine(): string {
    const s = this.src;
    let p = this.pos;
    while (p < s.length && (s.charCodeAt(p) === 32 || s.charCodeAt(p) === 9)) p++;
    const start = p;
    while (p < s.length && s.charCodeAt(p) !== 10) p++;
    const text = s.slice(start, p).trim();
    this.pos = p;
    return text;
  }

  /**
   * Refuses a count that the rest of the file cannot hold, before anything is allocated from it:
   * each item needs at least `minChars` characters of text.
   */
  checkCount(count: number, minChars: number, what: string): void {
    if (count * minChars > this.remaining) {
      this.error(`${what} count ${count} is larger than the rest of the file can hold (${this.remaining} characters left)`);
    }
  }
}

/** What ends a token: space, tab, line feed, carriage return, form feed, vertical tab. */
function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 11;
}

function clip(t: string): string {
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
}
