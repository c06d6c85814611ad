#!/bin/sh
# pairs.sh - the speed of two builds side by side: N pairs of pala_bench runs of OLD and
# NEW on both shared beds (1 thread, 100 steps untimed, NRUN timed), the order inside a
# pair alternating, every run pinned to one CPU (taskset -c CPU) so that a shared
# machine's spells hit both builds alike.  Prints each bed's median NEW/OLD ratio, its
# range, and the best rate of each build.
# Usage: bench/pairs.sh OLD NEW [N=21] [NRUN=600] [CPU=1]   (OLD, NEW: checkouts built
# with `make build/pala_bench`).  Data dir: $PALA_BENCH_DATA, default <repo>/../shared/bench.
set -eu
old=$(cd "$1" && pwd); new=$(cd "$2" && pwd); n=${3:-21}; nrun=${4:-600}; cpu=${5:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
data=${PALA_BENCH_DATA:-$root/../shared/bench}
data=$(cd "$data" && pwd)
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
for i in $(seq "$n"); do
  for s in spheres clumps; do
    df=$([ $s = spheres ] && echo s2_settled_8000.data || echo c2_settled_2000.data)
    if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
    for side in $order; do
      d=$(eval echo \$$side)
      r=$(taskset -c "$cpu" "$d/build/pala_bench" "$d/bench/$s.txt" 100 "$nrun" 1 "lammps_data=$data/$df" | awk '{print $1}')
      echo "$s $i $side $r" >> "$tmp"
    done
  done
done
for s in spheres clumps; do
  grep "^$s " "$tmp" | awk '{r[$2" "$3] = $4} END {for (k in r) {split(k, a, " "); if (a[2] == "new") print r[a[1]" new"] / r[a[1]" old"]}}' \
    | sort -g | awk -v s=$s '{a[NR] = $1} END {printf "%s: new/old median %.3f (range %.3f-%.3f, %d pairs)", s, a[int((NR + 1) / 2)], a[1], a[NR], NR}'
  printf "; best old %s, best new %s\n" "$(grep "^$s .* old" "$tmp" | awk '{print $4}' | sort -g | tail -1)" "$(grep "^$s .* new" "$tmp" | awk '{print $4}' | sort -g | tail -1)"
done
