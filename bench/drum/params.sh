# params.sh - sourced by run.sh and speed.sh: the drum of a pala run, for LAMMPS.
# Usage: drum_run=RUN; . bench/drum/params.sh   ($root the repository, RUN a run of
# drum.txt; sh's `.` takes no arguments).  Reads RUN/summary.tsv, so that LAMMPS runs what
# pala ran, and sets dt mu R ylo yhi omega a every (trajectory_every), box (LAMMPS's box:
# the drum and a margin of a radius), e (the restitution sqrt(delta)) and kn kt gn gnw
# (bench/heap/damping.sh: the coefficients of gran/hertz/history; VREF, default 0.1 m/s,
# the impact speed at which its dashpot gives e; damping.sh's report of other speeds goes
# to $damping_log, default /dev/null).  Clobbers the positional parameters.
# Defines lmp_drum DATA NWARM NRUN EVERY DUMP DUMPEVERY: drum.in in the current folder
# (log run.log), under $nice if set.
drum_run=${drum_run:?params.sh: set drum_run to a pala run of drum.txt}
[ -r "$drum_run/summary.tsv" ] || { echo "params.sh: $drum_run is not a finished pala run" >&2; exit 1; }
val() { awk -F '\t' -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                               { if (!(k in c)) exit 1; print $c[k] }' "$drum_run/summary.tsv"; }
dt=$(val dt); mu=$(val material.glass.friction); R=$(val wall.drum.radius); a=$(val grain.bead.radius)
every=$(val trajectory_every)
set -- $(val wall.drum.point); ylo=$2
set -- $(val wall.drum.angular_velocity); omega=$2
yhi=$(awk -v a="$ylo" -v b="$(val wall.drum.length)" 'BEGIN { printf "%.10g", a + b }')
box=$(awk -v R="$R" -v lo="$ylo" -v hi="$yhi" -v a="$a" 'BEGIN { printf "%.10g %.10g %.10g %.10g %.10g %.10g", -R - a, R + a, lo - a, hi + a, -R - a, R + a }')
e=$(awk -v d="$(val material.glass.delta)" 'BEGIN { printf "%.10g", sqrt(d) }')
set -- $(sh "$root/bench/heap/damping.sh" "$(val material.glass.young)" "$(val material.glass.poisson)" \
         "$(awk -v r="$(val material.glass.density)" -v a="$a" 'BEGIN { printf "%.10g", r * 4 / 3 * atan2(0, -1) * a * a * a }')" \
         "$a" "$e" "${VREF:-0.1}" 2>"${damping_log:-/dev/null}")
kn=$1; kt=$2; gn=$3; gnw=$4
lmp_drum() {
    ${nice:-} lmp -in "$root/bench/drum/drum.in" -log run.log -screen none -var data "$1" \
        -var KN "$kn" -var KT "$kt" -var GN "$gn" -var GNW "$gnw" -var mu "$mu" -var dt "$dt" \
        -var omega "$omega" -var R "$R" -var ylo "$ylo" -var yhi "$yhi" \
        -var nwarm "$2" -var nrun "$3" -var every "$4" -var dump "$5" -var dumpevery "$6"
}
