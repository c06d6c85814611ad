#!/bin/sh
# run.sh SECONDS [TARGET...]: fuzz each target of tests/fuzz/fuzz.c (default: all) with
# AFL++ for SECONDS, one after the other on one core at nice 19 (make fuzz; docs/fuzzing.md).
# Findings land in build/fuzz/out-TARGET/default/{crashes,hangs}; the statistics in
# .../fuzzer_stats.
# A hang is a run of more than 2 s (-t 2000).
set -e
secs=${1:-1800}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- control lammps checkpoint traj tsv
command -v afl-fuzz >/dev/null || { echo "make fuzz needs AFL++ (Debian: apt-get install afl++)"; exit 1; }
# AFL_AUTORESUME: a second make fuzz continues the first one's queue
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1 AFL_AUTORESUME=1
# an allocation over 2 GB fails (null), and pala's out-of-memory abort is then a crash: a size the input gives that its length does not bound
export ASAN_OPTIONS=abort_on_error=1:symbolize=0:allocator_may_return_null=1:max_allocation_size_mb=2048:detect_leaks=0
for t in "$@"; do
    dict=tests/fuzz/$t.dict
    [ -f $dict ] && dict="-x $dict" || dict=
    echo "fuzzing $t for $secs s"
    nice -n 19 afl-fuzz -i tests/fuzz/$t -o build/fuzz/out-$t $dict -t 2000 -m none -V "$secs" -- build/fuzz/afl-$t >build/fuzz/$t.log 2>&1 || true
    s=build/fuzz/out-$t/default/fuzzer_stats
    [ -f $s ] && grep -E '^(execs_done|execs_per_sec|corpus_count|saved_crashes|saved_hangs|run_time) ' $s
done
