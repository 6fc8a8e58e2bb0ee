/**
 * Scales and ticks for the benchmark charts (bench-chart.ts): pure functions from data values to pixels.
 * Linear scales start at 0 and end on a "nice" step (1, 2 or 5 × 10^k); log scales (base 10) span whole
 * decades around the data. No DOM.
 */

export interface Scale {
  /** Data value → pixel coordinate between range[0] and range[1]. */
  map(v: number): number;
  /** Tick values inside the domain. */
  readonly ticks: readonly number[];
  readonly domain: readonly [number, number];
}

/** The smallest 1, 2 or 5 × 10^k that is ≥ x (x > 0); 1 for x ≤ 0 or not finite. */
export function niceStep(x: number): number {
  if (!Number.isFinite(x) || x <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  const f = x / p;
  const m = f <= 1 + 1e-9 ? 1 : f <= 2 + 1e-9 ? 2 : f <= 5 + 1e-9 ? 5 : 10;
  return m * p;
}

/** 0 … a nice maximum ≥ max(values), about `count` ticks, onto [r0, r1]. */
export function linearScale(values: readonly number[], r0: number, r1: number, count = 4): Scale {
  const finite = values.filter((v) => Number.isFinite(v) && v > 0);
  const max = finite.length > 0 ? Math.max(...finite) : 1;
  const step = niceStep(max / count);
  const top = Math.ceil(max / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let i = 0; i * step <= top + step * 1e-6; i++) ticks.push(Number((i * step).toPrecision(12)));
  return { domain: [0, top], ticks, map: (v) => r0 + ((r1 - r0) * Math.max(0, v)) / top };
}

/** Whole decades around the positive values (10^floor(log min) … 10^ceil(log max)), onto [r0, r1]. */
export function logScale(values: readonly number[], r0: number, r1: number): Scale {
  const pos = values.filter((v) => Number.isFinite(v) && v > 0);
  let lo = pos.length > 0 ? Math.floor(Math.log10(Math.min(...pos))) : 0;
  let hi = pos.length > 0 ? Math.ceil(Math.log10(Math.max(...pos))) : 1;
  if (hi <= lo) hi = lo + 1;
  const ticks: number[] = [];
  for (let e = lo; e <= hi; e++) ticks.push(Number((10 ** e).toPrecision(12)));
  const a = lo;
  const b = hi;
  lo = 10 ** a;
  hi = 10 ** b;
  return {
    domain: [lo, hi],
    ticks,
    map: (v) => {
      const l = Math.log10(Math.max(v, lo));
      return r0 + ((r1 - r0) * (l - a)) / (b - a);
    },
  };
}

/** A tick label: 0.001 → "0.001", 1500 → "1.5k", 10000 → "10k", 2.5 → "2.5". */
export function tickLabel(v: number): string {
  if (v >= 1000) return `${Number((v / 1000).toPrecision(3))}k`;
  return String(Number(v.toPrecision(3)));
}
