#!/usr/bin/env python3
"""events.py RUN [SKIP_S] [FRACTION]: the sliding (avalanche) events of a drum run.

Reads RUN/energy.tsv, skips the first SKIP_S seconds (default 1: the initial fall), and
counts the drops of E_field (the grains' potential energy): a drop is an event when
E_field falls from a running maximum by more than FRACTION (default 0.2) of its range
over the run, before it rises again by as much.  Prints the events' times and the count
per two revolutions, for the angular velocity read from RUN/control.txt ([wall] sections'
angular_velocity; the first that turns).  Standard library only."""
import math
import sys

run = sys.argv[1]
skip = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
frac = float(sys.argv[3]) if len(sys.argv) > 3 else 0.2
rows = [l.rstrip("\n").split("\t") for l in open(run + "/energy.tsv")]
head = rows[0]
it, ie = head.index("time"), head.index("E_field")
T, E = [], []
for r in rows[1:]:
    if float(r[it]) >= skip:
        T.append(float(r[it]))
        E.append(float(r[ie]))
omega = 0.0
for line in open(run + "/control.txt"):
    k = line.split("#")[0].split("=")
    if len(k) == 2 and k[0].strip() == "angular_velocity" and omega == 0.0:
        w = [float(x) for x in k[1].split()]
        omega = math.sqrt(sum(x * x for x in w))
thr = frac * (max(E) - min(E))
ev, hi, hit, lo, up = [], E[0], T[0], E[0], True
for x, y in zip(T, E):
    if up:
        if y > hi:
            hi, hit = y, x
        elif hi - y > thr:
            ev.append(hit)
            up, lo = False, y
    else:
        if y < lo:
            lo = y
        elif y - lo > thr:
            up, hi, hit = True, y, x
revs = (T[-1] - T[0]) * omega / (2 * math.pi) if omega > 0 else float("nan")
print("events at t =", " ".join("%.2f" % x for x in ev))
print("%d events in %.2f revolutions: %.1f per 2 revolutions (drops > %.2f of the E_field range %.3g J)" % (len(ev), revs, 2 * len(ev) / revs, frac, max(E) - min(E)))
