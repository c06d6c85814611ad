#!/bin/sh
# speed.sh - the drum's cost in pala and in LAMMPS, one core each, and pala on 2 threads
# against 1 (docs/performance.md, "The drum against LAMMPS").
# Usage: bench/drum/speed.sh [quick] [RUN]
#   RUN: a pala run of bench/drum/drum.txt (run.sh's OUTDIR/pala): its last frame, a bed
#        rolling in the drum, is where both codes start.  Without it a run of 0.3 s (quick:
#        0.1 s) is made first, in a temporary folder.
#   default: 5 repetitions of nwarm 1000 + nrun 10000 steps; quick: 3 of 200 + 2000.
# Each repetition runs, back to back: pala on 1 thread (build/pala_bench), LAMMPS (lmp,
# serial, the "Loop time" of its timed run), both pinned to one CPU (bench/pin.sh: the
# CPUs of a virtual machine may differ in speed); then pala on 2 threads (not pinned), and
# the machine's own ceiling for two: two one-thread pala processes at once, one on each
# of the first two CPUs, their rates added.  Prints the medians in grain-steps/s, the
# ratios (two threads over one, the ceiling over one, two threads over the ceiling), and
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
. "$root/bench/pin.sh"
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
: > "$tmp/p"; : > "$tmp/l"; : > "$tmp/t"; : > "$tmp/c"
rate() { awk '{ print $2 }'; }   # pala_bench's grain-steps/s
for r in $(seq "$reps"); do
    $PIN "$pb" "$root/bench/drum/drum.txt" "$nwarm" "$nrun" 1 "$@" | rate >> "$tmp/p"
    ( cd "$tmp" && nice="${nice:-} $PIN" && lmp_drum state.data "$nwarm" "$nrun" "$nrun" none 0 ) \
        || { echo "speed.sh: lmp failed; log tail:" >&2; tail -5 "$tmp/run.log" >&2; exit 1; }
    awk '/^Loop time of/ && ++k == 2 { printf "%.4g\n", $12 * $9 / $4 }' "$tmp/run.log" >> "$tmp/l"
    "$pb" "$root/bench/drum/drum.txt" "$nwarm" "$nrun" 2 "$@" | rate >> "$tmp/t"
    if [ -n "$CPU_B" ]; then   # the ceiling: two processes, one a CPU
        taskset -c "$CPU_B" "$pb" "$root/bench/drum/drum.txt" "$nwarm" "$nrun" 1 "$@" | rate > "$tmp/b" &
        a=$(taskset -c "$CPU_A" "$pb" "$root/bench/drum/drum.txt" "$nwarm" "$nrun" 1 "$@" | rate); wait
        echo "$a $(cat "$tmp/b")" | awk '{ printf "%.4g\n", $1 + $2 }' >> "$tmp/c"
    fi
    echo "repetition $r: pala $(tail -1 "$tmp/p")  LAMMPS $(tail -1 "$tmp/l")  pala 2 threads $(tail -1 "$tmp/t")  two processes $(tail -1 "$tmp/c")"
done
p=$(median < "$tmp/p"); l=$(median < "$tmp/l"); t=$(median < "$tmp/t")
echo "load after:  $(uptime)"
echo "drum pala $p lammps $l grain-steps/s, ratio $(awk -v a="$p" -v b="$l" 'BEGIN { printf "%.3g", a / b }') (medians of $reps, one core each${PIN:+, $PIN})"
echo "drum pala 2 threads $t, over 1 thread $(awk -v a="$t" -v b="$p" 'BEGIN { printf "%.3g", a / b }') (medians of $reps)"
if [ -s "$tmp/c" ]; then
    c=$(median < "$tmp/c")
    echo "drum two one-thread processes at once (CPUs $CPU_A and $CPU_B) $c, over 1 thread $(awk -v a="$c" -v b="$p" 'BEGIN { printf "%.3g", a / b }'); pala 2 threads over them $(awk -v a="$t" -v b="$c" 'BEGIN { printf "%.3g", a / b }')"
fi
