import { describe, expect, it } from 'vitest';
import { TextScanner } from '../../../src/loaders/text/scanner.ts';

/** What number() gave before it had a fast path: the token's text through Number(), or the same error. */
function slowNumber(token: string): number | string {
  const v = Number(token);
  return Number.isFinite(v) && token.length > 0 ? v : `f.txt: line 1: expected x (a finite number), found '${token.length > 40 ? `${token.slice(0, 40)}…` : token}'`;
}

function scanned(token: string): number | string {
  try {
    return new TextScanner(`${token} next`, 'f.txt').number('x');
  } catch (e) {
    return (e as Error).message;
  }
}

describe('TextScanner numbers', () => {
  it('every token reads as Number() reads it, bit for bit, or fails with the same message', () => {
    const tokens = [
      '0', '-0', '+0', '7', '-7', '+7', '0.1', '-0.1', '.5', '5.', '-.5', '1e5', '1E5', '1e+5', '1e-5', '2.5e-3', '-2.5E+3',
      '123456789012345', '9007199254740991', '9007199254740993', '12345678901234567890', '0.30000000000000004',
      '1e22', '1e23', '1e-22', '1e-23', '1.7976931348623157e308', '4.9e-324', '1e400', '-1e400', '1e1000',
      '0x10', 'Infinity', '-Infinity', 'NaN', '.', '-', '+', 'e5', '1e', '1e+', '1.2.3', '12abc', '1_000', '00012',
      '5\u00a0', '3.14159265358979323846', '-0.000000000000000000001', '0.0000001234567',
    ];
    // And many plain decimals of every length and exponent the exact path covers, and some it does not.
    let seed = 11;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (let i = 0; i < 3000; i++) {
      const digits = Array.from({ length: 1 + random(19) }, () => random(10)).join('');
      const point = random(digits.length + 1);
      let token = `${random(3) === 0 ? '-' : ''}${digits.slice(0, point)}.${digits.slice(point)}`;
      if (random(3) === 0) token += `e${random(2) ? '-' : ''}${random(30)}`;
      tokens.push(token);
    }
    for (const token of tokens) {
      const got = scanned(token);
      const want = slowNumber(token);
      expect(typeof got === 'number' && typeof want === 'number' ? Object.is(got, want) : got === want, `'${token}': ${String(got)} against ${String(want)}`).toBe(true);
    }
  });

  it('integers: the same values, range and messages; the token after it is read next', () => {
    const s = new TextScanner('12 -3 4.0 7.5', 'f.txt');
    expect(s.int('a', 0, 100)).toBe(12);
    expect(() => s.int('b', 0, 100)).toThrow("f.txt: line 1: b -3 is out of range [0, 100]");
    expect(s.int('c', 0, 100)).toBe(4);
    expect(() => s.int('d', 0, 100)).toThrow("f.txt: line 1: expected d (an integer), found '7.5'");
    const t = new TextScanner('1e3x 5\n  6', 'f.txt');
    expect(() => t.int('e', 0, 10_000)).toThrow("expected e (an integer), found '1e3x'");
    expect(t.number('f')).toBe(5);
    expect(t.number('g')).toBe(6);
    expect(t.tokenLine).toBe(2);
  });

  it('peekWord finds which word the next token is, whole, in place; skipWord takes it', () => {
    const s = new TextScanner('  Normal: 1\nNormals: 2 Tex-Coords:', 'f.txt');
    const keys = ['Position:', 'Normal:', 'Tex-Coords:'];
    expect(s.peekWord(keys)).toBe(1);
    s.skipWord('Normal:');
    expect(s.number('n')).toBe(1);
    // A longer token that starts with a word is not that word.
    expect(s.peekWord(keys)).toBe(-1);
    expect(s.next()).toBe('Normals:');
    expect(s.int('i', 0, 9)).toBe(2);
    // The last token of the text, with nothing after it.
    expect(s.peekWord(keys)).toBe(2);
    s.skipWord('Tex-Coords:');
    expect(s.tokenLine).toBe(2);
    expect(s.atEnd()).toBe(true);
    expect(s.peekWord(keys)).toBe(-1);
  });
});
