#!/usr/bin/env bash
# Checks the deploy kit: the systemd user unit (with systemd-analyze when it
# is installed) and the nginx reverse-proxy config (grep checks, plus
# `nginx -t` when nginx and openssl are installed).
#
# Usage: deploy/verify.sh            (from anywhere; exit 0 = all checks passed)
#        NGINX=/path/to/nginx deploy/verify.sh   to pick the nginx binary
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
unit="$here/othello.service"
conf="$here/nginx.conf"
multi="$here/nginx-instances.conf"
failures=0
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

ok() { printf 'ok: %s\n' "$1"; }
fail() {
    printf 'FAIL: %s\n' "$1" >&2
    failures=$((failures + 1))
}
skip() { printf 'skipped: %s\n' "$1"; }

# Extended-regex grep for a line in a file.
require() {
    local file="$1" pattern="$2" what="$3"
    if grep -Eq -- "$pattern" "$file"; then
        ok "$what"
    else
        fail "$what (no line matching '$pattern' in ${file#"$here"/})"
    fi
}

# --- systemd unit -----------------------------------------------------------
require "$unit" '^ExecStart=%h/othello3d/target/release/othello-server$' "unit starts the release server"
require "$unit" '^WorkingDirectory=%h/othello3d$' "unit working directory"
require "$unit" '^Environment=OTHELLO_LISTEN=127\.0\.0\.1:40085$' "unit listens on 127.0.0.1:40085"
require "$unit" '^Environment=OTHELLO_DATABASE=%h/othello3d/data/othello\.db$' "unit database path"
require "$unit" '^Environment=OTHELLO_PUBLIC_URL=' "unit public URL"
require "$unit" '^Environment=OTHELLO_SECURE_COOKIES=true$' "unit secure cookies"
require "$unit" '^Restart=on-failure$' "unit restarts on failure"
require "$unit" '^KillSignal=SIGTERM$' "unit stops with SIGTERM"
require "$unit" '^TimeoutStopSec=' "unit stop timeout"
require "$unit" '^WantedBy=default\.target$' "unit installs into default.target"

if command -v systemd-analyze >/dev/null 2>&1; then
    # %h expands to $HOME: point it at a scratch home holding a stub server so
    # that verify can check ExecStart without a real build or install.
    mkdir -p "$tmp/home/othello3d/target/release" "$tmp/home/othello3d/data"
    printf '#!/bin/sh\nexit 0\n' >"$tmp/home/othello3d/target/release/othello-server"
    chmod +x "$tmp/home/othello3d/target/release/othello-server"
    cp "$unit" "$tmp/othello.service"
    # verify prints warnings (unknown keys, bad values) but may still exit 0:
    # any output counts as a failure.
    if out="$(cd "$tmp" && HOME="$tmp/home" systemd-analyze verify "$tmp/othello.service" 2>&1)" && [ -z "$out" ]; then
        ok "systemd-analyze verify othello.service"
    else
        fail "systemd-analyze verify othello.service:"$'\n'"$out"
    fi
else
    skip "systemd-analyze not installed (unit syntax not verified)"
fi

# --- house bots unit ---------------------------------------------------------
bots_unit="$here/othello-house-bots.service"
require "$bots_unit" '^ExecStart=%h/othello3d/deploy/house-bots\.sh http://127\.0\.0\.1:40085 %h/othello3d/data/house-bots$' "house bots unit runs the bridges' script"
require "$bots_unit" '^Nice=10$' "house bots unit runs below the server's priority"
require "$bots_unit" '^Environment=OTHELLO_DATABASE=%h/othello3d/data/othello\.db$' "house bots unit names the site's database"
require "$bots_unit" '^After=othello\.service$' "house bots unit starts after the server"
require "$bots_unit" '^Restart=on-failure$' "house bots unit restarts on failure"
if bash -n "$here/house-bots.sh"; then
    ok "house-bots.sh parses"
else
    fail "house-bots.sh does not parse"
fi
if command -v systemd-analyze >/dev/null 2>&1; then
    mkdir -p "$tmp/home/othello3d/deploy"
    printf '#!/bin/sh\nexit 0\n' >"$tmp/home/othello3d/deploy/house-bots.sh"
    chmod +x "$tmp/home/othello3d/deploy/house-bots.sh"
    cp "$bots_unit" "$tmp/othello-house-bots.service"
    if out="$(cd "$tmp" && HOME="$tmp/home" systemd-analyze verify "$tmp/othello-house-bots.service" 2>&1)" && [ -z "$out" ]; then
        ok "systemd-analyze verify othello-house-bots.service"
    else
        fail "systemd-analyze verify othello-house-bots.service:"$'\n'"$out"
    fi
fi

# --- nginx reverse proxy ------------------------------------------------------
require "$conf" '^[[:space:]]*listen 443 ssl http2;' "nginx listens on 443 with TLS and HTTP/2"
require "$conf" 'return 301 https://\$host\$request_uri;' "nginx redirects port 80 to HTTPS"
require "$conf" '^[[:space:]]*location /ws/ \{' "nginx has a /ws/ location"
require "$conf" 'proxy_pass http://(127\.0\.0\.1:40085|othello_backend);' "nginx proxies to the server"
require "$conf" '^[[:space:]]*server 127\.0\.0\.1:40085;' "nginx upstream is 127.0.0.1:40085"
require "$conf" '^[[:space:]]*proxy_http_version 1\.1;' "nginx uses HTTP/1.1 upstream"
require "$conf" '^[[:space:]]*proxy_set_header Upgrade \$http_upgrade;' "nginx forwards the Upgrade header"
require "$conf" '^[[:space:]]*proxy_set_header Connection \$connection_upgrade;' "nginx forwards Connection: upgrade"
require "$conf" '^[[:space:]]*proxy_read_timeout [0-9]+[smhd]?;' "nginx sets a read timeout"
require "$conf" '^[[:space:]]*proxy_set_header X-Forwarded-For ' "nginx sets X-Forwarded-For"
require "$conf" '^[[:space:]]*proxy_set_header X-Forwarded-Proto \$scheme;' "nginx sets X-Forwarded-Proto"

