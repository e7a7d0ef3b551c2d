#!/usr/bin/env bash
# Checks the byte scans of Kiln's JSON reader (Sources/CKilnScan/include/CKilnScan.h) against
# their one-byte-at-a-time definitions (scripts/check-scan.c), on each branch of the header this
# machine can build and run: its own vector unit's, the portable loop's, and the other
# architecture's where a cross compiler and an emulator are at hand — NEON, the branch every
# iPhone and Apple silicon Mac runs, on x86-64 Linux through qemu-user; SSE2 on an Apple silicon
# Mac through Rosetta.
#
#   scripts/check-scan.sh              # every branch it can run; says which it skipped
#   scripts/check-scan.sh --all        # fails when a branch cannot be run (CI)
#
# On Debian, `apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user` gives the
# NEON run.
set -euo pipefail
cd "$(dirname "$0")/.."

require_all=0
[ "${1:-}" = "--all" ] && require_all=1

source=scripts/check-scan.c
flags=(-O2 -std=c11 -Wall -Wextra -Werror -I Sources/CKilnScan/include)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc=${CC:-cc}
skipped=()

# The host's own branch, then the portable loop with the host's vector unit hidden.
"$cc" "${flags[@]}" "$source" -o "$out/native"
"$out/native"
"$cc" "${flags[@]}" -U__SSE2__ -U__ARM_NEON "$source" -o "$out/portable"
"$out/portable"

# The other architecture's branch.
case "$(uname -s)/$(uname -m)" in
  Linux/x86_64)
    if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 && command -v qemu-aarch64 >/dev/null 2>&1; then
      aarch64-linux-gnu-gcc "${flags[@]}" -static "$source" -o "$out/neon"
      qemu-aarch64 "$out/neon"
    else
      skipped+=("NEON (needs aarch64-linux-gnu-gcc and qemu-aarch64)")
    fi
    ;;
  Darwin/arm64)
    if "$cc" "${flags[@]}" -arch x86_64 "$source" -o "$out/sse2" 2>/dev/null && arch -x86_64 /usr/bin/true 2>/dev/null; then
      arch -x86_64 "$out/sse2"
    else
      skipped+=("SSE2 (needs Rosetta)")
    fi
    ;;
  *)
    skipped+=("the other architecture's (no cross build known for $(uname -s)/$(uname -m))")
    ;;
esac

# `${a[@]+…}`: macOS's bash 3.2 calls an empty array unbound under `set -u`.
for branch in ${skipped[@]+"${skipped[@]}"}; do echo "CKilnScan: skipped the $branch branch"; done
if [ "$require_all" = 1 ] && [ ${#skipped[@]} -gt 0 ]; then
  echo "check-scan.sh --all: a branch was not run" >&2
  exit 1
fi
