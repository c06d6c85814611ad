#!/bin/sh
# poly.sh - polydisperse scenes against monodisperse ones (docs/performance.md,
# "Polydisperse scenes"): the gas of 20,000 spheres of bench/poly-gas.txt alone, with 20
# spheres 10 times larger, with one 25 times larger, and (in a larger box, against the gas
# alone in that box) with one 50 times larger; and the log-normal gas of
# bench/poly-lognormal.txt against the monodisperse gas of the same count and solid fraction.
# Usage: bench/poly.sh [time|callgrind] [nrun=500] [BUILD]
#   time (default): for each scene the wall time of its placement (pala run, 0 steps), then
#     pala_bench's cost per particle-step (1 thread, 50 steps untimed, nrun timed), and that
#     cost against the scene's monodisperse reference: for a quiet machine;
#   callgrind: instructions per particle-step of nrun steps (valgrind --tool=callgrind,
#     counted in pala_world_steps only, one thread; the list built when the run starts, for
#     the energy of step 0, is not counted: only the builds that the steps make), and the
#     ratio: counts do not depend on the load of a shared machine.
# BUILD: a built checkout whose pala and build/pala_bench run the scenes (default: this one),
# e.g. one from before the levels of cells; a scene it refuses (a key it does not know) is a
# row "not run" with its message.  Particles are component spheres (pebbles): a clump's
# pebbles count one by one.  POLY_CASES replaces the scenes (bench/poly-clumps.sh), lines of
# name|scene|reference|overrides as below.
# Then the outputs of each polydisperse scene at 1, 2 and 3 threads are compared byte for
# byte (100 steps, or nrun if fewer).  Exit 1 if they differ.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-time}; nrun=${2:-500}; build=$(cd "${3:-$root}" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
gas=$root/bench/poly-gas.txt; logn=$root/bench/poly-lognormal.txt
big="box=0 0.052 0 0.052 0 0.052"
# name | scene | reference | overrides (KEY=VALUE, separated by ;)
cases="mono|$gas|mono|
r10|$gas|mono|group.large.count=20;grain.large.radius=0.005
r25|$gas|mono|group.large.count=1;grain.large.radius=0.0125
mono52|$gas|mono52|$big
r50|$gas|mono52|$big;group.large.count=1;grain.large.radius=0.025
lognormal|$logn|mono|"
cases=${POLY_CASES:-$cases}
# with OVERRIDES FORM COMMAND...: the command with each override appended, as --set KEY=VALUE
# (FORM set: pala run) or as KEY=VALUE (FORM plain: pala_bench)
with() {
  ov=$1; form=$2; shift 2
  old=$IFS; IFS=';'; set -f
  for s in $ov; do
    if [ "$form" = set ]; then set -- "$@" --set "$s"; else set -- "$@" "$s"; fi
  done
  IFS=$old; set +f
  "$@"
}
cost() {  # cost SCENE OVERRIDES: instructions or seconds per particle-step, and the particles
  if [ "$mode" = callgrind ]; then
    with "$2" set valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" --toggle-collect=pala_world_steps \
      "$build/pala" run "$1" -o "$tmp/cg.run" --force --quiet --threads 1 --set steps="$nrun" 2> "$tmp/cg.err" > /dev/null
    # the pebbles: the components of each grain's template (trajectory.txt's header)
    n=$(awk '$1 == "template" { nc[$2] = $5; next }
             $1 == "grains" { ng = $2; next }
             ng > 0 && $1 == "frame" { exit }
             ng > 0 { for (i = 1; i <= NF; i++) n += nc[$i] }
             END { print n }' "$tmp/cg.run/trajectory.txt")
    done=$(tail -1 "$tmp/cg.run/energy.tsv" | cut -f 1)   # a run stopped early (a signal) counts fewer steps
    [ "$done" = "$nrun" ] || { echo "$1: the run stopped at step $done of $nrun" >&2; exit 1; }
    awk -v n="$n" -v s="$nrun" '/Collected/ {printf "%.1f %d\n", $4 / (n * s), n}' "$tmp/cg.err"
  else
    with "$2" plain "$build/build/pala_bench" "$1" 50 "$nrun" 1 | awk '{printf "%.4g %d\n", 1 / $1, $4}'
  fi
}
unit=$([ "$mode" = callgrind ] && echo "instructions_per_particle_step" || echo "ns_per_particle_step")
echo "scene	particles	place_s	$unit	against_mono"
echo "$cases" | while IFS='|' read -r name scene ref set; do
  t0=$(date +%s.%N)
  if ! with "$set" set "$build/pala" run "$scene" -o "$tmp/place" --force --quiet --threads 1 --set steps=0 2> "$tmp/place.err"; then
    printf '%s\tnot run: %s\n' "$name" "$(head -1 "$tmp/place.err" | cut -c 1-160)"
    continue
  fi
  t1=$(date +%s.%N)
  c=$(cost "$scene" "$set")
  echo "$name $c" >> "$tmp/costs"
  r=$(awk -v ref="$ref" '$1 == ref {print $2}' "$tmp/costs")
  echo "$name $c $t0 $t1 $r $mode" | awk '{v = $7 == "callgrind" ? $2 : $2 * 1e9; printf "%s\t%d\t%.2f\t%.4g\t%.3f\n", $1, $3, $5 - $4, v, $2 / $6}'
done
# the same bits at 1, 2 and 3 threads (this checkout's build only), over 100 steps or nrun
# if fewer
[ "$build" = "$root" ] || exit 0
tsteps=$((nrun < 100 ? nrun : 100))
echo "$cases" | while IFS='|' read -r name scene ref set; do
  case $name in mono*) continue ;; esac
  for t in 1 2 3; do
    with "$set" set "$build/pala" run "$scene" -o "$tmp/t$t" --force --quiet --threads $t --set steps=$tsteps --set energy_every=10 --set trajectory_every=50
  done
  for t in 2 3; do
    for f in energy.tsv trajectory.txt walls.tsv; do cmp -s "$tmp/t1/$f" "$tmp/t$t/$f" || { echo "$name: $f differs at $t threads"; exit 1; }; done
  done
  echo "$name: energy.tsv, trajectory.txt, walls.tsv the same at 1, 2 and 3 threads"
done
