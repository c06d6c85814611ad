#!/bin/sh
# window.sh - instructions per particle-step of a later part of the pour (docs/performance.md,
# "A polydisperse pour against LAMMPS"): both programs run to step START at full speed, then
# STEPS more steps under valgrind --tool=callgrind, counted in pala_world_steps (pala resume
# of a copy of the run) and in LAMMPS_NS::Verlet::run(int) (window.in from the restart file
# pour.in wrote).  START must follow LAMMPS's last batch (63,277 steps; window.in does not
# continue fix pour); pala's window alone may start anywhere (NOLAMMPS=1).  The batches and
# coefficients are run.sh's (it runs first, for 0 steps of callgrind, to read them).
# Usage: bench/pour/window.sh OUTDIR START STEPS   (e.g. 75000 3000: the heap settling)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: $0 OUTDIR START STEPS}; start=${2:?START}; steps=${3:?STEPS}
mkdir -p "$out"; out=$(cd "$out" && pwd)
nice=${NICE:-}
# run.sh for 1 step: LAMMPS's batches and coefficients, from its output
sh "$root/bench/pour/run.sh" "$out/setup" callgrind 1 > "$out/setup.txt"
set -- $(awk '/^LAMMPS: KN/ { print $3, $5, $7, $9 }' "$out/setup.txt"); kn=$1; kt=$2; gn=$3; gnw=$4
set -- $(awk '/^insertion:/ { print $2, $5, substr($7, 2) }' "$out/setup.txt"); nfreq=$2; rate=$3
val() { awk -F '\t' -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[k] }' "$out/setup/pala/summary.tsv"; }
dt=$(val dt); n=$(val group.pour.count); seed=$(val seed); mu=$(val material.glass.friction)
# pala: to START, then STEPS more of a copy under callgrind
$nice "$root/pala" run "$root/bench/pour/pour.txt" -o "$out/pala" --force --quiet --threads 1 --set steps="$start" \
    --set group.pour.insert_rate="$rate" --set group.pour.insert_every="$nfreq" 2> /dev/null
rm -rf "$out/pala.window"; cp -r "$out/pala" "$out/pala.window"
$nice valgrind --tool=callgrind --callgrind-out-file="$out/pala.cg" --toggle-collect=pala_world_steps \
    "$root/pala" resume "$out/pala.window" --set steps=$((start + steps)) --threads 1 --quiet 2> "$out/pala.stderr"
ip=$(awk '/Collected/ { print $4 }' "$out/pala.stderr")
# grains at each step of the window (flow.tsv: step, time, grains, ...)
sp=$(awk -F '\t' -v a="$start" -v b=$((start + steps)) 'NR > 1 && $1 >= a && $1 < b { g[$1] = $3 }
     END { n = 0; for (s in g) n++; t = 0; for (s in g) t += g[s]; print t / n * (b - a) }' "$out/pala.window/flow.tsv")
printf 'pala, steps %d-%d: %.4g instructions, %.0f per particle-step\n' "$start" $((start + steps)) "$ip" "$(awk -v i="$ip" -v s="$sp" 'BEGIN { print i / s }')"
[ "${NOLAMMPS:-0}" = 1 ] && exit 0
mkdir -p "$out/lammps"
sed 's/^write_data.*/&\nwrite_restart   ${restart}/' "$root/bench/pour/pour.in" > "$out/lammps/pour.in"
(cd "$out/lammps" && $nice lmp -in pour.in -log run.log -screen none -var KN "$kn" -var KT "$kt" -var GN "$gn" -var GNW "$gnw" \
    -var mu "$mu" -var dt "$dt" -var N "$n" -var seed "$seed" -var nsteps "$start" -var final final.data -var restart start.restart \
 && $nice valgrind --tool=callgrind --callgrind-out-file="$out/lammps.cg" '--toggle-collect=LAMMPS_NS::Verlet::run(int)' \
    lmp -in "$root/bench/pour/window.in" -log window.log -screen none -var KN "$kn" -var KT "$kt" -var GNW "$gnw" -var mu "$mu" \
    -var dt "$dt" -var nsteps "$steps" -var restart start.restart 2> "$out/lammps.stderr")
il=$(awk '/Collected/ { print $4 }' "$out/lammps.stderr")
nl=$(awk '/^Loop time/ { print $(NF - 1) }' "$out/lammps/window.log" | tail -1)
awk -v il="$il" -v ip="$ip" -v nl="$nl" -v sp="$sp" -v s="$steps" 'BEGIN {
    printf "LAMMPS: %.4g instructions, %.0f per particle-step (%d atoms); LAMMPS / pala %.2f\n", il, il / (nl * s), nl, (il / (nl * s)) / (ip / sp) }'
