#!/bin/sh
# cpus.sh - are the first two CPUs alike, and how far apart are they? (docs/performance.md,
# "Two CPUs that differ").  A virtual machine's two CPUs may be two cores of one die, or of
# two, or share a core with another tenant: the threads of a step feel all of it.  REPS
# times, make bench's 8,000 settled spheres (build/pala_bench, 1 thread, 300 steps) on the
# first CPU alone, on the second alone, then on both at once (two processes); last,
# build/pingpong's round trip of a cache line between them.  Prints the medians: each
# CPU's rate alone, the second's over the first's, the two processes' rates and their sum
# over the first's alone (the most any two threads could give, "the ceiling"), and the
# round trip in ns.
# Usage: bench/cpus.sh [REPS=3]   (make build/pala_bench build/pingpong first)
# Data dir: $PALA_BENCH_DATA, default <repo>/../shared/bench.  Exit 1 with fewer than two CPUs.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
data=${PALA_BENCH_DATA:-$root/../shared/bench}
reps=${1:-3}
. "$root/bench/pin.sh"
[ -n "$CPU_B" ] || { echo "cpus.sh: needs two CPUs (taskset)" >&2; exit 1; }
pb=$root/build/pala_bench
for f in "$pb" "$root/build/pingpong"; do [ -x "$f" ] || { echo "cpus.sh: $f missing (make build/pala_bench build/pingpong)" >&2; exit 1; }; done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() { taskset -c "$1" "$pb" "$root/bench/spheres.txt" 100 300 1 "lammps_data=$data/s2_settled_8000.data" | awk '{ print $1 }'; }
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
for r in $(seq "$reps"); do
    run "$CPU_A" >> "$tmp/a"
    run "$CPU_B" >> "$tmp/b"
    run "$CPU_B" > "$tmp/y" &
    run "$CPU_A" >> "$tmp/x"; wait
    cat "$tmp/y" >> "$tmp/yy"
    "$root/build/pingpong" "$CPU_A" "$CPU_B" >> "$tmp/p"
done
a=$(median < "$tmp/a"); b=$(median < "$tmp/b"); x=$(median < "$tmp/x"); y=$(median < "$tmp/yy"); p=$(median < "$tmp/p")
echo "CPU $CPU_A alone $a, CPU $CPU_B alone $b particle-steps/s: $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3g", b / a }') (medians of $reps)"
echo "both at once: $x + $y, over CPU $CPU_A alone $(awk -v a="$a" -v x="$x" -v y="$y" 'BEGIN { printf "%.3g", (x + y) / a }') (the ceiling of two threads)"
echo "a cache line's round trip between CPUs $CPU_A and $CPU_B: $p ns"
