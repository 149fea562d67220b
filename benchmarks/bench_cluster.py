"""The web table on two processes against one, under the same load (issue 37): ``--tables`` tables (default 200),
each of one person and three bots at ``jantaku serve``'s default pace, for ``--seconds`` (default 60), on this
machine only (127.0.0.1 and a PostgreSQL unix socket).

For each setup it starts ``jantaku serve`` itself on free loopback ports, every process on one PostgreSQL database
(a throwaway cluster it makes and removes, the way tests/pgserver.py does, or a fresh schema of ``--db``):

- ``two``: two processes, the tables created on each in turn; each person plays through the process its table was
  created on, and a spectator of the table watches through the *other* process (what a person sees when a proxy
  sends the people of one table to different processes);
- ``one``: one process, the person and the spectator both on it.

The person is a websocket client, as the page is: it acts by sending ``{"type": "act"}`` on its socket after a
short think (uniform in 0 to ``2 * --think`` seconds, default mean 0.5 s): a win when offered, else half the time
the drawn tile (or a pass), else a random legal action; it closes each finished hand's result panel (``POST
/ready``) after the same think, and starts a new table when its game is over. Measured, from the end of the
``--warmup`` seconds that follow the last table's creation to the end:

- **move**: from sending an action to the next message on the person's own socket (the pushed view that
  acknowledges it, or the error that refuses it: refusals are counted apart);
- **push**: for each of the person's discards, from sending it to the spectator's socket (on the other process
  in ``two``) showing it in the river.

It prints p50 / p99 / max of each per setup, the ratio of ``two`` to ``one``, the moves and refusals counted, and the
processor seconds the servers, PostgreSQL and this client used (on a small machine they share the cores: the
client's own work is part of every figure). ``--json FILE`` writes it all.

    python benchmarks/bench_cluster.py                          # 200 tables, 60 s per setup, two then one
    python benchmarks/bench_cluster.py --tables 20 --seconds 20 --json cluster.json
    python benchmarks/bench_cluster.py --db postgresql://me@/jantaku?host=/run/postgresql --setups two

Needs PostgreSQL's server binaries (``apt-get install postgresql``) unless ``--db`` is given. Not a test: no
figure is asserted anywhere; the figures depend on the machine and what else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import pwd
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

HOST = "127.0.0.1"
SETUPS = {"two": 2, "one": 1}
"""The setups: how many server processes each has."""


# -- a throwaway PostgreSQL --------------------------------------------------------------------------------------


class Postgres:
    """A PostgreSQL cluster in a temporary folder, reachable only through its unix socket there (run as the
    ``postgres`` user when this runs as root), or an existing database (``url``): :meth:`schema` gives each setup a
    fresh schema of it."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url
        self.tmp: Path | None = None
        self.pids: list[int] = []
        if url is not None:
            return
        initdb, self.pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
        self.tmp = Path(tempfile.mkdtemp(prefix="jantaku-bench-pg-"))
        self.data, sock = self.tmp / "data", self.tmp / "sock"
        sock.mkdir()
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # the server refuses to run as root
            pw = pwd.getpwnam("postgres")
            for path in (self.tmp, sock):
                os.chown(path, pw.pw_uid, pw.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        quiet = {"check": True, "capture_output": True, "text": True}
        subprocess.run([*self.as_user, initdb, "-D", str(self.data), "-A", "trust", "-U", "postgres"], **quiet)
        opts = f"-k {sock} -c listen_addresses='' -c max_connections=200"
        log = str(self.tmp / "log")
        start = [*self.as_user, self.pg_ctl, "-D", str(self.data), "-o", opts, "-w", "-l", log, "start"]
        subprocess.run(start, **quiet)
        self.url = f"postgresql://postgres@/postgres?host={sock}"

    def schema(self) -> str:
        """A URL of the database whose tables live in a new, empty schema."""
        import sqlalchemy as sa

        assert self.url is not None
        name = "bench_" + uuid.uuid4().hex[:12]
        scheme, rest = self.url.split("://", 1)
        engine = sa.create_engine(f"postgresql+psycopg://{rest}" if scheme.startswith("postgres") else self.url)
        with engine.begin() as conn:
            conn.exec_driver_sql(f"CREATE SCHEMA {name}")
        engine.dispose()
        return f"{self.url}{'&' if '?' in self.url else '?'}options=-csearch_path%3D{name}"

    def cpu_seconds(self) -> float:
        """Processor seconds used so far by the cluster's processes (0 for an existing database)."""
        if self.tmp is None:
            return 0.0
        pid_file = self.data / "postmaster.pid"
        try:
            main = int(pid_file.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return 0.0
        return sum(_cpu(p) for p in [main, *_children(main)])

    def stop(self) -> None:
        """Stop the cluster and remove its folder (an existing database is left alone)."""
        if self.tmp is None:
            return
        subprocess.run(
            [*self.as_user, self.pg_ctl, "-D", str(self.data), "-m", "fast", "stop"], capture_output=True, check=False
        )
        shutil.rmtree(self.tmp, ignore_errors=True)


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [p for p in [shutil.which(name)] if p]
    if not found:
        raise SystemExit(f"bench_cluster: PostgreSQL's {name} is missing: apt-get install postgresql, or give --db URL")
    return found[-1]


def _cpu(pid: int) -> float:
    """Processor seconds (user + system) of process ``pid`` so far, from /proc (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(") ", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


# -- the servers ---------------------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _get(url: str, body: dict[str, Any] | None = None, timeout: float = 30.0) -> tuple[int, dict[str, Any]]:
    """GET ``url``, or POST ``body`` as JSON: the status and the JSON answer."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


@dataclass
class Server:
    """A ``jantaku serve`` process of the benchmark."""

    proc: subprocess.Popen[bytes]
    base: str
    log: Path

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def start_server(db: str, tables: int, folder: Path) -> Server:
    """``jantaku serve`` on a free loopback port, on database ``db``, with its caps opened for one address's many
    sockets and tables (the defaults of pace and result are kept); returned once it answers and, on PostgreSQL,
    listens to the other processes."""
    port = _free_port()
    log = folder / f"serve-{port}.log"
    command = [sys.executable, "-m", "jantaku.cli", "serve", "--host", HOST, "--port", str(port), "--db", db]
    command += ["--tables-per-minute", "0", "--max-sockets", "0", "--max-sockets-per-address", "0"]
    command += ["--max-tables", str(max(1000, 3 * tables)), "--heavy-workers", "1"]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, cwd=folder, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    server = Server(proc, f"http://{HOST}:{port}/", log)
    deadline = time.monotonic() + 90
    while True:
        try:
            code, status = _get(server.base + "api/status", timeout=5)
            cluster = status.get("cluster")
            if code == 200 and (cluster is None or cluster.get("listening")):
                return server
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            server.stop()
            tail = log.read_text(errors="replace").strip().splitlines()[-5:]
            raise SystemExit(f"bench_cluster: jantaku serve did not start: {' | '.join(tail)}")
        time.sleep(0.2)


# -- the people ------------------------------------------------------------------------------------------------


@dataclass
class Samples:
    """What one setup measured."""

    move: list[float] = field(default_factory=list)
    push: list[float] = field(default_factory=list)
    moves: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    tables: int = 0
    hands: int = 0
    games: int = 0
    measuring: bool = False

    def error(self, kind: str, where: dict[str, int] | None = None) -> None:
        where = self.errors if where is None else where
        where[kind] = where.get(kind, 0) + 1


def choose(actions: list[dict[str, Any]], rng: random.Random) -> int:
    """A person's choice: a win when offered; else half the time the drawn tile (or no call); else any legal
    action."""
    for a in actions:
        if a["type"] in ("tsumo", "ron"):
            return a["index"]
    if rng.random() < 0.5:
        for a in actions:
            if a["type"] == "none" or (a["type"] == "dahai" and a.get("tsumogiri")):
                return a["index"]
    return rng.choice(actions)["index"]


def _ws(base: str, table_id: str, token: str) -> str:
    return base.replace("http", "ws", 1) + f"ws/tables/{table_id}?token={token}"


async def person(home: str, other: str, samples: Samples, args: argparse.Namespace, until: float, seed: int) -> None:
    """Table after table through ``home`` (its spectator on ``other``) until ``until``: see the module docs."""
    rng = random.Random(seed)
    think = args.think
    body = {"rules": "tenhou", "seats": ["human", args.bot, args.bot, args.bot]}
    while time.monotonic() < until:
        try:
            code, made = await asyncio.to_thread(_get, home + "api/tables", body)
        except OSError as e:
            samples.error(f"create: {type(e).__name__}")
            await asyncio.sleep(1.0)
            continue
        if code != 201:
            samples.error(f"create: {code}")
            await asyncio.sleep(1.0)
            continue
        samples.tables += 1
        token, table_id = made["seats"][0]["token"], made["id"]
        watch = made["spectator_link"].split("watch=", 1)[1]
        try:
            await _play(home, other, table_id, token, watch, samples, until, think, rng)
        except (TimeoutError, OSError, websockets.WebSocketException) as e:
            samples.error(f"socket: {type(e).__name__}")
            await asyncio.sleep(1.0)


async def _play(
    home: str,
    other: str,
    table_id: str,
    token: str,
    watch: str,
    samples: Samples,
    until: float,
    think: float,
    rng: random.Random,
) -> None:
    """One table's game (or until ``until``): the person's socket on ``home``, the spectator's on ``other``."""
    pending: list[tuple[float, int]] = []  # the person's discards the spectator has not shown yet: (sent, river)
    async with (
        websockets.connect(_ws(home, table_id, token), max_size=2**22) as mine,
        websockets.connect(_ws(other, table_id, watch), max_size=2**22) as spectator,
    ):

        async def watching() -> None:
            async for text in spectator:
                msg = json.loads(text)
                if msg.get("type") != "view":
                    continue
                at = time.monotonic()
                river = len(msg["view"]["players"][0]["river"])
                while pending and river >= pending[0][1]:
                    sent, _ = pending.pop(0)
                    if samples.measuring:
                        samples.push.append(at - sent)

        watcher = asyncio.create_task(watching())
        try:
            sent: float | None = None
            readied = -1
            while time.monotonic() < until:
                try:
                    text = await asyncio.wait_for(mine.recv(), timeout=max(0.1, until - time.monotonic()))
                except TimeoutError:
                    return
                msg = json.loads(text)
                now = time.monotonic()
                if sent is not None:  # the first message after an action acknowledges (or refuses) it
                    if msg.get("type") == "view" and samples.measuring:
                        samples.move.append(now - sent)
                        samples.moves += 1
                    elif msg.get("type") == "error":
                        samples.error(str(msg.get("status")), samples.refused)
                        if pending and pending[-1][0] == sent:  # a refused discard is never shown
                            pending.pop()
                    sent = None
                if msg.get("type") != "view":
                    continue
                view = msg["view"]
                if view["over"]:
                    samples.games += 1
                    return
                hold = view.get("hold")
                if hold is not None:
                    if not hold["ready"] and readied != view["hand_results"]:
                        readied = view["hand_results"]
                        samples.hands += 1
                        await asyncio.sleep(rng.uniform(0, 2 * think))
                        code, _ = await asyncio.to_thread(_get, home + f"api/tables/{table_id}/ready", {"token": token})
                        if code != 200:
                            samples.error(f"ready: {code}")
                    continue
                if not view["actions"]:
                    continue
                await asyncio.sleep(rng.uniform(0, 2 * think))
                index = choose(view["actions"], rng)
                action = view["actions"][index]
                sent = time.monotonic()
                if action["type"] == "dahai":
                    pending.append((sent, len(view["players"][0]["river"]) + 1))
                await mine.send(json.dumps({"type": "act", "step": view["step"], "index": index}))
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError, websockets.WebSocketException):
                await watcher


# -- a setup -------------------------------------------------------------------------------------------------------


def _quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(values: list[float]) -> dict[str, Any]:
    """Count, p50, p99 and max of latencies (seconds), in milliseconds."""
    out: dict[str, Any] = {"count": len(values)}
    for name, q in (("p50", 0.5), ("p99", 0.99), ("max", 1.0)):
        v = _quantile(values, q)
        out[f"{name}_ms"] = None if v is None else round(v * 1000, 1)
    return out


async def _drive(bases: list[str], args: argparse.Namespace, samples: Samples) -> float:
    """Run every person; the seconds from the start of the measurement to its end."""
    start = time.monotonic()
    ramp = start + args.ramp
    until = ramp + args.warmup + args.seconds
    tasks = []
    for n in range(args.tables):
        home, other = bases[n % len(bases)], bases[(n + 1) % len(bases)]
        tasks.append(asyncio.create_task(person(home, other, samples, args, until, args.seed * 100_003 + n)))
        await asyncio.sleep(max(0.0, (start + args.ramp * (n + 1) / args.tables) - time.monotonic()))
    await asyncio.sleep(max(0.0, ramp + args.warmup - time.monotonic()))
    samples.measuring = True
    measured = time.monotonic()
    await asyncio.gather(*tasks)
    samples.measuring = False
    return time.monotonic() - measured


def run_setup(name: str, processes: int, pg: Postgres, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """Start the setup's servers on a fresh schema, run the load, stop them; what was measured."""
    db = pg.schema()
    servers = [start_server(db, args.tables, folder) for _ in range(processes)]
    samples = Samples()
    cpu0 = [_cpu(s.proc.pid) for s in servers]
    pg0 = pg.cpu_seconds()
    own0 = resource.getrusage(resource.RUSAGE_SELF)
    load0 = os.getloadavg()[0]
    try:
        seconds = asyncio.run(_drive([s.base for s in servers], args, samples))
    finally:
        cpu = [_cpu(s.proc.pid) - c for s, c in zip(servers, cpu0, strict=True)]
        pg_cpu = pg.cpu_seconds() - pg0
        own = resource.getrusage(resource.RUSAGE_SELF)
        for s in servers:
            s.stop()
    return {
        "setup": name,
        "processes": processes,
        "tables": args.tables,
        "seconds": round(seconds, 1),
        "move": summary(samples.move),
        "push": summary(samples.push),
        "moves_per_second": round(samples.moves / seconds, 1) if seconds else None,
        "tables_created": samples.tables,
        "hands_ended": samples.hands,
        "games_ended": samples.games,
        "refused": samples.refused,
        "errors": samples.errors,
        "cpu_seconds": {
            "servers": [round(c, 1) for c in cpu],
            "postgres": round(pg_cpu, 1),
            "client": round(own.ru_utime + own.ru_stime - own0.ru_utime - own0.ru_stime, 1),
        },
        "load_average_at_start": round(load0, 2),
    }


def _ms(v: float | None) -> str:
    return "-" if v is None else f"{v:.0f}"


def report(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Print the setups side by side and the ratios of ``two`` to ``one``; the ratios."""
    head = f"{'setup':<6} {'moves':>6} {'move p50':>9} {'p99':>6} {'max':>6} {'push p50':>9} {'p99':>6} {'max':>6}"
    print(f"{head}  cpu s")
    for r in results:
        m, p, cpu = r["move"], r["push"], r["cpu_seconds"]
        used = "+".join(f"{c:.0f}" for c in cpu["servers"]) + f" pg {cpu['postgres']:.0f} client {cpu['client']:.0f}"
        print(
            f"{r['setup']:<6} {m['count']:>6} {_ms(m['p50_ms']):>9} {_ms(m['p99_ms']):>6} {_ms(m['max_ms']):>6} "
            f"{_ms(p['p50_ms']):>9} {_ms(p['p99_ms']):>6} {_ms(p['max_ms']):>6}  {used}"
        )
    print("(milliseconds; push: a discard shown to the spectator, who watches through the other process in 'two')")
    for r in results:
        if r["refused"] or r["errors"]:
            print(f"{r['setup']}: refused {r['refused'] or 0}, errors {r['errors'] or 0}")
    by = {r["setup"]: r for r in results}
    ratios: dict[str, Any] = {}
    if "two" in by and "one" in by:
        for what in ("move", "push"):
            for q in ("p50_ms", "p99_ms"):
                a, b = by["two"][what][q], by["one"][what][q]
                ratios[f"{what}_{q[:3]}"] = round(a / b, 2) if a is not None and b else None
        shown = ", ".join(f"{k} {'-' if v is None else f'{v:.2f}x'}" for k, v in ratios.items())
        print(f"two processes / one: {shown}")
    return ratios


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Two jantaku serve processes on one PostgreSQL against one, under the same load.",
        epilog="python benchmarks/bench_cluster.py --tables 20 --seconds 20",
    )
    parser.add_argument("--tables", type=int, default=200, help="tables of one person and three bots (default 200)")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds measured per setup (default 60)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds after the last table before measuring")
    parser.add_argument("--ramp", type=float, default=None, help="seconds over which the tables are created")
    parser.add_argument(
        "--bot", default="efficiency", help="the three bots of each table: efficiency (default), strong or random"
    )
    parser.add_argument("--think", type=float, default=0.5, help="a person's mean think time, seconds (default 0.5)")
    parser.add_argument("--setups", default="two,one", help="which setups, in order: two, one (default two,one)")
    parser.add_argument("--db", help="a PostgreSQL URL to use (a fresh schema per setup) instead of a throwaway one")
    parser.add_argument("--seed", type=int, default=0, help="the people's choices (default 0)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    setups = [s.strip() for s in args.setups.split(",") if s.strip()]
    if not setups or any(s not in SETUPS for s in setups):
        parser.error(f"--setups: some of {', '.join(SETUPS)}, comma-separated, not {args.setups!r}")
    if args.bot not in ("efficiency", "strong", "random"):
        parser.error(f"--bot: efficiency, strong or random, not {args.bot!r}")
    if args.tables < 1 or args.seconds <= 0 or args.warmup < 0 or args.think < 0:
        parser.error("--tables >= 1, --seconds > 0, --warmup >= 0 and --think >= 0")
    if args.ramp is None:
        args.ramp = max(2.0, args.tables / 20)  # twenty new tables a second
    if args.db is not None and not args.db.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        parser.error(f"--db: a PostgreSQL URL (postgresql://USER@HOST/DB), not {args.db!r}")
    from jantaku.web.options import SERVE_DEFAULTS

    print(
        f"{args.tables} tables (a person and three {args.bot} bots), pace {SERVE_DEFAULTS.pace} ms, result "
        f"{SERVE_DEFAULTS.result_seconds} s, think {args.think} s mean; {args.seconds:.0f} s measured per setup "
        f"after {args.ramp:.0f} s of ramp and {args.warmup:.0f} s of warm-up; {os.cpu_count()} cores, load "
        f"{os.getloadavg()[0]:.2f}"
    )
    pg = Postgres(args.db)
    results = []
    try:
        with tempfile.TemporaryDirectory(prefix="jantaku-bench-cluster-") as tmp:
            for name in setups:
                print(f"setup {name}: {SETUPS[name]} process(es) ...", flush=True)
                results.append(run_setup(name, SETUPS[name], pg, args, Path(tmp)))
    finally:
        pg.stop()
    print()
    ratios = report(results)
    if args.json is not None:
        out = {
            "tables": args.tables,
            "seconds": args.seconds,
            "think": args.think,
            "bot": args.bot,
            "pace_ms": SERVE_DEFAULTS.pace,
            "result_seconds": SERVE_DEFAULTS.result_seconds,
            "cores": os.cpu_count(),
            "setups": results,
            "ratios": ratios,
        }
        args.json.write_text(json.dumps(out, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
