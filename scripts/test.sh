#!/usr/bin/env bash
# The whole test suite: type-check, unit tests (Node), production build, the built bundle's no-eval check,
# browser tests (Playwright on headless Chromium with WebGL2 through SwiftShader). Installs what is missing
# first. SKINLAB_DIST: the folder to build into and serve (playwright.config.ts), default dist.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== installing npm packages"
  npm ci --no-audit --no-fund
fi
bash scripts/ensure-chromium.sh
echo "== generating built-in models"
npx tsx src/cli/gen-models.ts
echo "== type-check"
npx tsc --noEmit
echo "== unit tests"
npx vitest run
echo "== build"
DIST="${SKINLAB_DIST:-dist}"
BUILT_AFTER=$(date +%s)
npx vite build --logLevel warn --outDir "$DIST"
echo "== no code from strings in the fresh build"
SKINLAB_BUILT_DIST="$DIST" SKINLAB_BUILT_AFTER="$BUILT_AFTER" npx vitest run test/app/no-eval.test.ts
echo "== browser tests"
npx playwright test
