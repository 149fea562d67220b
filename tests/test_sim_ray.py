"""``jantaku simulate --ray``: games as Ray tasks on a real Ray cluster give the games of a local run.

One Ray head node is started for the module (``ray start --head`` on 127.0.0.1, free ports, its own temp dir,
usage statistics off, no dashboard, a 100 MB object store) and stopped at the end; the games are played on it
and compared with :func:`jantaku.sim.runner.simulate` in this process: the summary is equal but for the time,
and the records the driver writes are byte for byte those of the local run. One test starts a local Ray instance
(``--ray`` with no address) through the command line in a child process.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from jantaku.cli import main
from jantaku.errors import JantakuError
from jantaku.lab.runner import run_local, run_ray
from jantaku.rules import load_rules
from jantaku.sim.ray_cluster import RAY_ENV, free_ports, start_node, stop_nodes
from jantaku.sim.ray_runner import simulate_ray
from jantaku.sim.runner import simulate


@pytest.fixture(scope="module")
def cluster():
    """The address of a one-node Ray cluster (2 CPUs) on 127.0.0.1, stopped after the module."""
    temp = tempfile.mkdtemp(prefix="jantaku-ray-", dir="/tmp")
    try:
        port = start_node(temp, cpus=2, timeout=120)
        yield f"127.0.0.1:{port}"
    finally:
        import ray

        if ray.is_initialized():
            ray.shutdown()
        stop_nodes([temp])  # this cluster's processes only (`ray stop` would stop every Ray of the machine)
        shutil.rmtree(temp, ignore_errors=True)


def same_summary(a, b) -> None:
    da, db = dataclasses.asdict(a), dataclasses.asdict(b)
    da.pop("seconds"), db.pop("seconds")
    assert da == db
    assert a.yaku.most_common() == b.yaku.most_common()  # the same order of ties too, so the same report


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize(
    ("rules", "bots", "fmt", "games"),
    [
        ("mleague", ["efficiency"], "mjai", 5),
        ("tenhou", ["efficiency", "random", "efficiency", "random"], "tenhou6", 3),
        ("jielu", ["efficiency"], "mjai", 2),
    ],
)
def test_same_games_on_a_cluster(cluster, tmp_path, rules, bots, fmt, games):
    local = simulate(rules, games, seed=11, bots=bots, out=tmp_path / "local", fmt=fmt)
    remote = simulate_ray(rules, games, seed=11, bots=bots, address=cluster, out=tmp_path / "ray", fmt=fmt)
    assert remote.games == games and remote.hands >= games
    same_summary(local, remote)
    suffix = ".mjson" if fmt == "mjai" else ".json"
    expected = [f"game_{11 + i}{suffix}" for i in range(games)]
    assert sorted(files(tmp_path / "ray")) == sorted(expected)
    assert files(tmp_path / "ray") == files(tmp_path / "local")


def test_a_rule_file_is_sent_to_the_tasks(cluster, tmp_path):
    # the tasks get the loaded rule set, so the file need exist on the driver only
    rule_file = Path(__file__).parents[1] / "examples" / "rules" / "my_league.toml"
    local = simulate(str(rule_file), 2, seed=5)
    remote = simulate_ray(str(rule_file), 2, seed=5, address=cluster)
    same_summary(local, remote)


def test_progress_reports_every_game_in_order(cluster):
    seen = []
    simulate_ray("mu", 3, seed=2, address=cluster, progress=lambda done, total, _s: seen.append((done, total)))
    assert seen[-1] == (3, 3)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_cli_output_equals_the_local_run(cluster, capsys, tmp_path):
    args = ["simulate", "--rules", "mleague", "--games", "3", "--seed", "4", "--quiet"]
    assert main([*args, "--out", str(tmp_path / "local")]) == 0
    local = capsys.readouterr().out.splitlines()
    assert main([*args, "--ray", cluster, "--out", str(tmp_path / "ray")]) == 0
    remote = capsys.readouterr().out.splitlines()
    assert local[0].startswith("3 games, ") and remote[0].startswith("3 games, ")
    assert local[1:] == remote[1:]  # all but the line with the time
    assert files(tmp_path / "ray") == files(tmp_path / "local")


def test_workers_with_an_address_is_refused(cluster, capsys):
    code = main(["simulate", "--games", "1", "--ray", cluster, "--workers", "2"])
    assert code != 0
    assert "--workers sets the CPUs of a local Ray instance" in capsys.readouterr().err


def test_a_bad_bot_is_refused_before_ray_starts():
    with pytest.raises(JantakuError, match="nosuchbot"):
        simulate_ray("mleague", 1, bots=["nosuchbot"], address="127.0.0.1:1")


def test_a_failing_task_is_reported_with_its_seeds(cluster):
    # an mjai bot whose program exits at once (`false`) fails inside the task
    with pytest.raises(JantakuError, match=r"--ray: a task failed \(seeds 0-0\)"):
        simulate_ray("mleague", 1, bots=["mjai:false"], address=cluster)


def test_a_failure_among_tasks_in_flight_leaves_the_driver_and_the_cluster_working(cluster):
    # six one-game tasks on two CPUs: four in flight when the first fails. None is cancelled (Ray 2.52 aborted
    # the driver when a finished task was cancelled); the error names the first failing seeds, and the same
    # cluster then plays games again from this process.
    with pytest.raises(JantakuError, match=r"--ray: a task failed \(seeds 3-3\)"):
        simulate_ray("mleague", 6, seed=3, bots=["mjai:false"], address=cluster)
    after = simulate_ray("mleague", 2, seed=3, address=cluster)
    same_summary(after, simulate("mleague", 2, seed=3))


def test_the_rule_lab_on_the_cluster_gives_the_local_report(cluster, capsys):
    # `analyze --ray ADDRESS` plays the lab's chunks as tasks: the report equals the local run's
    args = ["analyze", "--rules", "mu", "--games", "3", "--seed", "9", "--bots", "efficiency", "--json", "--quiet"]
    assert main([*args, "--ray", cluster]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    local = json.loads(capsys.readouterr().out)
    assert on_ray.pop("metadata")["ray"] == cluster and local.pop("metadata")["ray"] is None  # how it ran
    assert on_ray == local


def test_a_failing_rule_lab_task_leaves_the_driver_and_the_cluster_working(cluster):
    # as simulate's: the chunks still in flight are waited for, never cancelled (Ray 2.52 aborted the driver
    # when a finished task was cancelled), and the same cluster then plays the lab's games again
    rule_sets = [load_rules("mleague"), load_rules("mu")]
    with pytest.raises(JantakuError, match=r"--ray: a task failed"):
        run_ray(rule_sets, 4, 3, ["mjai:false"] * 4, address=cluster)
    lineup = ["efficiency"] * 4
    assert run_ray(rule_sets, 2, 3, lineup, address=cluster) == run_local(rule_sets, 2, 3, lineup)


def test_an_address_where_nothing_answers_is_refused_at_once(capsys):
    port = free_ports(1)[0]  # free: nothing listens there
    start = time.monotonic()
    assert main(["simulate", "--games", "1", "--ray", f"127.0.0.1:{port}"]) != 0
    assert f"no Ray head node answers at 127.0.0.1:{port}" in capsys.readouterr().err
    assert time.monotonic() - start < 30  # Ray itself would keep retrying for minutes
    with pytest.raises(JantakuError, match="HOST:PORT"):
        simulate_ray("mleague", 1, address="nowhere")


def test_without_ray_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the extra were not installed: `import ray` fails
    with pytest.raises(JantakuError, match=r"pip install 'jantaku\[ray\]'"):
        simulate_ray("mleague", 1, address="127.0.0.1:1")


def test_local_ray_instance_from_the_command_line(cluster, tmp_path, capsys):
    # `--ray` with no address starts (and stops) a local Ray instance, even with the module's cluster running
    env = {**os.environ, **RAY_ENV}
    code = "import sys; from jantaku.cli import main; sys.exit(main(sys.argv[1:]))"
    args = ["simulate", "--rules", "mu", "--games", "2", "--seed", "9", "--quiet"]
    ray_run = subprocess.run(
        [sys.executable, "-c", code, *args, "--ray", "--workers", "1", "--out", str(tmp_path / "ray")],
        env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert ray_run.returncode == 0, ray_run.stderr
    assert main([*args, "--out", str(tmp_path / "local")]) == 0
    local = capsys.readouterr().out.splitlines()
    assert ray_run.stdout.splitlines()[1:] == local[1:] and len(local) > 5
    assert files(tmp_path / "ray") == files(tmp_path / "local")


def test_a_dataset_written_on_the_cluster_is_the_local_one(cluster, tmp_path):
    """``jantaku dataset --ray``: the record files' bytes go to the tasks and the shards' bytes come back; the
    samples are those written locally, in the same order, and a hand the engine skips is named by its file."""
    import numpy as np

    from jantaku.env.dataset import read_shards, write_shards

    records = Path(__file__).parents[1] / "examples" / "records"  # an mjlog, an mjx JSON and a tenhou.net/6 JSON
    local = write_shards([records], tmp_path / "local", shard_size=700, extra_planes=("waits",))
    remote = write_shards([records], tmp_path / "ray", shard_size=700, extra_planes=("waits",), ray=cluster)
    assert remote["samples"] == local["samples"] > 1000 and len(remote["sources"]) == 3
    assert remote["sources"] == local["sources"]
    assert remote["skipped"] == local["skipped"]

    fields = ("obs", "action", "record", "step")
    a, b = read_shards(tmp_path / "local", fields), read_shards(tmp_path / "ray", fields)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])

    # a selection of players travels with the tasks: the same part of the samples on both
    chosen = {"names": ["剣城", "デジタル仙人"], "places": [1, 2]}
    local = write_shards([records], tmp_path / "local-chosen", shard_size=700, **chosen)
    remote = write_shards([records], tmp_path / "ray-chosen", shard_size=700, ray=cluster, **chosen)
    assert 0 < remote["samples"] == local["samples"] < a["action"].shape[0]
    assert (
        remote["selection"]
        == local["selection"]
        == {"seats": [0, 1, 2, 3], **{k: sorted(v) for k, v in chosen.items()}}
    )
    a, b = read_shards(tmp_path / "local-chosen", fields), read_shards(tmp_path / "ray-chosen", fields)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
