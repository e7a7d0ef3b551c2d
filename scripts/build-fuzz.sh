#!/bin/bash
# Builds the kiln-fuzz libFuzzer target with AddressSanitizer by calling swiftc directly on
# KilnModel, BenchSupport and Sources/kiln-fuzz (the macro plugin and swift-syntax are not needed:
# KilnModel expands no macro, and BenchSupport's Macro*.swift — the only files that use
# @DataModel — are left out). Output: $OUT/kiln-fuzz (default .build-fuzz/).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/.build-fuzz}
mkdir -p "$OUT"
cd "$OUT"
FLAGS="-O -wmo -parse-as-library -sanitize=fuzzer,address -swift-version 6"
swiftc $FLAGS -emit-module -emit-library -static -module-name KilnModel \
  $(find "$ROOT/Sources/KilnModel" -name '*.swift') -o libKilnModel.a -emit-module-path KilnModel.swiftmodule
swiftc $FLAGS -emit-module -emit-library -static -module-name BenchSupport \
  $(ls "$ROOT"/Sources/BenchSupport/*.swift | grep -v '/Macro') -I . -o libBenchSupport.a -emit-module-path BenchSupport.swiftmodule
swiftc $FLAGS -D KILN_FUZZ -module-name kiln_fuzz "$ROOT/Sources/kiln-fuzz/FuzzTarget.swift" \
  -I . -L . -lKilnModel -lBenchSupport -o kiln-fuzz
echo "built $OUT/kiln-fuzz"
