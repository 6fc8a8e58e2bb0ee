#!/usr/bin/env bash
# The whole test suite: type-check, unit tests (Node), production build, the built bundle's no-eval check,
# browser tests (Playwright on headless Chromium with WebGL2 through SwiftShader). Installs what is missing
# first. SKINLAB_DIST: the folder to build into and serve (playwright.config.ts), default dist;
# SKINLAB_PORT: the preview server's port, default a free one.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== installing npm packages"
  npm ci --no-audit --no-fund
fi
bash scripts/ensure-chromium.sh
# The type-check and the model generator are single-threaded and independent: one core each.
echo "== type-check (in the background) and generating built-in models"
npx tsc --noEmit &
TSC=$!
npx tsx src/cli/gen-models.ts
if ! wait "$TSC"; then echo "type-check failed" >&2; exit 1; fi
echo "== unit tests"
# Two test files at a time (vitest.config.ts), then the two bounded fuzz runs side by side, one core each.
# They judge every input by the CPU time of the thread that loads it (2 s slow, 5 s hang), which a busy
# machine does not inflate; running them apart only keeps the suite's wall time even.
FUZZ=(test/fuzz/fuzz.test.ts test/fuzz/fuzz-gltf.test.ts)
npx vitest run --exclude "${FUZZ[0]}" --exclude "${FUZZ[1]}"
npx vitest run "${FUZZ[@]}"
echo "== build"
DIST="${SKINLAB_DIST:-dist}"
BUILT_AFTER=$(date +%s)
npx vite build --logLevel warn --outDir "$DIST"
echo "== no code from strings in the fresh build"
SKINLAB_BUILT_DIST="$DIST" SKINLAB_BUILT_AFTER="$BUILT_AFTER" npx vitest run test/app/no-eval.test.ts
echo "== browser tests"
# The preview server's port: SKINLAB_PORT when given, else a free one, so two runs on one machine (two
# clones, or CI beside a developer's run) never meet on one server.
if [ -z "${SKINLAB_PORT:-}" ]; then
  SKINLAB_PORT=$(node -e "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });")
  export SKINLAB_PORT
fi
echo "serving $DIST on 127.0.0.1:$SKINLAB_PORT"
SKINLAB_DIST="$DIST" npx playwright test
