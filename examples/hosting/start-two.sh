#!/usr/bin/env bash
# Two `jantaku serve` processes on loopback behind Caddy or nginx, sharing one PostgreSQL database, all on this
# machine from Debian's packages (postgresql, caddy or nginx). See docs/guide/hosting.md.
#
#   examples/hosting/start-two.sh [start|stop|status]
#   PROXY=nginx examples/hosting/start-two.sh [start|stop|status]
#
# Settings (environment):
#   PROXY      the reverse proxy in front: caddy (the default) or nginx
#   DIR        where everything is kept: the database cluster, logs, pid files, the Caddyfile or nginx.conf
#              (default ./jantaku-hosting; as root, PostgreSQL runs as the postgres user, who must be able to
#              reach DIR: every folder above it must be searchable by others; so must nginx's workers, who then
#              run as nobody)
#   PORT       the port the proxy serves on (default 8080, on 127.0.0.1; with Caddy, SITE changes the address)
#   SITE       Caddy's site address (default http://127.0.0.1:$PORT; a domain name gets HTTPS from Caddy);
#              nginx always listens on 127.0.0.1:$PORT
#   APP_PORTS  the two jantaku processes' loopback ports (default "8101 8102")
#   JANTAKU    the jantaku command (default: jantaku)
#   SERVE_ARGS more options for both `jantaku serve` (e.g. "--pace fast --allowed-host mahjong.example.org")
#
# `start` makes the cluster on its first run (initdb, a database named jantaku, reachable only through a unix
# socket in a folder of DIR that only the cluster's owner, and root, may enter), starts it, starts both jantaku processes (they migrate the database on start, under a lock)
# and the proxy, and waits until a request through the proxy is answered. `stop` stops all of it, whichever proxy
# runs (the database stays in DIR). Nothing is installed: run `apt-get install postgresql caddy` (or nginx) first.
# nginx runs as the user who starts the script, with its own configuration, pid, logs and temporary files in DIR
# (nothing of the system's nginx is used or touched).
set -euo pipefail

SITE_GIVEN="${SITE+yes}"
PROXY="${PROXY:-caddy}"
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

case "$PROXY" in
caddy | nginx) ;;
*) die "unknown PROXY '$PROXY': caddy or nginx" ;;
esac

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

nginx_bin() { # Debian puts nginx in /usr/sbin, which a normal user's PATH may not hold
    if command -v nginx >/dev/null; then
        command -v nginx
    elif [ -x /usr/sbin/nginx ]; then
        echo /usr/sbin/nginx
    else
        die "nginx is not installed: apt-get install nginx"
    fi
}

running() { # running NAME: whether the process in DIR/NAME.pid runs
    [ -f "$DIR/$1.pid" ] && kill -0 "$(cat "$DIR/$1.pid")" 2>/dev/null
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
    local other=nginx
    if [ "$PROXY" = nginx ]; then
        other=caddy
        nginx_bin >/dev/null
        [ -z "$SITE_GIVEN" ] || die "SITE is Caddy's setting: nginx listens on 127.0.0.1:$PORT (HTTPS: see docs/guide/hosting.md)"
    else
        command -v caddy >/dev/null || die "Caddy is not installed: apt-get install caddy"
    fi
    if running "$other"; then
        die "$other runs in $DIR (pid $(cat "$DIR/$other.pid")): stop first to start with $PROXY"
    fi
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
    if [ "$PROXY" = nginx ]; then
        start_nginx "$upstreams"
    else
        start_caddy "$upstreams"
    fi
    echo "jantaku: open $SITE  (two processes on$upstreams, games in $URL; stop: $0 stop)"
}

start_caddy() { # start_caddy UPSTREAMS
    local upstreams="$1"
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
}

start_nginx() { # start_nginx UPSTREAMS: nginx as this user; its paths are relative to DIR (its prefix, -p)
    local servers="" address
    for address in $1; do
        servers="$servers        server $address max_fails=1 fail_timeout=10s;
"
    done
    mkdir -p "$DIR/nginx" # its temporary files' folders
    # \$ in the text below: nginx's own variables, written as they are
    cat >"$DIR/nginx.conf" <<EOF
# written by start-two.sh (each start writes it again); paths are relative to DIR
pid nginx.pid;
error_log nginx.log;
worker_processes auto;

events {
    worker_connections 1024;
}

http {
    client_body_temp_path nginx/body;
    proxy_temp_path nginx/proxy;
    fastcgi_temp_path nginx/fastcgi;
    uwsgi_temp_path nginx/uwsgi;
    scgi_temp_path nginx/scgi;
    access_log off;

    upstream jantaku {
        zone jantaku 64k;   # one round robin and one count of failures for all the workers
$servers    }

    map \$http_upgrade \$connection_upgrade {
        default upgrade;
        ''      close;
    }

    server {
        listen 127.0.0.1:$PORT;

        location / {
            proxy_pass http://jantaku;
            proxy_http_version 1.1;
            proxy_set_header Host \$http_host;   # with the port, as the page's Origin has it
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto \$scheme;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
            proxy_read_timeout 1h;   # a table's websocket may be quiet for a long time
            proxy_connect_timeout 5s;
            proxy_next_upstream error timeout;   # a process that does not answer: the other one
        }
    }
}
EOF
    if running nginx; then
        echo "nginx already runs (pid $(cat "$DIR/nginx.pid")): stop first to change its settings"
    else
        # it puts itself in the background (daemon on) once it listens, and writes DIR/nginx.pid
        "$(nginx_bin)" -p "$DIR/" -c "$DIR/nginx.conf" -e nginx.log >>"$DIR/nginx.log" 2>&1 ||
            die "nginx did not start: $(tail -n 5 "$DIR/nginx.log")"
    fi
    wait_for "$SITE/api/status" "nginx" "$DIR/nginx.log"
}

stop() {
    stop_pid caddy
    stop_pid nginx
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

status() { # PROXY's line, the other proxy's only while it runs
    local name
    for name in caddy nginx jantaku-1 jantaku-2; do
        if running "$name"; then
            echo "$name: running (pid $(cat "$DIR/$name.pid"))"
        elif [ "$name" = "$PROXY" ] || [ "${name#jantaku-}" != "$name" ]; then
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
