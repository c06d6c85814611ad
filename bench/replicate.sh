#!/bin/sh
# replicate.sh - tile a LAMMPS data file (atom_style sphere, no Molecules) NX x NY times
# in x and y: a wider bed of the same height and density.
# Usage: bench/replicate.sh IN.data NX NY > OUT.data
set -eu
awk -v nx="$2" -v ny="$3" '
  /xlo xhi/ { xlo = $1; xhi = $2; next }
  /ylo yhi/ { ylo = $1; yhi = $2; next }
  /zlo zhi/ { zlo = $1; zhi = $2; next }
  /^Atoms/ { sec = "A"; next }
  /^Velocities/ { sec = "V"; next }
  /^[A-Za-z]/ { sec = ""; next }
  NF == 0 { next }
  sec == "A" && NF >= 7 { n++; id[n] = $1; d[n] = $3; rho[n] = $4; x[n] = $5; y[n] = $6; z[n] = $7 }
  END {
    lx = xhi - xlo; ly = yhi - ylo; m = 0
    printf "LAMMPS data file: %d x %d tiles\n\n%d atoms\n1 atom types\n\n", nx, ny, n * nx * ny
    printf "%.17g %.17g xlo xhi\n%.17g %.17g ylo yhi\n%.17g %.17g zlo zhi\n\nAtoms # sphere\n\n", xlo, xlo + nx * lx, ylo, ylo + ny * ly, zlo, zhi
    for (i = 0; i < nx; i++) for (j = 0; j < ny; j++) for (k = 1; k <= n; k++)
      printf "%d 1 %.17g %.17g %.17g %.17g %.17g\n", ++m, d[k], rho[k], x[k] + i * lx, y[k] + j * ly, z[k]
  }' "$1"
