#!/usr/bin/env bash
# Makes sure a Chromium for the browser tests exists. Playwright drives the system Chromium through
# executablePath (CHROMIUM_PATH, else /usr/bin/chromium); it never downloads a browser of its own.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium not found at $chromium: installing Debian's chromium package…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
  exit 0
fi
cat >&2 <<MSG
The browser tests need Chromium and none was found at $chromium.
Install it, then run the tests again:
  Debian/Ubuntu:  sudo apt-get install -y chromium
  elsewhere:      install Chromium or Chrome and set CHROMIUM_PATH=/path/to/the/binary
MSG
exit 1
