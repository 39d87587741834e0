#!/usr/bin/env bash
# Set up a Raspberry Pi OS machine as a tavli-pi table, from a clone of the repo.
#
#   sudo systemd/install.sh [--no-kiosk] [--no-start] [--dry-run]
#
# 1. apt packages: python3-venv, python3-picamera2 (the camera stack is apt-only),
#    chromium and cage for the kiosk screen;
# 2. an unprivileged user "tavli" in the gpio, video and dialout groups
#    (GPIO LEDs and buttons, the camera, the Pico's /dev/ttyACM0);
# 3. the clone copied to /opt/tavli-pi with a virtual environment that sees
#    the apt-installed picamera2 (--system-site-packages), tavli-pi installed in it;
# 4. /etc/tavli-pi/table.toml from systemd/table.toml unless it exists;
# 5. the units tavli-pi.service (+ tavli-pi-kiosk.service) installed, enabled, started.
# --dry-run prints every command instead of running it. Idempotent: run it again
# after a `git pull` to update.
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX=/opt/tavli-pi
CONF_DIR=/etc/tavli-pi
UNIT_DIR=/etc/systemd/system
SERVICE_USER=tavli
KIOSK=1
START=1
DRY=0

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; }

for arg in "$@"; do
  case "$arg" in
    --no-kiosk) KIOSK=0 ;;
    --no-start) START=0 ;;
    --dry-run) DRY=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $arg (try --help)" >&2; exit 2 ;;
  esac
done

run() {
  if [ "$DRY" = 1 ]; then
    printf '+'; printf ' %q' "$@"; printf '\n'
  else
    "$@"
  fi
}

if [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
  echo "install.sh: run as root (sudo systemd/install.sh)" >&2
  exit 1
fi

echo "== packages"
pkgs=(python3-venv python3-pip rsync)
if apt-cache show python3-picamera2 >/dev/null 2>&1; then pkgs+=(python3-picamera2); fi
if [ "$KIOSK" = 1 ]; then pkgs+=(chromium cage); fi
run apt-get update -q
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${pkgs[@]}"

echo "== user $SERVICE_USER"
for group in gpio video dialout render input; do
  run groupadd -f --system "$group"
done
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
  run useradd --system --create-home --home-dir "/var/lib/$SERVICE_USER" --shell /usr/sbin/nologin "$SERVICE_USER"
fi
run usermod -a -G gpio,video,dialout,render,input "$SERVICE_USER"

echo "== application in $PREFIX"
run mkdir -p "$PREFIX"
run rsync -a --delete --exclude .git --exclude .venv --exclude node_modules --exclude __pycache__ \
  "$SRC/" "$PREFIX/"
if [ ! -x "$PREFIX/.venv/bin/python" ]; then
  run python3 -m venv --system-site-packages "$PREFIX/.venv"
fi
run "$PREFIX/.venv/bin/python" -m pip install -q --upgrade pip
# Editable, so the package finds hardware/pinout.toml in $PREFIX.
run "$PREFIX/.venv/bin/python" -m pip install -q -e "$PREFIX"
run chown -R root:root "$PREFIX"

echo "== configuration in $CONF_DIR"
run mkdir -p "$CONF_DIR"
if [ ! -e "$CONF_DIR/table.toml" ]; then
  # A fresh random 6-digit display PIN per table: a PIN shipped in the repo would be everyone's.
  pin=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ' | tail -c 7 | sed 's/^/000000/' | tail -c 7)
  run install -m 0640 -g "$SERVICE_USER" "$SRC/systemd/table.toml" "$CONF_DIR/table.toml"
  run sed -i "s/PIN-SET-BY-INSTALL/$pin/" "$CONF_DIR/table.toml"
  echo "the display PIN of this table is $pin (display.pin in $CONF_DIR/table.toml)"
else
  echo "keeping the existing $CONF_DIR/table.toml"
fi

echo "== units"
units=(tavli-pi.service)
if [ "$KIOSK" = 1 ]; then units+=(tavli-pi-kiosk.service); fi
for unit in "${units[@]}"; do
  run install -m 0644 "$SRC/systemd/$unit" "$UNIT_DIR/$unit"
done
run systemctl daemon-reload
run systemctl enable "${units[@]}"
if [ "$KIOSK" = 1 ]; then run systemctl set-default graphical.target; fi
if [ "$START" = 1 ]; then run systemctl restart "${units[@]}"; fi
echo "done: journalctl -u tavli-pi -f shows the table's log"
