#!/bin/sh
# meshclump.sh - the cost of a clump from a mesh (shape = mesh; src/lib/meshclump.c) as the
# mesh grows: a sphere of radius 5 mm as a latitude-longitude mesh of 2 N (M - 1) triangles
# (N around, M rings from pole to pole; the defaults N = 40, M = 17: 1,280 triangles;
# N = 200, M = 51: 20,000), fitted by `pala shape --spheres 16`.  Prints pala shape's
# report; CALLGRIND=1 runs it under valgrind --tool=callgrind and prints the instructions.
# Usage: sh bench/meshclump.sh [PALA] [N] [M]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
pala=${1:-$here/../pala}; n=${2:-40}; m=${3:-17}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
awk -v n="$n" -v m="$m" 'BEGIN {
    R = 0.005; pi = atan2(0, -1)
    print "solid sphere"
    for (i = 0; i < m; i++) for (j = 0; j < n; j++) {   # the band between rings i and i + 1
        j1 = (j + 1) % n
        if (i > 0) tri(i, j, i + 1, j, i, j1)
        if (i + 1 < m) tri(i, j1, i + 1, j, i + 1, j1)
    }
    print "endsolid sphere"
}
function p(i, j) { th = pi * i / m; ph = 2 * pi * j / n; return sprintf("%.17g %.17g %.17g", (i == 0 || i == m) ? 0 : R * sin(th) * cos(ph), (i == 0 || i == m) ? 0 : R * sin(th) * sin(ph), R * cos(th)) }
function tri(i1, j1, i2, j2, i3, j3) {
    print "  facet normal 0 0 0"; print "    outer loop"
    print "      vertex " p(i1, j1); print "      vertex " p(i2, j2); print "      vertex " p(i3, j3)
    print "    endloop"; print "  endfacet"
}' > "$tmp/sphere.stl"
if [ "${CALLGRIND:-0}" = 1 ]; then
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$pala" shape "$tmp/sphere.stl" --spheres 16
    awk '/^summary:/ { print "instructions", $2 }' "$tmp/cg"; [ -z "${CGOUT:-}" ] || cp "$tmp/cg" "$CGOUT"
else
    "$pala" shape "$tmp/sphere.stl" --spheres 16
fi
