#!/bin/sh
# to-lammps.sh - a frame of a pala trajectory as a LAMMPS data file (atom_style sphere with
# a Molecules section), read by pala (`lammps_data`) and by LAMMPS alike.
# Usage: bench/heap/to-lammps.sh [-l] [-z] [-s "DX DY DZ"] [-b "XLO XHI YLO YHI ZLO ZHI"] TRAJECTORY.txt > out.data
#   -l  the last frame (default: the first)
#   -z  no Velocities section: the grains start at rest
#   -s  shift every position by (DX, DY, DZ) m
#   -b  the box written to the header (default: the trajectory's)
# Each component sphere is an atom of type 1; the components of grain i (from 0) form
# molecule i + 1 (a rigid body for `fix rigid/small molecule`, a grain for pala); the
# density column is the grain's mass / volume (its material's density); velocities are
# those of the material points (v + w x (c - x)).  Positions are written to 10 digits
# (1e-11 m here), velocities to 6.  LAMMPS reads it with
#   fix pmol all property/atom mol ghost yes
#   read_data out.data fix pmol NULL Molecules
set -eu
which=first; shift3="0 0 0"; box=; vel=1
while getopts lzs:b: o; do
    case $o in l) which=last ;; z) vel=0 ;; s) shift3=$OPTARG ;; b) box=$OPTARG ;; *) exit 1 ;; esac
done
shift $((OPTIND - 1))
traj=${1:?usage: $0 [-l] [-s DX DY DZ] [-b BOX] TRAJECTORY.txt}
[ -r "$traj" ] || { echo "to-lammps.sh: cannot read $traj" >&2; exit 1; }
here=$(dirname "$0")
awk -v which="$which" -f "$here/pala-frame.awk" "$traj" | awk -v src="$traj" -v which="$which" -v s="$shift3" -v b="$box" -v vel="$vel" '
BEGIN { split(s, d, " "); if (b != "") split(b, box, " ") }
$1 == "box" { if (b == "") for (i = 2; i <= 7; i++) box[i - 1] = $i; next }
$1 == "template" { rho[$2] = $4; next }
{ n++; line[n] = $0 }
END {
    if (box[1] == "") { print "to-lammps.sh: " src ": no box" > "/dev/stderr"; exit 1 }
    print "LAMMPS data file: the " which " frame of the pala trajectory " src
    print ""; print n " atoms"; print "1 atom types"; print ""
    printf "%s %s xlo xhi\n%s %s ylo yhi\n%s %s zlo zhi\n\n", box[1], box[2], box[3], box[4], box[5], box[6]
    print "Atoms # sphere"; print ""
    for (i = 1; i <= n; i++) { split(line[i], a, " ")
        printf "%d 1 %.10g %.10g %.10g %.10g %.10g\n", i, 2 * a[5], rho[a[12]], a[2] + d[1], a[3] + d[2], a[4] + d[3] }
    if (vel) { print ""; print "Velocities"; print ""
        for (i = 1; i <= n; i++) { split(line[i], a, " "); printf "%d %.6g %.6g %.6g %.6g %.6g %.6g\n", i, a[6], a[7], a[8], a[9], a[10], a[11] } }
    print ""; print "Molecules"; print ""
    for (i = 1; i <= n; i++) { split(line[i], a, " "); print i, a[1] + 1 }
}' || { echo "to-lammps.sh: $traj: cannot read the frame" >&2; exit 1; }
