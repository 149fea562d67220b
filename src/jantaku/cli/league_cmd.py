"""``jantaku league``: record a league or a tournament played at physical tables (see :mod:`jantaku.league`).

Players are named as they were added; in a game, ``A B C D`` are in seat order from the table's East seat.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from jantaku.errors import JantakuError

DEFAULT_DB = "jantaku.league.sqlite3"
"""The league database of the command line: the one ``jantaku serve`` (with its default ``--db``) shows at /league."""

READ_ONLY = frozenset({"events", "show", "standings", "export", "log", "unconfirmed", "ratings", "profile"})
# (`schedule` with no rounds only shows, but a missing database is then an error from the store: no event)
"""Actions that only read: they never create a database (a missing SQLite file is an error naming it)."""

_EPILOG = """examples (mkdir -p out first: they keep their league in out/demo.sqlite3):
  jantaku league --db out/demo.sqlite3 create "Spring cup" --rules mleague --password s3cret-pw
  jantaku league --db out/demo.sqlite3 team "Spring cup" Red Blue
  jantaku league --db out/demo.sqlite3 player "Spring cup" Ann Cy --team Red
  jantaku league --db out/demo.sqlite3 player "Spring cup" Bo Di --team Blue
  jantaku league --db out/demo.sqlite3 seat "Spring cup" --method random --seed 7
  jantaku league --db out/demo.sqlite3 win 1 Bo 3 30 --from Ann --riichi Bo
  jantaku league --db out/demo.sqlite3 win 1 Cy 2 40 --from Di --correct      # the last entry was wrong
  jantaku league --db out/demo.sqlite3 draw 1 --tenpai Ann --correct 1        # so was entry 1: the rest replays
  jantaku league --db out/demo.sqlite3 draw 1 --tenpai Ann,Cy --riichi Ann
  jantaku league --db out/demo.sqlite3 win 1 Di --tsumo --hand 234m567p456s78999s --win 9s --dora 3m
  jantaku league --db out/demo.sqlite3 chombo 1 Ann --reason "wrong win"
  jantaku league --db out/demo.sqlite3 time 1                                  # time is up: this hand is the last
  jantaku league --db out/demo.sqlite3 show 1
  jantaku league --db out/demo.sqlite3 quick "Spring cup" Ann Bo Cy Di --scores 28600,28600,28600,13200 --deposits 1
  jantaku league --db out/demo.sqlite3 penalty "Spring cup" Cy 5 "late arrival"
  jantaku league --db out/demo.sqlite3 import "Spring cup" examples/records/2010102910gm-00a9-0000-cdb9804c.mjlog --map 太くないお=Ann --map 怖くないお=Bo --map 剣城=Cy --map 唐揚大好き=Di
  jantaku league --db out/demo.sqlite3 standings "Spring cup" --teams
  jantaku league --db out/demo.sqlite3 export "Spring cup" --format csv --what games
  jantaku league --db out/demo.sqlite3 log "Spring cup"
  jantaku league --db out/demo.sqlite3 pins "Spring cup"                       # codes for players' own entry
  jantaku league --db out/demo.sqlite3 clock "Spring cup" 1 90                 # round 1 has 90 minutes
  jantaku league --db out/demo.sqlite3 unconfirmed "Spring cup"
  jantaku league --db out/demo.sqlite3 ratings
  jantaku league --db out/demo.sqlite3 profile Ann
  jantaku league --db out/demo.sqlite3 events

