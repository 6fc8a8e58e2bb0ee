import { sizeForViewport } from './app/canvas-size.ts';
import { CONTEXT_ATTRIBUTES } from './app/context-attributes.ts';
import { startEarly } from './app/early-start.ts';
import { spareStarted } from './app/parse-worker-start.ts';

/**
 * The page's entry script (index.html): a few kilobytes, in a chunk that imports no other (vite.config.ts
 * entryChunk), that start the parse worker on the first model (app/early-start.ts), then, once the worker runs,
 * ask for the page's WebGL2 context. The worker reads and parses the model, and the browser's GPU process makes the
 * context (a synchronous call that waits for it: 100–200 ms with a software GPU), while the page's main script
 * (main.ts, the composition root) is still on its way: the page names it in a module script of its own after this
 * one (vite.config.ts pageScript), which runs once it has arrived. main.ts makes the same early call, which does
 * nothing the second time, and gets the same context.
 *
 * The script is `async`: it runs as soon as it has arrived, not once the page's stylesheet has as well (a deferred
 * script, as module scripts are by default, waits for every stylesheet the page names). It may then run before
 * the parser has reached the canvas (the canvas is looked up again when the context is asked for; main.ts, which
 * runs once the whole page is parsed, makes the context where it is still missing), or, arriving late, after
 * main.ts, which has then started the load and made the context itself.
 */
// Where the main script has run first (this script arrived late), the load, the canvas and its context are its own.
if (startEarly(location.search, document.baseURI)) {
  // The drawing buffer at its first frame's size before the context makes it (canvas-size.ts), where the parser
  // has reached the canvas (else the frame loop sizes it: the main script may have made its context meanwhile).
  const early = document.getElementById('view') as HTMLCanvasElement | null;
  if (early) sizeForViewport(early);
  // Once the worker has started (its start needs this thread for a few short tasks, and this call blocks it).
  void spareStarted().then(() => {
    const view = early ?? (document.getElementById('view') as HTMLCanvasElement | null);
    view?.getContext('webgl2', CONTEXT_ATTRIBUTES);
  });
}
