#!/bin/sh
# boundaries.sh [ROOT]: the boundaries of the library (docs/design.md), checked from the
# quoted includes of the source tree at ROOT (default: the current directory).
#
#   1. No file of src/lib includes a header of the command line (a header that lives in
#      src/cli/): the library must build and make sense without the program.
#   2. The modules of src/lib do not include each other in a circle.  A module is a file
#      name without its extension (keys.c and keys.h are the module keys); module A
#      depends on B when A.c or A.h includes "B.h" and that header is a file of src/lib.
#   3. The layers: every module of src/lib has a layer in the table below, and none
#      depends on a module of a higher layer (a smaller number).
#   4. When ROOT has docs/design.md: its section "Layers" puts the same modules in the same
#      layers as the table below (a module is named there by a `backquoted` .c or .h file
#      in the layer's numbered item).
#
# A quoted include "S" of src/lib/F is looked up as the compiler of the library does
# (-Iinclude -Isrc/lib): next to F, then in include/, then in src/lib/; a header found in
# none of them but present in src/cli/ (the program's -Isrc/cli) counts as the command
# line's too.  Angle-bracket includes are system headers and are not looked at.
#
# Prints one line per problem, naming the files, and exits 1; prints a summary and exits
# 0 when all hold; exits 2 when ROOT has no src/lib.  POSIX sh, find, grep, sed, awk.

# The layers of docs/design.md, "Layers", from the top: a module may include the headers
# of its own layer and of the layers below it.  Layer 1 is the command line (src/cli/),
# which no module of the library includes (check 1).  A new file of src/lib gets its row
# here and in docs/design.md.
layers='
2 step energy contact_list world scene place restart lammps keys check material timestep population
3 force_pass
4 contact contact_state container box cavity membrane surface grain_forces field fluid centre integrator neighbor feed
5 contact_law vec4 fractional grain threads alloc rotation builder union arcs factory rng sizes work keydef mesh meshclump region
'

root=${1:-.}
lib=$root/src/lib
cli=$root/src/cli
if [ ! -d "$lib" ]; then
    echo "boundaries: no directory $lib" >&2
    exit 2
fi
lib_real=$(cd "$lib" && pwd -P)
cli_real=
[ -d "$cli" ] && cli_real=$(cd "$cli" && pwd -P)
tab=$(printf '\t')