--db is a SQLite file or a PostgreSQL URL (postgresql://user@host/dbname); by default jantaku.league.sqlite3 in
the working folder, which `jantaku serve` started there shows at /league/. A missing SQLite file is created by
the commands that write (never by events, show, standings, export or log); a missing folder is an error. Each hand
entry (win, draw, abortive, chombo, card) is checked against the event's rule set and changes the running
scores as the engine pays them; --correct replaces the game's last entry instead (--correct N: entry N, the
entries after it replayed), `undo` deletes the last one, --if-version refuses a change if the game changed since
you looked (`show` prints its version), and every change is kept in the audit log (`log`). `seat` groups the players into tables (random, swiss, or given with
--players) and runs the rule set's seat and first-dealer draw (--no-draw: seats as listed, East deals first).
"""  # noqa: E501 (an example command is one line)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "league",
        help="record leagues and tournaments played at real tables",
        description="Record a league or a tournament: events, players, teams, seating, hand-by-hand entry "
        "checked and settled by the event's rule set, quick entry of final scores, imported online records, "
        "penalties, standings and export.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=f"SQLite file or postgresql:// URL (default ./{DEFAULT_DB}, the database `jantaku serve` shows at "
        "/league when started in the same folder)",
    )
    p.add_argument("--by", default="organiser", help="who makes the change, kept in the audit log (default organiser)")
    p.add_argument("--json", action="store_true", help="print results as JSON")
    cmds = p.add_subparsers(dest="league_command", metavar="ACTION", required=True)

    c = cmds.add_parser("create", help="create an event")
    c.add_argument("event")
    c.add_argument("--rules", required=True, help="preset name or TOML rule file")
    c.add_argument(
        "--password",
        help="organiser password for the web pages (at least 8 characters; without one the event is read-only "
        "on the web)",
    )
    c.set_defaults(action=_create)

    c = cmds.add_parser("events", help="list the events")
    c.set_defaults(action=_events)

    c = cmds.add_parser("team", help="add teams")
    c.add_argument("event")
    c.add_argument("names", nargs="+")
    c.set_defaults(action=_team)

    c = cmds.add_parser("player", help="add players")
    c.add_argument("event")
    c.add_argument("names", nargs="+")
    c.add_argument("--team")
    c.add_argument("--substitute", action="store_true", help="they play only in someone's place (never drawn)")
    c.set_defaults(action=_player)

    c = cmds.add_parser("seat", help="seat a new round")
    c.add_argument("event")
    c.add_argument("--method", default="random", choices=("random", "balanced", "swiss", "given", "prescripted"))
    c.add_argument("--players", help="comma-separated, in table order (given), or who plays this round")
    c.add_argument("--seed", help="seed of the random choices (default: fresh)")
    c.add_argument(
        "--no-draw",
        action="store_true",
        help="no seat draw, the East seat deals first: seats as listed (given, prescripted), else each player at "
        "the wind they have sat at least",
    )
    c.add_argument(
        "--round",
        type=int,
        dest="expected_round",
        metavar="N",
        help="the number the new round should get: refused if someone seated another meanwhile",
    )
    c.set_defaults(action=_seat)

    c = cmds.add_parser("schedule", help="decide every round's tables ahead (then seat rounds --method prescripted)")
    c.add_argument("event")
    c.add_argument("rounds", type=int, nargs="?")
    c.add_argument("--seed", help="seed of the random choices (default: fresh)")
    c.set_defaults(action=_schedule)

    c = cmds.add_parser("substitute", help="a player takes a seat of a game in someone's place")
    c.add_argument("game", type=int)
    c.add_argument("seat", help="the seat: E, S, W or N (the game's seat order), or the replaced player's name")
    c.add_argument("player")
    c.set_defaults(action=_substitute)

    c = cmds.add_parser("game", help="start a game of four players (in seat order)")
    c.add_argument("event")
    c.add_argument("players", nargs=4)
    c.add_argument("--dealer", help="who deals first (default: the first player)")
    c.add_argument("--draw", action="store_true", help="seat them by the rule set's draw instead")
    c.add_argument("--seed", default="0")
    c.set_defaults(action=_game)

    c = cmds.add_parser("win", help="a win: winner, han and fu (or --yakuman, or --hand)")
    c.add_argument("game", type=int)
    c.add_argument("winner")
    c.add_argument("han", nargs="?", type=int)
    c.add_argument("fu", nargs="?", type=int)
    c.add_argument("--from", dest="frm", help="who dealt in (a ron)")
    c.add_argument("--tsumo", action="store_true", help="a self-drawn win")
    c.add_argument("--yakuman", type=int, default=0)
    c.add_argument("--pao", help="who is liable for the yakuman")
    c.add_argument("--hand", help="the winning hand's tiles, scored by jantaku (as `jantaku score` reads them)")
    c.add_argument("--win", help="with --hand: the winning tile")
    c.add_argument("--dora", default="", help="with --hand: dora indicators")
    c.add_argument("--ura", default="", help="with --hand: ura dora indicators")
    c.add_argument(
        "--also",
        nargs=3,
        action="append",
        metavar=("WINNER", "HAN", "FU"),
        default=[],
        help="another winner on the same discard",
    )
    c.add_argument(
        "--also-yakuman",
        nargs=2,
        action="append",
        metavar=("WINNER", "COUNT"),
        default=[],
        help="another winner on the same discard, with a yakuman",
    )
    c.add_argument(
        "--also-pao",
        action="append",
        metavar="WINNER=PLAYER",
        default=[],
        help="who is liable (pao) for another winner's yakuman",
    )
    _entry_options(c)
    c.set_defaults(action=_win)

    c = cmds.add_parser("draw", help="an exhaustive draw")
    c.add_argument("game", type=int)
    c.add_argument("--tenpai", default="", help="who is tenpai (comma-separated)")
    c.add_argument("--nagashi", default="", help="who made nagashi mangan")
    _entry_options(c)
    c.set_defaults(action=_draw)

    c = cmds.add_parser("abortive", help="an abortive draw")
    c.add_argument("game", type=int)
    c.add_argument("reason", help="nine_terminals, four_winds, four_riichi, four_kans, triple_ron")
    c.add_argument("--tenpai", default="")
    _entry_options(c)
    c.set_defaults(action=_abortive)

    c = cmds.add_parser("chombo", help="a chombo (the hand is replayed)")
    c.add_argument("game", type=int)
    c.add_argument("player")
    c.add_argument("--deliberate", action="store_true")
    c.add_argument("--reason", default="chombo")
    _entry_options(c, riichi=False)
    c.set_defaults(action=_chombo)

    c = cmds.add_parser("card", help="a yellow or red card")
    c.add_argument("game", type=int)
    c.add_argument("player")
    c.add_argument("color", choices=("yellow", "red"))
    c.add_argument("--reason", default="")
    c.add_argument("--earlier-yellows", type=int, default=0, help="yellow cards earlier that day (default 0)")
    _entry_options(c, riichi=False)
    c.set_defaults(action=_card)

    c = cmds.add_parser("yame", help="the all-last dealer stops the game or plays on (where the rule set asks)")
    c.add_argument("game", type=int)
    c.add_argument("choice", choices=("stop", "continue"))
    _entry_options(c, riichi=False)
    c.set_defaults(action=_yame)

    c = cmds.add_parser(
        "time", help="the game's time ran out: the hand in play is the last (μ Art 24(2)), under any rule set"
    )
    c.add_argument("game", type=int)
    _entry_options(c, riichi=False)
    c.set_defaults(action=_time_up)

    c = cmds.add_parser("undo", help="delete a game's last entry (it prints what it deleted)")
    c.add_argument("game", type=int)
    _version_option(c)
    c.set_defaults(action=_undo)

    c = cmds.add_parser("rename", help="rename an event, or a player of it (--player)")
    c.add_argument("event")
    c.add_argument("new_name", metavar="NEW_NAME", help="the new name (of the event, or of --player)")
    c.add_argument("--player", help="rename this player of the event instead of the event")
    c.set_defaults(action=_rename)

    c = cmds.add_parser(
        "delete",
        help="delete an event, a player of it who never played (--player) or a game (--game); the audit log keeps it",
    )
    c.add_argument("event")
    what = c.add_mutually_exclusive_group()
    what.add_argument("--player", help="delete this player (one without games) instead of the event")
    what.add_argument("--game", type=int, help="delete this game of the event (it leaves the standings)")
    c.set_defaults(action=_delete)

    c = cmds.add_parser("show", help="a game's entries and running scores")
    c.add_argument("game", type=int)
    c.set_defaults(action=_show)

    c = cmds.add_parser("quick", help="a game by its final raw scores")
    c.add_argument("event")
    c.add_argument("players", nargs=4)
    c.add_argument("--scores", required=True, help="four final scores, comma-separated, in seat order")
    c.add_argument("--deposits", type=int, default=0, help="riichi sticks left on the table (default 0)")
    c.add_argument("--dealer", help="who dealt first (for ties by seat order)")
    c.set_defaults(action=_quick)

    c = cmds.add_parser("penalty", help="deduct rank points with a reason")
    c.add_argument("event")
    c.add_argument("player")
    c.add_argument("pt", type=float)
    c.add_argument("reason")
    c.add_argument("--game", type=int, help="in this game (else for the event)")
    c.set_defaults(action=_penalty)

    c = cmds.add_parser("import", help="import an online game record")
    c.add_argument("event")
    c.add_argument("file")
    c.add_argument("--map", action="append", default=[], metavar="NAME=PLAYER", help="record name to player")
    c.add_argument("--force", action="store_true", help="import a game the event holds already (refused otherwise)")
    c.set_defaults(action=_import)

    c = cmds.add_parser("standings", help="the standings")
    c.add_argument("event")
    c.add_argument("--teams", action="store_true", help="team standings too")
    c.set_defaults(action=_standings)

    c = cmds.add_parser("export", help="CSV or JSON export")
    c.add_argument("event")
    c.add_argument("--format", choices=("csv", "json"), default="json")
    c.add_argument(
        "--what", choices=("standings", "games"), default="standings", help="with csv: standings (default) or games"
    )
    c.add_argument("--out", help="write to this file (default: standard output)")
    c.set_defaults(action=_export)

    c = cmds.add_parser("log", help="the audit log")
    c.add_argument("event")
    c.set_defaults(action=_log)

    c = cmds.add_parser("ratings", help="every player's rating across events (OpenSkill Plackett-Luce), best first")
    c.add_argument("--series", help="only the games of this series' events")
    c.set_defaults(action=_ratings)

    c = cmds.add_parser("profile", help="a player's events, games and rating across events")
    c.add_argument("player")
    c.set_defaults(action=_profile)

    c = cmds.add_parser("series", help="count several events together (no events: show the series' standings)")
    c.add_argument("name")
    c.add_argument("events", nargs="*")
    c.set_defaults(action=_series)

    c = cmds.add_parser(
        "pins", help="personal codes for players to enter their own tables at /league/table (shown once)"
    )
    c.add_argument("event")
    c.add_argument("players", nargs="*")
    c.set_defaults(action=_pins)

    c = cmds.add_parser("unconfirmed", help="the entries players wrote that the rest of their table has not confirmed")
    c.add_argument("event")
    c.set_defaults(action=_unconfirmed)

    c = cmds.add_parser("accept", help="accept a player's entry for the whole table (no confirmations needed)")
    c.add_argument("game", type=int)
    c.add_argument("seq", type=int)
    c.set_defaults(action=_accept)

    c = cmds.add_parser(
        "clock", help="start a round's clock: when it runs out, each table's hand in play is its last (μ Art 24(2))"
    )
    c.add_argument("event")
    c.add_argument("round", type=int, nargs="?")
    c.add_argument("minutes", type=int, nargs="?")
    c.set_defaults(action=_clock)

    for choice in cmds._choices_actions:  # each action's --help starts with what it does
        action = cmds.choices[choice.dest]
        action.description = choice.help[0].upper() + choice.help[1:] + "."
        for arg in action._actions:
            if arg.help is None:
                arg.help = _ARGUMENT_HELP.get((choice.dest, arg.dest)) or _ARGUMENT_HELP[arg.dest]
    p.set_defaults(run=run)


_ARGUMENT_HELP = {
    "event": "the event's name",
    "game": "the game's number (printed by `game`; `show` lists its entries)",
    "player": "a player's name, as added",
    "reason": "why (kept with the entry)",
    ("team", "names"): "the teams' names",
    ("player", "names"): "the players' names",
    ("player", "team"): "the team they play for",
    ("seat", "method"): "random tables; balanced (random, the fewest repeated opponents); swiss (by standing: "
    "1-4, 5-8, ..., the fewest repeats); given by --players; prescripted (the event's schedule) (default random)",
    ("schedule", "rounds"): "how many rounds to decide (none: show the schedule)",
    ("substitute", "player"): "who takes the seat (a player of the event)",
    ("game", "players"): "the four players, East seat first",
    ("game", "seed"): "seed of the seat draw with --draw (default 0)",
    ("win", "winner"): "who won",
    ("win", "han"): "han of the win (not with --yakuman or --hand)",
    ("win", "fu"): "fu of the win (not needed from mangan up)",
    ("win", "yakuman"): "a yakuman win: how many yakuman (1 single, 2 double; default 0)",
    ("abortive", "tenpai"): "who is tenpai, comma-separated (where the rule set's abortive draw depends on it)",
    ("chombo", "deliberate"): "a deliberate offence (where the rule set punishes it harder)",
    ("chombo", "reason"): "why (kept with the entry; default chombo)",
    ("card", "color"): "the card: yellow or red",
    ("card", "reason"): "why (kept with the entry)",
    ("yame", "choice"): "stop the game, or continue it",
    ("quick", "players"): "the four players, East seat first",
    ("penalty", "pt"): "rank points deducted (e.g. 5 or 2.5)",
    ("import", "file"): "a Tenhou mjlog, tenhou.net/6 JSON or mjai record",
    ("export", "format"): "json (default) or csv",
    ("series", "name"): "the series' name",
    ("series", "events"): "the events it counts, by name (none: show the series)",
    ("profile", "player"): "the player's name (the same in every event)",
    ("pins", "players"): "the players to give a new code (default: every player without one)",
    ("accept", "seq"): "the entry's number (`show` lists them)",
    ("clock", "round"): "the round's number (none: show the rounds' clocks)",
    ("clock", "minutes"): "the round's time in minutes, counted from now (none: show the round's clock)",
}
"""Help of the actions' arguments that do not give their own: by (action, argument), else by argument."""


