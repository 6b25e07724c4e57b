#!/usr/bin/env bash
# verify-sha256.sh FILE SUMS NAME
# Succeeds only when SUMS (a release's published SHA2-256SUMS: "<hex>  <name>"
# lines) lists NAME exactly once and its hash is FILE's SHA-256. Says why on
# standard error otherwise. The installer runs it on a downloaded release
# before anything is installed.
set -uo pipefail

file=$1 sums=$2 name=$3

if [ ! -s "$sums" ]; then
  echo "refusing $name: the release's SHA2-256SUMS could not be read" >&2
  exit 1
fi
# Exact name match on the second field (a leading '*' marks binary mode in sha256sum's format).
expected=$(awk -v n="$name" '{ f = $2; sub(/^\*/, "", f) } f == n && NF == 2 { print tolower($1) }' "$sums")
if [ -z "$expected" ] || [ "$(printf '%s\n' "$expected" | wc -l)" -ne 1 ]; then
  echo "refusing $name: SHA2-256SUMS lists it $( [ -z "$expected" ] && echo 'nowhere' || echo 'more than once' )" >&2
  exit 1
fi
if ! printf '%s' "$expected" | grep -Eq '^[0-9a-f]{64}$'; then
  echo "refusing $name: its SHA2-256SUMS entry is not a SHA-256 hash" >&2
  exit 1
fi
actual=$(sha256sum "$file" | awk '{ print $1 }')
if [ "$actual" != "$expected" ]; then
  echo "refusing $name: its SHA-256 is $actual but the release publishes $expected; the download is not the release" >&2
  exit 1
fi
