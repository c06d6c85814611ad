#!/bin/sh
# hostile.sh [PALA] [TRIALS]: the trials of issue 29 (docs/fuzzing.md, "Folders and sizes"):
#   concurrency  TRIALS (default 50) times, two `pala run` of one scene into one folder at
#                once: one wins, the other exits 6 (the folder is another process's) or 1 (it
#                started after the winner had written: the folder holds a run), saying so; the
#                winner's folder equals a lone run's byte for byte (checkpoint.bin and the
#                wall-clock columns of summary.tsv, which no two runs share, compared by the
#                state hash of `pala resume --info` and the other columns; control.txt less
#                its three comment lines, which name the folder)
#   symlinks     a run folder with a link in place of each of its files: resume, view, plot,
#                snapshot and export refuse it, and no link target changes (checksums)
#   scale        pala collect on 10,000 run folders, a scene of 1,000 grain types and 1,000
#                groups to its first step, pala check on a 100,000-column header, pala view of
#                15,000 template names: wall times printed (targets 10 s, 1 s, 2 s, 2 s); on a
#                busy machine the figures are upper bounds
# Exit 0 when every trial passes.  Scratch space: build/hostile/.
set -u
pala=$(cd "$(dirname "${1:-./pala}")" && pwd)/$(basename "${1:-./pala}")
trials=${2:-50}
scene=$(pwd)/examples/paper-ten-grains.txt
b=build/hostile
rm -rf $b && mkdir -p $b && cd $b || exit 1
fail=0
now() { date +%s.%N; }
el() { awk "BEGIN { printf \"%.3f\", $2 - $1 }"; }

# ---- concurrency --------------------------------------------------------------------------
"$pala" run "$scene" -o lone --quiet --set end_time=0.002 || { echo "the lone run failed"; exit 1; }
"$pala" resume lone --info | sed -n 1p | sed 's/.*state hash //' > lone.hash
# summary.tsv less wall_time and grain_steps_per_s (by name), control.txt less the command line
strip() { awk -F'\t' 'NR==1{for(i=1;i<=NF;i++) if($i=="wall_time"||$i=="grain_steps_per_s") d[i]=1} {s=""; for(i=1;i<=NF;i++) if(!d[i]) s=s $i "\t"; print s}' "$1"; }
strip lone/summary.tsv > lone.summary
won=0 codes=""
for i in $(seq "$trials"); do
    rm -rf two
    "$pala" run "$scene" -o two --quiet --set end_time=0.002 > a.out 2>&1 & pa=$!
    "$pala" run "$scene" -o two --quiet --set end_time=0.002 > b.out 2>&1 & pb=$!
    wait $pa; ra=$?; wait $pb; rb=$?
    codes="$codes $ra/$rb"
    ok=0
    if [ $ra = 0 ] && { [ $rb = 6 ] || [ $rb = 1 ]; } && grep -q "in use by another pala\|holds the results of an earlier run" b.out; then ok=1
    elif [ $rb = 0 ] && { [ $ra = 6 ] || [ $ra = 1 ]; } && grep -q "in use by another pala\|holds the results of an earlier run" a.out; then ok=1; fi
    same=1
    for f in energy.tsv walls.tsv trajectory.txt; do cmp -s lone/$f two/$f || same=0; done
    sed 1,3d lone/control.txt > l.c; sed 1,3d two/control.txt > t.c; cmp -s l.c t.c || same=0
    strip two/summary.tsv | cmp -s - lone.summary || same=0
    "$pala" resume two --info | sed -n 1p | sed 's/.*state hash //' | cmp -s - lone.hash || same=0
    [ -z "$(ls two | grep -v -x -e control.txt -e energy.tsv -e walls.tsv -e trajectory.txt -e summary.tsv -e checkpoint.bin)" ] || same=0
    if [ $ok = 1 ] && [ $same = 1 ]; then won=$((won + 1)); else echo "trial $i: exits $ra $rb, one winner $ok, same as a lone run $same"; cat a.out b.out; fi
