#!/bin/sh
# memory.sh - pala's memory per sphere with and without contact history (docs/performance.md,
# "Contact history: the spring against LAMMPS's spring").
# Usage: bench/memory.sh [threads=1]   (needs build/pala_bench: make build/pala_bench)
# For each tangential law (regularised: no state; spring: constant k_t; mindlin: LAMMPS's
# gran/hertz/history stiffness), the peak RSS per sphere (pala_bench, 20 + 60 steps) on the
# 8,000-sphere bed and on it tiled 4 x 4 (128,000 spheres, bench/replicate.sh), and the
# cost of each added sphere: (RSS(128k) - RSS(8k)) / 120,000, the measure LAMMPS's 845
# bytes comes from.  Prints `<law> 8k <B> 128k <B> added <B>` per law.
# Data dir: $PALA_BENCH_DATA, default <repo>/../shared/bench.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
data=${PALA_BENCH_DATA:-$root/../shared/bench}
data=$(cd "$data" && pwd)
th=${1:-1}
pb=$root/build/pala_bench
big=$(mktemp); trap 'rm -f "$big"' EXIT
sh "$root/bench/replicate.sh" "$data/s2_settled_8000.data" 4 4 > "$big"
for law in regularised spring mindlin; do
  set -- "tangential_law=$law"
  [ $law = spring ] && set -- "$@" material.glass.tangential_stiffness=1e5
  a=$($pb "$root/bench/spheres.txt" 20 60 "$th" "lammps_data=$data/s2_settled_8000.data" "$@" | cut -d' ' -f3)
  b=$($pb "$root/bench/spheres.txt" 20 60 "$th" "lammps_data=$big" "$@" | cut -d' ' -f3)
  awk -v l=$law -v a="$a" -v b="$b" 'BEGIN { printf "%-12s 8k %6.1f  128k %6.1f  added %6.1f  B/sphere\n", l, a, b, (b * 128000 - a * 8000) / 120000 }'
done
