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
set --
for kv in ${PALA_SET:-}; do set -- "$@" --set "$kv"; done
# pala's step 0 alone first: its frame is LAMMPS's start
$nice "$root/pala" run "$root/bench/drum/drum.txt" -o "$out/pala" --force --quiet --threads 1 --set steps=0 "$@"
mkdir -p "$out/lammps"
# the values of summary.tsv, by column name
val() { awk -F '\t' -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                               { if (!(k in c)) exit 1; print $c[k] }' "$out/pala/summary.tsv"; }
dt=$(val dt); E=$(val material.glass.young); nu=$(val material.glass.poisson)
delta=$(val material.glass.delta); mu=$(val material.glass.friction); R=$(val wall.drum.radius)
len=$(val wall.drum.length); rho=$(val material.glass.density); a=$(val grain.bead.radius)
every=$(val trajectory_every)
set -- $(val wall.drum.point); ylo=$2
set -- $(val wall.drum.angular_velocity); omega=$2
yhi=$(awk -v a="$ylo" -v b="$len" 'BEGIN { printf "%.10g", a + b }')
# LAMMPS's box: the drum and a margin of a radius (its bins cover the box)
box=$(awk -v R="$R" -v lo="$ylo" -v hi="$yhi" -v a="$a" 'BEGIN { printf "%.10g %.10g %.10g %.10g %.10g %.10g", -R - a, R + a, lo - a, hi + a, -R - a, R + a }')
sh "$root/bench/heap/to-lammps.sh" -b "$box" "$out/pala/trajectory.txt" > "$out/lammps/start.data"
nsteps=$(awk -v t="$tend" -v h="$dt" 'BEGIN { printf "%d", t / h + 0.5 }')
mass=$(awk -v r="$rho" -v a="$a" 'BEGIN { printf "%.10g", r * 4 / 3 * atan2(0, -1) * a * a * a }')
e=$(awk -v d="$delta" 'BEGIN { printf "%.10g", sqrt(d) }')
set -- $(sh "$root/bench/heap/damping.sh" "$E" "$nu" "$mass" "$a" "$e" "${VREF:-0.1}" 2>"$out/lammps/damping.txt")
kn=$1; kt=$2; gn=$3; gnw=$4
echo "drum: R $R m, y $ylo to $yhi m, omega $omega rad/s, dt $dt s, $nsteps steps; E $E Pa, nu $nu, e $e, mu $mu"
echo "LAMMPS: KN $kn KT $kt GN $gn GNW $gnw ($(cat "$out/lammps/damping.txt"))"

set --
for kv in ${PALA_SET:-}; do set -- "$@" --set "$kv"; done
( $nice "$root/pala" run "$root/bench/drum/drum.txt" -o "$out/pala" --force --quiet --threads 1 \
      --set end_time="$tend" "$@" ) &
pp=$!
( cd "$out/lammps" && $nice lmp -in "$root/bench/drum/drum.in" -log run.log -screen none \
      -var data start.data -var KN "$kn" -var KT "$kt" -var GN "$gn" -var GNW "$gnw" -var mu "$mu" \
      -var dt "$dt" -var omega "$omega" -var R "$R" -var ylo "$ylo" -var yhi "$yhi" \
      -var nwarm 0 -var nrun "$nsteps" -var every "$every" -var dump drum.dump -var dumpevery "$every" ) &
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
