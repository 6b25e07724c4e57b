#!/usr/bin/env bash
# Prepares a fresh Debian machine: the newest reachable yt-dlp, ffmpeg and the
# npm dependencies, which is all the embedded mode needs. With --servers (what CI
# and `npm test` need) it also installs Chromium's headless shell for the console's browser tests
# and starts the local PostgreSQL and NATS (JetStream) when they are installed
# but stopped. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/../.."

servers=0
for argument in "$@"; do
  case "$argument" in
    --servers) servers=1 ;;
    *) echo "Usage: npm run setup [-- --servers]" >&2; exit 2 ;;
  esac
done

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

bash infrastructure/setup/install-yt-dlp.sh

missing=()
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
command -v ffprobe >/dev/null 2>&1 || missing+=(ffmpeg)
# Only the tests need a browser: the console's browser tests drive Debian's Chromium headless shell (never a build
# downloaded by a test library). It is the old headless mode, which Playwright itself runs headless tests in: a
# browser context and its page cost about a quarter of the CPU the whole browser's headless mode takes.
if [ "$servers" = 1 ] && [ ! -x /usr/bin/chromium-headless-shell ]; then missing+=(chromium-headless-shell); fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing system packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# wrk is only for `npm run bench`: installed when missing, and its absence never fails the setup.
if ! command -v wrk >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || command -v sudo >/dev/null 2>&1; }; then
    echo "Installing wrk (benchmarks only)"
    { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; } ||
      echo "Could not install wrk; npm run bench needs it, nothing else does" >&2
  else
    echo "wrk is not installed and apt-get is unavailable; npm run bench needs it, nothing else does" >&2
  fi
fi

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for_port() {
  for _ in $(seq 1 60); do port_open "$1" && return 0; sleep 0.5; done
  echo "$2 did not start listening on 127.0.0.1:$1" >&2
  return 1
}

if [ "$servers" = 1 ] && ! port_open 5432; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "Starting PostgreSQL"
    as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
    wait_for_port 5432 PostgreSQL
  else
    echo "PostgreSQL is not running on 127.0.0.1:5432 and is not installed here; see compose.yaml" >&2
    exit 1
  fi
fi

if [ "$servers" = 1 ] && ! port_open 4222; then
  if [ -x /usr/sbin/nats-server ]; then
    echo "Starting NATS with JetStream"
    as_root mkdir -p /var/lib/nats-server
    as_root start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
      -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
    wait_for_port 4222 NATS
  else
    echo "NATS is not running on 127.0.0.1:4222 and is not installed here; see compose.yaml" >&2
    exit 1
  fi
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
