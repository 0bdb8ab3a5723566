#!/usr/bin/env bash
# Side-by-side speed of Edax and `othello` on the rows of issue 15, one
# thread each, alternating runs so that both see the same machine load.
#
#   engine/scripts/side-by-side.sh [ROUNDS]
#
# EDAX_DIR: an Edax 4.6 checkout built with `make build ARCH=x86-64-v3 CC=gcc`
# in src/ (binary bin/lEdax-x86-64-v3) with data/eval.dat (an all-zero
# evaluation file works: exact scores stay right) and data/book.dat (Edax
# creates one on its first interactive run). Default /work/edax.
# OTHELLO: the release `othello` binary. Default target/release/othello.
#
# Rows: perft 11 from the start (CPU seconds of the last ply: Edax's own
# per-ply getrusage figure; `othello bench perft`'s CPU time) and FFO #40-#44
# solved exactly, position by position alternating (Edax -solve: its "cpu ="
# figure and node count; `othello solve`: its cpu figure), summed. Prints
# one line per program and row per round.
set -euo pipefail
ROUNDS=${1:-3}
EDAX_DIR=${EDAX_DIR:-/work/edax}
EDAX=$EDAX_DIR/bin/lEdax-x86-64-v3
OTHELLO=${OTHELLO:-target/release/othello}
FFO=$(cd "$(dirname "$0")/.." && pwd)/tests/data/ffo40-44.obf
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

edax_perft() {
    local out=$TMP/edax-perft.txt
    : > "$out"
    # Edax reads stdin on its own thread: keep it open until the count is done.
    (echo "perft 11"; until grep -q '^Total' "$out" 2>/dev/null; do sleep 0.2; done; echo quit) |
        (cd "$EDAX_DIR" && "$EDAX" -n-tasks 1 -book-usage off > "$out" 2>&1)
    # "  11,       212258800, ..., 0:00.612, ..."
    local t
    t=$(grep -E '^ +11,' "$out" | grep -oE '[0-9]+:[0-9]{2}\.[0-9]{3}' | head -1)
    echo "edax    perft 11: $(grep -E '^ +11,' "$out" | awk -F, '{gsub(/ /,"",$2); print $2}') leaves, cpu $(to_secs "$t") s"
}

# FFO #40-#44 one position at a time, Edax then othello on the same
# position, so that both see the same load; prints the totals.
ffo_pair() {
    local edax_cpu=0 edax_nodes=0 ours_cpu=0 ours_nodes=0 edax_scores="" ours_scores=""
    while IFS= read -r line; do
        echo "$line" > "$TMP/one.obf"
        local out=$TMP/edax-ffo.txt
        (cd "$EDAX_DIR" && "$EDAX" -n-tasks 1 -book-usage off -level 60 -solve "$TMP/one.obf" > "$out" 2>&1)
        local summary t nodes
        summary=$(grep 'nodes in' "$out" | tail -1)
        t=$(echo "$summary" | sed -E 's/.*cpu = +([0-9:.]+).*/\1/')
        nodes=$(echo "$summary" | sed -E 's/.*: ([0-9]+) nodes in.*/\1/')
        edax_cpu=$(awk -v a="$edax_cpu" -v b="$(to_secs "$t")" 'BEGIN {print a + b}')
        edax_nodes=$((edax_nodes + nodes))
        edax_scores="$edax_scores$(grep -E '^ +[0-9]+\|' "$out" | awk -F'|' '{split($2, a, " "); print a[2]}') "
        # othello: "score +38 best a2 nodes 19405486 time 1.2s cpu 1.1s"
        local ours
        ours=$("$OTHELLO" solve "${line%%;*}")
        ours_cpu=$(awk -v a="$ours_cpu" -v b="$(echo "$ours" | sed -E 's/.*cpu ([0-9.]+)s.*/\1/')" 'BEGIN {print a + b}')
        ours_nodes=$((ours_nodes + $(echo "$ours" | awk '{print $6}')))
        ours_scores="$ours_scores$(echo "$ours" | awk '{print $2}') "
    done < "$FFO"
    echo "edax    FFO #40-#44: $edax_nodes nodes, cpu $edax_cpu s, scores $edax_scores"
    echo "othello FFO #40-#44: $ours_nodes nodes, cpu $ours_cpu s, scores $ours_scores"
}

to_secs() { # 0:00.612 or 1:02.300 -> seconds
    echo "$1" | awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }'
}

ours_perft() {
    echo "othello $("$OTHELLO" bench perft | grep 'perft 11')"
}

echo "# $(date -u '+%F %T UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$ROUNDS"); do
    echo "## round $r"
    edax_perft
    ours_perft
    ffo_pair
done
echo "# done $(date -u '+%T UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
