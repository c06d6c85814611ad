#!/bin/sh
# centre.sh - the speed of the interactions between centres (src/lib/centre.c), alone,
# with build/centre_bench (bench/centre.c; `make build/centre_bench`): grains on a jittered
# cubic lattice of spacing 1 mm.  A pair evaluation is one ordered pair (i, j) computed:
# every grain sums its own pairs, so an all-pairs pass over n grains makes n (n - 1).
#  1. all pairs, 1 thread pinned to CPU $CPU: pair evaluations per second (wall) and per
#     CPU-second, for charges (q), electric dipoles (p), magnetic dipoles (m) and all of
#     them with charges (qpm), at 1e3 and 1e4 grains;
#  2. two threads against one (not pinned), charges and dipoles at 1e4 grains: in one
#     process, 2 RUNS + 1 rounds of passes on 1 thread then on 2 threads, the median and
#     best ratio of the times (a busy machine takes the second CPU away: only the best
#     rounds show what the code does);
#  3. with a cutoff of 3 spacings: CPU-s per grain-step and per pair in the 27 cells
#     around each grain's cell, those pairs per grain (the kernel skips the grains out of
#     reach of a whole tile among them), and the peak memory per grain (the whole
#     process, world included),
#     at 1e4, 1e5 and 1e6 grains (1e6: REP1M evaluations).
# Each figure is the median of RUNS runs, each the median of its evaluations.
# Usage: bench/centre.sh [RUNS=3] [CPU=1] [REP1M=2]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-3}; cpu=${2:-1}; rep1m=${3:-2}
cb=$root/build/centre_bench
[ -x "$cb" ] || { echo "centre.sh: build it first: make build/centre_bench" >&2; exit 1; }
med() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# one figure: median over runs of column $1 of `centre_bench ARGS`
fig() { col=$1; pin=$2; shift 2; for r in $(seq "$runs"); do $pin "$cb" "$@" | awk -v c="$col" '{print $c}'; done | med; }
echo "# all pairs, 1 thread (CPU $cpu): pair evaluations/s (wall), per CPU-s"
for n in 1000 10000; do
  rep=$([ $n = 1000 ] && echo 50 || echo 3)
  for t in q p m qpm; do
    echo "$t n=$n  $(fig 6 "taskset -c $cpu" $t $n 1 $rep 0)  $(fig 7 "taskset -c $cpu" $t $n 1 $rep 0)"
  done
done
echo "# two threads against one, 1e4 grains, in one process: rounds of 1 then 2 threads (time ratio)"
for t in q qpm; do
  rep=$([ $t = q ] && echo 5 || echo 2)
  "$cb" $t 10000 1/2/$((2 * runs + 1)) $rep 0 | tail -1
done
echo "# cutoff 3 spacings, 1 thread (CPU $cpu): CPU-s per grain-step, ns per pair in the cells, pairs in the cells per grain, peak bytes per grain"
for t in q qpm; do
  for n in 10000 100000 1000000; do
    rep=$([ $n = 1000000 ] && echo "$rep1m" || echo 5)
    out=$(for r in $(seq "$runs"); do taskset -c "$cpu" "$cb" $t $n 1 "$rep" 3; done)
    g=$(echo "$out" | awk '{print $9}' | med); p=$(echo "$out" | awk '{print $10}' | med); m=$(echo "$out" | awk '{print $11}' | med)
    echo "$t n=$n  $g  $(echo "$g $p" | awk '{printf "%.2f", 1e9 * $1 / $2}') ns  $p  $m B"
  done
done
