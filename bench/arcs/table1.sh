#!/bin/sh
# table1.sh - the seed's Table 1 redone (Potapov and Campbell, seed 001; docs/physics.md,
# "Arc grains"): round grains, quasi-triangles and quasi-squares of equal mass settle in a 2D
# box under gravity for 4.69e4 steps with linear springs (round.txt, triangle.txt,
# square.txt); each run's wall-clock time and its cost against round, next to the seed's
# (CPU s on a SPARC-20: round 29, quasi-triangle 48 = 1.66, quasi-square 51 = 1.76; the goal
# here: at most 1.3).  Last, discs.txt: the quasi-triangle as a union of 13 discs fitted to
# its outline (discfit.sh), of the same mass (no seed figure).  Time it on a quiet machine.
# Usage: bench/arcs/table1.sh [PALA] [extra pala run options, e.g. --set steps=2000]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
pala=${1:-$here/../../pala}; [ $# -gt 0 ] && shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$here/../pin.sh"   # every run on one CPU (a virtual machine's CPUs may differ in speed)
printf 'shape\twall_s\tcost\tseed_cost\tcontacts_end\n'
for s in round triangle square discs; do
    t0=$(date +%s.%N)
    $PIN "$pala" run "$here/$s.txt" -o "$tmp/$s" --quiet --threads 1 "$@"
    t1=$(date +%s.%N)
    w=$(echo "$t1 - $t0" | bc -l)
    [ $s = round ] && w0=$w
    seed=$(case $s in round) echo 1;; triangle) echo 1.66;; square) echo 1.76;; *) echo -;; esac)
    c=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "contacts") k = i; next } k { v = $k } END { print v + 0 }' "$tmp/$s/energy.tsv")
    printf '%s\t%.3f\t%.3f\t%s\t%s\n' $s "$w" "$(echo "$w / $w0" | bc -l)" "$seed" "$c"
done
