"""Playing an analysis's games with common random numbers, and turning each game into a row of numbers.

Game ``i`` of an analysis with seed ``S`` has the seed ``"S/i"`` under every rule set, so the wall of its hand
``h`` (:meth:`jantaku.table.wall.Wall.from_seed` of ``"S/i:h"``) is the same under every rule set compared
(common random numbers). The first dealer is seat 0 in every game (a decision: the rule sets' seating
ceremonies are fair draws that differ only in how they are done), and the lineup rotates: player ``p`` of
``--bots`` sits at seat ``(p + i) % 4`` in game ``i``, so each bot deals first equally often and game ``i``
deals the same tiles to the same bot under every rule set. Bots are seeded by game and seat.

A game's :class:`GameRow` holds sums (wins, deal-ins, each yaku's count and han, final scores per place and per
bot, ...) from which :mod:`jantaku.lab.measures` computes every measure, plus the raw values the HTML report
draws (each win's value, each player's final score and points).

>>> from jantaku.rules import load_rules
>>> row = play_row(load_rules("mleague"), 1, 0, ("efficiency",) * 4)
>>> row.sums["games"], row.sums["hands"] > 0, len(row.finals)
(1.0, True, 4)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from jantaku.bots import make_bot
from jantaku.errors import JantakuError
from jantaku.jielu import JieluResult
from jantaku.rules import Ruleset
from jantaku.sim.pool import available_cpus, process_pool
from jantaku.table import Game

__all__ = [
    "GameRow",
    "Progress",
    "available_cpus",
    "game_seed",
    "lineup_at",
    "play_chunk",
    "play_row",
    "play_seated",
    "run_local",
    "run_ray",
    "value_bin",
]


Progress = Callable[[int, int, float], None]
"""Called as ``progress(games done, games in all, seconds)`` after every chunk."""

_CALLS = frozenset({"chi", "pon", "daiminkan"})
_LIMIT_BINS = {
    None: "below_mangan",
    "mangan": "mangan",
    "haneman": "haneman",
    "baiman": "baiman",
    "sanbaiman": "sanbaiman",
    "kazoe_yakuman": "yakuman",
    "yakuman": "yakuman",
}
RIICHI_BINS = ("below_mangan", "mangan", "haneman", "baiman", "sanbaiman", "yakuman")
"""Classes of a riichi win's value: its limit (``kazoe_yakuman`` counts as ``yakuman``)."""
JIELU_BINS = ("S1", "S2", "S3-4", "S5-8", "S9-16", "S17+")
"""Classes of a 洁律 win's value S."""
YAKUMAN_HAN = 13
"""Han a yakuman counts as in a yaku's contribution (a double yakuman 26)."""


@dataclass
class GameRow:
    """One game as numbers: ``sums`` (name -> value, a missing name is 0), each win's value in ``win_values``
    (points, or 洁律's S), each player's final score (rank points) and points at the end, by place."""

    sums: dict[str, float]
    win_values: list[int] = field(default_factory=list)
    finals: list[float] = field(default_factory=list)
    points: list[int] = field(default_factory=list)


def game_seed(seed: int, index: int) -> str:
    """The seed of game ``index`` of an analysis seeded ``seed`` (the same under every rule set)."""
    return f"{seed}/{index}"


def lineup_at(lineup: Sequence[str], index: int) -> list[str]:
    """The bot at each seat in game ``index``: player ``p`` sits at seat ``(p + index) % 4``.

    >>> lineup_at(["strong", "a", "b", "c"], 1)
    ['c', 'strong', 'a', 'b']
    """
    return [lineup[(seat - index) % 4] for seat in range(4)]


def value_bin(score: Any) -> str:
    """The class of a win's value (:data:`RIICHI_BINS` or :data:`JIELU_BINS`)."""
    if isinstance(score, JieluResult):
        s = score.score
        for top, name in ((1, "S1"), (2, "S2"), (4, "S3-4"), (8, "S5-8"), (16, "S9-16")):
            if s <= top:
                return name
        return "S17+"
    if score.yakuman:
        return "yakuman"
    return _LIMIT_BINS.get(score.limit, "below_mangan")