done
echo "concurrency: $won of $trials trials with one winner, the other refused with a message, the folder equal to a lone run's (exits:$(echo $codes | tr ' ' '\n' | sort | uniq -c | awk '{printf " %s x%s", $2, $1}'))"
[ $won = "$trials" ] || fail=1

# ---- symlinks -----------------------------------------------------------------------------
"$pala" run "$scene" -o ln --quiet --set end_time=0.002 --set checkpoint_every=500 || exit 1
mkdir tgt
for f in $(ls ln); do mv ln/$f tgt/$f && ln -s ../tgt/$f ln/$f; done
for f in view.html energy.svg energy-error.svg contacts.svg walls.svg trajectory.xyz snapshot-002000.svg; do echo "the user's $f" > tgt/$f; ln -s ../tgt/$f ln/$f; done
sums() { (cd tgt && md5sum * | md5sum); }
before=$(sums)
for c in "resume ln --set end_time=0.003" "view ln" "plot ln" "snapshot ln" "export ln --format xyz"; do
    out=$("$pala" $c 2>&1); rc=$?
    if [ $rc = 0 ] || ! echo "$out" | grep -q "symbolic link" || [ "$(sums)" != "$before" ]; then
        echo "symlinks: pala $c: exit $rc, targets changed: $([ "$(sums)" = "$before" ] && echo no || echo YES): $out"; fail=1
    else echo "symlinks: pala $c refused (exit $rc), no target changed"; fi
done

# ---- scale --------------------------------------------------------------------------------
mkdir coll && (cd coll && awk 'BEGIN{for(i=1;i<=10000;i++){d="r" i; system("mkdir " d); f=d "/summary.tsv";
    print "scene\tdt\tseed\tmaterial.m.friction\tstatus\texit_code\tsteps_done\tsim_time\twall_time" > f;
    print "x.txt\t1e-6\t" i "\t0.3\tok\t0\t100\t0.0001\t0.5" > f; close(f)}}')
t0=$(now); (cd coll && "$pala" collect r* > ../coll.tsv); t1=$(now)
echo "scale: pala collect of 10,000 run folders: $(el $t0 $t1) s (target < 10 s), $(wc -l < coll.tsv) lines"
awk 'BEGIN{print "container = box\nbox = 0 1 0 1 0 1\nwall_material = m\ndt = 1e-6\nsteps = 1\n[material m]\ndensity = 1000\nyoung = 1e7";
    for(i=0;i<1000;i++) print "[grain g" i "]\nmaterial = m\nshape = sphere\nradius = 0.001";
    for(i=0;i<1000;i++) print "[group p" i "]\ngrain = g" i "\ncount = 1"}' > many.txt
t0=$(now); "$pala" run many.txt -o many --quiet; t1=$(now)
echo "scale: a scene of 1,000 grain types and 1,000 groups, loaded, run (1 step) and written: $(el $t0 $t1) s (target < 1 s)"
mkdir wide && awk 'BEGIN{printf "time"; for(i=1;i<100000;i++) printf "\tE_%d", i; printf "\n0"; for(i=1;i<100000;i++) printf "\t1"; print ""}' > wide/energy.tsv
t0=$(now); "$pala" check wide wide --columns E_99999 > /dev/null; t1=$(now)
echo "scale: pala check of a 100,000-column header: $(el $t0 $t1) s (target < 2 s)"
mkdir names && awk 'BEGIN{print "# pala trajectory 1\ndimension 3\ntemplates 15000"; for(i=0;i<15000;i++) print "template " i " t" i " ncomp 1\n0 0 0 0.001";
    print "grains 15000"; for(i=0;i<15000;i++) printf "%d ", i; print ""; print "frame 0 0"; for(i=0;i<15000;i++) print i*0.01 " 0 0 0 0 0 0 0 0 0 0 0"}' > names/trajectory.txt
t0=$(now); "$pala" view names > /dev/null; t1=$(now)
echo "scale: pala view of 15,000 template names: $(el $t0 $t1) s (target < 2 s)"
exit $fail
