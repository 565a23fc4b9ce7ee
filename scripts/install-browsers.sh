#!/usr/bin/env bash
# Installs the browsers of the browser suites from Debian (apt-get), each only when missing:
#   chromium            /usr/bin/chromium (CHROMIUM_PATH), driven by playwright-core
#   firefox-esr         /usr/bin/firefox-esr (FIREFOX_PATH), driven by puppeteer-core over WebDriver BiDi
#   webkit2gtk-driver   /usr/bin/WebKitWebDriver (WEBKIT_DRIVER_PATH) and WebKitGTK's MiniBrowser
#   xvfb                Xvfb, the virtual display MiniBrowser runs in (WebKitGTK has no headless mode)
# Never a browser or driver download of a tool's own (no `playwright install`, no geckodriver package).
# Called by scripts/setup.sh --browser; runs as root, or through sudo.
set -euo pipefail

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
[ -x "${FIREFOX_PATH:-/usr/bin/firefox-esr}" ] || missing+=(firefox-esr)
[ -x "${WEBKIT_DRIVER_PATH:-/usr/bin/WebKitWebDriver}" ] || missing+=(webkit2gtk-driver)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-browsers: installing Debian's ${missing[*]} for the browser tests"
as_root apt-get update -qq
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
