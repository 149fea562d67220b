"""``jantaku score``: score one hand from flags, or many as JSON lines (``--jsonl``)."""

from __future__ import annotations

import argparse
import json
import sys

from jantaku import safejson
from jantaku.errors import JantakuError
from jantaku.hand import parse_hand_or_tiles
from jantaku.safejson import decode_utf8
from jantaku.scoring_requests import score_json
from jantaku.tiles import format_tiles

_EPILOG = """examples:
  jantaku score 234m567p456s78999s --win 9s --tsumo --riichi --dora 3m --rules mleague --seat S
  jantaku score 123m456p11z 777z+ 1111s* --win 1z --seat E --round E
  jantaku score 11123455678999m --tsumo --json
  echo '{"hand": "234m567p456s78999s", "win": "9s", "tsumo": true}' | jantaku score --jsonl
  jantaku score 123m456p789s11z344z --tsumo --rules jielu          # 洁律: fans, wildcards, score S
  jantaku score 123m456p789s1134z --extra-wildcards 1 --rules jielu   # a non-winner's hand at the end

melds follow the closed tiles as separate words: the called tile first, then + (chi, pon, open kan),
^ (added kan) or * (closed kan), optionally the source seat (1 right, 2 across, 3 left, the default);
tenhou.net/6 call strings (p252525, c275226, 424242a42, ...) work too. Without --win the last closed
tile written is the winning tile. --jsonl reads one JSON object per line (fields: see README) and writes
one result per line; a bad line gives {"error": ...} and the rest go on. Each request's "rules" picks the
scorer: a 洁律 rule set (family jielu) is scored by jantaku.jielu, which also reads "extra_wildcards".
"""


