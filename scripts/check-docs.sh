#!/bin/bash
# Checks the DocC catalogs of the library modules: builds the package with symbol graphs (in its
# own scratch folder, .build-docs/, so the usual build is not redone), then runs
# `docc convert --analyze` on each module's Documentation.docc and fails on any warning
# (an unresolved ``link``, a symbol missing from Topics, an undocumented parameter…).
#
#   scripts/check-docs.sh              # every library module
#   scripts/check-docs.sh KilnCache    # one module
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRATCH=$ROOT/.build-docs
GRAPHS=$SCRATCH/symbol-graphs
MODULES=("$@")
if [ ${#MODULES[@]} -eq 0 ]; then
  MODULES=(Kiln KilnModel KilnNetwork KilnCache KilnNetworkCache KilnViewModel KilnTesting)
fi

mkdir -p "$GRAPHS"
swift build --package-path "$ROOT" --scratch-path "$SCRATCH" \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$GRAPHS" \
  -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public >/dev/null

failed=0
for module in "${MODULES[@]}"; do
  graphs=$SCRATCH/graphs-$module
  rm -rf "$graphs" && mkdir -p "$graphs"
  cp "$GRAPHS/$module".symbols.json "$graphs/" 2>/dev/null || true
  cp "$GRAPHS/$module"@*.symbols.json "$graphs/" 2>/dev/null || true
  output=$(docc convert "$ROOT/Sources/$module/Documentation.docc" \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name "$module" --fallback-bundle-identifier "kiln.$module" \
    --analyze --output-path "$SCRATCH/$module.doccarchive" 2>&1)
  count=$(grep -cE '^(warning|error)' <<<"$output" || true)
  echo "$module: $count warnings"
  if [ "$count" != 0 ]; then
    grep -A6 -E '^(warning|error)' <<<"$output"
    failed=1
  fi
done
exit $failed