# a path as printed: relative to ROOT when ROOT is the current directory
show() {
    case $1 in
    ./*) printf '%s\n' "${1#./}" ;;
    *) printf '%s\n' "$1" ;;
    esac
}

# the real path of an existing file
real() {
    (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd -P)" "$(basename "$1")")
}

# module of a file: its name without directory and extension
module() {
    b=$(basename "$1")
    printf '%s\n' "${b%.*}"
}

files=$(find "$lib" -type f \( -name '*.c' -o -name '*.h' \) | sort)
doc=$root/docs/design.md

{
    printf '%s\n' "$layers" | while read -r n mods; do
        for m in $mods; do printf 'L\t%s\t%s\n' "$m" "$n"; done
    done
    # the numbered items of the section "Layers" of docs/design.md and their continuation
    # lines; each `name.c` or `name.h` in an item puts module name in that layer
    [ -f "$doc" ] && awk -v tab="$tab" '
        /^## / { in_sec = ($0 ~ /^## Layers[ \t]*$/); item = 0; next }
        !in_sec { next }
        /^[0-9]+\. / { item = $0 + 0 }
        !/^[0-9]+\. / && !/^[ \t]+[^ \t]/ { item = 0 }
        item {
            line = $0
            while (match(line, /`[^`]*`/)) {
                name = substr(line, RSTART + 1, RLENGTH - 2)
                line = substr(line, RSTART + RLENGTH)
                if (name !~ /\.[ch]$/) continue
                sub(/.*\//, "", name)
                sub(/\.[ch]$/, "", name)
                print "D" tab name tab item tab FNR
            }
        }' "$doc"
    for f in $files; do
        printf 'N\t%s\t%s\n' "$(module "$f")" "$(show "$f")"
    done
    for f in $files; do
        from=$(module "$f")
        dir=$(dirname "$f")
        grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
            sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' |
            while read -r line inc; do
                where="$(show "$f"):$line includes \"$inc\""
                if [ -f "$dir/$inc" ]; then
                    found=$(real "$dir/$inc")
                elif [ -f "$root/include/$inc" ]; then
                    continue                       # the public headers
                elif [ -f "$lib/$inc" ]; then
                    found=$(real "$lib/$inc")
                elif [ -n "$cli_real" ] && [ -f "$cli/$inc" ]; then
                    found=$(real "$cli/$inc")
                else
                    continue                       # not a file of this tree
                fi
                case $found in
                "$cli_real"/*)
                    if [ -n "$cli_real" ]; then
                        printf 'X\t%s, a header of the command line (%s)\n' "$where" \
                            "$(show "$cli/${found#"$cli_real"/}")"
                        continue
                    fi ;;
                esac
                case $found in
                "$lib_real"/*)
                    to=$(module "$found")
                    [ "$to" != "$from" ] && printf 'E\t%s\t%s\t%s\n' "$from" "$to" "$where" ;;
                esac
            done
    done
} | awk -F "$tab" -v lib="$(show "$lib")" -v doc="$(show "$doc")" -v script="$0" '
    $1 == "L" { layer[$2] = $3; tmods[++ntmod] = $2; next }
    $1 == "D" {
        if ($2 in dlayer) {
            if (dlayer[$2] != $3) { print "boundaries: " doc ":" $4 " puts " $2 " in layer " $3 ", line " dline[$2] " in layer " dlayer[$2]; bad++ }
        } else { dlayer[$2] = $3; dline[$2] = $4; dmods[++ndmod] = $2 }
        next
    }
    $1 == "N" { if (!($2 in seen)) { seen[$2] = 1; mods[++nmod] = $2; first[$2] = $3 }; nfile++; next }
    $1 == "X" { print "boundaries: " $2; bad++; next }
    $1 == "E" {
        if (!(($2, $3) in why)) { why[$2, $3] = $4; adj[$2, ++nadj[$2]] = $3; nedge++ }
        next
    }
    # depth-first search; a edge to a module on the current path closes a circle
    function dfs(u, depth,    i, v, k, s) {
        color[u] = 1; path[depth] = u; pos[u] = depth
        for (i = 1; i <= nadj[u]; i++) {
            v = adj[u, i]
            if (color[v] == 1) {
                s = ""
                for (k = pos[v]; k <= depth; k++) s = s path[k] " -> "
                print "boundaries: modules of " lib " include each other in a circle: " s v
                for (k = pos[v]; k < depth; k++) print "    " why[path[k], path[k + 1]]
                print "    " why[u, v]
                bad++
            } else if (color[v] == 0)
                dfs(v, depth + 1)
        }
        color[u] = 2
    }
    END {
        for (m = 1; m <= nmod; m++) if (color[mods[m]] == 0) dfs(mods[m], 1)
        # the layers: every module has one, and no dependency goes up
        for (m = 1; m <= nmod; m++) {
            u = mods[m]
            if (!(u in layer)) {
                print "boundaries: " first[u] ": module " u " has no layer: give it one in the table of " script " and in " doc ", \"Layers\""
                bad++
                continue
            }
            for (i = 1; i <= nadj[u]; i++) {
                v = adj[u, i]
                if ((v in layer) && layer[v] < layer[u]) {
                    print "boundaries: " why[u, v] ": " u " (layer " layer[u] ") includes " v ", of the higher layer " layer[v]
                    bad++
                }
            }
        }
        # docs/design.md lists the layers of the table
        if (ndmod) {
            for (m = 1; m <= ntmod; m++) {
                u = tmods[m]
                if (!(u in dlayer)) { print "boundaries: " doc ", \"Layers\", names no file of module " u " (layer " layer[u] " in " script ")"; bad++ }
                else if (dlayer[u] != layer[u]) { print "boundaries: " doc ":" dline[u] " puts " u " in layer " dlayer[u] ", " script " in layer " layer[u]; bad++ }
            }
            for (m = 1; m <= ndmod; m++)
                if (!(dmods[m] in layer)) { print "boundaries: " doc ":" dline[dmods[m]] " puts " dmods[m] " in layer " dlayer[dmods[m]] "; " script " gives it none"; bad++ }
        }
        if (bad) exit 1
        printf "boundaries: ok: %d files (%d modules) in %s, %d dependencies between them; none includes a command-line header, no circle, none includes a higher layer%s\n", nfile, nmod, lib, nedge, ndmod ? " (" doc " lists the same layers)" : ""
    }'
