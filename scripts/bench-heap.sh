#!/bin/bash
# The peak heap of decode rows of kiln-bench, in bytes, under valgrind's DHAT: the most memory
# allocated at once while the row runs (`kiln-bench decode --once`: one warm-up and one decode),
# less that of a run that decodes nothing. Unlike the resident memory the benchmark's table shows,
# it does not move from run to run, and it counts memory that is allocated but not yet touched.
#
#   scripts/bench-heap.sh /tmp/kb citm ['Foundation strict (Codable)' '@DataModel through Kiln (fast path)' ...]
#
# The binary is built and stripped as CONTRIBUTING.md shows for callgrind. The payload is a prefix
# of an input's name (articles, twitter, citm, canada); the articles are generated 4,000 at a time
# (`ARTICLES=` to change). Without rows, it measures Foundation's strict decode, Kiln's fast path,
# the same with the repair log, and Kiln's reader alone.
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 64
fi
binary=$1
payload=$2
shift 2
if [ $# -eq 0 ]; then
    set -- 'Foundation strict (Codable)' '@DataModel through Kiln (fast path)' \
        '@DataModel through Kiln (fast path) + repair log' 'Kiln reader only (parse to tape)'
fi
peak() {
    valgrind --tool=dhat --dhat-out-file=/dev/null "$binary" decode --once --only="$payload" \
        --articles="${ARTICLES:-4000}" --case="$1" 2>&1 |
        sed -n 's/.*At t-gmax: *\([0-9,]*\) bytes.*/\1/p' | tr -d ,
}
base=$(peak 'no such row')
echo "| $payload | peak heap over a run that decodes nothing |"
echo "|---|---:|"
for row in "$@"; do
    echo "| $row | $(($(peak "$row") - base)) |"
done
