/**
 * One figure of `npm run bench` (docs/api.md#bench-resultsjson): bench-results.json is an array of these. A ratio
 * against a peer measured in the same run is named `*_ratio_vs_<peer>` and is peer-time / our-time
 * (higher is better for us).
 */
export interface Metric {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly note?: string;
}
