# pala-frame.awk - the component spheres of one frame of a pala trajectory.txt
# (docs/output-formats.md, "trajectory.txt"): with -v which=first or which=last (default),
# prints one line per component sphere, grain by grain:
#   grain cx cy cz radius vx vy vz wx wy wz template
# the centre c = x + r*b (paper, eq. 6: r*b = ((1 - r.r) b + 2 (r.b) r + 2 r x b) / (1 + r.r)),
# the velocity of the material point at c (v + w x (c - x)) and the grain's w.
# Also sets box[1..6] from the header and prints it first as "box XLO XHI YLO YHI ZLO ZHI",
# and "density RHO" of each template (mass / volume) as "template T density RHO".
NR == 1 && $0 !~ /^# pala trajectory/ { print "not a pala trajectory" > "/dev/stderr"; bad = 1; exit 1 }
$1 == "box" && !ingr { print; next }
$1 == "template" && !ingr {
    t = $2; nc[t] = $5; printf "template %d density %.17g\n", t, $7 / $15
    for (k = 0; k < nc[t]; k++) { getline; bx[t, k] = $1; by[t, k] = $2; bz[t, k] = $3; br[t, k] = $4 }
    next }
$1 == "grains" { n = $2; ingr = 1; k = 0; next }
ingr == 1 { for (i = 1; i <= NF; i++) tm[k++] = $i; if (k >= n) ingr = 2; next }
ingr == 2 && $1 == "frame" { if (which == "first" && nf) exit; nf++; g = 0; next }
ingr == 2 { f[g++] = $0 }
END {
    if (bad) exit 1
    if (!nf || g != n) { print "no complete frame" > "/dev/stderr"; exit 1 }
    for (i = 0; i < n; i++) {
        split(f[i], a, " "); t = tm[i]
        rx = a[4]; ry = a[5]; rz = a[6]; rr = rx * rx + ry * ry + rz * rz
        for (k = 0; k < nc[t]; k++) {
            b1 = bx[t, k]; b2 = by[t, k]; b3 = bz[t, k]; rb = rx * b1 + ry * b2 + rz * b3
            d1 = ((1 - rr) * b1 + 2 * rb * rx + 2 * (ry * b3 - rz * b2)) / (1 + rr)
            d2 = ((1 - rr) * b2 + 2 * rb * ry + 2 * (rz * b1 - rx * b3)) / (1 + rr)
            d3 = ((1 - rr) * b3 + 2 * rb * rz + 2 * (rx * b2 - ry * b1)) / (1 + rr)
            printf "%d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %s %s %s %d\n", i, a[1] + d1, a[2] + d2, a[3] + d3, br[t, k],
                   a[7] + a[11] * d3 - a[12] * d2, a[8] + a[12] * d1 - a[10] * d3, a[9] + a[10] * d2 - a[11] * d1, a[10], a[11], a[12], t
        }
    }
}
