# pin.sh - sourced by the benchmark scripts: PIN, the prefix that runs a one-core program on
# one CPU, and CPU_A, CPU_B, the first two CPUs this shell may use (docs/performance.md, "Two
# CPUs that differ").  A virtual machine's two CPUs need not be equally fast: on the 2 vCPU
# machine of session 21 one ran 20-27 % slower than the other, alone or not, for minutes at a
# time.  Unpinned, the scheduler puts each run on either, so a ratio of two one-core runs (pala
# against LAMMPS) measured the CPUs as much as the codes; pinned, both run on CPU_A.
# PIN= (empty) in the environment runs them unpinned; PIN="taskset -c 1" on another CPU.
if command -v taskset >/dev/null 2>&1; then
    # the affinity list of this shell, e.g. "0-3,8": its first two CPUs (no set --: the
    # caller's arguments stay)
    CPU_A=$(taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' |
            awk -F- '{ hi = NF > 1 ? $2 : $1; for (c = $1; c <= hi && n < 2; c++) { printf "%s%d", n ? " " : "", c; n++ } }')
    CPU_B=${CPU_A#* }; CPU_A=${CPU_A%% *}
    [ "$CPU_B" = "$CPU_A" ] && CPU_B=
    PIN=${PIN-taskset -c $CPU_A}
else
    CPU_A=; CPU_B=; PIN=${PIN-}
fi
