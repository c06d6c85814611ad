#!/bin/sh
# speed.sh - the drum's cost in pala and in LAMMPS, one core each, and pala on 2 threads
# against 1 (docs/performance.md, "The drum against LAMMPS").
# Usage: bench/drum/speed.sh [quick] [RUN]
#   RUN: a pala run of bench/drum/drum.txt (run.sh's OUTDIR/pala): its last frame, a bed
#        rolling in the drum, is where both codes start.  Without it a run of 0.3 s (quick:
#        0.1 s) is made first, in a temporary folder.
#   default: 5 repetitions of nwarm 1000 + nrun 10000 steps; quick: 3 of 200 + 2000.
# Each repetition runs, back to back: pala on 1 thread (build/pala_bench), LAMMPS (lmp,
# serial, the "Loop time" of its timed run), then pala on 1 and on 2 threads within one
# process (pala_bench THREADS 1/2/1).  Prints the medians in grain-steps/s, the ratios, and
# the load average (uptime) before and after: on a loaded machine the figures are not those
# of a quiet one, and the interleaving only evens the load out between the codes.
# Needs `make build/pala_bench`; exit 2 if lmp is missing.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
mode=full; run=
for a in "$@"; do case $a in quick) mode=quick ;; *) run=$a ;; esac; done
if [ $mode = quick ]; then reps=3; nwarm=200; nrun=2000; settle=0.1; else reps=5; nwarm=1000; nrun=10000; settle=0.3; fi
command -v lmp >/dev/null 2>&1 || { echo "speed.sh: lmp not found (apt-get install lammps)" >&2; exit 2; }
pb=$root/build/pala_bench
[ -x "$pb" ] || { echo "speed.sh: $pb missing (make build/pala_bench)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ -z "$run" ]; then
    "$root/pala" run "$root/bench/drum/drum.txt" -o "$tmp/settle" --quiet --threads 1 --set end_time=$settle
    run=$tmp/settle
fi
drum_run=$run; . "$root/bench/drum/params.sh"
sh "$root/bench/heap/to-lammps.sh" -l -b "$box" "$run/trajectory.txt" > "$tmp/state.data"
# pala starts from the same file: the drum's grains from it, none placed
set -- "lammps_data=$tmp/state.data" lammps_material=glass group.bed.count=0 trajectory_every=0 energy_every=0
n=$(awk '/ atoms$/ { print $1; exit }' "$tmp/state.data")
echo "drum: $n spheres from $run (last frame); $reps repetitions of $nwarm + $nrun steps"
echo "load before: $(uptime)"
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
: > "$tmp/p"; : > "$tmp/l"; : > "$tmp/t"
for r in $(seq "$reps"); do
    "$pb" "$root/bench/drum/drum.txt" "$nwarm" "$nrun" 1 "$@" | awk '{ print $2 }' >> "$tmp/p"
    ( cd "$tmp" && lmp_drum state.data "$nwarm" "$nrun" "$nrun" none 0 ) \
        || { echo "speed.sh: lmp failed; log tail:" >&2; tail -5 "$tmp/run.log" >&2; exit 1; }
    awk '/^Loop time of/ && ++k == 2 { printf "%.4g\n", $12 * $9 / $4 }' "$tmp/run.log" >> "$tmp/l"
    "$pb" "$root/bench/drum/drum.txt" "$nwarm" "$nrun" 1/2/1 "$@" | awk '{ print $4 }' >> "$tmp/t"
    echo "repetition $r: pala $(tail -1 "$tmp/p")  LAMMPS $(tail -1 "$tmp/l")  pala 2 threads / 1: $(tail -1 "$tmp/t")"
done
p=$(median < "$tmp/p"); l=$(median < "$tmp/l"); t=$(median < "$tmp/t")
echo "load after:  $(uptime)"
echo "drum pala $p lammps $l grain-steps/s, ratio $(awk -v a="$p" -v b="$l" 'BEGIN { printf "%.3g", a / b }') (medians of $reps, one core each)"
echo "drum pala 2 threads / 1 thread: $t (median of $reps)"
