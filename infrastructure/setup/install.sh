#!/usr/bin/env bash
# Prepares a fresh Debian machine: the newest reachable yt-dlp, ffmpeg, the local
# PostgreSQL and NATS (JetStream) when they are installed but stopped, and the
# npm dependencies. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/../.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

bash infrastructure/setup/install-yt-dlp.sh

missing=()
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
command -v ffprobe >/dev/null 2>&1 || missing+=(ffmpeg)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing system packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for_port() {
  for _ in $(seq 1 60); do port_open "$1" && return 0; sleep 0.5; done
  echo "$2 did not start listening on 127.0.0.1:$1" >&2
  return 1
}

if ! port_open 5432; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "Starting PostgreSQL"
    as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
    wait_for_port 5432 PostgreSQL
  else
    echo "PostgreSQL is not running on 127.0.0.1:5432 and is not installed here; see docker-compose.yml" >&2
    exit 1
  fi
fi

if ! port_open 4222; then
  if [ -x /usr/sbin/nats-server ]; then
    echo "Starting NATS with JetStream"
    as_root mkdir -p /var/lib/nats-server
    as_root start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
      -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
    wait_for_port 4222 NATS
  else
    echo "NATS is not running on 127.0.0.1:4222 and is not installed here; see docker-compose.yml" >&2
    exit 1
  fi
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
