"""A bot seated over mjai (``jantaku bot``: :class:`~jantaku.cli.bot_cmd.MjaiBotSession`, which knows the game only
from the events it is sent, through its :class:`~jantaku.table.seatview.SeatView`) plays exactly as the same bot
seated in-process (a :class:`~jantaku.bots.base.PlayerView` on the table engine): over seeded whole games of every
preset, the game's full event log is the same one, event for event. Both see the same facts and are offered the
same actions in the same order, so any difference (a fact the events do not carry, an action offered on one side
only) changes a decision and shows here.

Most games pass the mjai lines to the session in-process (the agent's pipe replaced by a direct call, which only
saves starting a process per game); one test runs the real ``jantaku bot`` processes."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

import pytest

from jantaku.bots import PlayerView, make_bot
from jantaku.bots.mjai_process import MjaiProcessAgent
from jantaku.cli.bot_cmd import MjaiBotSession
from jantaku.rules import load_rules
from jantaku.table import Game
from jantaku.table.actions import STOP, TENPAI, Action

PRESETS = ["tenhou", "mleague", "mu", "standard", "meibi", "mahjongsoul", "jielu", "jielu_original"]
OTHERS = ["efficiency", "random", "efficiency"]
"""The in-process bots beside the one over mjai (the strong bot): efficiency bots win, call and deal in, a random
bot calls at random and feeds the others."""

GAMES_PER_PRESET = int(os.environ.get("JANTAKU_MJAI_IDENTITY_GAMES", "5"))
"""Seeded East-only games per preset here (``tools/mjai_identity.py`` plays 50 a preset with real processes)."""


class InPipeAgent(MjaiProcessAgent):
    """:class:`MjaiProcessAgent` with its line to the bot process replaced by a call of the session that
    ``jantaku bot`` runs: the same JSON lines both ways, no process."""

    def __init__(self, session: MjaiBotSession, seat: int) -> None:
        super().__init__("jantaku bot (in-process)", seat=seat, timeout=30)
        self.session = session

    def _exchange(self, events: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
        line = self.session.handle_line(json.dumps(events, ensure_ascii=False))
        self.exchanges += 1
        return line, json.loads(line)

    def close(self) -> None:
        pass


class AsOverMjai:
    """An in-process bot answering what the mjai protocol cannot ask as :class:`MjaiProcessAgent` answers it for
    its bot: a tenpai hand at an exhaustive draw is shown (μ lets it stay silent; mjai has no declaration), and
    the all-last dealer stops (mjai has no yame/continue)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        for kind in (TENPAI, STOP):
            chosen = next((a for a in legal if a.kind == kind), None)
            if chosen is not None:
                return chosen
        return self.bot.act(view, legal)


def _play(rules: str, seed: str, agents: list[Any]) -> Game:
    game = Game(load_rules(rules).replace(rounds=1), seed)  # East only: shorter games, more of them
    for _ in range(200_000):
        if game.over:
            return game
        seat = game.to_act()[0]
        game.apply(agents[seat].act(game.view(seat), game.legal_actions(seat)))
    raise AssertionError(f"{rules} {seed}: the game did not end")


def lineup(n: int) -> tuple[list[str], int]:
    """Game ``n``'s bots by seat and the seat played over mjai by the strong bot (it goes round the table)."""
    seat = n % 4
    names = list(OTHERS)
    names.insert(seat, "strong")
    return names, seat


def play_pair(rules: str, n: int, over_mjai: Callable[[str, int], Any]) -> tuple[Game, Game, int]:
    """Seeded game ``n`` played twice: every bot in-process, then with the strong bot's seat played by the agent
    ``over_mjai(seed, seat)`` makes. Both games and that seat."""
    names, seat = lineup(n)
    seed = f"mjai-identity-{n}"
    bots: list[Any] = [make_bot(name, f"{seed}:{s}") for s, name in enumerate(names)]
    bots[seat] = AsOverMjai(bots[seat])
    direct = _play(rules, seed, bots)
    agents: list[Any] = [make_bot(name, f"{seed}:{s}") for s, name in enumerate(names)]
    agents[seat] = over_mjai(seed, seat)
    try:
        return direct, _play(rules, seed, agents), seat
    finally:
        agents[seat].close()


def in_pipe(seed: str, seat: int) -> InPipeAgent:
    """The strong bot's session as `jantaku bot strong --seed SEED:SEAT` runs it: the session learns the rule
    set from start_game, as `jantaku bot` does when jantaku seats it."""
    return InPipeAgent(MjaiBotSession(make_bot("strong", f"{seed}:{seat}")), seat)


def first_difference(direct: Game, over_mjai: Game) -> str | None:
    """Where two plays of one seeded game part (``None``: the same log)."""
    if over_mjai.events == direct.events:
        return None
    at = next(
        (i for i, (a, b) in enumerate(zip(direct.events, over_mjai.events, strict=False)) if a != b),
        min(len(direct.events), len(over_mjai.events)),
    )

    def shown(events: list[dict[str, Any]]) -> object:
        return events[at] if at < len(events) else "(the log ends)"

    return f"event {at}: in-process {shown(direct.events)} / over mjai {shown(over_mjai.events)}"


@pytest.mark.parametrize("rules", PRESETS)
def test_the_strong_bot_over_mjai_plays_the_same_games_as_in_process(rules):
    kinds: dict[str, int] = {}
    for n in range(GAMES_PER_PRESET):
        direct, over_mjai, seat = play_pair(rules, n, in_pipe)
        difference = first_difference(direct, over_mjai)
        assert difference is None, f"{rules} game {n}, the strong bot over mjai at seat {seat}: {difference}"
        for e in direct.events:
            if e.get("actor") == seat:
                kinds[e["type"]] = kinds.get(e["type"], 0) + 1
    # the seat over mjai made real decisions: discards, calls, wins
    assert kinds.get("dahai", 0) > 30
    assert sum(kinds.get(k, 0) for k in ("hora", "pon", "chi", "reach", "daiminkan", "ankan", "kakan")) > 0, kinds


def test_the_jantaku_bot_process_plays_the_same_game_as_in_process():
    """The real ``jantaku bot`` processes at two seats of a tenhou game: the same log as in-process."""
    seed = "mjai-identity-process"
    lineup = ["strong", "efficiency", "random", "efficiency"]
    direct = _play("tenhou", seed, [AsOverMjai(make_bot(name, f"{seed}:{s}")) for s, name in enumerate(lineup)])
    agents: list[Any] = [make_bot(name, f"{seed}:{s}") for s, name in enumerate(lineup)]
    for s in (0, 2):
        command = [sys.executable, "-m", "jantaku.cli", "bot", lineup[s], "--seed", f"{seed}:{s}"]
        agents[s] = MjaiProcessAgent(command, seat=s, timeout=60)
    try:
        over_mjai = _play("tenhou", seed, agents)
    finally:
        for s in (0, 2):
            agents[s].close()
    assert over_mjai.events == direct.events
    assert agents[0].exchanges > 50 and agents[2].exchanges > 50