def _entry_options(c: argparse.ArgumentParser, riichi: bool = True) -> None:
    if riichi:
        c.add_argument("--riichi", default="", help="who declared riichi in the hand (comma-separated, or all)")
    c.add_argument(
        "--correct",
        nargs="?",
        type=int,
        const=LAST,
        metavar="N",
        help="replace the game's entry number N with this one (no N: its last entry); the entries after it are "
        "replayed through the rule set",
    )
    c.add_argument("--expect", type=int, help="the entry's number (refused if someone entered another meanwhile)")
    _version_option(c)


def _version_option(c: argparse.ArgumentParser) -> None:
    c.add_argument(
        "--if-version",
        type=int,
        metavar="V",
        help="the game's version as you last saw it (`show` prints it): refused, saying what changed, if the game "
        "changed since",
    )


def run(args: argparse.Namespace) -> int:
    from jantaku.extras import require

    require("sqlalchemy", "league", "jantaku league")
    from jantaku.league.store import LeagueStore

    store = LeagueStore(args.db, create=args.league_command not in READ_ONLY)
    try:
        out = args.action(store, args)
    finally:
        store.close()
    if isinstance(out, str):
        sys.stdout.write(out if out.endswith("\n") else out + "\n")
    else:
        print(json.dumps(out, ensure_ascii=False, indent=None if not args.json else 2, default=str))
    return 0


