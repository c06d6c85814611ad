#!/bin/sh
# make.sh - the PNG pictures of docs/visualisation.md and README.md, made again from the
# current build with headless Chromium (the distribution's `chromium` package):
#   view-planar.png, view-anaglyph.png, view-wire-anaglyph.png
#                                        `pala view` of the ten-grain example, frame 10
#                                        (t = 2 ms), drawn on the CPU (the page's default):
#                                        planar, anaglyph, anaglyph wire frames
#   snapshot.png, snapshot-wire.png      `pala snapshot` of the settling box after 0.3 s,
#                                        solid, and wire frames coloured by speed
#   view-network.png, snapshot-network.png
#                                        the same bed with its contacts, coloured by
#                                        coordination, with the force network: the replay
#                                        clipped at half its depth, the snapshot framed on
#                                        the grains
#   energy.png, energy-error.png         `pala plot` of the ten-grain example
# The SVG pictures are screenshots at their own size.  With ImageMagick's `convert`, the
# PNG files are recompressed (plots: 256 colours) to keep them small.
# Usage: sh docs/img/make.sh   (from anywhere; builds nothing: run `make` first)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
img=$root/docs/img
pala=$root/pala
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome) || { echo "no chromium (apt-get install chromium)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
shot() {   # shot URL WIDTH,HEIGHT OUT.png
  timeout 120 "$chrome" --headless=new --no-sandbox --hide-scrollbars --no-first-run --disable-extensions \
    --user-data-dir="$tmp/profile" --force-device-scale-factor=1 --window-size="$2" --screenshot="$3" "$1" >/dev/null 2>&1
  [ -s "$3" ] || { echo "make.sh: no screenshot of $1"; exit 1; }
}
svgshot() {   # svgshot FILE.svg OUT.png: at the picture's own width and height
  size=$(sed -n 's/.*<svg[^>]* width="\([0-9.]*\)"[^>]* height="\([0-9.]*\)".*/\1,\2/p' "$1" | head -1)
  shot "file://$1" "$size" "$2"
}
small() {   # small FILE.png [colours]: recompressed, if ImageMagick is there
  convert -version 2>/dev/null | grep -q ImageMagick || return 0
  if [ $# -gt 1 ]; then convert "$1" -strip -colors "$2" "PNG8:$1.tmp"; else convert "$1" -strip -define png:compression-level=9 "$1.tmp"; fi
  mv "$1.tmp" "$1"
}
cd "$tmp"
"$pala" run "$root/examples/paper-ten-grains.txt" --quiet -o paper-ten-grains.run
"$pala" view paper-ten-grains.run >/dev/null
shot "file://$tmp/paper-ten-grains.run/view.html#frame=10" 900,620 "$img/view-planar.png"
shot "file://$tmp/paper-ten-grains.run/view.html#frame=10&stereo=anaglyph" 900,620 "$img/view-anaglyph.png"
shot "file://$tmp/paper-ten-grains.run/view.html#frame=10&stereo=anaglyph&style=wire" 900,620 "$img/view-wire-anaglyph.png"
"$pala" plot paper-ten-grains.run >/dev/null
svgshot "$tmp/paper-ten-grains.run/energy.svg" "$img/energy.png"
svgshot "$tmp/paper-ten-grains.run/energy-error.svg" "$img/energy-error.png"
"$pala" run "$root/examples/settling-box.txt" --quiet --set end_time=0.3 --set contacts_every=100 -o box.run
"$pala" snapshot box.run --time 0.3 --size 700 -o box.svg >/dev/null
"$pala" snapshot box.run --time 0.3 --size 700 --style wire --colour speed -o box-wire.svg >/dev/null
svgshot "$tmp/box.svg" "$img/snapshot.png"
svgshot "$tmp/box-wire.svg" "$img/snapshot-wire.png"
"$pala" view box.run >/dev/null
shot "file://$tmp/box.run/view.html#frame=last&colour=coordination&network=alone&yaw=15&pitch=35&frameon=grains" 900,620 "$img/view-network.png"
"$pala" snapshot box.run --time 0.3 --size 700 --frame-on grains --colour coordination --network -o box-net.svg >/dev/null
svgshot "$tmp/box-net.svg" "$img/snapshot-network.png"
for f in view-planar view-anaglyph view-wire-anaglyph snapshot snapshot-wire view-network snapshot-network; do small "$img/$f.png"; done
for f in energy energy-error; do small "$img/$f.png" 256; done
ls -l "$img"/*.png
