import { clampSplit, DEFAULT_SPLIT } from '../app/compare-state.ts';

/**
 * Side-by-side compare's divider between the halves: a vertical bar over the canvas at the state's
 * `compareSplit` that a pointer drags (pointer capture), arrow keys move (Shift: larger steps) and Home / End
 * put at its limits; a double-click puts it back in the middle. It reports a new share of the width through
 * `moved` (the composition root writes it into the state); it never touches GL. An ARIA separator, so it
 * is focusable and announced with its value.
 */
export class CompareDivider {
  readonly el: HTMLElement;
  private split = DEFAULT_SPLIT;

  constructor(
    layer: HTMLElement,
    /** The canvas the share is measured across. */
    private readonly canvas: HTMLElement,
    private readonly moved: (split: number) => void,
  ) {
    const el = document.createElement('div');
    el.className = 'compare-divider';
    el.tabIndex = 0;
    el.setAttribute('role', 'separator');
    el.setAttribute('aria-orientation', 'vertical');
    el.setAttribute('aria-label', 'compare divider: drag, or arrow keys, to move it');
    el.setAttribute('aria-valuemin', '10');
    el.setAttribute('aria-valuemax', '90');
    el.title = 'Drag (or arrow keys) to move the divider; double-click puts it back in the middle';
    layer.appendChild(el);
    this.el = el;
    el.addEventListener('pointerdown', (e) => {
      el.setPointerCapture(e.pointerId);
      e.preventDefault();
    });
    el.addEventListener('pointermove', (e) => {
      if (!el.hasPointerCapture(e.pointerId)) return;
      const r = this.canvas.getBoundingClientRect();
      this.set((e.clientX - r.left) / Math.max(1, r.width));
    });
    el.addEventListener('pointerup', (e) => el.releasePointerCapture(e.pointerId));
    el.addEventListener('dblclick', () => this.set(DEFAULT_SPLIT));
    el.addEventListener('keydown', (e) => {
      const step = e.shiftKey ? 0.1 : 0.02;
      let to: number | null = null;
      if (e.key === 'ArrowLeft') to = this.split - step;
      else if (e.key === 'ArrowRight') to = this.split + step;
      else if (e.key === 'Home') to = 0;
      else if (e.key === 'End') to = 1;
      if (to === null) return;
      // The page's own arrow keys step the clip: not while the divider has the focus.
      e.preventDefault();
      e.stopPropagation();
      this.set(to);
    });
  }

  /** Places the bar at `split` (from the state) without reporting it. */
  place(split: number): void {
    this.split = split;
    this.el.style.left = `${(split * 100).toFixed(2)}%`;
    this.el.setAttribute('aria-valuenow', String(Math.round(split * 100)));
  }

  private set(split: number): void {
    const v = clampSplit(split);
    this.place(v);
    this.moved(v);
  }
}
