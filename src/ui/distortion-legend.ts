import { DISTORTION_COLOURS, DISTORTION_SCALE } from '../render/views.ts';

/**
 * The distortion view's legend: its colour scale as a gradient (render/views.ts DISTORTION_COLOURS, the
 * shader's distortionColour) with the area ratios at its ends and middle. DOM only; built when the view is
 * chosen, not per frame. The element has id `distortion-legend`.
 */
export function distortionLegend(parent: HTMLElement): HTMLElement {
  const row = document.createElement('div');
  row.id = 'distortion-legend';
  row.style.display = 'flex';
  row.style.alignItems = 'center';
  row.style.gap = '6px';
  row.style.marginTop = '3px';
  const rgb = (c: readonly number[]): string => `rgb(${c.map((x) => Math.round(x * 255)).join(',')})`;
  const label = (text: string): void => {
    const s = document.createElement('span');
    s.textContent = text;
    row.append(s);
  };
  const low = 2 ** -DISTORTION_SCALE;
  const high = 2 ** DISTORTION_SCALE;
  label(`area ×${low}`);
  const bar = document.createElement('span');
  bar.style.display = 'inline-block';
  bar.style.width = '90px';
  bar.style.height = '10px';
  bar.style.borderRadius = '2px';
  bar.style.background = `linear-gradient(90deg, ${DISTORTION_COLOURS.map(rgb).join(', ')})`;
  bar.title = `log2 area ratio −${DISTORTION_SCALE} … 0 … +${DISTORTION_SCALE}`;
  row.append(bar);
  label(`×${high}  (saturates beyond)`);
  parent.append(row);
  return row;
}
