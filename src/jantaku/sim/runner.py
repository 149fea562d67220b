"""Many games: play them (in several processes if asked), collect statistics, write event logs.

>>> s = simulate("mleague", games=2, seed=1, bots=["efficiency"])
>>> s.games, len(s.mean_final), round(sum(s.mean_final), 1)
(2, 4, 0.0)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from jantaku.bots import make_bot
from jantaku.errors import JantakuError
from jantaku.rules import Ruleset, load_rules
from jantaku.table import Game

from .pool import POOL_ATTEMPTS, run_despite_dead_workers

__all__ = ["GameStats", "SimulationIncomplete", "Summary", "play_game", "simulate"]


class SimulationIncomplete(JantakuError):
    """Worker processes died (twice) while playing some games: ``summary`` holds the games that were played,
    ``missing`` the seeds that were not."""

    def __init__(self, message: str, summary: Summary, missing: list[int | str]) -> None:
        super().__init__(message)
        self.summary = summary
        self.missing = missing


@dataclass
class GameStats:
    """What one game contributes to a summary."""

    final: list[float]
    ranks: list[int]
    hands: int
    wins: list[int]
    deal_ins: list[int]
    draws: int
    win_points: list[int]
    yaku: Counter[str]
    steps: int


@dataclass
class Summary:
    """Totals over many games (per seat where it says so)."""

    rules: str
    family: str = "riichi"
    games: int = 0
    hands: int = 0
    mean_final: list[float] = field(default_factory=lambda: [0.0] * 4)
    mean_rank: list[float] = field(default_factory=lambda: [0.0] * 4)
    win_rate: list[float] = field(default_factory=lambda: [0.0] * 4)
    deal_in_rate: list[float] = field(default_factory=lambda: [0.0] * 4)
    draw_rate: float = 0.0
    mean_win_points: float = 0.0
    yaku: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    steps: int = 0

    def report(self, bots: Sequence[str]) -> str:
        lines = [
            f"{self.games} games, {self.hands} hands under {self.rules} in {self.seconds:.1f} s "
            f"({self.games / max(self.seconds, 1e-9):.1f} games/s, {self.steps / max(self.seconds, 1e-9):.0f} "
            "actions/s)"
        ]
        lines.append("seat  bot          mean pt   mean rank  win rate  deal-in rate")
        for s in range(4):
            lines.append(
                f"{s:<5} {bots[s]:<12} {self.mean_final[s]:+8.1f}   {self.mean_rank[s]:9.2f}  {self.win_rate[s]:8.1%}"
                f"  {self.deal_in_rate[s]:12.1%}"
            )
        unit = "S (洁律 score)" if self.family == "jielu" else "points"
        lines.append(f"draw rate {self.draw_rate:.1%}, mean win {self.mean_win_points:.1f} {unit}")
        total = sum(self.yaku.values()) or 1
        top = ", ".join(f"{name} {n / max(1, self.wins_total()):.1%}" for name, n in self.yaku.most_common(12))
        lines.append(f"{'fans' if self.family == 'jielu' else 'yaku'} per win: {top}" if total else "no wins")
        return "\n".join(lines)

    def wins_total(self) -> int:
        return round(sum(self.win_rate) * self.hands) if self.hands else 0


def play_game(rules: Ruleset, seed: int | str, bots: Sequence[str]) -> Game:
    """Play one whole game with the named bots at seats 0-3."""
    game = Game(rules, seed, names=list(bots))
    agents = [make_bot(name, f"{seed}:{seat}") for seat, name in enumerate(bots)]
    guard = 0
    while not game.over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        game.apply(agents[seat].act(game.view(seat), legal))
        guard += 1
        if guard > 200_000:  # pragma: no cover - a bug guard, never reached in practice
            raise JantakuError(f"game {seed} did not end")
    return game


def _stats(game: Game) -> GameStats:
    assert game.result is not None
    wins = [0, 0, 0, 0]
    deal_ins = [0, 0, 0, 0]
    draws = 0
    points: list[int] = []
    yaku: Counter[str] = Counter()
    for r in game.results:
        if not r.wins:
            draws += 1
        for w in r.wins:
            wins[w.seat] += 1
            sc = w.score
            if game.rules.family == "jielu":  # 洁律: a JieluResult, the hand's score S and its fans
                points.append(sc.score)
                yaku.update(f.name for f in sc.fans)
            else:
                points.append(sc.points)
                yaku.update(name for name, _ in sc.yaku)
            if w.from_seat is not None:
                deal_ins[w.from_seat] += 1
    steps = sum(1 for e in game.events if e["type"] in ("dahai", "chi", "pon", "daiminkan", "ankan", "kakan", "hora"))
    return GameStats(
        game.result.final, game.result.ranks, len(game.results), wins, deal_ins, draws, points, yaku, steps
    )


def _run_chunk(args: tuple[str, list[str | int], list[str], str | None, str]) -> list[GameStats]:
    rules_spec, seeds, bots, out, fmt = args
    rules = load_rules(rules_spec)
    out_stats = []
    for seed in seeds:
        game = play_game(rules, seed, bots)
        if out:
            from jantaku.records.export import save_game

            suffix = ".mjson" if fmt == "mjai" else ".json"
            save_game(game, Path(out) / f"game_{seed}{suffix}", fmt)
        out_stats.append(_stats(game))
    return out_stats


def simulate(
    rules: str | Ruleset,
    games: int,
    seed: int = 0,
    bots: Sequence[str] = ("efficiency",),
    workers: int = 1,
    out: str | Path | None = None,
    progress: Callable[[int, int, float], None] | None = None,
    fmt: str = "mjai",
) -> Summary:
    """Play ``games`` games (seeds ``seed``, ``seed+1``, ...) and summarise them."""
    spec, rs, bot_list, seeds = _plan(rules, games, seed, bots, out, fmt)
    chunk = max(1, min(50, games // max(1, workers * 4) or 1))
    jobs = [(spec, seeds[i : i + chunk], bot_list, str(out) if out else None, fmt) for i in range(0, games, chunk)]
    totals = _Totals(rs, games, progress)
    if workers > 1:
        failed = _run_in_pool(jobs, workers, totals)
        if failed:
            missing = [seed for job in failed for seed in job[1]]
            summary = totals.finish()
            raise SimulationIncomplete(
                f"worker processes died while playing {len(missing)} game(s) (seeds {_seed_ranges(missing)}), "
                f"{POOL_ATTEMPTS} times each: the summary holds the {summary.games} game(s) that were played",
                summary,
                missing,
            )
    else:
        for job in jobs:
            totals.absorb(_run_chunk(job))
    return totals.finish()


def _run_in_pool(
    jobs: list[tuple[str, list[str | int], list[str], str | None, str]], workers: int, totals: _Totals
) -> list[tuple[str, list[str | int], list[str], str | None, str]]:
    """Play ``jobs`` in worker processes, each chunk's statistics into ``totals`` in the jobs' order; a chunk
    whose worker died is played again in a new pool (:data:`POOL_ATTEMPTS` in all). Returns the chunks never
    played. An error a game raises (not a dead worker) propagates as it is."""
    failed = run_despite_dead_workers(_run_chunk, jobs, workers, lambda _i, stats: totals.absorb(stats))
    return [jobs[i] for i in failed]


def _seed_ranges(seeds: list[int | str]) -> str:
    """Seeds as short ranges: ``3-5, 9``."""
    out: list[str] = []
    ints = sorted(s for s in seeds if isinstance(s, int))
    start = prev = None
    for s in ints:
        if prev is not None and s == prev + 1:
            prev = s
            continue
        if start is not None:
            out.append(f"{start}-{prev}" if prev != start else str(start))
        start = prev = s
    if start is not None:
        out.append(f"{start}-{prev}" if prev != start else str(start))
    return ", ".join(out + [str(s) for s in seeds if not isinstance(s, int)])


def _plan(
    rules: str | Ruleset, games: int, seed: int, bots: Sequence[str], out: str | Path | None, fmt: str
) -> tuple[str, Ruleset, list[str], list[int | str]]:
    """Check a simulation's arguments; its rule spec, rule set, four bots and seeds (shared with the Ray runner)."""
    spec = rules if isinstance(rules, str) else rules.name
    rs = load_rules(rules)
    if isinstance(rules, Ruleset) and load_rules(rules.name) != rules:
        raise JantakuError("simulate takes a preset name or a rule file path so that worker processes can load it")
    bot_list = list(bots) * 4 if len(bots) == 1 else list(bots)
    if len(bot_list) != 4:
        raise JantakuError(f"give one bot for every seat or one for all, got {len(bots)}")
    for name in set(bot_list):
        make_bot(name)
    if out and fmt == "tenhou6" and rs.family == "jielu":
        raise JantakuError("tenhou.net/6 records hold riichi games only: write 洁律 games with --format mjai")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
    seeds: list[int | str] = [seed + i for i in range(games)]
    return spec, rs, bot_list, seeds