# -- actions ------------------------------------------------------------------------------------------------


def _create(store: Any, a: argparse.Namespace) -> Any:
    ev = store.create_event(a.event, a.rules, admin_password=a.password, actor=a.by)
    return ev if a.json else f"event {ev['name']!r} created under {ev['rules']}"


def _events(store: Any, a: argparse.Namespace) -> Any:
    events = store.events()
    if a.json:
        return events
    return "\n".join(f"{e['name']} ({e['rules']})" for e in events) or "no event yet"


def _team(store: Any, a: argparse.Namespace) -> Any:
    for n in a.names:
        store.add_team(a.event, n, actor=a.by)
    return f"teams added: {', '.join(a.names)}"


def _player(store: Any, a: argparse.Namespace) -> Any:
    for n in a.names:
        store.add_player(a.event, n, team=a.team, substitute=a.substitute, actor=a.by)
    kind = "substitutes" if a.substitute else "players"
    return f"{kind} added: {', '.join(a.names)}" + (f" (team {a.team})" if a.team else "")


def _seat(store: Any, a: argparse.Namespace) -> Any:
    players = _names(a.players) if a.players else None
    r = store.seat_round(
        a.event,
        a.method,
        players=players,
        seed=a.seed,
        draw=not a.no_draw,
        expected_round=a.expected_round,
        actor=a.by,
    )
    if a.json:
        return r
    lines = [f"round {r['round']}:"]
    for g in r["games"]:
        seats = ", ".join(f"{w} {p}" for w, p in zip("ESWN", g["players"], strict=True))
        lines.append(
            f"  table {g['table']} (game {g['game']}): {seats}; first dealer {g['players'][g['first_dealer']]}"
            f" ({g['draw']['procedure']} draw)"
        )
    return "\n".join(lines)


