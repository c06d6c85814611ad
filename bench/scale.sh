#!/bin/sh
# scale.sh - cost per particle-step and peak memory per sphere for 1e3 .. 1e7 spheres
# on a cubic lattice in a box (gravity on; few steps at the largest sizes).
# Usage: bench/scale.sh [threads=1] [sizes="1000 100000 1000000 10000000"] [reps=3]
# Each size runs reps times (the sizes interleaved); the median rate is printed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
th=${1:-1}; sizes=${2:-"1000 100000 1000000 10000000"}; reps=${3:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "spheres	steps	particle_steps_per_s	ns_per_particle_step	peak_bytes_per_sphere"
run() {  # run <n>: one measurement appended to $tmp/<n>
  n=$1
  # edge of a cube holding n lattice sites at spacing 2.02 r (r = 1e-3 m)
  L=$(awk -v n="$n" 'BEGIN {k = int(n ^ (1 / 3)); while (k * k * k < n) k++; printf "%.9g", k * 2.02e-3 + 1e-6}')
  steps=$(awk -v n="$n" 'BEGIN {s = int(2e8 / n); if (s > 2000) s = 2000; if (s < 5) s = 5; print s}')
  warm=$(awk -v s="$steps" 'BEGIN {print int(s / 10) + 1}')
  "$root/build/pala_bench" "$root/bench/lattice.txt" "$warm" "$steps" "$th" "box=0 $L 0 $L 0 $L" "group.g.count=$n" \
    | awk -v s="$steps" '{print $1, $3, s}' >> "$tmp/$n"
}
for r in $(seq "$reps"); do for n in $sizes; do run "$n"; done; done
# the program's fixed memory: the same scene with 8 spheres
"$root/build/pala_bench" "$root/bench/lattice.txt" 1 10 "$th" "group.g.count=8" | awk '{print $3 * 8}' > "$tmp/base"
for n in $sizes; do
  sort -g "$tmp/$n" | awk -v n="$n" '{a[NR] = $0} END {split(a[int((NR + 1) / 2)], m, " "); printf "%d\t%d\t%.4g\t%.1f\t%.0f\n", n, m[3], m[1], 1e9 / m[1], m[2]}'
done
awk '{printf "fixed: peak RSS with 8 spheres %.2f MB (program, libc, scratch); peak_bytes_per_sphere includes it\n", $1 / 1048576}' "$tmp/base"