class _Totals:
    """Sums games' statistics in the order they are given and makes the :class:`Summary`."""

    def __init__(self, rs: Ruleset, games: int, progress: Callable[[int, int, float], None] | None) -> None:
        self.summary = Summary(rules=rs.name, family=rs.family)
        self.games = games
        self.progress = progress
        self.start = time.perf_counter()
        self.done = 0
        self.points: list[int] = []
        self.totals_final = [0.0] * 4
        self.totals_rank = [0] * 4
        self.wins = [0] * 4
        self.deal_ins = [0] * 4

    def absorb(self, stats: list[GameStats]) -> None:
        summary = self.summary
        for g in stats:
            self.done += 1
            summary.hands += g.hands
            summary.draw_rate += g.draws
            summary.steps += g.steps
            self.points.extend(g.win_points)
            summary.yaku.update(g.yaku)
            for s in range(4):
                self.totals_final[s] += g.final[s]
                self.totals_rank[s] += g.ranks[s]
                self.wins[s] += g.wins[s]
                self.deal_ins[s] += g.deal_ins[s]
        if self.progress:
            self.progress(self.done, self.games, time.perf_counter() - self.start)

    def finish(self) -> Summary:
        summary, done, points = self.summary, self.done, self.points
        summary.games = done
        summary.seconds = time.perf_counter() - self.start
        hands = max(1, summary.hands)
        summary.mean_final = [round(v / max(1, done), 2) for v in self.totals_final]
        summary.mean_rank = [v / max(1, done) for v in self.totals_rank]
        summary.win_rate = [w / hands for w in self.wins]
        summary.deal_in_rate = [d / hands for d in self.deal_ins]
        summary.draw_rate = summary.draw_rate / hands
        summary.mean_win_points = sum(points) / len(points) if points else 0.0
        return summary
