#!/usr/bin/env bash
# Builds the image (on the local stand-in for its public base) and runs its
# smoke test in both modes against the fixture platform, PostgreSQL and NATS
# on this machine's loopback. Prints the image's size; the specs print the
# time to ready. Needs podman, runc and debootstrap: installed when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
for tool in podman runc debootstrap; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
export CONTAINERS_CONF=$PWD/.ci/container/containers.conf

image=localhost/video-download-service:ci
previous=$(podman image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)
started=$(date +%s)
bash .ci/container/build-image.sh "$image" --quiet >/dev/null
echo "Image built in $(($(date +%s) - started)) s: $(podman image inspect --format '{{.Size}}' "$image" | awk '{ printf "%.0f MB", $1 / 1e6 }')"
# The image this run replaced, and the build stages it left, are of no further use (podman here serves only this check).
current=$(podman image inspect --format '{{.Id}}' "$image")
if [ -n "$previous" ] && [ "$previous" != "$current" ]; then podman rmi "$previous" >/dev/null 2>&1 || true; fi
podman image prune --force >/dev/null

npm run --silent build
CONTAINER_IMAGE=$image npx mocha --no-config --require build/test/setup.js --timeout 60000 --exit \
  'build/test/container/*.spec.js'
