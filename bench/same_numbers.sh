#!/bin/sh
# same_numbers.sh - are two builds' results the same numbers, where the file formats were
# changed on purpose in between?  Runs bench/same.sh's scenes (every example both builds
# read, both benchmark beds, 1 and 2 threads) with OLD/pala and NEW/pala and compares:
#   energy.tsv      every column but `time`, byte for byte (time is now step * dt with 17
#                   digits, docs/output-formats.md);
#   walls.tsv       OLD's columns but `time`, cut out of NEW's (NEW appends the mean
#                   pressures);
#   trajectory.txt  from the `templates` line on, with each `frame STEP TIME` line cut to
#                   `frame STEP` (NEW's header also states the container, walls, gravity).
# Everything else in those files must be the same bytes.  Use bench/same.sh where the
# formats did not change.
# Usage: bench/same_numbers.sh OLD NEW   Data dir: $PALA_BENCH_DATA (default
# <repo>/../shared/bench).  Exit 1 if any file differs.
set -eu
old=$(cd "$1" && pwd); new=$(cd "$2" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
data=${PALA_BENCH_DATA:-$root/../shared/bench}
data=$(cd "$data" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bed="--set energy_every=50 --set trajectory_every=500 --quiet"
for t in 1 2; do
  for f in "$new"/examples/*.txt; do
    b=$(basename "$f" .txt)
    if ! (cd "$new" && "$old/pala" run "examples/$b.txt" -o "$tmp/probe-$b" --force --quiet --set steps=0 2>/dev/null); then
      [ $t = 1 ] && echo "$b: not readable by the old build (new keys): not compared"
      continue
    fi
    for side in old new; do
      p=$(eval echo \$$side)/pala
      (cd "$new" && "$p" run "examples/$b.txt" -o "$tmp/$side/ex-$b-$t" --quiet --threads $t)
    done
  done
  for side in old new; do
    p=$(eval echo \$$side)/pala
    "$p" run "$new/bench/spheres.txt" -o "$tmp/$side/spheres-$t" $bed --threads $t --set "lammps_data=$data/s2_settled_8000.data" --set steps=1000
    "$p" run "$new/bench/clumps.txt" -o "$tmp/$side/clumps-$t" $bed --threads $t --set "lammps_data=$data/c2_settled_2000.data" --set steps=1000
  done
done
norm() {   # norm FILE KIND [NCOL]
  case $2 in
    energy) cut -f 1,3- "$1" ;;
    walls) cut -f "1,3-$3" "$1" ;;
    traj) sed -n '/^templates /,$p' "$1" | sed 's/^\(frame [0-9]*\) .*/\1/' ;;
  esac
}
n=0; bad=0
for d in $(cd "$tmp/old" && ls); do
  nc=$(head -1 "$tmp/old/$d/walls.tsv" | awk -F'\t' '{print NF}')
  for k in energy walls traj; do
    f=$([ $k = traj ] && echo trajectory.txt || echo $k.tsv)
    n=$((n + 1))
    norm "$tmp/old/$d/$f" $k "$nc" > "$tmp/a"; norm "$tmp/new/$d/$f" $k "$nc" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || { echo "differs: $d/$f"; bad=$((bad + 1)); }
  done
done
echo "$n files compared ($(cd "$tmp/new" && ls | tr '\n' ' ')), $bad differ in their numbers"
[ "$bad" = 0 ]