def _game(store: Any, a: argparse.Namespace) -> Any:
    dealer = a.players.index(a.dealer) if a.dealer in a.players else 0
    if a.dealer and a.dealer not in a.players:
        raise JantakuError(f"--dealer {a.dealer!r} is not one of the game's players")
    gid = store.new_game(a.event, a.players, first_dealer=dealer, draw=a.draw, seed=a.seed, actor=a.by)
    return {"game": gid} if a.json else f"game {gid}: {_describe_state(store.game(gid))}"


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def _seat_of(game: dict[str, Any], name: str) -> int:
    if name not in game["players"]:
        raise JantakuError(f"{name!r} does not play game {game['id']} ({', '.join(game['players'])})")
    return int(game["players"].index(name))


def _seats_of(game: dict[str, Any], text: str) -> list[int]:
    """The seats of the comma-separated player names in ``text``; ``all`` is the four (four riichi)."""
    if text.strip().lower() == "all":
        return [0, 1, 2, 3]
    return [_seat_of(game, n) for n in _names(text)]


LAST = -1
"""``--correct`` without a number: the game's last entry."""


def _submit(store: Any, a: argparse.Namespace, game: dict[str, Any], entry: dict[str, Any]) -> Any:
    correct = getattr(a, "correct", None)
    version = getattr(a, "if_version", None)
    if correct == LAST:
        out = store.correct_last(game["id"], entry, expected_seq=a.expect, expected_version=version, actor=a.by)
    elif correct is not None:
        out = store.correct_entry(game["id"], correct, entry, expected_version=version, actor=a.by)
    else:
        out = store.add_entry(game["id"], entry, expected_seq=a.expect, expected_version=version, actor=a.by)
    if a.json:
        return out
    g = store.game(game["id"])
    what = "corrected" if correct is not None else "entered"
    deltas = (out.get("outcome") or {}).get("deltas")
    moved = " (no points move)" if deltas == [0, 0, 0, 0] else ""
    if deltas and any(deltas):
        moved = " (" + ", ".join(f"{p} {d:+d}" for p, d in zip(g["players"], deltas, strict=True) if d) + ")"
    return f"entry {out['seq']} {what}{moved}; {_describe_state(g)}; version {out['version']}"


def _describe_state(g: dict[str, Any]) -> str:
    st = g["state"]
    scores = ", ".join(f"{p} {s}" for p, s in zip(g["players"], st["scores"], strict=True))
    if g["status"] == "finished" and g["result"]:
        res = g["result"]
        final = ", ".join(
            f"{res['ranks'][i]}. {p} {res['final'][i]:+.1f}"
            for i, p in sorted(enumerate(g["players"]), key=lambda x: res["ranks"][x[0]])
        )
        return f"game over: {final}"
    dealer = g["players"][st["dealer"]]
    if st.get("yame_choice") is not None:
        return (
            f"{dealer} (the all-last dealer) may stop the game now: `yame {g['id']} stop` or `yame {g['id']} continue`"
        )
    return f"next {st['hand']} ({st['honba']} honba, {st['deposits']} sticks, dealer {dealer}): {scores}"


