#!/usr/bin/env bash
# Prepare a fresh Debian / Raspberry Pi OS machine: system packages (only the
# missing ones), then a virtual environment in .venv with tavli-pi installed.
# Usage: scripts/setup.sh [demo|test]
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-demo}"

# Debian packages each use needs. gnubg is the test oracle; mosquitto the
# tournament broker; chromium + chromium-driver the page tests and the kiosk.
apt_demo=(python3-venv)
apt_test=(python3-venv gnubg mosquitto chromium chromium-driver nodejs npm shellcheck systemd openssl)
if [ "$what" = test ]; then want=("${apt_test[@]}"); else want=("${apt_demo[@]}"); fi

missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
# python3-venv is only needed when this python cannot make a venv by itself.
if python3 -c 'import venv, ensurepip' 2>/dev/null; then
  tmp=(); for p in "${missing[@]}"; do [ "$p" = python3-venv ] || tmp+=("$p"); done; missing=("${tmp[@]}")
fi
# node/npm only matter when the machine has none (MicroPython's WebAssembly port).
if command -v node >/dev/null && command -v npm >/dev/null; then
  tmp=(); for p in "${missing[@]}"; do case "$p" in nodejs|npm) ;; *) tmp+=("$p");; esac; done; missing=("${tmp[@]}")
fi
if [ "${#missing[@]}" -gt 0 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "setup: installing Debian packages: ${missing[*]}"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ ! -x .venv/bin/python ]; then
  # On a Pi the apt-installed picamera2 must be visible inside the venv.
  if python3 -c 'import picamera2' 2>/dev/null; then
    python3 -m venv --system-site-packages .venv
  else
    python3 -m venv .venv
  fi
fi
.venv/bin/python -m pip install -q --upgrade pip
if [ "$what" = test ]; then
  .venv/bin/python -m pip install -q -e '.[test]'
  if [ -f firmware/package.json ]; then (cd firmware && npm install --no-audit --no-fund --silent); fi
else
  .venv/bin/python -m pip install -q -e .
fi
