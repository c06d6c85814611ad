#!/bin/sh
# heap.sh - the angle of repose of the quasi-triangle as arcs (triangle.txt) and as the union
# of discs fitted to it (discs.txt, written by discfit.sh), and the cost of each: the same
# grains poured from a narrow source onto the floor of a wider box, the heap's flank measured
# by `pala measure --angle` on the last frame (docs/performance.md, "Arc grains").
# Usage: sh bench/arcs/heap.sh [PALA] [OUTDIR] [extra pala run options]
#   COUNT (default 600) grains, poured at RATE (default 600) grains/s for COUNT/RATE s, then
#   SETTLE (default 0.6) s more to rest.  CALLGRIND=N: also each shape's instructions per
#   grain-step over N steps of the Table-1 box (round.txt, triangle.txt, discs.txt) after
#   its 46,900 (valgrind --tool=callgrind on pala resume; the settled runs are kept in
#   OUTDIR/SHAPE.box and reused).  HEAP=0: the cost alone.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
pala=${1:-$here/../../pala}; [ $# -gt 0 ] && shift
out=${1:-heap-arcs.out}; [ $# -gt 0 ] && shift
count=${COUNT:-600}; rate=${RATE:-600}; settle=${SETTLE:-0.6}
mkdir -p "$out"
steps=$(awk -v c="$count" -v r="$rate" -v s="$settle" 'BEGIN { printf "%d", (c / r + s) / 4e-6 + 0.5 }')
printf 'shape\tangle_deg\tstderr_deg\theight_m\tgrains\tsteps\n'
for s in $([ "${HEAP:-1}" = 1 ] && echo triangle discs); do
    # the box 0.3 m wide; the source 12 mm wide, 60 to 120 mm above the floor, at 1 m/s down
    "$pala" run "$here/$s.txt" -o "$out/$s.run" --force --quiet "$@" --set steps="$steps" --set trajectory_every="$steps" \
        --set "box=0 0.3 0 0.3 -0.01 0.01" --set group.g.placement=insert --set group.g.count="$count" --set group.g.insert_rate="$rate" \
        --set "group.g.region_box=0.144 0.156 0.06 0.12 0 0" --set "group.g.velocity=0 -1 0"
    "$pala" measure "$out/$s.run" --last --angle > "$out/$s.measure" || true
    awk -v s="$s" -v c="$count" -v n="$steps" '$1 == "angle" { printf "%s\t%s\t%s\t%s\t%s\t%s\n", s, $2, $5, $16, c, n }' "$out/$s.measure"
done
if [ "${CALLGRIND:-0}" -gt 0 ]; then   # the Table-1 box settled (46,900 steps), then N steps more under callgrind
    printf 'shape\tinstructions\tper_grain_step\n'
    for s in round triangle discs; do
        [ -f "$out/$s.box/checkpoint.bin" ] || "$pala" run "$here/$s.txt" -o "$out/$s.box" --force --quiet --threads 1 "$@"
        rm -rf "$out/$s.cg.run"; cp -r "$out/$s.box" "$out/$s.cg.run"
        valgrind --tool=callgrind --callgrind-out-file="$out/$s.cg" "$pala" resume "$out/$s.cg.run" --set steps=$((46900 + CALLGRIND)) --quiet --threads 1 > /dev/null 2>&1
        awk -v s="$s" -v n="$CALLGRIND" '/^summary:/ { printf "%s\t%s\t%.0f\n", s, $2, $2 / n / 1000 }' "$out/$s.cg"
    done
fi
