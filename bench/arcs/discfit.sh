#!/bin/sh
# discfit.sh - the quasi-triangle of triangle.txt as a union of discs (shape = spheres in 2D),
# fitted to the arc grain's outline: writes the scene discs.txt (triangle.txt with the grain
# replaced) to stdout and the fit's deviation to stderr.
# Usage: sh bench/arcs/discfit.sh [N] [PALA] > bench/arcs/discs.txt
#
# The fit (docs/performance.md, "Arc grains"): the outline K (corners of radius rc, sides of
# radius rs, tips at R from the centre; physics.md eq. A7) is convex, and its distance from
# an inside point p to its edge is min over the arcs i of min over their normals u of
# (c_i - p).u + R_i (K's support function is c_i.u + R_i on arc i's normals), in closed
# form: at -(c_i - p)/|c_i - p| if that normal is arc i's, else at an end.  The discs are the
# largest ones about points of K's medial axis, the three segments from the centre to the
# corners' centres: the centre's (it touches the three sides) and N more per segment at
# 1/N, 2/N, ..., 1 of its length (the last one the corner's own circle, exact).  Every disc
# lies in K, so the deviation is the largest distance of K's outline (4,001 points per arc)
# from the union: N = 4 (13 discs) gives 0.72% of R, N = 3 1.2%.  The union is scaled with
# the outline (volume_radius: K's area that of a disc of that radius), and the density
# chosen so that the grain weighs what the arc grain does: the sphere of radius
# volume_radius (the union's volume, a union of balls, read from PALA's trajectory header).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-4}
pala=${2:-$here/../../pala}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
key() { awk -v k="$1" '$1 == k && $2 == "=" { print $3; exit }' "$here/triangle.txt"; }
R=$(key radius); rc=$(key corner_radius); rs=$(key side_radius); vr=$(key volume_radius); rho=$(key density)
# the disc lines, x y 0 r (m)
awk -v R="$R" -v rc="$rc" -v rs="$rs" -v vr="$vr" -v n="$n" '
function dist(px, py,   i, best, vx, vy, v, t, m, e0, e1) {   # from (px, py) inside K to its edge
    best = 1e300
    for (i = 0; i < na; i++) {
        vx = cx[i] - px; vy = cy[i] - py; v = sqrt(vx * vx + vy * vy)
        t = atan2(vy, vx) + pi; while (t < a0[i]) t += 2 * pi; while (t > a0[i] + 2 * pi) t -= 2 * pi
        if (t <= a1[i]) m = -v
        else { e0 = vx * cos(a0[i]) + vy * sin(a0[i]); e1 = vx * cos(a1[i]) + vy * sin(a1[i]); m = e0 < e1 ? e0 : e1 }
        if (m + rr[i] < best) best = m + rr[i]
    }
    return best
}
BEGIN {
    na = 0; pi = atan2(0, -1); a = pi / 3; rho = R - rc; sb = rho * sin(a) / (rs - rc)
    beta = atan2(sb, sqrt(1 - sb * sb)); gam = a - beta; d = rho * cos(a) - (rs - rc) * cos(beta)   # eq. (A7), as pala_arcs_regular
    for (k = 0; k < 3; k++) {
        th = 2 * a * k; ph = th + a
        cx[na] = rho * cos(th); cy[na] = rho * sin(th); rr[na] = rc; a0[na] = th - gam; a1[na] = th + gam; na++
        cx[na] = d * cos(ph); cy[na] = d * sin(ph); rr[na] = rs; a0[na] = ph - beta; a1[na] = ph + beta; na++
    }
    for (i = 0; i < na; i++)   # the area, 1/2 of the integral of x dy - y dx along each arc
        A += 0.5 * (rr[i] * rr[i] * (a1[i] - a0[i]) + rr[i] * (cx[i] * (sin(a1[i]) - sin(a0[i])) - cy[i] * (cos(a1[i]) - cos(a0[i]))))
    f = vr > 0 ? vr * sqrt(pi / A) : 1
    dx[0] = 0; dy[0] = 0; dr[0] = dist(0, 0); nd = 1
    for (k = 0; k < 3; k++) for (j = 1; j <= n; j++) {
        s = rho * j / n; th = 2 * a * k
        dx[nd] = s * cos(th); dy[nd] = s * sin(th); dr[nd] = dist(dx[nd], dy[nd]); nd++
    }
    M = 4000
    for (i = 0; i < na; i++) for (m = 0; m <= M; m++) {
        t = a0[i] + (a1[i] - a0[i]) * m / M; qx = cx[i] + rr[i] * cos(t); qy = cy[i] + rr[i] * sin(t); b = 1e300
        for (j = 0; j < nd; j++) { e = sqrt((qx - dx[j]) ^ 2 + (qy - dy[j]) ^ 2) - dr[j]; if (e < b) b = e }
        if (b > dev) dev = b
        if (b < -1e-12 * R) { printf "discfit.sh: disc %d pokes out of the outline by %g m\n", j, -b > "/dev/stderr"; exit 1 }
    }
    printf "discfit.sh: %d discs, largest distance of the outline from the union %.4g m = %.3f%% of R (the tips at R = %.4g m from the centre, scaled)\n",
           nd, dev * f, 100 * dev / R, R * f > "/dev/stderr"
    for (j = 0; j < nd; j++) printf "%.17g %.17g 0 %.17g\n", dx[j] * f, dy[j] * f, dr[j] * f
}' > "$tmp/discs"
scene() {   # triangle.txt with its grain a union of the discs, of density $1
    awk -v rho="$1" -v n="$n" -v discs="$tmp/discs" '
    NR == 1 { print "# bench/arcs/discs.txt - written by bench/arcs/discfit.sh " n ": triangle.txt'"'"'s quasi-triangle as a union"
              print "# of discs (shape = spheres in 2D) fitted to its outline, of the same mass (its density); see discfit.sh."; next }
    /^#/ { next }
    $1 == "density" { print "density = " rho; next }
    $1 == "shape" { print "shape = spheres"; while ((getline l < discs) > 0) print "sphere = " l; next }
    $1 == "arcs_shape" || $1 == "radius" || $1 == "corner_radius" || $1 == "side_radius" || $1 == "volume_radius" { next }
    { print }' "$here/triangle.txt"
}
scene "$rho" > "$tmp/probe.txt"
"$pala" run "$tmp/probe.txt" -o "$tmp/probe" --quiet --set steps=1 --set trajectory_every=1
V=$(awk '/^template/ { for (i = 1; i < NF; i++) if ($i == "volume") { print $(i + 1); exit } }' "$tmp/probe/trajectory.txt")
scene "$(awk -v rho="$rho" -v vr="$vr" -v V="$V" 'BEGIN { printf "%.17g", rho * 4 / 3 * atan2(0, -1) * vr ^ 3 / V }')"
