#!/bin/sh
# run.sh - the drum against LAMMPS (docs/physics.md, "The drum against LAMMPS"): runs
# bench/drum/drum.txt in pala and the same drum in LAMMPS (drum.in) from pala's first frame,
# side by side, and measures the dynamic angle of repose of both with angle.sh.
# Usage: bench/drum/run.sh OUTDIR [quick]
#   default: two revolutions (6.28 s, 628,000 steps), angles over the second (t >= 3.1416 s);
#   quick:   0.6 s, angles over t >= 0.3 s (a check that both run, not a result).
# Leaves OUTDIR/pala (the pala run) and OUTDIR/lammps (run.log, start.data, drum.dump) and
# prints the angles of both and their difference.  The two runs go side by side, one core
# each (pala --threads 1); NICE="nice -n 10" runs them at a lower priority.  The drum's
# size, turn, time step and material are read from pala's summary.tsv, so LAMMPS runs what
# pala ran (--set in PALA_SET, e.g. PALA_SET="dt=8e-6", reaches both).  VREF (default 0.1
# m/s): the impact speed at which LAMMPS's dashpot gives pala's restitution (damping.sh).
# Exit 2 if lmp is missing.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: $0 OUTDIR [quick]}; mode=${2:-full}
command -v lmp >/dev/null 2>&1 || { echo "run.sh: lmp not found (apt-get install lammps)" >&2; exit 2; }
case $mode in
  full)  tend=6.2832; t0=3.1416 ;;
  quick) tend=0.6;    t0=0.3 ;;
  *) echo "run.sh: unknown mode '$mode' (quick or nothing)" >&2; exit 1 ;;
esac
mkdir -p "$out"; out=$(cd "$out" && pwd)
nice=${NICE:-}
pala_drum() {   # pala_drum KEY=VALUE: drum.txt into OUTDIR/pala with that key and PALA_SET's
    k=$1; set -- --set "$k"
    for kv in ${PALA_SET:-}; do set -- "$@" --set "$kv"; done
    $nice "$root/pala" run "$root/bench/drum/drum.txt" -o "$out/pala" --force --quiet --threads 1 "$@"
}
# pala's step 0 alone first: its frame is LAMMPS's start
pala_drum steps=0
mkdir -p "$out/lammps"
damping_log=$out/lammps/damping.txt
drum_run=$out/pala; . "$root/bench/drum/params.sh"
nsteps=$(awk -v t="$tend" -v h="$dt" 'BEGIN { printf "%d", t / h + 0.5 }')
sh "$root/bench/heap/to-lammps.sh" -b "$box" "$out/pala/trajectory.txt" > "$out/lammps/start.data"
echo "drum: R $R m, y $ylo to $yhi m, omega $omega rad/s, dt $dt s, $nsteps steps; e $e, mu $mu"
echo "LAMMPS: KN $kn KT $kt GN $gn GNW $gnw ($(cat "$out/lammps/damping.txt"))"

( pala_drum end_time="$tend" ) &
pp=$!
( cd "$out/lammps" && lmp_drum start.data 0 "$nsteps" "$every" drum.dump "$every" ) &
lp=$!
st=0
wait $pp || { echo "run.sh: pala failed" >&2; st=1; }
wait $lp || { echo "run.sh: lmp failed; log tail:" >&2; tail -5 "$out/lammps/run.log" >&2; st=1; }
[ $st = 0 ] || exit 1
PER_FRAME=0 "$root/bench/drum/angle.sh" "$out/pala/trajectory.txt" "$t0" > "$out/pala.angle"
PER_FRAME=0 "$root/bench/drum/angle.sh" "$out/lammps/drum.dump" "$t0" > "$out/lammps.angle"
awk -v t0="$t0" -v tend="$tend" '
FNR == 1 { k++ }
{ m[k, $1] = $2; s[k, $1] = $5; nf = $7 }
END {
    printf "dynamic angle of repose over t = %s to %s s (%d frames), mean and sd over frames:\n", t0, tend, nf
    printf "%-8s %16s %16s %8s\n", "method", "pala", "LAMMPS", "diff"
    split("axis surface", w, " ")
    for (i = 1; i <= 2; i++)
        printf "%-8s %7.2f +- %4.2f %7.2f +- %4.2f %+8.2f\n", w[i], m[1, w[i]], s[1, w[i]], m[2, w[i]], s[2, w[i]], m[1, w[i]] - m[2, w[i]]
}' "$out/pala.angle" "$out/lammps.angle"
