#!/usr/bin/env python3
"""Checks Package.swift's shape: the module graph points one way, and no two products or targets
differ only in case (they collide on case-insensitive disks, every Mac's default).

Run: swift package describe --type json | python3 scripts/check-package.py
Prints each library's module closure and the products; exits 1 on a violation.
"""
import json
import sys

package = json.load(sys.stdin)
targets = {t["name"]: t for t in package["targets"]}


def direct(name):
    target = targets.get(name, {})
    return target.get("target_dependencies", []) + target.get("product_dependencies", [])


def closure(name):
    seen, stack = [], [name]
    while stack:
        for dependency in direct(stack.pop()):
            if dependency not in seen:
                seen.append(dependency)
                stack.append(dependency)
    return set(seen)


# What each module must never reach, directly or through others: the data path's direction.
forbidden = {
    "KilnModel": {"KilnNetwork", "KilnCache", "KilnNetworkCache", "KilnViewModel", "GRDB", "Crypto"},
    "KilnNetwork": {"KilnCache", "KilnNetworkCache", "KilnViewModel", "GRDB", "GRDBSQLite", "Crypto"},
    "KilnCache": {"KilnModel", "KilnNetwork", "KilnNetworkCache", "KilnViewModel"},
    "KilnViewModel": {"KilnCache", "KilnNetworkCache", "GRDB"},
    "KilnTesting": {"KilnCache", "GRDB"},
}

failures = []
for library in ["KilnModel", "KilnNetwork", "KilnCache", "KilnNetworkCache", "KilnViewModel", "KilnTesting", "Kiln"]:
    reached = closure(library)
    print(f"{library} -> {', '.join(direct(library)) or '(nothing)'}")
    bad = reached & forbidden.get(library, set())
    if bad:
        failures.append(f"{library} reaches {', '.join(sorted(bad))}")

# Only what apps use is a product: the libraries and the `kiln` command. SwiftPM adds a product for
# the macro target itself (the compiler plugin KilnModel loads); nothing else may appear. The demo,
# the benchmarks and the fuzzer are packages of their own (Demo/, Benchmarks/).
expected_products = {"Kiln", "KilnModel", "KilnNetwork", "KilnCache", "KilnNetworkCache", "KilnViewModel", "KilnTesting", "kiln-cli"}
for product in package["products"]:
    name = product["name"]
    if name not in expected_products and "macro" not in product["type"]:
        failures.append(f"{name} is a product; only the libraries and the kiln command should be")
print(f"products: {', '.join(p['name'] for p in package['products'])}")

for kind, names in [("products", [p["name"] for p in package["products"]]), ("targets", list(targets))]:
    by_folded = {}
    for name in names:
        by_folded.setdefault(name.casefold(), []).append(name)
    for group in by_folded.values():
        if len(group) > 1:
            failures.append(f"{kind} differ only in case: {', '.join(group)}")

for failure in failures:
    print(f"error: {failure}", file=sys.stderr)
sys.exit(1 if failures else 0)
