#!/bin/sh
# rest.sh - the packing fraction of the bed at rest in the closed hopper (the last frame of
# its pala trajectory.txt, single-sphere grains).
# Usage: bench/hopper/rest.sh TRAJECTORY ZO
# The control volume is the part of the funnel (radius 0.036 - 0.6 (0.1 - z) at height z,
# hopper.txt) between ZO + 8 mm and ZO + 18 mm, ZO the orifice's height, kept 4 mm (two
# diameters) from the funnel: the ordered layers at the wall and the orifice's cap and the
# loose top are left out.  The fraction is the volume of the spheres whose centres lie in it
# over its volume (centres counted: a sphere cut by the boundary counts whole or not at
# all, which is unbiased on average).  Prints the fraction.
set -eu
f=${1:?usage: $0 TRAJECTORY ZO}; zo=${2:?usage: $0 TRAJECTORY ZO}
[ -r "$f" ] || { echo "rest.sh: cannot read $f" >&2; exit 1; }
awk -v zo="$zo" -v src="$f" '
function rad(z) { return 0.036 - 0.6 * (0.1 - z) - 0.004 }
$1 == "template" && !ingr { vol[$2] = $15; next }
$1 == "grains" { n = $2; ingr = 1; k = 0; next }
ingr == 1 { for (i = 1; i <= NF; i++) tm[k++] = $i; if (k >= n) ingr = 2; next }
ingr == 2 && $1 == "frame" { nf++; g = 0; s = 0; next }
ingr == 2 { if ($3 > zo + 0.008 && $3 < zo + 0.018 && $1 * $1 + $2 * $2 < rad($3) ^ 2) s += vol[tm[g]]; g++ }
END {
    if (!nf) { print "rest.sh: " src ": no frames" > "/dev/stderr"; exit 1 }
    pi = atan2(0, -1)
    for (j = 0; j < 1000; j++) { z = zo + 0.008 + (j + 0.5) * 0.010 / 1000; V += pi * rad(z) ^ 2 * 0.010 / 1000 }
    printf "%.4f\n", s / V
}' "$f"
