"""Many games as Ray tasks, on a Ray cluster or a local Ray instance (``jantaku simulate --ray [ADDRESS]``).

Needs the ``ray`` extra (``pip install 'jantaku[ray]'``) on the driver and on every node of the cluster. The
games, their seeds and the summary are those of :func:`jantaku.sim.runner.simulate`: each task plays a run of
consecutive seeds with the rule set sent to it (so a rule file need exist on the driver only), returns the games'
statistics and, when records are asked for, their text; the driver sums the statistics in seed order and writes
every record itself, so a cluster needs no shared folder and the files are byte for byte those of a local run.

Ray downloads nothing and reports no usage statistics: this module sets ``RAY_USAGE_STATS_ENABLED=0`` before
importing Ray, and a local instance is started without the dashboard, with 127.0.0.1 as its node address.
"""

from __future__ import annotations

import io
import json
import os
import socket
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from jantaku.errors import JantakuError
from jantaku.rules import Ruleset
from jantaku.sim.runner import GameStats, Summary, _plan, _stats, _Totals, play_game

__all__ = ["LOCAL_OBJECT_STORE_BYTES", "import_ray", "simulate_ray"]

LOCAL_OBJECT_STORE_BYTES = 100 * 1024 * 1024
"""Object store of a local Ray instance: games' statistics and records are small, so 100 MB is ample."""

IN_FLIGHT_PER_CPU = 2
"""Tasks submitted and not yet collected, per CPU of the cluster: enough to keep every CPU busy while the driver
collects results in seed order, few enough that a failure waits only for these (nothing is ever cancelled)."""


def import_ray() -> Any:
    """The ``ray`` module, or a :class:`JantakuError` naming the extra that installs it."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    os.environ.setdefault("RAY_ACCEL_ENV_VAR_OVERRIDE_ON_ZERO", "0")
    try:
        import ray
    except ImportError:
        raise JantakuError(
            "--ray needs Ray: install the ray extra (pip install 'jantaku[ray]') on this machine and on every node"
        ) from None
    return ray


def record_text(game: Any, fmt: str) -> str:
    """A played game's record as :func:`jantaku.records.export.save_game` writes it (``mjai`` or ``tenhou6``)."""
    from jantaku.records.export import game_record
    from jantaku.records.mjai import write_mjai
    from jantaku.records.tenhou6 import write_tenhou6

    record = game_record(game)
    if fmt == "mjai":
        buf = io.StringIO()
        write_mjai(record, buf)
        return buf.getvalue()
    doc = write_tenhou6(record, title=record.source, rule_disp=game.rules.name)
    return json.dumps(doc, ensure_ascii=False)


def play_chunk(
    rules: Ruleset, seeds: list[int | str], bots: list[str], fmt: str | None
) -> tuple[list[GameStats], list[str]]:
    """Play the games of ``seeds`` (the body of one Ray task): their statistics, and their records if ``fmt``."""
    stats, texts = [], []
    for seed in seeds:
        game = play_game(rules, seed, bots)
        stats.append(_stats(game))
        if fmt:
            texts.append(record_text(game, fmt))
    return stats, texts


def _connect(ray: Any, address: str | None, workers: int | None) -> bool:
    """Join the cluster at ``address`` or start a local instance; whether this call started Ray."""
    if ray.is_initialized():
        return False
    if address and address != "auto":
        _probe(address)
    try:
        if address:
            ray.init(address=address, logging_level="WARNING", log_to_driver=False)
        else:
            ray.init(
                address="local",  # a new instance, even if a cluster was started on this machine
                num_cpus=workers,
                include_dashboard=False,
                object_store_memory=LOCAL_OBJECT_STORE_BYTES,
                _node_ip_address="127.0.0.1",
                logging_level="WARNING",
                log_to_driver=False,
            )
    except (ConnectionError, RuntimeError, ValueError) as e:
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        why = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise JantakuError(f"--ray: cannot reach {where}: {why}") from None
    return True