require "$conf" '^[[:space:]]*add_header X-Content-Type-Options "nosniff" always;' "nginx sends nosniff"
require "$conf" '^[[:space:]]*add_header X-Frame-Options "DENY" always;' "nginx denies framing"
require "$conf" '^[[:space:]]*add_header Referrer-Policy "same-origin" always;' "nginx sets the referrer policy"
require "$conf" '^[[:space:]]*client_max_body_size 64k;' "nginx bounds request bodies like the server"
require "$conf" '^limit_req_zone .* rate=50r/s;' "nginx rate-limits per address like the server"
require "$conf" '^[[:space:]]*limit_req_status 429;' "nginx answers 429 past the rate"
require "$conf" '^[[:space:]]*limit_conn othello_conn [0-9]+;' "nginx bounds connections per address"
require "$unit" '^Environment=OTHELLO_CLIENT_IP_HEADER=X-Real-IP$' "unit reads the client address from X-Real-IP"

# Caching stays the server's (hashed static files immutable, pages no-store):
# nothing in the proxy may override or drop its Cache-Control.
reject() {
    local file="$1" pattern="$2" what="$3"
    if grep -Ev '^[[:space:]]*#' "$file" | grep -Eq -- "$pattern"; then
        fail "$what (a line matches '$pattern' in ${file#"$here"/})"
    else
        ok "$what"
    fi
}
reject "$conf" '(^|[[:space:]])expires[[:space:]]' "nginx sets no expires of its own"
reject "$conf" 'add_header[[:space:]]+Cache-Control' "nginx adds no Cache-Control of its own"
reject "$conf" 'proxy_(hide|ignore)_header[s]?[[:space:]].*(Cache-Control|Expires)' "nginx passes the server's Cache-Control on"
reject "$conf" 'proxy_cache[[:space:]]+[^o]' "nginx keeps no proxy cache of pages"

# The Upgrade/Connection lines must sit inside the /ws/ block.
if awk '/location \/ws\/ \{/{inws=1} inws && /proxy_set_header Upgrade/{u=1} inws && /proxy_set_header Connection \$connection_upgrade/{c=1} inws && /^[[:space:]]*\}/{inws=0} END{exit !(u && c)}' "$conf"; then
    ok "nginx /ws/ block carries the upgrade headers"
else
    fail "nginx /ws/ block lacks the Upgrade/Connection headers"
fi

# --- several instances on PostgreSQL ------------------------------------------
require "$multi" '^[[:space:]]*least_conn;' "instances: upstream balances by least_conn"
if [ "$(grep -Ec '^[[:space:]]*server [0-9.]+:[0-9]+' "$multi")" -ge 2 ]; then
    ok "instances: upstream lists several servers"
else
    fail "instances: upstream lists fewer than two servers"
fi
reject "$multi" '(^|[[:space:]])(ip_hash|sticky|hash)[[:space:]]*[;$]' "instances: no sticky sessions"
reject "$multi" '(^|[[:space:]])hash[[:space:]]' "instances: no hash balancing"
require "$multi" 'proxy_pass http://othello_instances;' "instances: proxies to the upstream"
if awk '/location \/ws\/ \{/{inws=1} inws && /proxy_set_header Upgrade/{u=1} inws && /proxy_set_header Connection \$connection_upgrade/{c=1} inws && /^[[:space:]]*\}/{inws=0} END{exit !(u && c)}' "$multi"; then
    ok "instances: /ws/ block carries the upgrade headers"
else
    fail "instances: /ws/ block lacks the Upgrade/Connection headers"
fi

nginx_bin="${NGINX:-$(command -v nginx 2>/dev/null || true)}"
if [ -n "$nginx_bin" ] && [ -x "$nginx_bin" ] && command -v openssl >/dev/null 2>&1; then
    mkdir -p "$tmp/nginx/logs"
    openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=othello.example.com \
        -keyout "$tmp/key.pem" -out "$tmp/cert.pem" >/dev/null 2>&1
    for checked in "$conf" "$multi"; do
        name="${checked#"$here"/}"
        sed -e "s#/etc/letsencrypt/live/othello.example.com/fullchain.pem#$tmp/cert.pem#" \
            -e "s#/etc/letsencrypt/live/othello.example.com/privkey.pem#$tmp/key.pem#" \
            "$checked" >"$tmp/site.conf"
        cat >"$tmp/main.conf" <<CONF
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/logs/error.log;
events {}
http {
    access_log off;
    client_body_temp_path $tmp/nginx/cb;
    proxy_temp_path $tmp/nginx/pt;
    fastcgi_temp_path $tmp/nginx/ft;
    uwsgi_temp_path $tmp/nginx/ut;
    scgi_temp_path $tmp/nginx/st;
    include $tmp/site.conf;
}
CONF
        if out="$("$nginx_bin" -t -q -p "$tmp/nginx" -c "$tmp/main.conf" -e "$tmp/nginx/logs/error.log" 2>&1)"; then
            ok "nginx -t accepts $name"
        else
            fail "nginx -t rejects $name:"$'\n'"$out"
        fi
    done
else
    skip "nginx -t (nginx or openssl not installed)"
fi

if [ "$failures" -ne 0 ]; then
    printf 'deploy/verify.sh: %d check(s) failed\n' "$failures" >&2
    exit 1
fi
echo "deploy/verify.sh: all checks passed"
