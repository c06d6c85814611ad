#!/bin/sh
# Regenerate the reference energy curves of the examples (examples/ref/*.tsv).
# `make test` runs each example for the same short time and compares it with
# `pala check`; regenerate only after a change that is meant to alter the physics or
# its round-off, and say so in the commit.
set -e
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
while read -r name end; do
    ./pala run "examples/$name.txt" --set end_time="$end" -o "$tmp/$name" --quiet
    cp "$tmp/$name/energy.tsv" "examples/ref/$name.tsv"
done < examples/ref/times.txt
rm -rf "$tmp"
