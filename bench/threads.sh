#!/bin/sh
# threads.sh - two threads against one on a 64,000-sphere bed (the shared 8,000-sphere bed
# tiled 4 x 2 by replicate.sh), then byte-compares energy.tsv and trajectory.txt of
# `pala run` with 1, 2 and 3 threads on the same bed.
# Usage: bench/threads.sh [reps=7] [nrun=1000]
# Prints one line per repetition (1-thread rate, 2-thread rate, ratio; the two runs of a
# repetition follow each other), the median ratio; then the same ratio from one process
# that switches between 1 and 2 threads (pala_bench THREADS=1/2/R: 2 reps + 1 rounds of
# 300 steps each, 150 untimed steps after each switch), whose paired runs are a second
# apart instead of several; and the result of the comparison.
# Data dir: $PALA_BENCH_DATA, default <repo>/../shared/bench.  Exit 1 if outputs differ.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
data=${PALA_BENCH_DATA:-$root/../shared/bench}
data=$(cd "$data" && pwd)
reps=${1:-7}; nrun=${2:-1000}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sh "$root/bench/replicate.sh" "$data/s2_settled_8000.data" 4 2 > "$tmp/s64k.data"
pb=$root/build/pala_bench
echo "rep	threads1	threads2	ratio"
for r in $(seq "$reps"); do
  a=$($pb "$root/bench/spheres.txt" 50 "$nrun" 1 "lammps_data=$tmp/s64k.data" | awk '{print $1}')
  b=$($pb "$root/bench/spheres.txt" 50 "$nrun" 2 "lammps_data=$tmp/s64k.data" | awk '{print $1}')
  echo "$r $a $b" | awk '{printf "%d\t%s\t%s\t%.3f\n", $1, $2, $3, $3 / $2}'
done | tee "$tmp/rates"
awk '{print $4}' "$tmp/rates" | sort -g | awk '{a[NR] = $1} END {printf "64k spheres: 2 threads / 1 thread, median of %d: %.3f\n", NR, a[int((NR + 1) / 2)]}'
$pb "$root/bench/spheres.txt" 150 300 "1/2/$((2 * reps + 1))" "lammps_data=$tmp/s64k.data" > "$tmp/alt"
awk '{print $4}' "$tmp/alt" | sort -g | awk '{a[NR] = $1} END {printf "64k spheres: 2 threads / 1 thread switched in one process, median of %d rounds: %.3f (rounds ranged %.3f-%.3f)\n", NR, a[int((NR + 1) / 2)], a[1], a[NR]}'
for t in 1 2 3; do
  "$root/pala" run "$root/bench/spheres.txt" -o "$tmp/run$t" --quiet --threads $t --set "lammps_data=$tmp/s64k.data" \
    --set steps=1000 --set energy_every=50 --set trajectory_every=500
done
for f in energy.tsv trajectory.txt; do
  cmp "$tmp/run1/$f" "$tmp/run2/$f" && cmp "$tmp/run1/$f" "$tmp/run3/$f" \
    || { echo "64k spheres: $f differs between thread counts" >&2; exit 1; }
done
echo "64k spheres: energy.tsv and trajectory.txt byte-identical for 1, 2 and 3 threads ($(wc -c < "$tmp/run1/trajectory.txt") bytes of trajectory)"
