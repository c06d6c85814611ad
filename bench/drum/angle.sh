#!/bin/sh
# angle.sh - the dynamic angle of repose of spheres in a drum turning about the y axis.
# Usage: bench/drum/angle.sh FILE [T0=0] [T1=inf]
# FILE is a pala trajectory.txt (single-sphere grains) or a LAMMPS dump (`dump ... custom
# ... id radius x y z` with `dump_modify ... time yes`).  The same measurement for both,
# on every frame with T0 <= time <= T1; the drum's axis is the y axis (x = z = 0).
# Prints one line per frame, "frame TIME ANGLE_AXIS ANGLE_SURFACE N_SURFACE", then
#   axis    MEAN deg  sd SD  frames K
#   surface MEAN deg  sd SD  frames K
# (PER_FRAME=0 leaves the frame lines out).
#
# Method (docs/physics.md, "The drum against LAMMPS"), in the plane x z across the axis,
# with every sphere's centre:
# - axis: the bed's cross-section is a segment of the drum's disc, whose major axis (of its
#   second moments about its centroid) lies along the free surface: the angle of that axis,
#   phi = atan2(2 Sxz, Sxx - Szz) / 2, is the slope of the surface;
# - surface: the free surface is sampled in cells of DX x DX (default 2 mm, a diameter) in
#   x and y; the highest sphere top (z + radius) in a cell is a point (x, h) of it.  Only
#   the middle half of the surface in x is fitted (between the quarter points of the x
#   range of its cells), away from where it meets the wall; a least-squares line
#   h = a + b x there gives atan(-b).
# A drum turning at +Omega about +y carries the bed up on its -x side: both angles are
# positive then.
set -eu
f=${1:?usage: $0 FILE [T0] [T1]}; t0=${2:-0}; t1=${3:-1e300}
[ -r "$f" ] || { echo "angle.sh: cannot read $f" >&2; exit 1; }
if head -1 "$f" | grep -q '^# pala trajectory'; then
    # header: single-sphere templates only; then "frame STEP TIME" and one line per grain
    awk -v src="$f" '
    $1 == "template" && !ingr { if ($5 != 1) { print "angle.sh: " src ": template " $2 " is not one sphere" > "/dev/stderr"; exit 1 }
                                t = $2; getline; rad[t] = $4; next }
    $1 == "grains" { n = $2; ingr = 1; k = 0; next }
    ingr == 1 { for (i = 1; i <= NF; i++) tm[k++] = $i; if (k >= n) ingr = 2; next }
    ingr == 2 && $1 == "frame" { print "F", $3; g = 0; next }
    ingr == 2 { print $1, $2, $3, rad[tm[g++]] }' "$f"
else
    awk -v src="$f" '
    /^ITEM: TIME$/ { getline; print "F", $1; next }
    /^ITEM: ATOMS/ { for (i = 3; i <= NF; i++) col[$i] = i - 2
                     if (!("radius" in col) || !("x" in col)) { print "angle.sh: " src ": no radius or x column" > "/dev/stderr"; exit 1 }
                     inat = 1; next }
    /^ITEM:/ { inat = 0; next }
    inat { print $col["x"], $col["y"], $col["z"], $col["radius"] }' "$f"
fi | awk -v t0="$t0" -v t1="$t1" -v dx="${DX:-0.002}" -v per="${PER_FRAME:-1}" -v src="$f" '
function frame(    i, xc, zc, sxx, szz, sxz, a, c, k, lo, hi, m, sx, sy, sxy, sxxx, b, s) {
    if (n == 0 || t < t0 || t > t1) return
    for (i = 0; i < n; i++) { xc += x[i]; zc += z[i] }
    xc /= n; zc /= n
    for (i = 0; i < n; i++) { sxx += (x[i] - xc)^2; szz += (z[i] - zc)^2; sxz += (x[i] - xc) * (z[i] - zc) }
    a = -atan2(2 * sxz, sxx - szz) / 2 * 180 / pi
    delete top; delete at
    for (i = 0; i < n; i++) {
        c = int((x[i] + 1) / dx) "," int((y[i] + 1) / dx)
        if (!(c in top) || z[i] + r[i] > top[c]) { top[c] = z[i] + r[i]; at[c] = x[i] }
    }
    lo = 1e300; hi = -1e300
    for (c in top) { if (at[c] < lo) lo = at[c]; if (at[c] > hi) hi = at[c] }
    for (c in top) if (at[c] >= lo + (hi - lo) / 4 && at[c] <= hi - (hi - lo) / 4) {
        m++; sx += at[c]; sy += top[c]; sxy += at[c] * top[c]; sxxx += at[c] * at[c] }
    if (m < 3) { print "angle.sh: " src ": fewer than 3 surface points at t = " t > "/dev/stderr"; bad = 1; exit 1 }
    b = (m * sxy - sx * sy) / (m * sxxx - sx * sx)
    s = atan2(-b, 1) * 180 / pi
    if (per) printf "frame %.6g %.3f %.3f %d\n", t, a, s, m
    k = nf++; A[k] = a; S[k] = s
}
BEGIN { pi = atan2(0, -1) }
$1 == "F" { frame(); t = $2; n = 0; next }
{ x[n] = $1; y[n] = $2; z[n] = $3; r[n] = $4; n++ }
END {
    if (bad) exit 1
    frame()
    if (!nf) { print "angle.sh: " src ": no frame between t = " t0 " and " t1 > "/dev/stderr"; exit 1 }
    for (k = 0; k < nf; k++) { ma += A[k] / nf; ms += S[k] / nf }
    for (k = 0; k < nf; k++) { va += (A[k] - ma)^2; vs += (S[k] - ms)^2 }
    d = nf > 1 ? nf - 1 : 1
    printf "axis    %.2f deg  sd %.2f  frames %d\n", ma, sqrt(va / d), nf
    printf "surface %.2f deg  sd %.2f  frames %d\n", ms, sqrt(vs / d), nf
}'