def _win(store: Any, a: argparse.Namespace) -> Any:
    g = store.game(a.game)
    if a.tsumo == bool(a.frm):
        raise JantakuError("a win is either --tsumo or --from PLAYER (who dealt in)")
    frm = _seat_of(g, a.frm) if a.frm else None
    w: dict[str, Any] = {"winner": _seat_of(g, a.winner), "from": frm}
    if a.hand:
        w.update({"hand": a.hand, "win": a.win, "dora": a.dora, "ura": a.ura})
    elif a.yakuman:
        w["yakuman"] = a.yakuman
    else:
        w["han"], w["fu"] = a.han, a.fu if a.fu is not None else (30 if (a.han or 0) >= 5 else None)
    if a.pao:
        w["pao"] = _seat_of(g, a.pao)
    wins = [w]
    for name, han, fu in a.also:
        try:
            wins.append({"winner": _seat_of(g, name), "from": frm, "han": int(han), "fu": int(fu)})
        except ValueError:
            raise JantakuError(f"--also {name} {han} {fu}: han and fu are whole numbers") from None
    for name, count in a.also_yakuman:
        if not (count.isascii() and count.isdigit()):
            raise JantakuError(f"--also-yakuman {name} {count}: the count is a whole number")
        wins.append({"winner": _seat_of(g, name), "from": frm, "yakuman": int(count)})
    for m in a.also_pao:
        name, eq, liable = m.partition("=")
        seat = _seat_of(g, name) if eq else None
        other = next((x for x in wins[1:] if x["winner"] == seat), None)
        if other is None:
            raise JantakuError(f"--also-pao takes WINNER=PLAYER, WINNER one of the --also winners, got {m!r}")
        other["pao"] = _seat_of(g, liable)
    return _submit(store, a, g, {"kind": "win", "wins": wins, "riichi": _seats_of(g, a.riichi)})


def _draw(store: Any, a: argparse.Namespace) -> Any:
    g = store.game(a.game)
    entry = {"kind": "draw", "tenpai": _seats_of(g, a.tenpai), "riichi": _seats_of(g, a.riichi)}
    if a.nagashi:
        entry["nagashi"] = _seats_of(g, a.nagashi)
    return _submit(store, a, g, entry)


def _abortive(store: Any, a: argparse.Namespace) -> Any:
    g = store.game(a.game)
    entry = {"kind": "abortive", "reason": a.reason, "riichi": _seats_of(g, a.riichi), "tenpai": _seats_of(g, a.tenpai)}
    return _submit(store, a, g, entry)


def _chombo(store: Any, a: argparse.Namespace) -> Any:
    g = store.game(a.game)
    entry = {"kind": "chombo", "seat": _seat_of(g, a.player), "deliberate": a.deliberate, "reason": a.reason}
    return _submit(store, a, g, entry)


def _card(store: Any, a: argparse.Namespace) -> Any:
    g = store.game(a.game)
    entry = {
        "kind": "card",
        "seat": _seat_of(g, a.player),
        "color": a.color,
        "reason": a.reason,
        "earlier_yellows": a.earlier_yellows,
    }
    return _submit(store, a, g, entry)


def _yame(store: Any, a: argparse.Namespace) -> Any:
    g = store.game(a.game)
    return _submit(store, a, g, {"kind": "yame", "stop": a.choice == "stop"})


def _time_up(store: Any, a: argparse.Namespace) -> Any:
    g = store.game(a.game)
    return _submit(store, a, g, {"kind": "time_up"})


def _undo(store: Any, a: argparse.Namespace) -> Any:
    out = store.correct_last(a.game, None, expected_version=a.if_version, actor=a.by)
    if a.json:
        return out
    what = f" ({json.dumps(out['replaced'], ensure_ascii=False)})"  # what was deleted, as the store deleted it
    return f"entry {out['seq']} deleted{what}; {_describe_state(store.game(a.game))}; version {out['version']}"


def _rename(store: Any, a: argparse.Namespace) -> Any:
    if a.player is not None:
        store.rename_player(a.event, a.player, a.new_name, actor=a.by)
        return f"player {a.player} of {a.event} is now {a.new_name}"
    store.rename_event(a.event, a.new_name, actor=a.by)
    return f"event {a.event} is now {a.new_name}"


def _delete(store: Any, a: argparse.Namespace) -> Any:
    if a.player is not None:
        store.delete_player(a.event, a.player, actor=a.by)
        return f"player {a.player} deleted from {a.event}"
    if a.game is not None:
        ids = {e["name"]: e["id"] for e in store.events()}
        if ids.get(a.event) is None or store.game(a.game)["event_id"] != ids[a.event]:
            raise JantakuError(f"no game {a.game} in the event {a.event!r}")
        store.delete_game(a.game, actor=a.by)
        return f"game {a.game} of {a.event} deleted (it leaves the standings)"
    store.delete_event(a.event, actor=a.by)
    return f"event {a.event} deleted"


