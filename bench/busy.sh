#!/bin/sh
# busy.sh - `make bench-busy`: make bench's ratios with every core busy, as in a sweep of
# one run per core.  Usage: bench/busy.sh [reps=5] [nwarm=200] [nrun=2000]
# C = the CPUs of the affinity mask (what `nproc` counts without OMP_* variables).  For
# each bed and repetition: C copies of build/pala_bench (1 thread) start at once, copy i
# pinned to the mask's i-th CPU (taskset -c), and all are waited for; then C copies of
# bench/lammps.sh the same way; pala goes first in odd repetitions, LAMMPS in even ones.
# On the sphere bed pala runs twice, with the paper's regularised friction (`spheres`) and
# with tangential_law = mindlin (`spheres-spring`), both against the same LAMMPS copies
# (gran/hertz/history), as in run.sh.  Prints first the processor (/proc/cpuinfo), then
# per scene the median of every copy's rate (reps x C rates each):
#   <scene> busy pala <rate> lammps <rate> ratio <pala/lammps> (C copies at once)
# in pebble-steps/s (particle-steps/s for spheres); lammps n/a if lmp is not installed.
# The ratios depend on the processor: quote them with its line, next to make bench's
# quiet ones from the same sitting.  Data dir: $PALA_BENCH_DATA, default <repo>/../shared/bench.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
data=${PALA_BENCH_DATA:-$root/../shared/bench}
data=$(cd "$data" && pwd)
reps=${1:-5}; nwarm=${2:-200}; nrun=${3:-2000}
pb=$root/build/pala_bench
command -v taskset >/dev/null 2>&1 || { echo "busy.sh: taskset not found (util-linux)" >&2; exit 1; }
[ -x "$pb" ] || { echo "busy.sh: $pb missing (make build/pala_bench)" >&2; exit 1; }
lmp=$(command -v lmp 2>/dev/null || true)
# the CPUs of the affinity mask, ranges expanded: "0-2,5" -> "0 1 2 5"
cpus=$(awk '/^Cpus_allowed_list/ {n = split($2, r, ","); for (i = 1; i <= n; i++) {m = split(r[i], b, "-"); for (c = b[1]; c <= b[m]; c++) printf "%d ", c}}' /proc/self/status)
ncpu=$(echo $cpus | wc -w)
[ "$ncpu" -gt 0 ] || { echo "busy.sh: no Cpus_allowed_list in /proc/self/status" >&2; exit 1; }
copies=$([ "$ncpu" = 1 ] && echo "1 copy" || echo "$ncpu copies")
# the processor: model name, family and model numbers, widest vector unit, cores (distinct
# physical id / core id pairs; the CPUs online when cpuinfo has no core ids)
awk -F': *' -v mask="$ncpu" '
  /^model name/ && !name {name = $2}
  /^cpu family/ && !fam {fam = $2}
  /^model[ \t]*:/ && model == "" {model = $2}
  /^flags/ && !vec {vec = $2 ~ /(^| )avx512f( |$)/ ? "AVX-512" : $2 ~ /(^| )avx2( |$)/ ? "AVX2" : "no AVX2"}
  /^processor/ {online++}
  /^physical id/ {phys = $2}
  /^core id/ {core[phys "/" $2] = 1}
  END {
    ncore = 0; for (k in core) ncore++; if (!ncore) ncore = online
    printf "processor %s", name ? name : "(no model name in /proc/cpuinfo)"
    if (fam != "") printf " (cpu family %s, model %s, %s)", fam, model, vec
    printf "; %d cores, %d CPUs online, %d in the affinity mask\n", ncore, online, mask
  }' /proc/cpuinfo
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# batch OUT CMD...: C copies of CMD at once, one per CPU of the mask; the first field of
# each copy's line is appended to OUT
batch() {
  out=$1; shift
  pids=
  for c in $cpus; do
    taskset -c "$c" "$@" > "$tmp/copy.$c" &
    pids="$pids $!"
  done
  st=0
  for p in $pids; do wait "$p" || st=1; done
  [ $st = 0 ] || { echo "busy.sh: a copy of '$*' failed" >&2; exit 1; }
  for c in $cpus; do awk '{print $1}' "$tmp/copy.$c"; done >> "$out"
}
for r in $(seq "$reps"); do
  for bed in spheres clumps; do
    df=$([ $bed = spheres ] && echo s2_settled_8000.data || echo c2_settled_2000.data)
    if [ $((r % 2)) = 1 ]; then order="pala lammps"; else order="lammps pala"; fi
    for side in $order; do
      if [ $side = pala ]; then
        batch "$tmp/$bed.p" "$pb" "$root/bench/$bed.txt" "$nwarm" "$nrun" 1 "lammps_data=$data/$df"
        [ $bed = clumps ] || batch "$tmp/spheres-spring.p" "$pb" "$root/bench/$bed.txt" "$nwarm" "$nrun" 1 "lammps_data=$data/$df" tangential_law=mindlin
      elif [ -n "$lmp" ]; then
        batch "$tmp/$bed.l" env PALA_BENCH_DATA="$data" sh "$root/bench/lammps.sh" $bed "$nwarm" "$nrun"
      fi
    done
  done
done
for scene in spheres spheres-spring clumps; do
  p=$(median < "$tmp/$scene.p"); l=n/a; ratio=n/a
  if [ -s "$tmp/${scene%-spring}.l" ]; then
    l=$(median < "$tmp/${scene%-spring}.l")
    ratio=$(awk -v a="$p" -v b="$l" 'BEGIN {printf "%.3g", a / b}')
  fi
  echo "$scene busy pala $p lammps $l ratio $ratio ($copies at once)"
done