_CIRCUMSTANCES = {
    "riichi": "the winner declared riichi",
    "double-riichi": "the winner declared riichi on the first turn (double riichi)",
    "ippatsu": "won within one go-around of the riichi, no call between (ippatsu)",
    "haitei": "won by tsumo on the last tile of the wall (haitei)",
    "houtei": "won by ron on the last discard (houtei)",
    "rinshan": "won by tsumo on a kan's replacement tile (rinshan kaihou)",
    "chankan": "won by robbing a kan (chankan)",
    "tenhou": "the dealer's win on the first draw (tenhou)",
    "chiihou": "a non-dealer's win on the first draw, no call before (chiihou)",
}
"""The circumstances of a win given as flags: each flag's help text."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score",
        help="score a winning hand under a rule set",
        description="Score a winning hand: yaku, fu, han, limit, points and every player's payment.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("hand", nargs="*", help="closed tiles (winning tile included) then melds")
    p.add_argument("--win", help="the winning tile (default: the last closed tile written)")
    p.add_argument("--tsumo", action="store_true", help="self-drawn win (default: ron)")
    for flag, meaning in _CIRCUMSTANCES.items():
        p.add_argument(f"--{flag}", action="store_true", help=meaning)
    p.add_argument("--renhou", action="store_true", help="only where the rule set has renhou")
    p.add_argument("--seat", default="E", help="seat wind E/S/W/N (default E: the dealer)")
    p.add_argument("--round", default="E", help="round wind E/S/W/N (default E)")
    p.add_argument("--dora", default="", help="dora indicators, mpsz (e.g. 3m7z)")
    p.add_argument("--ura", default="", help="ura dora indicators, mpsz")
    p.add_argument("--honba", type=int, default=0, help="counters on the table (default 0)")
    p.add_argument("--deposits", type=int, default=0, help="riichi sticks the winner collects (default 0)")
    p.add_argument("--winner", type=int, default=0, help="winner's seat 0-3 (default 0)")
    p.add_argument("--discarder", type=int, default=None, help="discarder's seat for a ron")
    p.add_argument("--pao", type=int, default=None, help="seat liable for the yakuman (pao)")
    p.add_argument("--rules", default="standard", help="preset name or TOML file (default standard)")
    p.add_argument(
        "--extra-wildcards",
        type=int,
        default=0,
        help="洁律: wildcards on top of the hand's tiles (a non-winner's 13-tile hand at the end gets 1)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--jsonl", action="store_true", help="read JSON requests on stdin, one per line")
    p.set_defaults(run=run)


def _request(args: argparse.Namespace) -> dict[str, object]:
    words = list(args.hand)
    if not words:
        raise JantakuError("give the hand (closed tiles, then melds), or use --jsonl")
    closed, meld_objs = parse_hand_or_tiles(" ".join(words))
    hand = format_tiles(closed)
    melds = [str(m) for m in meld_objs]
    win = args.win
    if win is None and not args.extra_wildcards:
        if not closed:
            raise JantakuError("the hand has no closed tiles to take the winning tile from; give --win")
        win = closed[-1].mpsz
    req: dict[str, object] = {
        "hand": hand,
        "melds": melds,
        "win": win,
        "tsumo": args.tsumo,
        "seat_wind": args.seat,
        "round_wind": args.round,
        "dora": args.dora,
        "ura": args.ura,
        "honba": args.honba,
        "deposits": args.deposits,
        "winner": args.winner,
        "rules": args.rules,
    }
    for flag in ("riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou"):
        req[flag] = getattr(args, flag)
    if args.renhou:
        req["renhou"] = True
    if args.discarder is not None:
        req["discarder"] = args.discarder
    if args.pao is not None:
        req["pao"] = args.pao
    if args.extra_wildcards:
        req["extra_wildcards"] = args.extra_wildcards
    if win is None:
        del req["win"]
    return req


MAX_LINE = 1_000_000
"""Longest ``--jsonl`` line read (characters); a request is a few hundred."""


def _answer_line(lineno: int, raw: bytes | str) -> dict[str, object]:
    """The answer to one ``--jsonl`` line: a result, or ``{"error": "line N: ..."}``."""
    try:
        text = raw if isinstance(raw, str) else decode_utf8(raw)
        obj = safejson.loads(text, max_length=MAX_LINE)
    except JantakuError as e:
        return {"error": f"line {lineno}: {e}"}
    if not isinstance(obj, dict):
        return {"error": f"line {lineno}: a request is a JSON object, got {type(obj).__name__}"}
    out = score_json(obj)
    if "error" in out:
        out = {**out, "error": f"line {lineno}: {out['error']}"}
    return out


def _write_line(out: dict[str, object]) -> None:
    try:
        text = json.dumps(out, ensure_ascii=False)
        sys.stdout.write(text + "\n")
    except UnicodeEncodeError:  # an output encoding without CJK (a strict locale): the same JSON, escaped
        sys.stdout.write(json.dumps(out) + "\n")


def _run_jsonl() -> int:
    """Answer each line of stdin with one line of JSON; a bad line gets its error and the next lines go on.

    The input is read as bytes and decoded as UTF-8 line by line (whatever the locale says), so one line
    that is not UTF-8 spoils only its own answer.
    """
    stream = getattr(sys.stdin, "buffer", sys.stdin)
    for lineno, raw in enumerate(stream, 1):
        if not raw.strip():
            continue
        _write_line(_answer_line(lineno, raw))
        sys.stdout.flush()
    return 0


def _run_jielu(req: dict[str, object], as_json: bool) -> int:
    from jantaku.jielu.fantable import table_for_rules
    from jantaku.jielu.jsonio import request_from_json, result_to_json
    from jantaku.jielu.scoring import score_hand

    jreq = request_from_json(req)
    # the rule set's fan values (a user rule file may give its own [jielu_fans])
    table = table_for_rules(jreq.rules)
    result = score_hand(jreq.hand, jreq.conditions, extra_wildcards=jreq.extra_wildcards, table=table)
    if not result.is_win:
        # as a riichi hand that cannot win: a message and exit 2 (the JSON lines mode answers {"error": ...})
        raise JantakuError(f"{jreq.hand}: {result.shortfall}: it cannot win")
    if as_json:
        print(json.dumps(result_to_json(result, jreq), ensure_ascii=False))
        return 0
    cond = jreq.conditions
    if cond is None:
        n = jreq.extra_wildcards
        how = f"+ {n} extra wildcard{'s' if n > 1 else ''}, no win"
    else:
        how = f"win {cond.win}  ({'tsumo' if cond.tsumo else 'ron'}"
        how += "".join(
            f", {f}" for f in ("haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou") if getattr(cond, f)
        )
        how += ")"
    print(f"{jreq.hand}  {how}  (rules {jreq.rules.name}, {jreq.rules.jielu_mode} mode)")
    print(result.explain(), end="")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.jsonl:
        return _run_jsonl()
    from jantaku.riichi.jsonio import request_from_json, rules_family
    from jantaku.riichi.scoring import score_hand

    req = _request(args)
    if rules_family(req) == "jielu":
        return _run_jielu(req, args.json)
    if args.extra_wildcards:
        raise JantakuError("--extra-wildcards is a 洁律 option (use --rules jielu)")
    hand, cond, rules = request_from_json(req)
    result = score_hand(hand, cond, rules)
    if args.json:
        from jantaku.riichi.jsonio import result_to_json

        print(json.dumps(result_to_json(result), ensure_ascii=False))
        return 0
    print(f"{hand}  win {cond.win}  ({'tsumo' if cond.tsumo else 'ron'}, rules {rules.name})")
    print(result.explain())
    return 0
