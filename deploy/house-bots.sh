#!/usr/bin/env bash
# The site's house bots (docs/PRODUCT.md, Bots): sets their accounts and
# tokens up (`othello-server admin house-bots`, one line per bot: name,
# deepest search, token file, what was done), then runs one `othello bot`
# bridge per bot, driving `othello nboard`, at a lower CPU priority than the
# server (nice 10). The bots play through the Bot API like any other.
#
# Usage: deploy/house-bots.sh SITE_URL TOKEN_DIR [server options…]
#   SITE_URL   where the bridges find the site (http://127.0.0.1:40085)
#   TOKEN_DIR  where the tokens are kept (mode 0600 files)
#   server options: what names the database, as the server was started
#   (--database …), unless OTHELLO_DATABASE is set.
# OTHELLO_SERVER_BIN and OTHELLO_BIN name the two programs (default: on PATH).
# Stops every bridge when stopped (SIGTERM/SIGINT) or when one of them ends,
# with that one's failure, so a service manager starts them again.
set -euo pipefail

if [ "$#" -lt 2 ]; then
    echo "usage: $0 SITE_URL TOKEN_DIR [server options…]" >&2
    exit 2
fi
url="$1"
dir="$2"
shift 2
server_bin="${OTHELLO_SERVER_BIN:-othello-server}"
othello_bin="${OTHELLO_BIN:-othello}"

mkdir -p "$dir"
chmod 700 "$dir"
list="$("$server_bin" "$@" admin house-bots --dir "$dir")"
printf '%s\n' "$list"

pids=()
stop() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap 'stop; exit 0' TERM INT
while read -r name depth file _; do
    nice -n 10 "$othello_bin" bot --server "$url" --token "$file" \
        --engine "$othello_bin nboard" --max-depth "$depth" &
    pids+=("$!")
    echo "house bot $name: bridge $! (deepest search $depth)"
done <<<"$list"

status=0
wait -n || status=$?
stop
wait || true
exit "$status"
