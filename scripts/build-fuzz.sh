#!/bin/bash
# Builds the kiln-fuzz libFuzzer target with AddressSanitizer by calling swiftc directly on
# KilnSupport, KilnModel (with CKilnScan's header), Benchmarks/Sources/BenchSupport and Benchmarks/Sources/kiln-fuzz. BenchSupport's models are @DataModel types: the
# macro plugin is built first by SwiftPM, as a host tool without the sanitizer
# (`swift build --product KilnMacros` → <bin path>/KilnMacros-tool), and handed to each swiftc
# call with `-load-plugin-executable`, as SwiftPM does for every module that depends on
# KilnMacros. Output: $OUT/kiln-fuzz (default .build-fuzz/).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/.build-fuzz}

swift build --package-path "$ROOT" --product KilnMacros
PLUGIN=$(swift build --package-path "$ROOT" --show-bin-path)/KilnMacros-tool
if [ ! -x "$PLUGIN" ]; then
  echo "error: no macro plugin at $PLUGIN after 'swift build --product KilnMacros'" >&2
  exit 1
fi

mkdir -p "$OUT"
cd "$OUT"
# CKilnScan is a C target of header-only `static inline` functions: a module map is all swiftc
# needs to import it (SwiftPM writes one of its own).
cat > module.modulemap <<MAP
module CKilnScan {
    header "$ROOT/Sources/CKilnScan/include/CKilnScan.h"
    export *
}
MAP
# One package name for the four modules, as SwiftPM gives Kiln's: KilnModel uses KilnSupport's
# `package` declarations.
FLAGS="-O -wmo -parse-as-library -sanitize=fuzzer,address -swift-version 6 -package-name Kiln"
MACROS="-load-plugin-executable $PLUGIN#KilnMacros"
swiftc $FLAGS -emit-module -emit-library -static -module-name KilnSupport \
  $(find "$ROOT/Sources/KilnSupport" -name '*.swift') -o libKilnSupport.a -emit-module-path KilnSupport.swiftmodule
swiftc $FLAGS $MACROS -emit-module -emit-library -static -module-name KilnModel \
  $(find "$ROOT/Sources/KilnModel" -name '*.swift') -I . -o libKilnModel.a -emit-module-path KilnModel.swiftmodule
swiftc $FLAGS $MACROS -emit-module -emit-library -static -module-name BenchSupport \
  "$ROOT"/Benchmarks/Sources/BenchSupport/*.swift -I . -o libBenchSupport.a -emit-module-path BenchSupport.swiftmodule
swiftc $FLAGS $MACROS -D KILN_FUZZ -module-name kiln_fuzz "$ROOT"/Benchmarks/Sources/kiln-fuzz/*.swift \
  -I . -L . -lBenchSupport -lKilnModel -lKilnSupport -o kiln-fuzz
echo "built $OUT/kiln-fuzz"
