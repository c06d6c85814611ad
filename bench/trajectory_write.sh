#!/bin/sh
# trajectory_write.sh - the cost of a trajectory frame, text (trajectory.txt) and binary
# (trajectory.bin, trajectory_format = binary), against the cost of a step, on the lattice
# of bench/scale.sh (spheres of r = 1 mm at spacing 2.02 r in a box, gravity on), turned
# at random and moving (velocity_spread 0.01 m/s), so that no number prints short as 0.
# Usage: bench/trajectory_write.sh [spheres=100000] [frames=3] [steps=20]
# build/traj_bench (bench/trajwrite.c) times, in one process on one world, 5 rounds of
# STEPS steps (one thread) and FRAMES frames of each form written through the writers'
# own functions, in wall and thread CPU time (CPU time: a machine shared with other jobs
# disturbs it less), and prints the medians.  The files go to a temporary folder in
# TMPDIR (default /dev/shm, memory: the cost of formatting and copying, not of a disk).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-100000}; frames=${2:-3}; steps=${3:-20}
make -C "$root" -s build/traj_bench >/dev/null
tmp=$(mktemp -d -p "${TMPDIR:-/dev/shm}"); trap 'rm -rf "$tmp"' EXIT
L=$(awk -v n="$n" 'BEGIN {k = int(n ^ (1 / 3)); while (k * k * k < n) k++; printf "%.9g", k * 2.02e-3 + 1e-6}')
"$root/build/traj_bench" "$root/bench/lattice.txt" "$tmp" "$frames" "$steps" "box=0 $L 0 $L 0 $L" "group.g.count=$n" \
  group.g.orientation=random group.g.velocity_spread=0.01
