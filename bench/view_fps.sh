#!/bin/sh
# view_fps.sh - frames per second of `pala view` in headless Chromium, 1,000 and 10,000
# grains (the settling box's random grains of 3 to 5 spheres, 20 frames).
# Usage: bench/view_fps.sh [grains="1000 10000"] [frames drawn=30] [window=800,600] [renderers="cpu webgl"]
# For each run, each renderer and each picture (solid, anaglyph, wire, anaglyph wire), the
# page is opened with #bench=N: it draws N frames in a row (each waited for: a pixel read
# back) and reports the mean time per frame, printed here with frames/s = 1000 / ms.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
sizes=${1:-"1000 10000"}; n=${2:-30}; win=${3:-800,600}; renderers=${4:-"cpu webgl"}
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome) || { echo "no chromium (apt-get install chromium)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "grains	spheres	renderer	picture	ms_per_frame	frames_per_s"
for g in $sizes; do
  L=$(awk -v g="$g" 'BEGIN {printf "%.4g", 0.25 * (g / 10000) ^ (1 / 3)}'); H=$(awk -v l="$L" 'BEGIN {printf "%.4g", 1.4 * l}')
  "$root/pala" run "$root/examples/settling-box.txt" -o "$tmp/g$g.run" --quiet --threads 1 --set group.bed.count="$g" \
    --set "box=0 $L 0 $L 0 $H" --set "group.bed.region_box=0 $L 0 $L 0 $H" --set end_time=0.002 --set trajectory_every=10 --set energy_every=10
  "$root/pala" view "$tmp/g$g.run" -o "$tmp/g$g.html" >/dev/null
  for r in $renderers; do
    for pic in "solid:" "anaglyph:&stereo=anaglyph" "wire:&style=wire" "anaglyph-wire:&stereo=anaglyph&style=wire"; do
      timeout 300 "$chrome" --headless=new --no-sandbox --enable-unsafe-swiftshader --hide-scrollbars --no-first-run --disable-extensions \
        --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 --window-size="$win" --screenshot="$tmp/s.png" \
        "file://$tmp/g$g.html#bench=$n&renderer=$r${pic#*:}" 2>&1 | grep -o 'pala view ready: {.*}' | head -1 |
        awk -v g="$g" -v r="$r" -v p="${pic%%:*}" '{match($0, /"spheres":[0-9]+/); s = substr($0, RSTART + 10, RLENGTH - 10);
          match($0, /"ms_per_frame":[0-9.]+/); ms = substr($0, RSTART + 15, RLENGTH - 15); printf "%s\t%s\t%s\t%s\t%.1f\t%.1f\n", g, s, r, p, ms, 1000 / ms}'
    done
  done
done
