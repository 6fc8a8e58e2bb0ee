import type { App } from '../app/app.ts';
import { CompareDivider } from './compare-divider.ts';
import { addLabelFigures, CompareLabels, type CompareHalf } from './compare-labels.ts';

/** A half's artifact figures (src/quality/live.ts, measured for each half's technique): volume and p95 area change. */
function qualityLine(half: CompareHalf): string | null {
  const { volumeRatio, areaP95 } = half.stats;
  if (volumeRatio === null && areaP95 === null) return null;
  return `volume ${volumeRatio === null ? '—' : `${(volumeRatio * 100).toFixed(1)} %`}  area p95 ${areaP95 === null ? '—' : areaP95.toFixed(2)}`;
}

/**
 * Side-by-side compare's page chrome: a layer over the canvas holding the halves' labels (compare-labels.ts)
 * and the divider (compare-divider.ts), shown while the state has a pair. The divider writes the state's
 * `compareSplit` (the next frame draws it; the link follows). Part of the chrome: `gui=0` and H hide it
 * (style.css `.clean`). update() runs a few times a second and after state changes; never per frame.
 */
export function mountCompareOverlay(app: App, chrome: HTMLElement, canvas: HTMLElement): { update(): void } {
  const layer = document.createElement('div');
  layer.className = 'compare-layer';
  layer.hidden = true;
  chrome.appendChild(layer);
  const labels = new CompareLabels(layer);
  addLabelFigures(qualityLine);
  const divider = new CompareDivider(layer, canvas, (split) => {
    app.state.compareSplit = split;
    labels.place(split);
  });
  return {
    update(): void {
      const s = app.state;
      const pair = s.crowd > 1 ? null : s.compare;
      layer.hidden = pair === null;
      if (!pair) return;
      divider.place(s.compareSplit);
      labels.update({ side: 'A', technique: pair.a, stats: app.stats(), gpuMs: null }, { side: 'B', technique: pair.b, stats: app.stats(1), gpuMs: null }, s.compareSplit);
    },
  };
}
