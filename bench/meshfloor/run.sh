#!/bin/sh
# run.sh - the cost of a wall contact with a triangle mesh of 100,352 triangles against
# that of a contact with a plane, in a simulation (issue 24: at most 2x): floor.txt's
# 1,600 spheres resting on a plane, on the mesh floor of floor.sh (the same surface:
# the same bits), and floating free (gravity 0, the floor 1 m away: no contact), each run
# by build/pala_bench on one thread.  A contact's cost is (scene - free) / contacts: its
# touch, its force law and history, its share of the wall candidates and of the faces
# gathered at each list build.
# Usage: bench/meshfloor/run.sh [count|time] [NRUN]
#   count (default): instructions, valgrind --tool=callgrind on pala_world_steps: 100
#         steps (the spheres, placed 10 nm above the floor, touch it from the 10th on)
#         and NRUN more (default 400), all counted: repeatable on any machine.
#   time: CPU seconds per contact, from pala_bench's rates (best of 3 of NRUN steps,
#         default 20000): for a quiet machine.
# Needs `make build/pala_bench`.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
mode=${1:-count}
case $mode in count) nwarm=100; nrun=${2:-400} ;; time) nwarm=2000; nrun=${2:-20000} ;; *) echo "usage: run.sh [count|time] [NRUN]" >&2; exit 1 ;; esac
pb=$root/build/pala_bench
[ -x "$pb" ] || { echo "run.sh: $pb missing (make build/pala_bench)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sh "$root/bench/meshfloor/floor.sh" > "$tmp/floor.stl"
scene=$root/bench/meshfloor/floor.txt
contacts=1600
# run CASE: the instructions of NRUN steps (count) or the best rate of 3 (time), grain-steps/s
run() {
    case $1 in
        plane) set -- ;;
        mesh)  set -- wall.floor.shape=mesh "wall.floor.file=$tmp/floor.stl" wall.floor.scale=1 ;;
        free)  set -- "gravity=0 0 0" "wall.floor.point=0 0 -1" ;;
    esac
    if [ $mode = count ]; then
        valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --toggle-collect=pala_world_steps \
            "$pb" "$scene" "$nwarm" "$nrun" 1 "$@" > /dev/null 2>&1
        callgrind_annotate "$tmp/cg.out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'
    else
        for r in 1 2 3; do "$pb" "$scene" "$nwarm" "$nrun" 1 "$@" | awk '{ print $2 }'; done | sort -g | tail -1
    fi
}
f=$(run free); p=$(run plane); m=$(run mesh)
if [ $mode = count ]; then
    awk -v f="$f" -v p="$p" -v m="$m" -v c="$contacts" -v s="$((nwarm + nrun))" 'BEGIN {
        n = c * s
        printf "free   %.4g instructions (%d steps of %d spheres, no contact)\n", f, s, c
        printf "plane  %.4g instructions, %.0f per contact\n", p, (p - f) / n
        printf "mesh   %.4g instructions, %.0f per contact (100352 triangles)\n", m, (m - f) / n
        printf "mesh / plane per contact: %.2f\n", (m - f) / (p - f) }'
else
    awk -v f="$f" -v p="$p" -v m="$m" -v c="$contacts" 'BEGIN {
        printf "free   %.4g grain-steps/s (no contact)\n", f
        printf "plane  %.4g grain-steps/s, %.1f ns per contact\n", p, 1e9 * (c / p - c / f) / c
        printf "mesh   %.4g grain-steps/s, %.1f ns per contact (100352 triangles)\n", m, 1e9 * (c / m - c / f) / c
        printf "mesh / plane per contact: %.2f\n", (c / m - c / f) / (c / p - c / f) }'
fi