def _show(store: Any, a: argparse.Namespace) -> Any:
    g = store.game(a.game)
    if a.json:
        return g
    lines = [
        f"game {g['id']} ({g['source']}): {', '.join(f'{w} {p}' for w, p in zip('ESWN', g['players'], strict=True))}"
    ]
    for e in g["entries"]:
        o = e["outcome"] or {}
        lines.append(
            f"  {e['seq']:>2}. {o.get('hand') or '-':<3} {e['kind']:<8} {json.dumps(e['data'], ensure_ascii=False)}"
        )
    lines.append(f"{_describe_state(g)}; version {g['version']}")
    return "\n".join(lines)


def _quick(store: Any, a: argparse.Namespace) -> Any:
    try:
        scores = [int(s) for s in a.scores.split(",")]
    except ValueError:
        raise JantakuError(f"--scores are four whole numbers, comma-separated, got {a.scores!r}") from None
    if a.dealer and a.dealer not in a.players:
        raise JantakuError(f"--dealer {a.dealer!r} is not one of the game's players")
    dealer = a.players.index(a.dealer) if a.dealer else 0
    gid = store.quick_entry(a.event, a.players, scores, deposits=a.deposits, first_dealer=dealer, actor=a.by)
    return {"game": gid} if a.json else f"game {gid}: {_describe_state(store.game(gid))}"


def _penalty(store: Any, a: argparse.Namespace) -> Any:
    store.penalty(a.event, a.player, a.pt, a.reason, game=a.game, actor=a.by)
    return f"{a.player}: -{a.pt:g}pt ({a.reason})"


def _import(store: Any, a: argparse.Namespace) -> Any:
    mapping = {}
    for m in a.map:
        if "=" not in m:
            raise JantakuError(f"--map takes NAME=PLAYER, got {m!r}")
        k, v = m.split("=", 1)
        mapping[k] = v
    ids = store.import_record(a.event, Path(a.file), mapping, force=a.force, actor=a.by)
    if a.json:
        return {"games": ids}
    return "\n".join(f"game {gid} imported ({store.game(gid)['entries'].__len__()} entries): "
                     f"{_describe_state(store.game(gid))}" for gid in ids)  # fmt: skip


def _standings(store: Any, a: argparse.Namespace) -> Any:
    rows = store.standings(a.event)
    teams = store.team_standings(a.event) if a.teams else []
    if a.json:
        return {"players": rows, "teams": teams}
    lines = [f"{'#':>2} {'player':<16} {'total':>8} {'games':>5} {'avg':>5}  1st/2nd/3rd/4th  win%  deal-in%"]
    for r in rows:
        avg = f"{r['average_rank']:.2f}" if r["average_rank"] else "-"
        win = f"{100 * r['win_rate']:.1f}" if r["win_rate"] is not None else "-"
        deal = f"{100 * r['deal_in_rate']:.1f}" if r["deal_in_rate"] is not None else "-"
        dist = "/".join(str(n) for n in r["ranks"])
        head = f"{r['place']:>2} {r['player']:<16} {r['total']:>+8.1f} {r['games']:>5} {avg:>5}"
        lines.append(f"{head}  {dist:<16} {win:>4}  {deal:>8}")
    if teams:
        lines.append("")
        lines.append(f"{'#':>2} {'team':<16} {'total':>8} {'games':>5}  players")
        for t in teams:
            lines.append(
                f"{t['place']:>2} {t['team']:<16} {t['total']:>+8.1f} {t['games']:>5}  {', '.join(t['players'])}"
            )
    return "\n".join(lines)


def _export(store: Any, a: argparse.Namespace) -> Any:
    from jantaku.league.export import games_csv, standings_csv, to_json

    if a.format == "json":
        text = to_json(store.export(a.event))
    elif a.what == "games":
        text = games_csv(store.games(a.event))
    else:
        text = standings_csv(store.standings(a.event))
    if a.out:
        try:
            Path(a.out).write_text(text, encoding="utf-8")
        except OSError as e:
            raise JantakuError(f"cannot write {a.out}: {e.strerror or e}") from None
        return f"written {a.out}"
    return text


def _log(store: Any, a: argparse.Namespace) -> Any:
    log = store.audit_log(a.event)
    if a.json:
        return log
    return "\n".join(
        f"{e['at'][:19]} {e['actor']}: {e['action']} {json.dumps(e['detail'], ensure_ascii=False)[:200]}" for e in log
    )