def _play(rules: Ruleset, seed: int, index: int, lineup: Sequence[str]) -> Game:
    gs = game_seed(seed, index)
    bots = lineup_at(lineup, index)
    return play_seated(rules, gs, bots, bots, f"{gs}")


def play_seated(rules: Ruleset, seed: str, bots: Sequence[str], names: Sequence[str], bot_seed: str) -> Game:
    """A whole game of seed ``seed``, the first dealer at seat 0, bot ``bots[s]`` (seeded ``"BOT_SEED:s"``) at
    seat ``s`` under the name ``names[s]``; an agent with a ``close`` (an mjai process) is closed after."""
    game = Game(rules, seed, names=list(names), first_dealer=0)
    agents = [make_bot(bots[s], f"{bot_seed}:{s}") for s in range(4)]
    steps = 0
    try:
        while not game.over:
            seat = game.to_act()[0]
            game.apply(agents[seat].act(game.view(seat), game.legal_actions(seat)))
            steps += 1
            if steps > 200_000:  # pragma: no cover - a bug guard
                raise JantakuError(f"game {seed} under {rules.name} did not end")
    finally:
        for agent in agents:
            close = getattr(agent, "close", None)
            if callable(close):
                close()
    return game


def _row(game: Game, bots: list[str]) -> GameRow:
    """The numbers of a finished game (``bots``: the bot at each seat)."""
    assert game.result is not None
    sums: dict[str, float] = {}

    def add(key: str, value: float = 1.0) -> None:
        sums[key] = sums.get(key, 0.0) + value

    hands = len(game.results)
    add("games")
    add("hands", hands)
    add("player_hands", 4 * hands)
    win_values = []
    wins_of, deal_ins_of = [0] * 4, [0] * 4
    for r in game.results:
        if not r.wins:
            add("draws")
            if r.kind == "abortive":
                add("abortive")
        for w in r.wins:
            sc = w.score
            add("wins")
            wins_of[w.seat] += 1
            if w.from_seat is None:
                add("tsumo")
            else:
                add("deal_ins")
                deal_ins_of[w.from_seat] += 1
            value = sc.score if isinstance(sc, JieluResult) else sc.points
            win_values.append(value)
            add("win_value", value)
            add("value:" + value_bin(sc))
            if isinstance(sc, JieluResult):
                for f in sc.fans:
                    add("yaku:" + f.name)
                    add("yaku_value:" + f.name, f.points)
            else:
                per_win: dict[str, int] = {}
                for name, han in sc.yaku:
                    per_win[name] = per_win.get(name, 0) + (han * YAKUMAN_HAN if sc.yakuman else han)
                for name, han in per_win.items():
                    add("yaku:" + name)
                    add("yaku_value:" + name, han)
        if r.scores and min(r.scores) < 0:
            sums["bust"] = 1.0
    called: set[tuple[int, int]] = set()
    hand_no = -1
    east_scores: list[int] | None = None
    for e in game.events:
        kind = e["type"]
        if kind == "start_kyoku":
            hand_no += 1
            if east_scores is None and e.get("bakaze") != "E":
                east_scores = list(e["scores"])
        elif kind == "reach_accepted":
            add("riichi")
        elif kind in _CALLS:
            called.add((hand_no, e["actor"]))
    add("calls", len(called))
    ranks = game.result.ranks
    if east_scores is not None:
        leader = max(range(4), key=lambda s: (east_scores[s], -s))  # ties: the seat nearer the first dealer
        add("south")
        add("east_leader_won", 1.0 if ranks[leader] == 1 else 0.0)
    final, points = game.result.final, game.result.scores
    by_place = sorted(range(4), key=lambda s: ranks[s])
    for place, s in enumerate(by_place, start=1):
        add(f"final_place:{place}", final[s])
        add(f"points_place:{place}", points[s])
    add("final_sum", sum(final))
    add("final_sq", sum(x * x for x in final))
    add("points_sum", sum(points))
    add("points_sq", sum(float(x) * x for x in points))
    for s in range(4):
        b = bots[s]
        add("n:" + b)
        add("final:" + b, final[s])
        add("rank:" + b, ranks[s])
        add("wins:" + b, wins_of[s])
        add("deal_ins:" + b, deal_ins_of[s])
        add("player_hands:" + b, hands)
    return GameRow(sums, win_values, [final[s] for s in by_place], [points[s] for s in by_place])


