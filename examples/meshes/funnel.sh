#!/bin/sh
# funnel.sh: writes funnel.stl (ASCII STL, metres) to standard output: the cone of a hopper,
# open at both ends, radius 0.01 m at the outlet (z = 0) widening to 0.05 m at z = 0.06
# (a wall 33.7 degrees from the vertical), as 32 segments of 2 triangles each, right-handed
# about normals that point towards the axis (the grains' side).  Regenerate:
#   sh examples/meshes/funnel.sh > examples/meshes/funnel.stl
# POSIX sh and awk.
awk 'BEGIN {
    n = 32; r0 = 0.01; r1 = 0.05; h = 0.06; pi = 3.14159265358979323846
    print "solid funnel"
    for (i = 0; i < n; i++) {
        a = 2 * pi * i / n; b = 2 * pi * (i + 1) / n
        x0 = r0 * cos(a); y0 = r0 * sin(a); x1 = r0 * cos(b); y1 = r0 * sin(b)
        X0 = r1 * cos(a); Y0 = r1 * sin(a); X1 = r1 * cos(b); Y1 = r1 * sin(b)
        tri(x0, y0, 0, X1, Y1, h, x1, y1, 0)
        tri(x0, y0, 0, X0, Y0, h, X1, Y1, h)
    }
    print "endsolid funnel"
}
function tri(ax, ay, az, bx, by, bz, cx, cy, cz) {
    print "  facet normal 0 0 0"
    print "    outer loop"
    printf "      vertex %.9g %.9g %.9g\n", ax, ay, az
    printf "      vertex %.9g %.9g %.9g\n", bx, by, bz
    printf "      vertex %.9g %.9g %.9g\n", cx, cy, cz
    print "    endloop"
    print "  endfacet"
}'