def _pins(store: Any, a: argparse.Namespace) -> Any:
    pins = store.issue_pins(a.event, a.players or None, actor=a.by)
    if a.json:
        return pins
    if not pins:
        return "every player has a code already (name players to give them a new one)"
    width = max(len(n) for n in pins)
    rows = [f"{name:<{width}}  {pin}" for name, pin in pins.items()]
    return "\n".join([*rows, "give each player theirs now: the codes are stored hashed and not shown again"])


def _unconfirmed(store: Any, a: argparse.Namespace) -> Any:
    rows = store.unconfirmed(a.event)
    if a.json:
        return rows
    if not rows:
        return "every entry is confirmed"
    return "\n".join(
        f"game {u['game']} (table {u['table']}) entry {u['seq']} {u['kind']} by {u['entered_by']}: waiting for "
        f"{', '.join(u['waiting'])}"
        for u in rows
    )


def _accept(store: Any, a: argparse.Namespace) -> Any:
    out = store.confirm_entry(a.game, a.seq, actor=a.by)
    return out if a.json else f"entry {a.seq} of game {a.game} accepted for the table"


def _clock(store: Any, a: argparse.Namespace) -> Any:
    if a.minutes is None:  # shown, not started
        clocks = [c for c in store.clocks(a.event) if a.round is None or c["round"] == a.round]
        if a.round is not None and not clocks:
            raise JantakuError(f"no round {a.round} in {a.event}")
    else:
        clocks = [store.start_clock(a.event, a.round, a.minutes, actor=a.by)]
    if a.json:
        return clocks
    return "\n".join(f"round {c['round']}: {_clock_text(c)}" for c in clocks) or "no round yet"


def _clock_text(c: dict[str, Any]) -> str:
    if "end" not in c:
        return "no clock"
    left = c["seconds_left"]
    shown = f"{int(left // 60)} min {int(left % 60)} s left" if left else "time is up"
    return f"{c['minutes']} min from {c['start'][:19]}, {shown}"


def _schedule(store: Any, a: argparse.Namespace) -> Any:
    rounds = store.make_schedule(a.event, a.rounds, seed=a.seed, actor=a.by) if a.rounds else store.schedule(a.event)
    if a.json:
        return rounds
    if not rounds:
        return f"{a.event} has no schedule: jantaku league schedule {a.event!r} ROUNDS"
    lines = []
    for n, tables in enumerate(rounds, 1):
        lines.append(f"round {n}:")
        for k, table in enumerate(tables, 1):
            lines.append(f"  table {k}: " + ", ".join(f"{w} {p}" for w, p in zip("ESWN", table, strict=True)))
    return "\n".join(lines)


def _substitute(store: Any, a: argparse.Namespace) -> Any:
    g = store.game(a.game)
    seat = "ESWN".index(a.seat.upper()) if a.seat.upper() in ("E", "S", "W", "N") else _seat_of(g, a.seat)
    out = store.substitute(a.game, seat, a.player, actor=a.by)
    if a.json:
        return out
    return f"game {a.game}: {out['in']} takes {out['out']}'s seat ({'ESWN'[seat]}) after {out['entries']} entries"


def _ratings(store: Any, a: argparse.Namespace) -> Any:
    r = store.ratings(a.series)
    if a.json:
        return r
    width = max([len(p["player"]) for p in r["players"]] + [6])
    lines = [
        f"{r['model']}; by mu - 3 sigma",
        f"{'#':>3} {'player':<{width}} {'rating':>7} {'mu':>6} {'sigma':>6} games",
    ]
    for i, p in enumerate(r["players"], 1):
        lines.append(
            f"{i:>3} {p['player']:<{width}} {p['ordinal']:>7.2f} {p['mu']:>6.2f} {p['sigma']:>6.2f} {p['games']:>5}"
        )
    return "\n".join(lines)


def _profile(store: Any, a: argparse.Namespace) -> Any:
    p = store.profile(a.player)
    if a.json:
        return p
    r = p["rating"]
    lines = [f"{p['player']}: rating " + (f"{r['ordinal']:.2f} after {r['games']} games" if r else "none yet")]
    for e in p["events"]:
        lines.append(
            f"  {e['event']} ({e['rules']}): place {e['place']} of {e['of']}, {e['total']:+.1f} in {e['games']} games"
        )
    for g in p["games"]:
        lines.append(f"  {g['date']} {g['event']} game {g['game']}: place {g['rank']}, {g['final']:+.1f}")
    return "\n".join(lines)


def _series(store: Any, a: argparse.Namespace) -> Any:
    if a.events:
        store.create_series(a.name, a.events, actor=a.by)
    s = store.series(a.name)
    if a.json:
        return s
    lines = [f"series {s['name']}: {', '.join(s['events'])}"]
    for i, r in enumerate(s["standings"], 1):
        lines.append(f"{i:>3} {r['player']}: {r['total']:+.1f} in {r['games']} games ({r['events']} events)")
    return "\n".join(lines)
