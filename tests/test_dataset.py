"""Issue 35: `jantaku dataset` - game records into samples of the environments' own encoding. Every sample of
the whole corpus of real records is legal under its mask; a game jantaku played gives, read back from its record,
exactly the observations and actions the environment saw; shards and the PyTorch adapter read back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from jantaku.bots.registry import make_bot
from jantaku.env.dataset import iter_samples, read_shards, torch_dataset, write_shards
from jantaku.env.encoding import encode, legal_indices
from jantaku.env.planes import EXTRA_PLANES
from jantaku.records.export import save_game
from jantaku.rules import load_rules
from jantaku.table.actions import PASS
from jantaku.table.game import Game

ROOT = Path(__file__).parents[1]
CORPUS = ROOT / "tests" / "data" / "records"
EXTRA = tuple(EXTRA_PLANES)


def test_every_decision_of_the_real_records_is_a_legal_sample():
    skipped: list[str] = []
    count, seats, actions = 0, set(), set()
    for s in iter_samples([CORPUS], skipped=skipped):
        assert s["mask"][s["action"]] == 1, (s["source"], s["hand"], s["step"])
        count += 1
        seats.add(s["seat"])
        actions.add(int(s["action"]))
    assert count > 100_000 and seats == {0, 1, 2, 3} and len(actions) > 60
    # only the deliberately broken records of the edge-case folders are skipped
    assert skipped and all("edge-cases" in s for s in skipped), skipped[:5]
    print(f"{count} samples, {len(skipped)} hand(s) skipped")


def test_a_played_game_reads_back_as_the_environment_saw_it(tmp_path):
    rules = load_rules("tenhou")
    game = Game(rules, 11)
    agents = [make_bot(n, f"11:{s}") for s, n in enumerate(["efficiency", "random", "efficiency", "random"])]
    seen = []
    while not game.over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        action = agents[seat].act(game.view(seat), legal)
        if len(legal) >= 2 and game.kyoku.result is None:
            index = legal_indices(legal)
            chosen = next(i for i, a in index.items() if a == action)
            seen.append((seat, encode(game, seat, extra_planes=EXTRA), chosen, action.kind))
        game.apply(action)
    path = save_game(game, tmp_path / "game.mjson")
    samples = list(iter_samples([path], extra_planes=EXTRA))  # the optional planes read back as the game saw them
    # the record shows every decision but a pass on a discard another seat claimed (a pass and a claim the other
    # overruled look alike): those are left out, never guessed
    unknown, i = [], 0
    for s in samples:
        while (seen[i][0], seen[i][2]) != (s["seat"], s["action"]):
            unknown.append(seen[i])
            i += 1
        seat, obs, chosen, _ = seen[i]
        np.testing.assert_array_equal(s["obs"], obs)
        i += 1
    unknown += seen[i:]
    assert len(samples) > 200 and all(kind == PASS for *_, kind in unknown) and len(unknown) < len(seen) / 50
    ranks = {s["seat"]: s["rank"] for s in samples}
    assert [ranks[x] for x in range(4)] == list(game.result.ranks)


def test_shards_and_the_torch_adapter(tmp_path):
    index = write_shards([ROOT / "examples" / "records"], tmp_path / "ds", players=[0, 2], shard_size=300)
    assert index["samples"] == sum(s["samples"] for s in index["shards"]) and len(index["shards"]) >= 2
    assert len(index["sources"]) == 3 and index["skipped"] == []
    z = np.load(tmp_path / "ds" / index["shards"][0]["file"])
    assert z["obs"].dtype == np.float16 and set(np.unique(z["seat"])) <= {0, 2}
    assert (z["mask"][np.arange(len(z["action"])), z["action"]] == 1).all()
    items = list(torch_dataset(tmp_path / "ds"))
    assert len(items) == index["samples"]
    obs, mask, action = items[0]
    assert tuple(obs.shape) == (185, 34) and bool(mask[action])


def test_workers_write_the_same_samples(tmp_path):
    folder = ROOT / "tests" / "data" / "records" / "tenhou6-json" / "mahjongsoul"
    one = write_shards([folder], tmp_path / "one", shard_size=400)
    two = write_shards([folder], tmp_path / "two", shard_size=400, workers=2)
    assert one["samples"] == two["samples"] > 1000 and one["sources"] == two["sources"]

    fields = ("obs", "action", "record", "step")
    a, b = read_shards(tmp_path / "one", fields), read_shards(tmp_path / "two", fields)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])


def test_the_command_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "jantaku.cli", "dataset", str(ROOT / "examples" / "records"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-1500:]
    summary = json.loads(done.stdout.splitlines()[0])
    assert summary["samples"] > 500 and summary["records"] == 3 and summary["skipped"] == 0
    assert (tmp_path / "index.json").exists()


def _names_by_game(folder: Path) -> dict[tuple[int, int], list[str]]:
    """(record, game) -> the four names, read from the records independently of the dataset code."""
    from jantaku.records.load import iter_record_files, read_records

    out = {}
    for r, path in enumerate(iter_record_files([str(folder)])):
        for g, record in enumerate(read_records(path)):
            start = next(e for e in record.events if e["type"] == "start_game")
            out[r, g] = start["names"]
    return out


def test_players_chosen_by_name_and_by_final_place():
    """A player is followed by name wherever they sat, and ``places`` keeps the seats that finished there: each
    selection is exactly the matching part of the whole dataset (a name's decisions at every seat it took)."""
    folder = CORPUS / "mjx-walls"
    whole = list(iter_samples([folder]))
    names = _names_by_game(folder)
    key = ("record", "game", "step")

    mine = list(iter_samples([folder], names=["ASAPIN", "うきでん"]))
    expected = [s for s in whole if names[s["record"], s["game"]][s["seat"]] in ("ASAPIN", "うきでん")]
    assert [tuple(s[k] for k in key) for s in mine] == [tuple(s[k] for k in key) for s in expected]
    assert len({s["seat"] for s in mine}) >= 3 and 0 < len(mine) < len(whole) / 2  # followed from seat to seat
    assert all(s["action"] == e["action"] and (s["obs"] == e["obs"]).all() for s, e in zip(mine, expected, strict=True))

    winners = list(iter_samples([folder], places="1"))
    assert [tuple(s[k] for k in key) for s in winners] == [tuple(s[k] for k in key) for s in whole if s["rank"] == 1]
    both = list(iter_samples([folder], players=[0, 1], names=["ASAPIN"], places=[1, 2]))
    assert both and all(
        s["seat"] in (0, 1) and s["rank"] in (1, 2) and names[s["record"], s["game"]][s["seat"]] == "ASAPIN"
        for s in both
    )
    assert len(both) == sum(
        1 for s in whole if s["seat"] < 2 and s["rank"] <= 2 and names[s["record"], s["game"]][s["seat"]] == "ASAPIN"
    )


def test_a_selection_is_checked_and_written_in_the_index(tmp_path):
    from jantaku.errors import JantakuError

    for bad in ({"places": "0"}, {"places": "1,x"}, {"players": "4"}, {"players": "a"}, {"names": "ASAPIN"}):
        try:
            next(iter_samples([CORPUS / "mjx-walls"], **bad))
        except JantakuError as e:
            assert str(bad[next(iter(bad))])[:3].strip("'") in str(e), e
        else:
            raise AssertionError(f"{bad} was accepted")
    from jantaku.env.dataset import Selection

    assert Selection.of(names=(n for n in ["CLS", "ASAPIN"])).names == {"CLS", "ASAPIN"}  # any iterable, read once
    index = write_shards([CORPUS / "mjx-walls"], tmp_path, names=["CLS"], places=[1])
    assert index["selection"] == {"seats": [0, 1, 2, 3], "names": ["CLS"], "places": [1]}
    assert index["samples"] > 0 and set(read_shards(tmp_path, ("rank",))["rank"].tolist()) == {1}

    command = [sys.executable, "-m", "jantaku.cli", "dataset", str(CORPUS / "mjx-walls"), "--out"]
    done = subprocess.run(
        [*command, str(tmp_path / "x"), "--name", "CLS", "--name", "ASAPIN", "--places", "1,2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-1500:]
    index = json.loads((tmp_path / "x" / "index.json").read_text(encoding="utf-8"))
    assert index["selection"]["names"] == ["ASAPIN", "CLS"] and index["selection"]["places"] == [1, 2]
    nobody = subprocess.run(
        [*command, str(tmp_path / "y"), "--name", "no such player"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert nobody.returncode == 0 and json.loads(nobody.stdout.splitlines()[0])["samples"] == 0
    assert "no decision" in nobody.stderr and "no such player" in nobody.stderr


def test_writing_a_shard_holds_its_observations_once_as_float16(tmp_path):
    """The observations of a shard are kept as float16 as they come: writing 23,000 samples into one shard grows
    the process by less than their float32 size (a float32 copy of each and a stack of them all took 2.5 times
    it: 1.4 GB here, 3.2 GB for the default shard of 50,000)."""
    script = (
        "import resource, sys, json\n"
        "from jantaku.env.dataset import iter_samples, write_shards\n"
        "next(iter_samples([sys.argv[1]]))\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "index = write_shards([sys.argv[1]], sys.argv[2])\n"
        "grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024\n"
        "print(json.dumps({'samples': index['samples'], 'shards': len(index['shards']), 'grown': grown, "
        "'float32': index['samples'] * index['obs_planes'] * 34 * 4}))\n"
    )
    folder = CORPUS / "tenhou6-json"
    done = subprocess.run(
        [sys.executable, "-c", script, str(folder), str(tmp_path / "out")], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout)
    assert figures["samples"] > 20_000 and figures["shards"] == 1
    assert figures["grown"] < figures["float32"], figures
