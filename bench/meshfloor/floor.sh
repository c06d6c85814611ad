#!/bin/sh
# floor.sh - writes to stdout an ASCII STL of a flat square floor z = 0 of N x N squares
# of side H metres, two triangles each, from (0, 0): bench/meshfloor/run.sh's mesh.
# Usage: bench/meshfloor/floor.sh [N=224] [H=0.002]   (224: 100,352 triangles, 0.448 m)
n=${1:-224}; h=${2:-0.002}
awk -v n="$n" -v h="$h" 'BEGIN {
    print "solid floor"
    for (i = 0; i < n; i++) for (j = 0; j < n; j++) {
        x0 = i * h; x1 = (i + 1) * h; y0 = j * h; y1 = (j + 1) * h
        printf "facet normal 0 0 1\nouter loop\nvertex %.10g %.10g 0\nvertex %.10g %.10g 0\nvertex %.10g %.10g 0\nendloop\nendfacet\n", x0, y0, x1, y0, x1, y1
        printf "facet normal 0 0 1\nouter loop\nvertex %.10g %.10g 0\nvertex %.10g %.10g 0\nvertex %.10g %.10g 0\nendloop\nendfacet\n", x0, y0, x1, y1, x0, y1
    }
    print "endsolid floor" }'
