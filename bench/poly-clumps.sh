#!/bin/sh
# poly-clumps.sh - clumps whose pebbles span a size ratio of 50 against the same pebbles made
# monodisperse (docs/performance.md, "Clumps of a size ratio of 50 against the seed"): the
# 200 clumps of bench/poly-clumps.txt (a core of 2.5 mm and 63 pebbles of 0.05 mm on its
# surface, 12,800 pebbles) against the same clumps whose core is a pebble of 0.05 mm too
# (grain `hollow`), by bench/poly.sh: cost per pebble-step and its ratio, then the outputs
# of the clumps at 1, 2 and 3 threads compared byte for byte.
# Usage: bench/poly-clumps.sh [time|callgrind] [nrun=500] [BUILD]   (as bench/poly.sh; a
#   BUILD from before the levels of cells, e.g. a checkout of dbb04c0, gives the one grid's
#   cost: the comparison of the seed's section 4.8, one level against several)
# SKIN=S (m): both scenes with neighbor_skin = S instead of the default (0.1 x the median
#   bounding radius here, 0.255 mm; before session 15 0.2 x the median pebble radius,
#   0.01 mm, which a clump crosses in a few steps)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
c=$root/bench/poly-clumps.txt
skin=${SKIN:+neighbor_skin=$SKIN}
POLY_CASES="mono|$c|mono|group.clumps.grain=hollow${skin:+;$skin}
clumps50|$c|mono|$skin" exec sh "$root/bench/poly.sh" "$@"
