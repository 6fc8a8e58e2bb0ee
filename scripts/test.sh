#!/usr/bin/env bash
# The whole test suite: type-check, unit tests (Node), production build, browser tests (Playwright on
# headless Chromium with WebGL2 through SwiftShader). Installs what is missing first.
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
npx vite build --logLevel warn
echo "== browser tests"
npx playwright test
