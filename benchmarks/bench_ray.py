"""``jantaku simulate`` on Ray: hanchan per second locally and on a two-node Ray cluster on this machine.

Run it from the repository root with the ``ray`` extra installed (``pip install -e '.[ray]'``)::

    python benchmarks/bench_ray.py                       # 24 hanchan per row, mleague, efficiency bots, seed 0
    python benchmarks/bench_ray.py --games 100 --rules tenhou --bots random --json ray.json

Rows, each playing the same seeds (``--seed`` .. ``--seed + --games - 1``), so each gives the same summary:

- ``processes, 1`` / ``processes, 2``: :func:`jantaku.sim.runner.simulate` with ``workers`` 1 and 2 (no Ray);
- ``ray local, 1`` / ``ray local, 2``: :func:`jantaku.sim.ray_runner.simulate_ray` on a local Ray instance
  with 1 and 2 CPUs (``--ray --workers N``), started and stopped by the call;
- ``ray 2 nodes, 1+1``: a two-node cluster started here: ``ray start --head --port P --node-ip-address
  127.0.0.1 --num-cpus 1`` and a second node ``ray start --address 127.0.0.1:P --num-cpus 1`` (each with its
  own free ports on 127.0.0.1, its own temp folder, no dashboard, usage statistics off, a 100 MB object
  store; :mod:`jantaku.sim.ray_cluster`); the driver joins it with ``address="127.0.0.1:P"``. The script
  stops both nodes at the end (it ends the processes of its own temp folders by their ids; ``ray stop`` would
  stop every Ray on the machine).

"hanchan/s" is games over the play time of the summary (from the first task submitted to the last result
summed; Ray's worker processes start inside it); "wall s" also counts starting or joining Ray. Timings are
measured per run and never asserted in tests; on a shared machine they vary from run to run.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _report import print_table
from jantaku.sim.ray_cluster import RAY_ENV, start_node, stop_nodes
from jantaku.sim.ray_runner import import_ray, simulate_ray
from jantaku.sim.runner import simulate


def row(name: str, run, games: int) -> dict:
    t0 = time.perf_counter()
    summary = run()
    wall = time.perf_counter() - t0
    assert summary.games == games
    return {"row": name, "games": games, "hanchan_per_s": games / summary.seconds, "play_s": summary.seconds,
            "wall_s": wall, "summary": summary}  # fmt: skip


def _yes(r: dict) -> str:
    return "yes" if r["same_summary"] else "NO"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rules", default="mleague")
    ap.add_argument("--bots", default="efficiency")
    ap.add_argument("--json", default=None, help="also write the rows to this file")
    args = ap.parse_args(argv)
    bots = args.bots.split(",")
    os.environ.update(RAY_ENV)
    ray = import_ray()
    common = {"games": args.games, "seed": args.seed, "bots": bots}
    rows = [
        row("processes, 1", lambda: simulate(args.rules, workers=1, **common), args.games),
        row("processes, 2", lambda: simulate(args.rules, workers=2, **common), args.games),
        row("ray local, 1", lambda: simulate_ray(args.rules, workers=1, **common), args.games),
        row("ray local, 2", lambda: simulate_ray(args.rules, workers=2, **common), args.games),
    ]
    temps = [tempfile.mkdtemp(prefix="jantaku-bench-ray-", dir="/tmp") for _ in range(2)]
    try:
        t0 = time.perf_counter()
        port = start_node(temps[0], 1, None)
        start_node(temps[1], 1, port)
        started = time.perf_counter() - t0
        address = f"127.0.0.1:{port}"
        ray.init(address=address, logging_level="WARNING", log_to_driver=False)
        nodes = sorted(n["NodeManagerAddress"] for n in ray.nodes() if n["Alive"])
        cpus = ray.cluster_resources().get("CPU")
        ray.shutdown()
        r = row("ray 2 nodes, 1+1", lambda: simulate_ray(args.rules, address=address, **common), args.games)
        r["wall_s"] += started
        rows.append(r)
    finally:
        with contextlib.suppress(Exception):
            ray.shutdown()
        stop_nodes(temps)
        for t in temps:
            shutil.rmtree(t, ignore_errors=True)
    base = rows[0]["summary"]
    for r in rows:
        a, b = dataclasses.asdict(r["summary"]), dataclasses.asdict(base)
        a.pop("seconds"), b.pop("seconds")
        r["same_summary"] = a == b
    print(f"{args.games} hanchan per row, {args.rules}, bots {args.bots}, seed {args.seed}; "
          f"{os.cpu_count()} CPUs here; the two-node cluster: nodes {nodes}, {cpus:g} CPUs\n")  # fmt: skip
    print_table(
        ["row", "hanchan/s", "play s", "wall s", "same summary"],
        [[r["row"], f"{r['hanchan_per_s']:.2f}", f"{r['play_s']:.1f}", f"{r['wall_s']:.1f}", _yes(r)] for r in rows],
        right=(1, 2, 3),
    )
    if args.json:
        out = [{k: v for k, v in r.items() if k != "summary"} for r in rows]
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0 if all(r["same_summary"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
