#!/bin/sh
# run.sh - `make bench`: pala side by side with LAMMPS on the shared beds, then scaling.
# Usage: bench/run.sh [reps=3] [nwarm=200] [nrun=2000]
# For each scene, repetitions interleave pala (1 thread) and LAMMPS (if lmp is installed),
# both pinned to one CPU (bench/pin.sh; PIN= runs them unpinned);
# medians are printed as `<scene> pala <rate> lammps <rate> ratio <pala/lammps>` in
# pebble-steps/s (particle-steps/s for spheres), then pala's peak memory per particle and
# the two-thread rate.  The sphere bed runs twice in each repetition: with the paper's
# regularised friction (`spheres`) and with the tangential spring of LAMMPS's
# gran/hertz/history, tangential_law = mindlin (`spheres-spring`: like for like); then bench/threads.sh (two threads against one on a 64,000-sphere bed,
# outputs compared for 1, 2 and 3 threads) and bench/scale.sh (cost and memory from 1e3 to
# 1e7 spheres); PALA_BENCH_THREADS=0 or PALA_BENCH_SCALE=0 skip them.
# Data dir: $PALA_BENCH_DATA, default <repo>/../shared/bench.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
data=${PALA_BENCH_DATA:-$root/../shared/bench}
data=$(cd "$data" && pwd)
reps=${1:-3}; nwarm=${2:-200}; nrun=${3:-2000}
pb=$root/build/pala_bench
. "$root/bench/pin.sh"   # one-core runs of both programs on one CPU (a virtual machine's CPUs may differ in speed)
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for scene in spheres clumps; do
  df=$([ $scene = spheres ] && echo s2_settled_8000.data || echo c2_settled_2000.data)
  : > /tmp/pala_bench.$$.p; : > /tmp/pala_bench.$$.l; : > /tmp/pala_bench.$$.m; : > /tmp/pala_bench.$$.t
  : > /tmp/pala_bench.$$.s; : > /tmp/pala_bench.$$.sm
  for r in $(seq "$reps"); do
    $PIN $pb "$root/bench/$scene.txt" "$nwarm" "$nrun" 1 "lammps_data=$data/$df" > /tmp/pala_bench.$$.o
    awk '{print $1}' /tmp/pala_bench.$$.o >> /tmp/pala_bench.$$.p
    awk '{print $3}' /tmp/pala_bench.$$.o >> /tmp/pala_bench.$$.m
    if [ $scene = spheres ]; then
      $PIN $pb "$root/bench/$scene.txt" "$nwarm" "$nrun" 1 "lammps_data=$data/$df" tangential_law=mindlin > /tmp/pala_bench.$$.o
      awk '{print $1}' /tmp/pala_bench.$$.o >> /tmp/pala_bench.$$.s
      awk '{print $3}' /tmp/pala_bench.$$.o >> /tmp/pala_bench.$$.sm
    fi
    if command -v lmp >/dev/null 2>&1; then
      PALA_BENCH_DATA=$data $PIN sh "$root/bench/lammps.sh" $scene "$nwarm" "$nrun" >> /tmp/pala_bench.$$.l
    fi
    $pb "$root/bench/$scene.txt" "$nwarm" "$nrun" 2 "lammps_data=$data/$df" | awk '{print $1}' >> /tmp/pala_bench.$$.t
  done
  p=$(median < /tmp/pala_bench.$$.p); m=$(median < /tmp/pala_bench.$$.m); t=$(median < /tmp/pala_bench.$$.t)
  l=
  if [ -s /tmp/pala_bench.$$.l ]; then
    l=$(median < /tmp/pala_bench.$$.l)
    echo "$scene pala $p lammps $l ratio $(awk -v a="$p" -v b="$l" 'BEGIN {printf "%.3g", a / b}')"
  else
    echo "$scene pala $p lammps n/a ratio n/a"
  fi
  echo "$scene pala peak memory $m bytes per particle; 2 threads $t ($(awk -v a="$t" -v b="$p" 'BEGIN {printf "%.3g", a / b}')x)"
  if [ -s /tmp/pala_bench.$$.s ]; then
    p=$(median < /tmp/pala_bench.$$.s); m=$(median < /tmp/pala_bench.$$.sm)
    echo "spheres-spring pala $p lammps ${l:-n/a} ratio $([ -n "${l:-}" ] && awk -v a="$p" -v b="$l" 'BEGIN {printf "%.3g", a / b}' || echo n/a)"
    echo "spheres-spring pala peak memory $m bytes per particle"
  fi
done
rm -f /tmp/pala_bench.$$.*
[ "${PALA_BENCH_THREADS:-1}" = 0 ] || PALA_BENCH_DATA=$data sh "$root/bench/threads.sh" "$([ "$reps" -gt 7 ] && echo "$reps" || echo 7)"
[ "${PALA_BENCH_SCALE:-1}" = 0 ] || sh "$root/bench/scale.sh"
