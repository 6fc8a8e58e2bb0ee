/** 10^0 … 10^22: every one an exact double. */
const POWERS_OF_TEN = Float64Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * The value of a decimal written with the digits `m` (as an integer) and the decimal exponent `exponent`
 * (m · 10^exponent), when that is one exact step: m at most 2^53 − 1 and |exponent| at most 22 make m and
 * 10^|exponent| exact doubles, so one multiplication or division gives the correctly rounded value, the one
 * Number() gives for the text. Undefined otherwise: the caller reads the text with Number(). Shared by the text
 * readers' number scans (TextScanner for .m3d, x/read-text.ts for .x).
 */
export function exactDecimal(m: number, exponent: number): number | undefined {
  if (!(m <= Number.MAX_SAFE_INTEGER) || exponent < -22 || exponent > 22) return undefined;
  return exponent < 0 ? m / POWERS_OF_TEN[-exponent]! : m * POWERS_OF_TEN[exponent]!;
}
