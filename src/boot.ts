import { startEarly } from './app/early-start.ts';

/**
 * The page's entry script (index.html): a few kilobytes that ask for the first model's file and start the parse
 * worker (app/early-start.ts), then load the page itself (main.ts, the composition root), so the model arrives
 * and its worker starts while the main script is still on its way. main.ts makes the same early call, which
 * does nothing the second time.
 */
startEarly(location.search, document.baseURI);
void import('./main.ts');
