#!/bin/sh
# column.sh - make examples/heap.data, the starting column of examples/heap.txt: runs
# bench/heap/column.txt (1,000 tetrahedra settle in a 35 mm square shaft) and writes its last
# frame, at rest and moved to the middle of the heap's 140 mm box, as a LAMMPS data file.
# Usage: bench/heap/column.sh [OUT=examples/heap.data]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/examples/heap.data}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$root/pala" run "$root/bench/heap/column.txt" -o "$tmp/col" --quiet
"$root/bench/heap/to-lammps.sh" -l -z -s "0.0525 0.0525 0" -b "0 0.14 0 0.14 0 0.1" "$tmp/col/trajectory.txt" |
    sed '1s/.*/LAMMPS data file: the column of examples\/heap.txt (bench\/heap\/column.sh)/' > "$out"
