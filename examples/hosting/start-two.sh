#!/usr/bin/env bash
# Two `jantaku serve` processes on loopback behind Caddy, sharing one PostgreSQL database, all on this machine
# from Debian's packages (postgresql, caddy). See docs/guide/hosting.md.
#
#   examples/hosting/start-two.sh [start|stop|status]
#
# Settings (environment):
#   DIR        where everything is kept: the database cluster, logs, pid files, the Caddyfile
#              (default ./jantaku-hosting; as root, PostgreSQL runs as the postgres user, who must be able to
#              reach DIR: every folder above it must be searchable by others)
#   PORT       the port Caddy serves on (default 8080, on 127.0.0.1; SITE changes the address)
#   SITE       Caddy's site address (default http://127.0.0.1:$PORT; a domain name gets HTTPS from Caddy)
#   APP_PORTS  the two jantaku processes' loopback ports (default "8101 8102")
#   JANTAKU    the jantaku command (default: jantaku)
#   SERVE_ARGS more options for both `jantaku serve` (e.g. "--pace fast --allowed-host mahjong.example.org")
#
# `start` makes the cluster on its first run (initdb, a database named jantaku, reachable only through a unix
# socket in a folder of DIR that only the cluster's owner, and root, may enter), starts it, starts both jantaku processes (they migrate the database on start, under a lock)
# and Caddy, and waits until a request through Caddy is answered. `stop` stops all of it (the database stays in
# DIR). Nothing is installed: run `apt-get install postgresql caddy` first.
set -euo pipefail

DIR="${DIR:-./jantaku-hosting}"
PORT="${PORT:-8080}"
SITE="${SITE:-http://127.0.0.1:$PORT}"
APP_PORTS="${APP_PORTS:-8101 8102}"
JANTAKU="${JANTAKU:-jantaku}"
SERVE_ARGS="${SERVE_ARGS:-}"

die() {
    echo "start-two.sh: $*" >&2
    exit 1
}

mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd)"
PG="$DIR/postgres"
SOCK="$PG/sock"
URL="postgresql://postgres@/jantaku?host=$SOCK"

pg_bin() {
    local found
    found="$(find /usr/lib/postgresql -path '*/bin/initdb' 2>/dev/null | sort -V | tail -n 1)"
    [ -n "$found" ] || die "PostgreSQL's server is not installed: apt-get install postgresql"
    dirname "$found"
}

as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

stop_pid() { # stop_pid NAME: the process in DIR/NAME.pid, if it still runs
    local file="$DIR/$1.pid" pid
    [ -f "$file" ] || return 0
    pid="$(cat "$file")"
    if kill -0 "$pid" 2>/dev/null; then
        kill "$pid"
        for _ in $(seq 1 100); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
    fi
    rm -f "$file"
}

answers() { # answers URL: whether a GET of URL succeeds
    curl -fs -o /dev/null --max-time 5 "$1"
}

wait_for() { # wait_for URL WHAT LOG
    for _ in $(seq 1 300); do
        answers "$1" && return 0
        sleep 0.2
    done
    echo "--- $3:" >&2
    tail -n 20 "$3" >&2 || true
    die "$2 did not answer at $1"
}

start() {
    command -v caddy >/dev/null || die "Caddy is not installed: apt-get install caddy"
    command -v "$JANTAKU" >/dev/null || die "no '$JANTAKU' command: pip install 'jantaku[web]' (or set JANTAKU)"
    local bin
    bin="$(pg_bin)"
    if [ ! -f "$PG/data/PG_VERSION" ]; then
        mkdir -p "$PG/data" "$SOCK"
        chmod 700 "$PG" "$SOCK" # the socket's folder is the database's only door: its owner (and root) alone
        if [ "$(id -u)" = 0 ]; then chown -R postgres:postgres "$PG"; fi
        as_postgres "$bin/initdb" -D "$PG/data" -A trust -U postgres >"$DIR/initdb.log" 2>&1 ||
            die "initdb failed (see $DIR/initdb.log; as root, can the postgres user reach $DIR?)"
    fi
    if ! as_postgres "$bin/pg_ctl" -D "$PG/data" status >/dev/null 2>&1; then
        as_postgres "$bin/pg_ctl" -D "$PG/data" -w -l "$PG/log" \
            -o "-k $SOCK -c listen_addresses='' -p 5432" start >/dev/null ||
            die "PostgreSQL did not start (see $PG/log)"
    fi
    if [ -z "$(as_postgres "$bin/psql" -h "$SOCK" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'jantaku'")" ]; then
        as_postgres "$bin/createdb" -h "$SOCK" -U postgres jantaku
    fi
    local n=0 upstreams="" port
    for port in $APP_PORTS; do
        n=$((n + 1))
        if [ -f "$DIR/jantaku-$n.pid" ] && kill -0 "$(cat "$DIR/jantaku-$n.pid")" 2>/dev/null; then
            echo "jantaku $n already runs (pid $(cat "$DIR/jantaku-$n.pid"))"
        else
            # shellcheck disable=SC2086 # SERVE_ARGS is several options
            "$JANTAKU" serve --host 127.0.0.1 --port "$port" --db "$URL" --proxy 127.0.0.1 $SERVE_ARGS \
                >"$DIR/jantaku-$n.log" 2>&1 &
            echo $! >"$DIR/jantaku-$n.pid"
        fi
        upstreams="$upstreams 127.0.0.1:$port"
    done
    n=0
    for port in $APP_PORTS; do
        n=$((n + 1))
        wait_for "http://127.0.0.1:$port/api/status" "jantaku $n" "$DIR/jantaku-$n.log"
    done
    cat >"$DIR/Caddyfile" <<EOF
{
	admin off
}

$SITE {
	reverse_proxy$upstreams {
		lb_policy round_robin
		lb_try_duration 5s
		fail_duration 10s
		health_uri /api/status
		health_interval 2s
	}
}
EOF
    if [ -f "$DIR/caddy.pid" ] && kill -0 "$(cat "$DIR/caddy.pid")" 2>/dev/null; then
        echo "Caddy already runs (pid $(cat "$DIR/caddy.pid")): stop first to change its settings"
    else
        XDG_DATA_HOME="$DIR/caddy" XDG_CONFIG_HOME="$DIR/caddy" \
            caddy run --config "$DIR/Caddyfile" --adapter caddyfile >"$DIR/caddy.log" 2>&1 &
        echo $! >"$DIR/caddy.pid"
    fi
    wait_for "$SITE/api/status" "Caddy" "$DIR/caddy.log"
    echo "jantaku: open $SITE  (two processes on$upstreams, games in $URL; stop: $0 stop)"
}

stop() {
    stop_pid caddy
    local n=0 port
    for port in $APP_PORTS; do
        n=$((n + 1))
        stop_pid "jantaku-$n"
    done
    if [ -f "$PG/data/PG_VERSION" ]; then
        as_postgres "$(pg_bin)/pg_ctl" -D "$PG/data" -m fast stop >/dev/null 2>&1 || true
    fi
    echo "stopped (the database stays in $PG)"
}

status() {
    local name
    for name in caddy jantaku-1 jantaku-2; do
        if [ -f "$DIR/$name.pid" ] && kill -0 "$(cat "$DIR/$name.pid")" 2>/dev/null; then
            echo "$name: running (pid $(cat "$DIR/$name.pid"))"
        else
            echo "$name: stopped"
        fi
    done
}

case "${1:-start}" in
start) start ;;
stop) stop ;;
status) status ;;
*) die "unknown command '$1': start, stop or status" ;;
esac
