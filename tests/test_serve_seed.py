"""``jantaku serve --seed TEXT`` deals its tables from TEXT-1, TEXT-2, ... in the order they are created: two servers
started with the same seed deal the same walls (duplicate play, demonstrations, the e2e game that must be the same
game on every run); without it every table is dealt at random. Run on the real command."""

from __future__ import annotations

import json
import subprocess
import urllib.request

from served import jantaku_command, served


def _json(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


def _first_views(url: str, tables: int) -> list[tuple[list[str], list[str], int]]:
    """The person's first hand, the dora indicators and the dealer of ``tables`` new tables, in order."""
    seen = []
    for _ in range(tables):
        created = _json(url + "api/tables", {"rules": "tenhou", "seats": ["human", "random", "random", "random"]})
        token = created["seats"][0]["token"]
        view = _json(f"{url}api/tables/{created['id']}/view?token={token}")
        seen.append((view["hand"], view["round"]["dora_indicators"], view["round"]["dealer"]))
    return seen


def test_two_servers_with_one_seed_deal_the_same_tables_and_without_it_they_do_not(tmp_path):
    runs = {}
    for name, options in [("a", ("--seed", "duplicate")), ("b", ("--seed", "duplicate")), ("c", ()), ("d", ())]:
        (tmp_path / name).mkdir()
        with served(tmp_path / name, *options) as (_, url):
            runs[name] = _first_views(url, 3)
    assert runs["a"] == runs["b"]
    assert len({str(v) for v in runs["a"]}) == 3  # each table its own seed: -1, -2, -3
    assert runs["c"] != runs["a"] and runs["c"] != runs["d"]


def test_a_bad_seed_is_refused_before_anything_starts(tmp_path):
    done = subprocess.run(
        [*jantaku_command(), "serve", "--seed", "", "--port", "9"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "--seed must be 1-100 printable characters" in done.stderr
    assert not list(tmp_path.iterdir())  # no database was made
