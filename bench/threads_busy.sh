#!/bin/sh
# threads_busy.sh - the default thread count against --threads 1, on a quiet machine and
# with one core kept busy by another process (issue 27: "threads that never hurt").  Scenes:
# bench/gas320.txt (320 spheres, two blocks of 256: a small scene; 50,000 steps, about 1 s, so
# that a run is long against the scheduler's noise), the 64,000-sphere bed (the shared
# 8,000-sphere bed tiled 4 x 2 by replicate.sh, 600 steps) and the drum of
# bench/drum/drum.txt 5 times as long with 10,000 grains (3,000 steps).  For each scene and
# repetition, the two runs follow each other, first quiet, then with a busy loop (one
# `while :; do :; done` shell, unpinned, started before and killed after the pair), then
# with that loop at the lowest priority pinned to the last CPU (`nice -n 19 taskset -c
# LAST`: a background job; docs/performance.md, "Threads with a busy core").
# Prints one line per run: scene, load, threads (default or 1) and
# its wall time (summary.tsv's wall_time); then per scene and load the median ratio
#   <scene> <quiet|loaded|niced>: default / --threads 1 wall time, median of R: <ratio>
# The goal: every ratio at most 1.10.  Run it on a quiet machine of 2 cores or more:
#   make && sh bench/threads_busy.sh [reps=5]
# Data dir: $PALA_BENCH_DATA, default <repo>/../shared/bench.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
data=${PALA_BENCH_DATA:-$root/../shared/bench}
data=$(cd "$data" && pwd)
reps=${1:-5}
tmp=$(mktemp -d)
busy=
cleanup() { [ -n "$busy" ] && kill "$busy" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
sh "$root/bench/replicate.sh" "$data/s2_settled_8000.data" 4 2 > "$tmp/s64k.data"
last=$(taskset -pc $$ | sed 's/.*: //; s/.*[,-]//')   # the last CPU this shell may use
# run SCENE-NAME LOAD THREADS(default|1) ARGS...: one run, its line
run() {
  name=$1 load=$2 th=$3; shift 3
  opt=; [ "$th" = 1 ] && opt="--threads 1"
  "$root/pala" run "$@" -o "$tmp/r" --force --quiet $opt
  used=$(awk -F'\t' 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "wall_time") c = i} NR == 2 {print $c}' "$tmp/r/summary.tsv")
  echo "$name	$load	$th	$used"
}
# the drum of bench/drum made 5 times as long, 10,000 grains falling from their lattice, 3,000 steps
drum() {
  run drum10k "$1" "$2" "$root/bench/drum/drum.txt" --set wall.drum.length=0.1 --set "wall.drum.point=0 -0.05 0" \
      --set group.bed.count=10000 --set "group.bed.region_box=-0.025 0.025 -0.05 0.05 -0.025 0.025" \
      --set steps=3000 --set trajectory_every=0 --set energy_every=1000
}
for r in $(seq "$reps"); do
  for load in quiet loaded niced; do
    if [ $load = loaded ]; then sh -c 'while :; do :; done' & busy=$!; sleep 1; fi
    if [ $load = niced ]; then nice -n 19 taskset -c "$last" sh -c 'while :; do :; done' & busy=$!; sleep 1; fi
    run gas320 $load default "$root/bench/gas320.txt" --set steps=50000
    run gas320 $load 1 "$root/bench/gas320.txt" --set steps=50000
    run 64k $load default "$root/bench/spheres.txt" --set "lammps_data=$tmp/s64k.data" --set steps=600
    run 64k $load 1 "$root/bench/spheres.txt" --set "lammps_data=$tmp/s64k.data" --set steps=600
    drum $load default
    drum $load 1
    if [ -n "$busy" ]; then kill "$busy"; wait "$busy" 2>/dev/null || true; busy=; fi
  done
done | tee "$tmp/times"
# pairs: the default run's time over the --threads 1 run's that follows it
awk -F'\t' '$3 == "default" {d[$1 "\t" $2] = $4} $3 == "1" {k = $1 "\t" $2; print k "\t" d[k] / $4}' "$tmp/times" |
  sort -t "$(printf '\t')" -k1,1 -k2,2 -k3,3g |
  awk -F'\t' '{k = $1 " " $2; v[k, ++n[k]] = $3} END {for (k in n) printf "%s: default / --threads 1 wall time, median of %d: %.3f\n", k, n[k], v[k, int((n[k] + 1) / 2)]}' | sort
