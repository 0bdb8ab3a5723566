#!/usr/bin/env bash
# Small endgames (14-20 empties, engine/tests/data/small14-20.obf): Edax
# against `othello`, one thread each, whole files alternating so that both
# see the same machine load; per round the CPU seconds of each and the
# ratio ours/Edax (issue 45: at most 1.0).
#
#   engine/scripts/small-side-by-side.sh [ROUNDS] [FILE]
#
# EDAX_DIR: as for side-by-side.sh (Edax 4.6 built with `make build
# ARCH=x86-64-v3 CC=gcc`, an all-zero data/eval.dat). Default /work/edax.
# OTHELLO: the release `othello` binary. Default target/release/othello.
# EVAL=1: also time `othello solve-file --eval` (the evaluation-ordered
# solver) each round.
#
# Edax: one `-solve FILE` process (-n-tasks 1, -book-usage off, -level 60),
# its "cpu =" total; its scores are checked against ours. Ours: one
# `othello solve-file FILE` process (the plain exact solver; exit 1 on a
# wrong score), its "total: ... s CPU" line.
set -euo pipefail
ROUNDS=${1:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FILE=$(realpath "${2:-$ROOT/tests/data/small14-20.obf}")
EDAX_DIR=${EDAX_DIR:-/work/edax}
EDAX=$EDAX_DIR/bin/lEdax-x86-64-v3
OTHELLO=$(realpath "${OTHELLO:-target/release/othello}")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

to_secs() { # 0:00.612 or 1:02.300 -> seconds
    echo "$1" | awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }'
}

edax_file() { # prints "cpu nodes"
    (cd "$EDAX_DIR" && "$EDAX" -n-tasks 1 -book-usage off -level 60 -solve "$FILE" > "$TMP/edax.txt" 2>&1)
    local summary
    summary=$(grep 'nodes in' "$TMP/edax.txt" | tail -1)
    grep -E '^ +[0-9]+\|' "$TMP/edax.txt" | awk -F'|' '{split($2, a, " "); print a[2] + 0}' > "$TMP/edax-scores.txt"
    echo "$(to_secs "$(echo "$summary" | sed -E 's/.*cpu = +([0-9:.]+).*/\1/')") $(echo "$summary" | sed -E 's/.*: ([0-9]+) nodes in.*/\1/')"
}

ours_file() { # prints "cpu nodes"; fails on a wrong score
    "$OTHELLO" solve-file "$FILE" "$@" > "$TMP/ours.txt"
    sed -nE 's/^line [0-9]+ .*: score ([+-]?[0-9]+) .*/\1/p' "$TMP/ours.txt" | awk '{print $1 + 0}' > "$TMP/ours-scores.txt"
    tail -1 "$TMP/ours.txt" | sed -E 's/^total: ([0-9]+) nodes in ([0-9.]+)s CPU.*/\2 \1/'
}

echo "# $(date -u '+%F %T UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $FILE: $(grep -c . "$FILE") positions; $OTHELLO"
for r in $(seq 1 "$ROUNDS"); do
    read -r e_cpu e_nodes < <(edax_file)
    read -r o_cpu o_nodes < <(ours_file)
    cmp -s "$TMP/edax-scores.txt" "$TMP/ours-scores.txt" || { echo "scores differ between Edax and othello"; exit 1; }
    line="round $r: edax ${e_cpu}s ($e_nodes nodes), othello ${o_cpu}s ($o_nodes nodes), ratio $(awk -v a="$o_cpu" -v b="$e_cpu" 'BEGIN {printf "%.3f", a / b}')"
    if [ "${EVAL:-0}" = 1 ]; then
        read -r v_cpu v_nodes < <(ours_file --eval)
        line="$line; --eval ${v_cpu}s ($v_nodes nodes), ratio $(awk -v a="$v_cpu" -v b="$e_cpu" 'BEGIN {printf "%.3f", a / b}')"
    fi
    echo "$line"
done
echo "# done $(date -u '+%T UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
