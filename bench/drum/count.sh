#!/bin/sh
# count.sh - the drum's instructions in pala and in LAMMPS for the same steps, counted by
# valgrind --tool=callgrind (repeatable whatever the machine's load; docs/performance.md,
# "The drum against LAMMPS").  Usage: bench/drum/count.sh [RUN] [NSTEPS=1000]
#   RUN: a pala run of bench/drum/drum.txt, whose last frame both codes start from (as
#   speed.sh); without it a run of 0.1 s is made first.  Counts only the steps:
#   pala_world_steps in build/pala_bench (1 thread, after 20 untimed steps), and
#   LAMMPS_NS::Verlet::run in lmp (its two runs: 20 warm-up steps and NSTEPS).
# Prints per code the instructions and the instructions per grain-step, and pala/LAMMPS.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
run=${1:-}; nsteps=${2:-1000}
command -v valgrind >/dev/null 2>&1 || { echo "count.sh: valgrind not found (apt-get install valgrind)" >&2; exit 2; }
command -v lmp >/dev/null 2>&1 || { echo "count.sh: lmp not found (apt-get install lammps)" >&2; exit 2; }
pb=$root/build/pala_bench
[ -x "$pb" ] || { echo "count.sh: $pb missing (make build/pala_bench)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ -z "$run" ]; then
    "$root/pala" run "$root/bench/drum/drum.txt" -o "$tmp/settle" --quiet --threads 1 --set end_time=0.1
    run=$tmp/settle
fi
drum_run=$run; . "$root/bench/drum/params.sh"
sh "$root/bench/heap/to-lammps.sh" -l -b "$box" "$run/trajectory.txt" > "$tmp/state.data"
n=$(awk '/ atoms$/ { print $1; exit }' "$tmp/state.data")
total() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'; }
valgrind --tool=callgrind --callgrind-out-file="$tmp/p.out" --toggle-collect=pala_world_steps \
    "$pb" "$root/bench/drum/drum.txt" 20 "$nsteps" 1 "lammps_data=$tmp/state.data" lammps_material=glass group.bed.count=0 \
    trajectory_every=0 energy_every=0 > /dev/null 2>&1
# LAMMPS: the instructions of its two runs less those of a run of the 20 warm-up steps alone
( cd "$tmp" && nice= valgrind --tool=callgrind --callgrind-out-file=l.out '--toggle-collect=LAMMPS_NS::Verlet::run(int)' \
    lmp -in "$root/bench/drum/drum.in" -log run.log -screen none -var data state.data -var KN "$kn" -var KT "$kt" -var GN "$gn" \
    -var GNW "$gnw" -var mu "$mu" -var dt "$dt" -var omega "$omega" -var R "$R" -var ylo "$ylo" -var yhi "$yhi" \
    -var nwarm 20 -var nrun "$nsteps" -var every "$nsteps" -var dump none -var dumpevery 0 > /dev/null 2>&1 )
p=$(total "$tmp/p.out"); l=$(total "$tmp/l.out")
echo "drum: $n spheres, $nsteps steps from $run"
awk -v p="$p" -v l="$l" -v n="$n" -v s="$nsteps" 'BEGIN {
    printf "pala   %.4g instructions, %.0f per grain-step\n", p, p / (n * s)
    printf "LAMMPS %.4g instructions (its %d warm-up steps included), %.0f per grain-step\n", l, 20, l / (n * (s + 20))
    printf "pala / LAMMPS per grain-step: %.3f\n", (p / (n * s)) / (l / (n * (s + 20))) }'
