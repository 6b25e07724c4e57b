#!/usr/bin/env bash
# build-image.sh IMAGE [podman build options]: builds the Containerfile on the local stand-in for its
# public base image (see make-base-image.sh) and tags it IMAGE. The npm
# registry is reached through this machine's network and trusts what this
# machine's npm trusts (its cafile), lent to the build's steps and left out
# of the image.
set -euo pipefail
cd "$(dirname "$0")/../.."
image=$1
base=$(bash .ci/container/make-base-image.sh)

mounts=()
cafile=$(npm config get cafile 2>/dev/null || true)
if [ -n "$cafile" ] && [ "$cafile" != null ] && [ "$cafile" != undefined ] && [ -r "$cafile" ]; then
  # Over npm's global config directory, empty in the base: a directory mounted
  # where one exists leaves nothing behind, unlike a file's mount point.
  npm_etc=$(mktemp -d)
  trap 'rm -rf "$npm_etc"' EXIT
  cp "$cafile" "$npm_etc/ca.pem"
  printf 'cafile=/usr/local/etc/ca.pem\n' >"$npm_etc/npmrc"
  chmod -R a+rX "$npm_etc"
  mounts+=(--volume "$npm_etc:/usr/local/etc:ro")
fi

build() {
  # The docker format keeps HEALTHCHECK, which the OCI format has no field for.
  podman build --isolation chroot --network host --format docker "${mounts[@]}" \
    --build-arg BASE="$base" --file Containerfile "$@" .
}
# The ffmpeg stage compiles for many minutes: tagged, it outlives the pruning of
# untagged build stages, and the image's build finds it in its layer cache. It
# is compiled again only when its script or the base changes. The caller's
# options are for the image (a --target of theirs would move this tag).
build --quiet --target ffmpeg --tag localhost/vds-ffmpeg-stage >/dev/null
build --tag "$image" "${@:2}"
