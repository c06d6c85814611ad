#!/bin/sh
# rate.sh - the steady discharge rate of a hopper from its pala trajectory.txt.
# Usage: bench/hopper/rate.sh TRAJECTORY ZO [LO=0.2] [HI=0.6]
# At each frame, M(t) is the mass of the grains whose centre is below z = ZO - 2 mm (one
# bead diameter under the orifice at height ZO: they are falling freely).  The steady part
# is the frames at which M is between LO and HI of the total mass; a least-squares line
# M = a + W t through them gives W (kg/s).  Prints "W W1 W2 T0 T1": W, the same fit over
# the first and the second half of the part's frames (by time: equal if the flow is
# steady), and the part's first and last times (s).
set -eu
f=${1:?usage: $0 TRAJECTORY ZO [LO] [HI]}; zo=${2:?usage: $0 TRAJECTORY ZO [LO] [HI]}
[ -r "$f" ] || { echo "rate.sh: cannot read $f" >&2; exit 1; }
awk -v zc="$zo" -v lo="${3:-0.2}" -v hi="${4:-0.6}" -v src="$f" '
function fit(a, b,    j, n, sx, sy, sxx, sxy) {
    for (j = a; j <= b; j++) { n++; sx += T[j]; sy += M[j]; sxx += T[j] * T[j]; sxy += T[j] * M[j] }
    return n < 2 ? 0 : (n * sxy - sx * sy) / (n * sxx - sx * sx)
}
$1 == "template" && !ingr { mass[$2] = $7; next }
$1 == "grains" { n = $2; ingr = 1; k = 0; next }
ingr == 1 { for (i = 1; i <= NF; i++) { tm[k] = $i; tot += mass[$i]; k++ } if (k >= n) ingr = 2; next }
ingr == 2 && $1 == "frame" { nf++; T[nf] = $3; M[nf] = 0; g = 0; next }
ingr == 2 { if ($3 < zc - 0.002) M[nf] += mass[tm[g]]; g++ }
END {
    if (!nf) { print "rate.sh: " src ": no frames" > "/dev/stderr"; exit 1 }
    for (j = 1; j <= nf; j++) if (M[j] >= lo * tot && M[j] <= hi * tot) { if (!a) a = j; b = j }
    if (!a || b - a < 3) { print "rate.sh: " src ": fewer than 4 frames with " lo " to " hi " of the mass out (at the end: " M[nf] / tot ")" > "/dev/stderr"; exit 1 }
    h = int((a + b) / 2)
    printf "%.6g %.6g %.6g %.4g %.4g\n", fit(a, b), fit(a, h), fit(h, b), T[a], T[b]
}' "$f"
