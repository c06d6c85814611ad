#!/bin/sh
# boundaries.sh [ROOT]: the boundaries of the library (docs/design.md), checked from the
# quoted includes of the source tree at ROOT (default: the current directory).
#
#   1. No file of src/lib includes a header of the command line (a header that lives in
#      src/cli/): the library must build and make sense without the program.
#   2. The modules of src/lib do not include each other in a circle.  A module is a file
#      name without its extension (keys.c and keys.h are the module keys); module A
#      depends on B when A.c or A.h includes "B.h" and that header is a file of src/lib.
#
# A quoted include "S" of src/lib/F is looked up as the compiler of the library does
# (-Iinclude -Isrc/lib): next to F, then in include/, then in src/lib/; a header found in
# none of them but present in src/cli/ (the program's -Isrc/cli) counts as the command
# line's too.  Angle-bracket includes are system headers and are not looked at.
#
# Prints one line per problem, naming the files, and exits 1; prints a summary and exits
# 0 when both hold; exits 2 when ROOT has no src/lib.  POSIX sh, find, grep, sed, awk.

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

{
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
} | awk -F "$tab" -v lib="$(show "$lib")" '
    $1 == "N" { if (!($2 in seen)) { seen[$2] = 1; mods[++nmod] = $2 }; nfile++; next }
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
        if (bad) exit 1
        printf "boundaries: ok: %d files (%d modules) in %s, %d dependencies between them; none includes a command-line header, no circle\n", nfile, nmod, lib, nedge
    }'
