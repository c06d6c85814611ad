#!/bin/sh
# damping.sh - LAMMPS gran/hertz/history coefficients matching a pala material.
# Usage: bench/heap/damping.sh E POISSON MASS RADIUS RESTITUTION VREF
# (E Pa, MASS kg of one grain, RADIUS m of its spheres, VREF m/s)
# Prints "KN KT GN GNW" for `pair_style gran/hertz/history KN KT GN ...` and
# `fix wall/gran hertz/history KN KT GNW ...`:
#   KN = 4/3 E*  (E* = E / (2 (1 - nu^2))): LAMMPS's normal force is
#        sqrt(R* d) (KN d - m* GN v_n), i.e. pala's `hertz = textbook` law plus a dashpot;
#   KT = 8 G*    (G* = G / (2 (2 - nu)), G = E / (2 (1 + nu))): LAMMPS's tangential
#        stiffness is KT sqrt(R* d) = 8 G* a, pala's `tangential_law = mindlin`;
#   GN: the dashpot that gives two grains of MASS meeting head-on at VREF m/s on spheres of
#        RADIUS the restitution RESTITUTION (1: no dashpot).  pala's delta = RESTITUTION^2
#        gives it at every speed; the dashpot's restitution falls with the speed (its
#        damping grows as v^(1/5)): printed on stderr for a few speeds;
#   GNW: the same for a grain on a wall (R* and m* double: GNW = GN / 2^(4/5)).
# GN is found by bisection on a numerical integration of m* d'' = -sqrt(R* d)(KN d + m* GN d')
# (no attraction: the force is floored at 0, as LAMMPS's limit_damping does).
set -eu
[ $# -eq 6 ] || { echo "usage: $0 E POISSON MASS RADIUS RESTITUTION VREF" >&2; exit 1; }
awk -v E="$1" -v nu="$2" -v m="$3" -v r="$4" -v e="$5" -v v0="$6" '
function rest(g, v,    d, w, f, h, tc, i) {     # restitution of a head-on pair at speed v
    # time scale: the Hertz contact time ~ 3 (m^2 / (R E*^2 v))^(1/5); 20000 steps a contact
    tc = 3 * (ms * ms / (Rs * Es * Es * v)) ^ 0.2; h = tc / 20000
    d = 0; w = v
    for (i = 0; i < 200000; i++) {              # velocity Verlet on the overlap d
        f = force(d, w, g); w += 0.5 * h * f / ms; d += h * w
        if (d < 0) break
        f = force(d, w, g); w += 0.5 * h * f / ms
    }
    return -w / v
}
function force(d, w, g,    f) { if (d <= 0) return 0; f = -sqrt(Rs * d) * (kn * d + ms * g * w); return f < 0 ? f : 0 }
BEGIN {
    Es = E / (2 * (1 - nu * nu)); kn = 4 * Es / 3
    G = E / (2 * (1 + nu)); Gs = G / (2 * (2 - nu)); kt = 8 * Gs
    ms = m / 2; Rs = r / 2
    if (e >= 1) { printf "%.8g %.8g 0 0\n", kn, kt; exit }     # no dashpot
    lo = 0; hi = 1
    while (rest(hi, v0) > e) hi *= 2
    for (k = 0; k < 60; k++) { mid = 0.5 * (lo + hi); if (rest(mid, v0) > e) lo = mid; else hi = mid }
    gn = 0.5 * (lo + hi)
    printf "%.8g %.8g %.8g %.8g\n", kn, kt, gn, gn / 2 ^ 0.8
    printf "damping.sh: restitution of the pair dashpot at v =" > "/dev/stderr"
    split("0.01 0.1 0.5 1 2", vs, " ")
    for (k = 1; k <= 5; k++) printf " %s: %.3f", vs[k], rest(gn, vs[k]) > "/dev/stderr"
    printf " m/s\n" > "/dev/stderr"
}'
