#!/bin/sh
# same.sh - are two builds' outputs byte-identical?  Runs OLD/pala and NEW/pala (two
# checkouts, each built with make) on every example and on both benchmark beds (1,000
# steps), each with 1 and 2 threads, and on the 64k-sphere bed with 1, 2 and 3 threads
# (600 steps), and compares energy.tsv, trajectory.txt and walls.tsv with cmp.  Scenes
# are taken from NEW; an example the old build refuses (it uses keys the old build does not
# know) is skipped and named.
# With a third argument `numbers`, the files are compared across the deliberate format
# changes of session 8 (OLD built before them) instead of byte for byte:
#   energy.tsv      every column but `time` (now step * dt with 17 digits);
#   walls.tsv       OLD's columns but `time`, cut out of NEW's (NEW appends mean pressures);
#   trajectory.txt  from the `templates` line on, each `frame STEP TIME` cut to `frame STEP`
#                   (NEW's header also states the container, walls, gravity).
# With SAME_SCENES=old, the examples are taken from OLD instead (every one is readable by
# both builds), and NEW runs each with what reproduces OLD's defaults: `--set dt_check=off`,
# and `mass_properties = monte_carlo` in every clump grain (shape spheres or random; NEW's
# default is exact), written into a copy beside the scene.
# SAME_NEW_SET adds options to NEW's runs only, e.g. "--set sort_every=1000" (the grains
# stored anew every 1000 steps: scenes that mix then change by round-off).
# Usage: [SAME_SCENES=old] [SAME_NEW_SET=...] bench/same.sh OLD NEW [numbers]   (OLD e.g. a `git worktree add ../old <commit>`, built)
# Data dir: $PALA_BENCH_DATA, default <repo>/../shared/bench.  Exit 1 if any file differs.
set -eu
old=$(cd "$1" && pwd); new=$(cd "$2" && pwd); mode=${3:-bytes}
from=${SAME_SCENES:-new}; scenes=$new; [ "$from" = old ] && scenes=$old
root=$(cd "$(dirname "$0")/.." && pwd)
data=${PALA_BENCH_DATA:-$root/../shared/bench}
data=$(cd "$data" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sh "$root/bench/replicate.sh" "$data/s2_settled_8000.data" 4 2 > "$tmp/s64k.data"
bed="--set energy_every=50 --set trajectory_every=500 --quiet"
for side in old new; do
  p=$(eval echo \$$side)/pala; o=$tmp/$side; ns=
  [ $side = new ] && ns=${SAME_NEW_SET:-}
  for t in 1 2; do
    for f in "$scenes"/examples/*.txt; do
      b=$(basename "$f" .txt); s=examples/$b.txt; extra=$ns
      if [ "$from" = old ] && [ $side = new ]; then
        s=examples/same-mc-$$-$b.txt; extra="--set dt_check=off $ns"
        awk '{ print } /^shape *= *(spheres|random)/ { print "mass_properties = monte_carlo" }' "$f" > "$scenes/$s"
      fi
      if [ $side = old ] && ! (cd "$scenes" && "$old/pala" run "$s" -o "$tmp/probe-$b" --force --quiet --set steps=0 2>/dev/null); then
        echo "old: $b is not readable by the old build (new keys?): not compared"; continue
      fi
      (cd "$scenes" && "$p" run "$s" -o "$o/ex-$b-$t" --quiet --threads $t $extra) || echo "$side: $b exit $?"
      [ "$s" = "examples/$b.txt" ] || rm -f "$scenes/$s"
    done
    "$p" run "$new/bench/spheres.txt" -o "$o/spheres-$t" $bed $ns --threads $t --set "lammps_data=$data/s2_settled_8000.data" --set steps=1000
    "$p" run "$new/bench/clumps.txt" -o "$o/clumps-$t" $bed $ns --threads $t --set "lammps_data=$data/c2_settled_2000.data" --set steps=1000
  done
  for t in 1 2 3; do
    "$p" run "$new/bench/spheres.txt" -o "$o/s64k-$t" $bed $ns --threads $t --set "lammps_data=$tmp/s64k.data" --set steps=600
  done
done
norm() {   # norm FILE NAME OLD-WALL-COLUMNS: the file as mode compares it
  if [ $mode = bytes ]; then cat "$1"; return; fi
  case $2 in
    energy.tsv) cut -f 1,3- "$1" ;;
    walls.tsv) cut -f "1,3-$3" "$1" ;;
    trajectory.txt) sed -n '/^templates /,$p' "$1" | sed 's/^\(frame [0-9]*\) .*/\1/' ;;
  esac
}
n=0; bad=0
for d in $(cd "$tmp/old" && ls); do
  nc=$(head -1 "$tmp/old/$d/walls.tsv" | awk -F'\t' '{print NF}')
  for f in energy.tsv trajectory.txt walls.tsv; do
    n=$((n + 1))
    norm "$tmp/old/$d/$f" $f "$nc" > "$tmp/a"; norm "$tmp/new/$d/$f" $f "$nc" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || { echo "differs: $d/$f"; bad=$((bad + 1)); }
  done
done
echo "$n files compared ($mode; $(cd "$tmp/new" && ls | tr '\n' ' ')), $bad differ"
[ "$bad" = 0 ]
