#!/bin/sh
# beverloo.sh - the hopper against Beverloo's law (docs/physics.md, "The hopper against
# Beverloo"): bench/hopper/hopper.txt discharged through orifices of D = q d for each
# ratio q, the steady discharge rate W of each, and a fit of W = C rho_b sqrt(g) (D - k d)^(5/2).
# Usage: bench/hopper/beverloo.sh OUTDIR [RATIOS="5 6 7 8"]
# Runs (two at a time, --threads 1 each; NICE="nice -n 10" lowers their priority):
#   OUTDIR/D<q>   the hopper with D = q d, until about 3/4 of the beads have left;
#   OUTDIR/rest   the hopper of D = 6 d closed by its cap (wall.funnel.caps = start), 0.3 s:
#                 the bed at rest, whose packing fraction gives rho_b (rest.sh).
# A run already finished in OUTDIR (its summary.tsv says ok) is not run again.
# Prints the table of rates and the fitted C and k (rate.sh, fit below).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/bench/hopper
out=${1:?usage: $0 OUTDIR [RATIOS]}; ratios=${2:-5 6 7 8}
mkdir -p "$out"; out=$(cd "$out" && pwd)
nice=${NICE:-}
d=0.002; n=2000; m=$(awk 'BEGIN { printf "%.10g", 2500 * 4 / 3 * atan2(0, -1) * 1e-9 }')
# the funnel of orifice D: the same cone (radius 36 mm at z = 0.1 m, half-angle atan 0.6)
# cut where its radius is D/2, at the height z_o = 0.1 - L, L its length
len() { awk -v D="$1" 'BEGIN { printf "%.10g", (0.036 - D / 2) / 0.6 }'; }
zo() { awk -v L="$(len "$1")" 'BEGIN { printf "%.10g", 0.1 - L }'; }
done_ok() { [ -r "$1/summary.tsv" ] && awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") c = i; next }
                                                  { exit $c != "ok" }' "$1/summary.tsv"; }
run() {   # run DIR D END_TIME [KEY=VALUE]... (values without blanks)
    dir=$1; D=$2; te=$3; shift 3
    done_ok "$dir" && return 0
    set -- $(for kv in "$@"; do echo "--set $kv"; done)
    $nice "$root/pala" run "$here/hopper.txt" -o "$dir" --force --quiet --threads 1 --set end_time="$te" \
        --set "wall.funnel.point=0 0 $(zo "$D")" --set "wall.funnel.length=$(len "$D")" \
        --set "wall.funnel.radius=$(awk -v D="$D" 'BEGIN { printf "%.10g", D / 2 }')" "$@"
}
# the jobs: (dir D end_time extra), the rest run first; the end time from Beverloo's law
# with C = 0.6, k = 1.4 and rho_b = 1500 kg/m^3: 0.15 s to settle and start, and 75% of the mass
jobs=$out/jobs; : > "$jobs"
echo "rest $(awk -v q=6 -v d=$d 'BEGIN { print q * d }') 0.3 wall.funnel.caps=start" >> "$jobs"
for q in $ratios; do
    awk -v q="$q" -v d=$d -v n=$n -v m="$m" -v o="$out" 'BEGIN {
        D = q * d; W = 0.6 * 1500 * sqrt(9.81) * (D - 1.4 * d) ^ 2.5
        printf "D%s %.10g %.2f\n", q, D, 0.15 + 0.75 * n * m / W }' >> "$jobs"
done
# two at a time
pids=; k=0
while read -r name D te extra; do
    ( run "$out/$name" "$D" "$te" $extra ) > "$out/$name.log" 2>&1 &
    pids="$pids $!"; k=$((k + 1))
    if [ $k = 2 ]; then for p in $pids; do wait "$p" || true; done; pids=; k=0; fi
done < "$jobs"
for p in $pids; do wait "$p" || true; done
for name in $(awk '{ print $1 }' "$jobs"); do
    done_ok "$out/$name" || { echo "beverloo.sh: the run $name failed:" >&2; tail -3 "$out/$name.log" >&2; exit 1; }
done

# rho_b: the packing fraction of the bed at rest (rest.sh) times the beads' density
D6=$(awk -v d=$d 'BEGIN { print 6 * d }')
phi=$(sh "$here/rest.sh" "$out/rest/trajectory.txt" "$(zo "$D6")")
rhob=$(awk -v p="$phi" 'BEGIN { printf "%.6g", 2500 * p }')
echo "bed at rest (D = 6 d, closed, t = 0.3 s): packing fraction $phi, rho_b = $rhob kg/m^3"
: > "$out/rates"
for q in $ratios; do
    D=$(awk -v q="$q" -v d=$d 'BEGIN { print q * d }')
    echo "$q $D $(sh "$here/rate.sh" "$out/D$q/trajectory.txt" "$(zo "$D")")" >> "$out/rates"
done
# the fit: W^(2/5) = (C rho_b sqrt g)^(2/5) (D - k d) is a line in D: slope s, intercept i;
# C = s^(5/2) / (rho_b sqrt g), k = -i / (s d).  The same fit to the rates of the first and
# of the second halves of the windows shows how much C and k move with the rates; and C with
# k held at 1.4 is the mean of W / (rho_b sqrt(g) (D - 1.4 d)^(5/2))
awk -v rhob="$rhob" -v d=$d '
function fit(w,    j, x, y, n, sx, sy, sxx, sxy, s, i) {
    for (j = 1; j <= N; j++) { x = D[j]; y = w[j] ^ 0.4; n++; sx += x; sy += y; sxx += x * x; sxy += x * y }
    s = (n * sxy - sx * sy) / (n * sxx - sx * sx); i = (sy - s * sx) / n
    FC = s ^ 2.5 / (rhob * sqrt(g)); Fk = -i / (s * d)
}
{ N++; q[N] = $1; D[N] = $2; W[N] = $3; W1[N] = $4; W2[N] = $5; t0[N] = $6; t1[N] = $7 }
END {
    g = 9.81
    fit(W1); C1 = FC; k1 = Fk; fit(W2); C2 = FC; k2 = Fk; fit(W); C = FC; k = Fk
    printf "%4s %6s %11s %11s %11s %13s %11s %11s\n", "D/d", "D mm", "W kg/s", "1st half", "2nd half", "fit window s", "W fit", "C.58 k1.4"
    for (j = 1; j <= N; j++) {
        b = 0.58 * rhob * sqrt(g) * (D[j] - 1.4 * d) ^ 2.5; Ck += 0.58 * W[j] / b / N
        printf "%4s %6.1f %11.4g %11.4g %11.4g %6.3f-%6.3f %11.4g %11.4g\n", q[j], D[j] * 1000, W[j], W1[j], W2[j], t0[j], t1[j],
               C * rhob * sqrt(g) * (D[j] - k * d) ^ 2.5, b
    }
    printf "Beverloo fit: C = %.3f, k = %.2f (rho_b = %s kg/m^3, d = %s m); usual: C about 0.58, k about 1.4\n", C, k, rhob, d
    printf "the same fit to the first halves: C = %.3f, k = %.2f; to the second halves: C = %.3f, k = %.2f\n", C1, k1, C2, k2
    printf "with k = 1.4 held: C = %.3f\n", Ck
}' "$out/rates"