def play_row(rules: Ruleset, seed: int, index: int, lineup: Sequence[str]) -> GameRow:
    """Play game ``index`` of an analysis seeded ``seed`` and return its row."""
    game = _play(rules, seed, index, lineup)
    return _row(game, lineup_at(lineup, index))


def play_chunk(rules: Ruleset, seed: int, indices: list[int], lineup: Sequence[str]) -> list[GameRow]:
    """Play several games of one rule set (the body of a worker's job or a Ray task)."""
    return [play_row(rules, seed, i, lineup) for i in indices]


def _job(args: tuple[Ruleset, int, list[int], tuple[str, ...]]) -> list[GameRow]:
    return play_chunk(*args)


def _chunks(games: int, parallel: int) -> list[list[int]]:
    size = max(1, min(25, games // max(1, parallel * 4)))
    return [list(range(i, min(games, i + size))) for i in range(0, games, size)]


def run_local(
    rule_sets: Sequence[Ruleset],
    games: int,
    seed: int,
    lineup: Sequence[str],
    workers: int = 1,
    progress: Progress | None = None,
) -> list[list[GameRow]]:
    """Play ``games`` games under each rule set (``workers`` processes; 1: in this process); the rows of each
    rule set in game order."""
    chunks = _chunks(games, workers)
    jobs = [(rs, seed, c, tuple(lineup)) for rs in rule_sets for c in chunks]
    out: list[list[GameRow]] = [[] for _ in rule_sets]
    total, done, start = games * len(rule_sets), 0, time.perf_counter()

    def results() -> Iterator[list[GameRow]]:
        if workers > 1:
            with process_pool(workers) as pool:
                yield from pool.map(_job, jobs)
        else:
            for job in jobs:
                yield _job(job)

    for n, rows in enumerate(results()):
        out[n // len(chunks)].extend(rows)
        done += len(rows)
        if progress:
            progress(done, total, time.perf_counter() - start)
    return out


def run_ray(
    rule_sets: Sequence[Ruleset],
    games: int,
    seed: int,
    lineup: Sequence[str],
    address: str | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
) -> list[list[GameRow]]:
    """As :func:`run_local`, the chunks played as Ray tasks on the cluster at ``address`` (``HOST:PORT`` or
    ``auto``) or on a local Ray instance of ``workers`` CPUs (see :mod:`jantaku.sim.ray_runner`, whose
    connection code this shares). The rows are those of a local run."""
    from jantaku.sim.ray_runner import _connect, _drain, _first_line, import_ray

    if address and workers is not None:
        raise JantakuError("--workers sets the CPUs of a local Ray instance; a cluster's size is its own (drop it)")
    ray = import_ray()
    started = _connect(ray, address, workers)
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        chunks = _chunks(games, cpus)
        task = ray.remote(num_cpus=1, max_retries=0)(play_chunk)
        refs = []
        for rs in rule_sets:
            rules_ref = ray.put(rs)
            refs.extend(task.remote(rules_ref, seed, c, list(lineup)) for c in chunks)
        out: list[list[GameRow]] = [[] for _ in rule_sets]
        total, done, start = games * len(rule_sets), 0, time.perf_counter()
        for n, ref in enumerate(refs):
            try:
                rows = ray.get(ref)
            except ray.exceptions.RayError as e:
                _drain(ray, refs[n + 1 :])  # never cancelled: see jantaku.sim.ray_runner._drain
                raise JantakuError(f"--ray: a task failed: {_first_line(e)}") from None
            out[n // len(chunks)].extend(rows)
            done += len(rows)
            if progress:
                progress(done, total, time.perf_counter() - start)
        return out
    finally:
        if started:
            ray.shutdown()
