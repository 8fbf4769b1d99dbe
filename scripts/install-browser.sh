#!/usr/bin/env bash
# Installs what the browser tests (crates/sygo/tests/browser/) need: Debian's
# chromium and its WebDriver, chromedriver. Does nothing when both are present.
# Uses sudo only when not run as root. Exits non-zero if the install fails.
set -euo pipefail

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo -n"
    else
        echo "install-browser: not root and no sudo: install chromium and chromium-driver by hand" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium chromium-driver fonts-dejavu-core

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    echo "install-browser: chromium or chromedriver still missing after apt-get install" >&2
    exit 1
fi
