#!/bin/sh
# design_modules.sh [ROOT]: the module table of docs/design.md matches the files, one line
# each.  The module table is the first table of ROOT/docs/design.md whose first column is
# headed `file`; the files a row names are the `backquoted` names in its first cell.
#
#   - every file under src/ (the library and the command line: .c and .h, and the page of
#     `pala view`: src/cli/view/) and under include/pala/ is named in the table;
#   - every name in the table exists (a file, or a folder such as `tests/`);
#   - a row names one module: a .c and its .h may share a row (`src/lib/keys.c`,
#     `src/lib/keys.h`), two modules may not; no file is named on two rows.
#
# Prints one line per problem (docs/design.md:LINE for the table's side) and exits 1;
# prints a summary and exits 0 when the table and the files agree.  POSIX sh, find, awk.

root=${1:-.}
doc=$root/docs/design.md
if [ ! -f "$doc" ]; then
    echo "design: no file $doc" >&2
    exit 2
fi
show_doc=${doc#./}

{
    [ -d "$root/src" ] && find "$root/src" -type f
    [ -d "$root/include/pala" ] && find "$root/include/pala" -type f
} | sed "s|^$root/||" | sort | awk -v root="$root" -v doc="$show_doc" -v docfile="$doc" '
    # the files of the tree (standard input), then the document
    FILENAME != docfile { files[++nfile] = $0; next }
    !done && !intable && /^\|[ \t]*file[ \t]*\|/ { intable = 1; tableline = FNR; next }
    intable && !/^\|/ { intable = 0; done = 1 }
    intable && /^\|[-: |]*$/ { next }
    intable {
        nrow++
        cell = $0
        sub(/^\|/, "", cell)
        sub(/\|.*/, "", cell)
        mod = ""; mods = ""; several = 0; n = 0
        while (match(cell, /`[^`]*`/)) {
            name = substr(cell, RSTART + 1, RLENGTH - 2)
            cell = substr(cell, RSTART + RLENGTH)
            n++
            if (name in row) {
                print "design: " doc ":" FNR " names " name ", already named on line " row[name]
                bad++
            } else
                row[name] = FNR
            if (index(name, "\047") || system("test -e \047" root "/" name "\047") != 0) {
                print "design: " doc ":" FNR " names " name ", which does not exist"
                bad++
            }
            if (name ~ /^(src|include)\//) {
                m = name
                sub(/\.[^.\/]*$/, "", m)
                if (mod == "") { mod = m; mods = m }
                else if (index(" " mods " ", " " m " ") == 0) { several = 1; mods = mods " " m }
            }
        }
        if (n == 0) { print "design: " doc ":" FNR " names no file (no `name` in its first cell)"; bad++ }
        if (several) {
            gsub(/ /, ", ", mods)
            print "design: " doc ":" FNR " names several modules on one line: " mods
            bad++
        }
        next
    }
    END {
        if (!tableline) {
            print "design: " doc " has no module table (a table whose first column is headed `file`)"
            exit 1
        }
        for (i = 1; i <= nfile; i++)
            if (!(files[i] in row)) {
                print "design: " files[i] " is not in the module table of " doc " (line " tableline ")"
                bad++
            }
        if (bad) exit 1
        printf "design: ok: the %d files under src/ and include/pala/ are each named in the module table of %s (line %d, %d rows), and every name there exists\n", nfile, doc, tableline, nrow
    }' - "$doc"
