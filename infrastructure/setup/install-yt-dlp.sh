#!/usr/bin/env bash
# Installs the newest yt-dlp this machine can reach, into .data/bin/yt-dlp
# (where the service looks first): yt-dlp's standalone release, verified
# against its published SHA-256 sums (it can update itself, see
# YT_DLP_UPDATE), else pipx, else pip in a private
# virtual environment. When none is reachable it falls back to Debian's
# package, quickly and quietly, and keeps an earlier .data/bin/yt-dlp.
# Prints the version it settled on. Safe to run again.
set -uo pipefail
cd "$(dirname "$0")/../.."

bin_dir=.data/bin
target="$bin_dir/yt-dlp"
mkdir -p "$bin_dir"

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
version_of() { "$1" --version 2>/dev/null | head -n 1; }
reachable() { command -v curl >/dev/null 2>&1 && curl -fsS -o /dev/null --connect-timeout 3 --max-time 6 "$1" 2>/dev/null; }

releases=https://github.com/yt-dlp/yt-dlp/releases

# The latest release's program, checked against the SHA2-256SUMS published
# with the same release (its tag resolved first, so both files come from one
# release even while a new one is being published). A mismatch stops the
# set-up: the download is not what yt-dlp released, and nothing is installed.
standalone() {
  command -v python3 >/dev/null 2>&1 || return 1
  reachable "$releases/latest" || return 1
  local tag
  tag=$(curl -fsSL --connect-timeout 5 --max-time 30 -o /dev/null -w '%{url_effective}' "$releases/latest" | sed -n 's#.*/releases/tag/##p')
  [ -n "$tag" ] || return 1
  curl -fsSL --connect-timeout 5 --max-time 300 -o "$target.partial" "$releases/download/$tag/yt-dlp" || return 1
  curl -fsSL --connect-timeout 5 --max-time 30 -o "$target.sums" "$releases/download/$tag/SHA2-256SUMS" || : > "$target.sums"
  if ! bash infrastructure/setup/verify-sha256.sh "$target.partial" "$target.sums" yt-dlp; then
    rm -f "$target.partial" "$target.sums"
    echo "yt-dlp $tag from $releases was not installed: it failed verification (see above)" >&2
    exit 1
  fi
  rm -f "$target.sums"
  chmod +x "$target.partial"
  [ -n "$(version_of "$target.partial")" ] || return 1
  mv -f "$target.partial" "$target"
}

with_pipx() {
  command -v pipx >/dev/null 2>&1 || return 1
  reachable https://pypi.org/simple/yt-dlp/ || return 1
  timeout 300 pipx install --force 'yt-dlp[default]' >/dev/null 2>&1 || return 1
  local installed="${PIPX_BIN_DIR:-$HOME/.local/bin}/yt-dlp"
  [ -x "$installed" ] && ln -sf "$installed" "$target"
}

with_pip() {
  reachable https://pypi.org/simple/yt-dlp/ || return 1
  local venv=.data/yt-dlp-venv
  { [ -x "$venv/bin/pip" ] || python3 -m venv "$venv" >/dev/null 2>&1; } || return 1
  timeout 300 "$venv/bin/pip" install --disable-pip-version-check -q --timeout 10 --retries 1 -U 'yt-dlp[default]' >/dev/null 2>&1 || return 1
  ln -sf "$(pwd)/$venv/bin/yt-dlp" "$target"
}

source=""
if standalone; then source="standalone release"
elif with_pipx; then source="pipx"
elif with_pip; then source="pip"
fi
rm -f "$target.partial"

if [ -z "$source" ] && [ -x "$target" ] && [ -n "$(version_of "$target")" ]; then
  source="earlier install (nothing newer reachable)"
fi
if [ -z "$source" ]; then
  if ! command -v yt-dlp >/dev/null 2>&1; then
    as_root apt-get update -qq >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq yt-dlp >/dev/null
  fi
  echo "yt-dlp $(version_of "$(command -v yt-dlp)") from Debian's package ($(command -v yt-dlp)): no newer yt-dlp is reachable from this machine"
else
  echo "yt-dlp $(version_of "$target") from the $source ($target)"
fi
