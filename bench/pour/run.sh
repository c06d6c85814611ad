#!/bin/sh
# run.sh - a polydisperse pour in pala and in LAMMPS (docs/performance.md, "A polydisperse
# pour against LAMMPS"): bench/pour/pour.txt in pala, pour.in in LAMMPS (fix pour), the same
# box, insertion region, radii (uniform in 1-2 mm), batches, laws and material.
# Usage: bench/pour/run.sh OUTDIR [callgrind STEPS]
#   default: both runs to pour.txt's end_time, one after the other, one core each (pala
#     --threads 1), both pinned to one CPU (bench/pin.sh; time them on a quiet machine);
#     REPS=N: N such pairs, LAMMPS and pala alternately, the times below their medians;
#     prints for each the final packing fraction
#     in the measuring region (pala measure, on LAMMPS's final state read into pala by
#     lammps-final.txt: the same formula, spheres cut by the region's faces exactly), the
#     final kinetic energy, the wall time of the whole program and the particle-steps per
#     second, then pala's throughput over LAMMPS's and the difference of the fractions;
#   callgrind STEPS: both runs for STEPS steps under valgrind --tool=callgrind, instructions
#     counted in pala_world_steps and in LAMMPS_NS::Verlet::run(int): their ratio does not
#     depend on the load of a shared machine.
# Leaves OUTDIR/pala (the run, measure.tsv) and OUTDIR/lammps (run.log, final.data, and
# final.run: the final state read into pala).  NICE="nice -n 19" runs both at that
# priority.  VREF (default 0.5 m/s): the impact speed at which LAMMPS's dashpot gives pala's
# restitution on spheres of the mean radius (bench/heap/damping.sh).  Exit 2 if lmp is
# missing.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: $0 OUTDIR [callgrind STEPS]}; mode=${2:-full}; cgsteps=${3:-2000}
command -v lmp >/dev/null 2>&1 || { echo "run.sh: lmp not found (apt-get install lammps)" >&2; exit 2; }
case $mode in full|callgrind) ;; *) echo "run.sh: unknown mode '$mode' (callgrind STEPS or nothing)" >&2; exit 1 ;; esac
mkdir -p "$out/lammps"; out=$(cd "$out" && pwd)
nice=${NICE:-}
. "$root/bench/pin.sh"   # both programs on one CPU (a virtual machine's CPUs may differ in speed)
nice="$nice $PIN"
pala=$root/pala; scene=$root/bench/pour/pour.txt
region="--region x=0.006:0.034 --region y=0.006:0.034 --region z=0.005:0.035"   # m: the measuring region

