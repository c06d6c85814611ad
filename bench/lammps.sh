#!/bin/sh
# lammps.sh - LAMMPS peer baseline for the benchmark beds (docs/performance.md).
# Usage: bench/lammps.sh spheres|clumps [nwarm=200] [nrun=2000]
# Runs `lmp` (single core) on the LAMMPS inputs of the data folder, in a temp dir,
# and prints one number: particle-steps/s (pebble-steps/s for clumps) from the
# "Loop time" of the second (timed) run.  Data dir: $PALA_BENCH_DATA, default
# <repo root>/../shared/bench.  Exit 2 if lmp is missing, 1 on other errors.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
data=${PALA_BENCH_DATA:-$root/../shared/bench}
scene=${1:?usage: $0 spheres|clumps [nwarm] [nrun]}; nwarm=${2:-200}; nrun=${3:-2000}
command -v lmp >/dev/null 2>&1 || { echo "lammps.sh: lmp not found (apt-get install lammps)" >&2; exit 2; }
case $scene in
  spheres) in=spheres.in; df=s2_settled_8000.data ;;
  clumps)  in=clumps.in;  df=c2_settled_2000.data ;;
  *) echo "lammps.sh: unknown scene '$scene' (spheres|clumps)" >&2; exit 1 ;;
esac
[ -r "$data/$df" ] || { echo "lammps.sh: cannot read $data/$df (set PALA_BENCH_DATA)" >&2; exit 1; }
data=$(cd "$data" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
lmp -in "$data/lammps/$in" -log run.log -screen none \
    -var data "$data/$df" -var nwarm "$nwarm" -var nrun "$nrun" -var final "$tmp/final.data" \
    -var KN 3.6630037e+08 -var KT 4.5248869e+08 -var GN 4.6733797e+08 -var GNW 2.6841518e+08 \
    || { echo "lammps.sh: lmp failed; log tail:" >&2; tail -5 run.log >&2; exit 1; }
# second "Loop time of T on 1 procs for N steps with P atoms" line
awk '/^Loop time of/ && ++k == 2 { printf "%.4g\n", $12 * $9 / $4; ok = 1; exit }
     END { if (!ok) { print "lammps.sh: no timed Loop time line in log" > "/dev/stderr"; exit 1 } }' run.log
