#!/bin/sh
# angle.sh - the angle of repose of a heap on the floor z = ZFLOOR (default 0).
# Usage: bench/heap/angle.sh FILE [ZFLOOR]
# FILE is a pala trajectory.txt (its last frame) or a LAMMPS dump (`write_dump ... custom
# ... radius x y z ...`; its last snapshot).  The same measurement for both: it sees only
# spheres (pala's component spheres, LAMMPS's atoms).
# Prints: the angle (degrees) with the fit's standard error, the number of surface points
# in the fit, the heap's height H and its axis.  PROFILE=1: the surface points "r h" on stderr.
#
# Method (docs/physics.md, "The heap"): the axis (xc, yc) is the mean horizontal position
# of all spheres.  The floor is cut into rings of width DR (default 2 mm, a grain's size)
# about the axis, and ring i (i = 0, 1, ...) into 6i + 3 equal sectors, so that every cell
# is about DR x DR; the highest sphere top (z + radius) in a cell is a point (r, h) of the
# surface, r the distance of that sphere's centre from the axis.  The heap's height H is
# the largest mean h of a ring.  The flank is where the surface lies between 0.2 H and
# 0.8 H (the rounded summit and the foot, where a few grains roll out, are left out); a
# least-squares line h = a + b r through its points gives the angle atan(-b).
set -eu
f=${1:?usage: $0 FILE [ZFLOOR]}; z0=${2:-0}
[ -r "$f" ] || { echo "angle.sh: cannot read $f" >&2; exit 1; }
here=$(dirname "$0")
if head -1 "$f" | grep -q '^# pala trajectory'; then
    awk -f "$here/pala-frame.awk" "$f" | awk '$1 != "box" && $1 != "template" { print $2, $3, $4, $5 }'
else
    awk '/^ITEM: NUMBER OF ATOMS/ { getline; n = $1; next }
         /^ITEM: ATOMS/ { for (i = 3; i <= NF; i++) col[$i] = i - 2; g = 0; inat = 1; delete l; next }
         /^ITEM:/ { inat = 0; next }
         inat { l[g++] = $col["x"] " " $col["y"] " " $col["z"] " " $col["radius"] }
         END { if (!n || g != n || !("radius" in col)) exit 1; for (i = 0; i < g; i++) print l[i] }' "$f"
fi | awk -v z0="$z0" -v dr="${DR:-0.002}" -v lo="${LO:-0.35}" -v hi="${HI:-0.8}" -v prof="${PROFILE:-0}" -v src="$f" '
BEGIN { n = 0 }   # an unset n would index x[""], not x[0]: the first sphere lost
{ x[n] = $1; y[n] = $2; z[n] = $3; r[n] = $4; n++ }
END {
    if (n == 0) { print "angle.sh: " src ": no spheres read" > "/dev/stderr"; exit 1 }
    pi = atan2(0, -1)
    for (i = 0; i < n; i++) { xc += x[i]; yc += y[i] }
    xc /= n; yc /= n
    for (i = 0; i < n; i++) {
        dx = x[i] - xc; dy = y[i] - yc; d = sqrt(dx * dx + dy * dy)
        ri = int(d / dr); ns = 6 * ri + 3
        c = ri "," int((atan2(dy, dx) + pi) / (2 * pi) * ns) % ns; h = z[i] + r[i] - z0
        if (!(c in top) || h > top[c]) { top[c] = h; at[c] = d; ring[c] = ri }
    }
    for (c in top) { k = ring[c]; rs[k] += top[c]; rn[k]++; if (k > kmax) kmax = k }
    for (k = 0; k <= kmax; k++) if (rn[k] && rs[k] / rn[k] > H) { H = rs[k] / rn[k]; kH = k }
    if (H <= 0) { print "angle.sh: " src ": no heap" > "/dev/stderr"; exit 1 }
    # the flank: from the first ring (outwards from the highest) whose mean is below hi H to
    # the last one before the first whose mean is below lo H; its rings are chosen by r, so
    # the fit of h on r is not biased by the scatter of h
    for (ka = kH; ka <= kmax && !(rn[ka] && rs[ka] / rn[ka] < hi * H); ka++) ;
    for (kb = ka; kb + 1 <= kmax && rn[kb + 1] && rs[kb + 1] / rn[kb + 1] >= lo * H; kb++) ;
    for (c in top) {
        if (prof) printf "%.6g %.6g\n", at[c], top[c] > "/dev/stderr"
        if (ring[c] < ka || ring[c] > kb) continue
        m++; sx += at[c]; sy += top[c]; sxx += at[c] * at[c]; sxy += at[c] * top[c]
    }
    if (m < 3) { print "angle.sh: " src ": fewer than 3 points on the flank" > "/dev/stderr"; exit 1 }
    b = (m * sxy - sx * sy) / (m * sxx - sx * sx); a0 = (sy - b * sx) / m
    for (c in top) if (ring[c] >= ka && ring[c] <= kb) { e = top[c] - a0 - b * at[c]; ss += e * e }
    se = sqrt(ss / (m - 2) / (sxx - sx * sx / m))
    printf "angle %.2f deg  stderr %.2f deg  points %d  flank r %.4g to %.4g m  height %.4g m  axis %.5g %.5g m\n",
           atan2(-b, 1) * 180 / pi, se / (1 + b * b) * 180 / pi, m, ka * dr, (kb + 1) * dr, H, xc, yc
}'