# pala's step 0 first: its summary.tsv gives LAMMPS what pala runs
$nice "$pala" run "$scene" -o "$out/pala" --force --quiet --threads 1 --set steps=0
val() { awk -F '\t' -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                               { if (!(k in c)) exit 1; print $c[k] }' "$out/pala/summary.tsv"; }
dt=$(val dt); n=$(val group.pour.count); seed=$(val seed)
set -- $(val grain.bead.size_range); rlo=$1; rhi=$2
# the steps to pour.txt's end_time (summary.tsv has those of the run of 0 steps)
nsteps=$(awk -v h="$dt" '$1 == "end_time" { printf "%d", $3 / h + 0.5 }' "$scene")
[ "$mode" = callgrind ] && nsteps=$cgsteps
# LAMMPS's coefficients: pala's glass on a sphere of the mean radius (its mass of the mean volume)
a=$(awk -v lo="$rlo" -v hi="$rhi" 'BEGIN { printf "%.10g", (lo + hi) / 2 }')
m=$(awk -v r="$(val material.glass.density)" -v lo="$rlo" -v hi="$rhi" \
    'BEGIN { printf "%.10g", r * 4 / 3 * atan2(0, -1) * (hi^4 - lo^4) / (4 * (hi - lo)) }')
e=$(awk -v d="$(val material.glass.delta)" 'BEGIN { printf "%.10g", sqrt(d) }')
set -- $(sh "$root/bench/heap/damping.sh" "$(val material.glass.young)" "$(val material.glass.poisson)" \
         "$m" "$a" "$e" "${VREF:-0.5}" 2>"$out/lammps/damping.txt")
kn=$1; kt=$2; gn=$3; gnw=$4; mu=$(val material.glass.friction)
echo "pour: $n spheres of radii $rlo-$rhi m, dt $dt s, $nsteps steps; e $e, mu $mu"
echo "LAMMPS: KN $kn KT $kt GN $gn GNW $gnw ($(cat "$out/lammps/damping.txt"))"

now() { date +%s.%N; }
cg() {  # cg FUNCTION NAME: valgrind's callgrind prefix, in callgrind mode
    [ "$mode" = callgrind ] && echo "valgrind --tool=callgrind --callgrind-out-file=$out/$2.cg --toggle-collect=$1" || true; }
cgl=$(cg 'LAMMPS_NS::Verlet::run(int)' lammps); cgp=$(cg pala_world_steps pala)
# LAMMPS first: its log says how it batches the grains, which pala then does the same way
lammps() {
    (cd "$out/lammps" && $nice $cgl lmp -in "$root/bench/pour/pour.in" -log run.log -screen none \
        -var KN "$kn" -var KT "$kt" -var GN "$gn" -var GNW "$gnw" -var mu "$mu" -var dt "$dt" \
        -var N "$n" -var seed "$seed" -var nsteps "$nsteps" -var final "$out/lammps/final.data" 2> "$out/lammps/stderr") \
        || { echo "run.sh: lmp failed; log tail:" >&2; tail -5 "$out/lammps/run.log" >&2; exit 1; }
}
pala_run() {
    $nice $cgp "$pala" run "$scene" -o "$out/pala" --force --quiet --threads 1 \
        --set steps="$nsteps" --set group.pour.insert_rate="$rate" --set group.pour.insert_every="$nfreq" \
        2> "$out/pala/stderr"
}
t0=$(now); lammps; t1=$(now)
# "Particle insertion: NPER every NFREQ steps, N by step S"
set -- $(awk '/^Particle insertion:/ { print $3, $5; exit }' "$out/lammps/run.log")
nper=${1:?run.sh: no Particle insertion line in the LAMMPS log}; nfreq=$2
rate=$(awk -v p="$nper" -v f="$nfreq" -v h="$dt" 'BEGIN { printf "%.17g", p / (f * h) }')
echo "insertion: $nper grains every $nfreq steps ($rate grains/s)"
t2=$(now); pala_run; t3=$(now)
# REPS > 1 (full mode): the pair again, alternately, REPS times in all; the times reported
# below are the medians (the machine's speed drifts: docs/performance.md, "Two CPUs that differ")
reps=${REPS:-1}; [ "$mode" = callgrind ] && reps=1
el() { awk -v a="$1" -v b="$2" 'BEGIN { print b - a }'; }
tls=$(el "$t0" "$t1"); tps=$(el "$t2" "$t3"); pairs="$tls/$tps"
r=1
while [ "$r" -lt "$reps" ]; do
    t0=$(now); lammps; t1=$(now); t2=$(now); pala_run; t3=$(now)
    tls="$tls $(el "$t0" "$t1")"; tps="$tps $(el "$t2" "$t3")"; pairs="$pairs $(el "$t0" "$t1")/$(el "$t2" "$t3")"
    r=$((r + 1))
done
med() { echo "$@" | tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
if [ "$reps" -gt 1 ]; then   # each pair's LAMMPS / pala wall time: the time ratio (particle-steps differ by LAMMPS's step 1)
    ratios=$(for p in $pairs; do echo "$p" | awk -F/ '{ printf "%.3f ", $1 / $2 }'; done)
    echo "wall times LAMMPS/pala, s: $pairs; their ratios $ratios(median $(med $ratios))"
fi
tl=$(med $tls); tp=$(med $tps)
grep -q "Less insertions than requested" "$out/lammps/run.log" && echo "LAMMPS: fewer insertions than requested (see run.log)"
# particle-steps of the schedule: batch k (from 0) of min(NPER, N - k NPER) grains at step
# k NFREQ (LAMMPS: k NFREQ + 1) lives to the last step
psteps() { awk -v n="$n" -v p="$nper" -v f="$nfreq" -v s="$nsteps" -v o="$1" \
    'BEGIN { for (k = 0; k * p < n && k * f + o <= s; k++) { b = n - k * p; if (b > p) b = p; t += b * (s - k * f - o) } printf "%.0f", t }'; }
if [ "$mode" = callgrind ]; then
    il=$(awk '/Collected/ { print $4 }' "$out/lammps/stderr"); ip=$(awk '/Collected/ { print $4 }' "$out/pala/stderr")
    awk -v il="$il" -v ip="$ip" -v sl="$(psteps 1)" -v sp="$(psteps 0)" -v s="$nsteps" 'BEGIN {
        printf "callgrind, %d steps: LAMMPS %.4g instructions (%.0f per particle-step), pala %.4g (%.0f per particle-step): LAMMPS / pala %.2f\n",
               s, il, il / sl, ip, ip / sp, (il / sl) / (ip / sp) }'
    exit 0
fi
# packing fractions: pala's last frame, and LAMMPS's final state read into pala
$nice "$pala" measure "$out/pala" --last $region > "$out/pala/measure.txt"
$nice "$pala" run "$root/bench/pour/lammps-final.txt" -o "$out/lammps/final.run" --force --quiet --threads 1 \
    --set lammps_data="$out/lammps/final.data"
$nice "$pala" measure "$out/lammps/final.run" --last $region > "$out/lammps/measure.txt"
col() { awk -F '\t' -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { v = $c[k] } END { print v }' "$1"; }
pp=$(col "$out/pala/measure.tsv" phi); pl=$(col "$out/lammps/final.run/measure.tsv" phi)
gp=$(col "$out/pala/measure.tsv" grains); gl=$(col "$out/lammps/final.run/measure.tsv" grains)
kp=$(tail -1 "$out/pala/energy.tsv" | awk -F '\t' -v f="$out/pala/energy.tsv" 'BEGIN { getline h < f; n = split(h, c, "\t"); for (i = 1; i <= n; i++) k[c[i]] = i } { print $k["E_kin"] + $k["E_rot"] }')
kl=$(awk '/^Step/ { h = 1; next } h && $1 ~ /^[0-9]+$/ { last = $4 + $5 } /^Loop time/ { h = 0 } END { print last }' "$out/lammps/run.log")
nl=$(awk '/^Loop time/ { print $NF == "atoms" ? $(NF - 1) : "" }' "$out/lammps/run.log" | tail -1)
np=$(val grains 2>/dev/null || tail -1 "$out/pala/flow.tsv" | cut -f 3)
awk -v pp="$pp" -v pl="$pl" -v gp="$gp" -v gl="$gl" -v kp="$kp" -v kl="$kl" -v np="$np" -v nl="$nl" \
    -v tl="$tl" -v tp="$tp" \
    -v sl="$(psteps 1)" -v sp="$(psteps 0)" 'BEGIN {
    printf "program  grains  phi     (grains in region)  E_kin+E_rot_J  wall_s  particle_steps_per_s\n"
    printf "pala     %-6s  %.4f  (%d)  %14.3g  %6.1f  %.4g\n", np, pp, gp, kp, tp, sp / tp
    printf "LAMMPS   %-6s  %.4f  (%d)  %14.3g  %6.1f  %.4g\n", nl, pl, gl, kl, tl, sl / tl
    printf "pala / LAMMPS throughput %.2f (goal >= 2); phi pala - LAMMPS %+.4f (goal within 0.01)\n", (sp / tp) / (sl / tl), pp - pl }'
