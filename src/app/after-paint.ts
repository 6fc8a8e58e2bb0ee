/**
 * Resolves once the browser has had the chance to show what this task drew: after its next animation frame, in
 * a task of its own (a frame's callbacks run before it is presented), or after FALLBACK_MS where no animation
 * frame comes (a hidden tab, or a context without requestAnimationFrame).
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FALLBACK_MS);
    if (typeof requestAnimationFrame !== 'function') return;
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}

/** afterPaint's wait where no animation frame comes, ms. */
const FALLBACK_MS = 100;
