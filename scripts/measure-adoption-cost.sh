#!/bin/bash
# What adopting Kiln costs an app's build: a clean debug and release build of a minimal app that
# depends on `Kiln` (one @DataModel, one APIClient), and of a package that depends only on the
# swift-syntax products Kiln's macro plug-in uses, to show what share of the first is swift-syntax.
# Both are made in a temporary folder and built from nothing (their own .build), one after the
# other; run on an otherwise idle machine. Prints seconds and the share.
#
#   scripts/measure-adoption-cost.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
SYNTAX_RANGE=$(grep -o 'swift-syntax", "[0-9.]*"\.\.<"[0-9.]*"' "$ROOT/Package.swift" | sed 's/swift-syntax", //')

mkdir -p "$WORK/app/Sources/App" "$WORK/syntax/Sources/Probe"
cat > "$WORK/app/Package.swift" <<SWIFT
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "App",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(name: "Kiln", path: "$ROOT")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "Kiln", package: "Kiln")])]
)
SWIFT
cat > "$WORK/app/Sources/App/main.swift" <<'SWIFT'
import Foundation
import Kiln

@DataModel
struct Article: Sendable {
    var id = 0
    var title = "--"
}

if let url = URL(string: "https://example.com") {
    print(APIClient(baseURL: url).baseURL, Article().title)
}
SWIFT
cat > "$WORK/syntax/Package.swift" <<SWIFT
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "Syntax",
    dependencies: [.package(url: "https://github.com/swiftlang/swift-syntax", $SYNTAX_RANGE)],
    targets: [
        .executableTarget(
            name: "Probe",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        )
    ]
)
SWIFT
echo 'import SwiftSyntax; print(TokenSyntax.identifier("x").text)' > "$WORK/syntax/Sources/Probe/main.swift"

# Seconds for a clean build of $1 in configuration $2 (dependencies resolved beforehand).
clean_build() {
    rm -rf "$1/.build/x86_64-unknown-linux-gnu" "$1/.build/arm64-apple-macosx" "$1/.build/debug" "$1/.build/release"
    local start end
    start=$(date +%s.%N)
    swift build --package-path "$1" -c "$2" >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; exit 1; }
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

swift package --package-path "$WORK/app" resolve >/dev/null
swift package --package-path "$WORK/syntax" resolve >/dev/null
echo "swift-syntax: $(grep -A6 '"swift-syntax"' "$WORK/app/Package.resolved" | grep '"version"' | tr -d ' ",' | sed 's/version://')"
printf '| build | app on Kiln | swift-syntax macro products alone | share |\n|---|---:|---:|---:|\n'
for configuration in debug release; do
    app=$(clean_build "$WORK/app" "$configuration")
    syntax=$(clean_build "$WORK/syntax" "$configuration")
    share=$(echo "scale=0; 100 * $syntax / $app" | bc)
    printf '| %s | %.0f s | %.0f s | %s%% |\n' "$configuration" "$app" "$syntax" "$share"
done
