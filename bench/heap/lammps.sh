#!/bin/sh
# lammps.sh - examples/heap.txt in LAMMPS gran/hertz/history (docs/physics.md, "The heap").
# Usage: bench/heap/lammps.sh OUTDIR [NSTEPS=100000] [DT=1e-5] [RESTITUTION=0.5]
# Runs bench/heap/heap.in on examples/heap.data with the coefficients of the example's
# glass (damping.sh: E 1e7 Pa, Poisson 0.3, restitution 0.5 matched at 0.5 m/s - pala's
# normal_damping = dashpot has it at every speed, LAMMPS's dashpot, which grows as sqrt(d),
# only at one -, or
# RESTITUTION: 1 is no dashpot, as pala's --set material.glass.delta=1; grains of
# four spheres of radius 1 mm and density 2500), friction 0.5, time step DT s; leaves run.log and
# final.dump in OUTDIR and prints the final kinetic energy (translational and rotational,
# of the rigid bodies, J) and the angle of repose (angle.sh).  Exit 2 if lmp is missing.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: $0 OUTDIR [NSTEPS] [DT] [RESTITUTION]}; nsteps=${2:-100000}; dt=${3:-1e-5}; e=${4:-0.5}
command -v lmp >/dev/null 2>&1 || { echo "lammps.sh: lmp not found (apt-get install lammps)" >&2; exit 2; }
mkdir -p "$out"; out=$(cd "$out" && pwd)
mass=$(awk 'BEGIN { printf "%.10g", 4 * 2500 * 4 / 3 * atan2(0, -1) * 1e-9 }')   # LAMMPS: sum of the 4 spheres
set -- $("$root/bench/heap/damping.sh" 1e7 0.3 "$mass" 0.001 "$e" 0.5 2>/dev/null)
cd "$out"
lmp -in "$root/bench/heap/heap.in" -log run.log -screen none -var data "$root/examples/heap.data" \
    -var KN "$1" -var KT "$2" -var GN "$3" -var GNW "$4" -var mu 0.5 -var dt "$dt" -var nsteps "$nsteps" \
    -var dump final.dump || { echo "lammps.sh: lmp failed; log tail:" >&2; tail -5 run.log >&2; exit 1; }
awk '/^Step/ { h = 1; next } h && $1 ~ /^[0-9]+$/ { last = $0 } /^Loop time/ { h = 0 }
     END { split(last, a, " "); printf "LAMMPS t = %s s  E_kin %.3g J  E_rot %.3g J\n", a[2], a[4], a[5] }' run.log
"$root/bench/heap/angle.sh" final.dump