def _probe(address: str, timeout: float = 5.0) -> None:
    """Fail at once, naming ``address``, when nothing answers there (Ray itself would retry for minutes)."""
    host, _, port = address.rpartition(":")
    if not host or not (port.isascii() and port.isdigit()):
        raise JantakuError(f"--ray {address!r}: give the head node's address as HOST:PORT (or auto)")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except (OSError, ValueError) as e:
        why = getattr(e, "strerror", None) or e
        raise JantakuError(f"--ray: no Ray head node answers at {address} ({why})") from None


def simulate_ray(
    rules: str | Ruleset,
    games: int,
    seed: int = 0,
    bots: Sequence[str] = ("efficiency",),
    address: str | None = None,
    workers: int | None = None,
    out: str | Path | None = None,
    progress: Callable[[int, int, float], None] | None = None,
    fmt: str = "mjai",
) -> Summary:
    """Play ``games`` games (seeds ``seed``, ``seed+1``, ...) as Ray tasks and summarise them.

    ``address`` is a running cluster's (``HOST:PORT`` of its head node, or ``auto`` for the one started on this
    machine); without one a local Ray instance with ``workers`` CPUs (default: all) is started and stopped
    afterwards. If Ray is already initialised in this process, that session is used as it is. Same seeds, same
    games: the summary equals :func:`~jantaku.sim.runner.simulate`'s (but for ``seconds``) and the records in
    ``out`` are the same files.
    """
    if address and workers is not None:
        raise JantakuError("--workers sets the CPUs of a local Ray instance; a cluster's size is its own (drop it)")
    if workers is not None and workers < 1:
        raise JantakuError(f"workers must be at least 1, got {workers}")
    _spec, rs, bot_list, seeds = _plan(rules, games, seed, bots, out, fmt)
    ray = import_ray()
    started = _connect(ray, address, workers)
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        chunk = max(1, min(50, games // (cpus * 4) or 1))
        task = ray.remote(num_cpus=1, max_retries=0)(play_chunk)
        rules_ref = ray.put(rs)
        want = fmt if out else None
        parts = [seeds[i : i + chunk] for i in range(0, games, chunk)]
        totals = _Totals(rs, games, progress)
        suffix = ".mjson" if fmt == "mjai" else ".json"
        window = IN_FLIGHT_PER_CPU * cpus
        refs: dict[int, Any] = {}  # the parts submitted and not yet collected, by index
        for i, part in enumerate(parts):
            for j in range(i + len(refs), min(i + window, len(parts))):  # keep `window` tasks in flight
                refs[j] = task.remote(rules_ref, parts[j], bot_list, want)
            try:
                stats, texts = ray.get(refs.pop(i))
            except ray.exceptions.RayError as e:
                _drain(ray, list(refs.values()))
                raise JantakuError(f"--ray: a task failed (seeds {part[0]}-{part[-1]}): {_first_line(e)}") from None
            if out:
                for s, text in zip(part, texts, strict=True):
                    target = Path(out) / f"game_{s}{suffix}"
                    try:
                        target.write_text(text, encoding="utf-8")
                    except OSError as e:
                        raise JantakuError(f"cannot write {target}: {e.strerror or e}") from None
            totals.absorb(stats)
        return totals.finish()
    finally:
        if started:
            ray.shutdown()


def _drain(ray: Any, refs: list[Any], timeout: float = 600.0) -> None:
    """Wait for the tasks still in flight after one failed, ignoring their results and failures.

    They are never cancelled: Ray 2.52 aborts the driver process ("Tried to complete task that was not pending")
    when a task is cancelled as it completes, and the task that failed has completed. The window keeps this wait
    short (:data:`IN_FLIGHT_PER_CPU` tasks a CPU, each at most 50 games)."""
    if refs:
        ray.wait(refs, num_returns=len(refs), timeout=timeout)


def _first_line(e: BaseException) -> str:
    """The cause of a Ray task's failure in one line."""
    cause = getattr(e, "cause", None) or e
    text = str(cause).strip()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[-1] if lines else type(cause).__name__
