"""``benchmarks/bench_env.py`` runs (riichienv or not) and times only the rows asked for: a smoke test of the
script whose figures the research guide quotes (the figures themselves are never asserted)."""

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _bench_env():
    spec = importlib.util.spec_from_file_location("bench_env", ROOT / "benchmarks" / "bench_env.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_env"] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def test_bench_env_times_the_rows_asked_for(tmp_path, capsys):
    bench = _bench_env()
    out = tmp_path / "env.json"
    rows = "jantaku-selfplay-2,jantaku-aec"
    assert bench.main(["--games", "2", "--selfplay", "2", "--rows", rows, "--clock", "cpu", "--json", str(out)]) == 0
    figures = json.loads(out.read_text(encoding="utf-8"))
    timed = {r["row"]: r for r in figures["rows"]}
    assert set(timed) == {"jantaku-selfplay-2", "jantaku-aec"}
    # two turns each: the self-play row about one game's decisions a turn, the AEC row a whole game a turn
    assert timed["jantaku-selfplay-2"]["steps"] == 2 * 2 * round(bench.DECISIONS_PER_TURN / 2)
    assert timed["jantaku-aec"]["runs"] == 2 and timed["jantaku-aec"]["steps"] > 100
    assert all(r["seconds"] > 0 for r in figures["rows"])
    printed = capsys.readouterr().out
    assert "jantaku-selfplay-2" in printed and "jantaku-gym " not in printed


def test_bench_env_names_a_row_it_does_not_have(capsys):
    assert _bench_env().main(["--rows", "jantaku-nope"]) == 2
    assert "no row named jantaku-nope" in capsys.readouterr().err
