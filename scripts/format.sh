#!/bin/bash
# Formats the package's Swift sources with `swift format` (shipped with the toolchain) and the
# repository's .swift-format configuration; `--check` only reports, and fails on any difference
# (CI runs it so). The models `kiln generate` wrote under Tests/GeneratedModelsTests are left as
# the generator writes them: the golden tests compare them with its output byte for byte.
#
#   scripts/format.sh           # format in place
#   scripts/format.sh --check   # lint, as CI does
set -euo pipefail
cd "$(dirname "$0")/.."
files=()
while IFS= read -r file; do files+=("$file"); done < <(
  git ls-files --cached --others --exclude-standard -- '*.swift' \
    | grep -v -E '^Tests/GeneratedModelsTests/(Corpus|Generated)/' \
    | while IFS= read -r f; do [ -f "$f" ] && echo "$f"; done
)
if [ "${1:-}" = "--check" ]; then
  swift format lint --strict --parallel "${files[@]}"
else
  swift format format --in-place --parallel "${files[@]}"
fi
