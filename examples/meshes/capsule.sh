#!/bin/sh
# capsule.sh: writes capsule.stl (ASCII STL, metres) to standard output: a closed capsule,
# a cylinder of radius 0.002 m between z = -0.002 and z = 0.002 capped by two hemispheres
# (0.008 m long in all), as 16 segments around and 4 rings per cap: 256 triangles,
# right-handed about normals that point out of the solid.  A grain of shape = mesh
# (examples/mesh-grains.txt).  Regenerate:
#   sh examples/meshes/capsule.sh > examples/meshes/capsule.stl
# POSIX sh and awk.
awk 'BEGIN {
    n = 16; m = 4; R = 0.002; h = 0.004; pi = 3.14159265358979323846
    # the rings from the bottom pole up: ring i has radius rr[i] at height zz[i] (radius 0:
    # a pole); the hemispheres latitude k pi / (2 m), the cylinder between the two equators
    nr = 0
    for (k = m; k >= 0; k--) { rr[nr] = R * cos(k * pi / (2 * m)); zz[nr] = -h / 2 - R * sin(k * pi / (2 * m)); nr++ }
    for (k = 0; k <= m; k++) { rr[nr] = R * cos(k * pi / (2 * m)); zz[nr] = h / 2 + R * sin(k * pi / (2 * m)); nr++ }
    rr[0] = 0; rr[nr - 1] = 0
    print "solid capsule"
    for (i = 0; i + 1 < nr; i++)
        for (j = 0; j < n; j++) {
            j1 = (j + 1) % n
            # the quad a b c d: a, b on ring i (b one step on in angle), c, d above them
            if (i > 0) tri(i, j, i, j1, i + 1, j1)
            if (i + 1 < nr - 1) tri(i, j, i + 1, j1, i + 1, j)
        }
    print "endsolid capsule"
}
function px(i, j) { return rr[i] == 0 ? 0 : rr[i] * cos(2 * pi * j / n) }
function py(i, j) { return rr[i] == 0 ? 0 : rr[i] * sin(2 * pi * j / n) }
function tri(i1, j1, i2, j2, i3, j3) {
    print "  facet normal 0 0 0"
    print "    outer loop"
    printf "      vertex %.9g %.9g %.9g\n", px(i1, j1), py(i1, j1), zz[i1]
    printf "      vertex %.9g %.9g %.9g\n", px(i2, j2), py(i2, j2), zz[i2]
    printf "      vertex %.9g %.9g %.9g\n", px(i3, j3), py(i3, j3), zz[i3]
    print "    endloop"
    print "  endfacet"
}'
