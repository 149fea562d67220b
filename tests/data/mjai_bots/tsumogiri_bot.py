"""A minimal external mjai bot (no jantaku import): it discards every tile it draws and passes on everything else.

Protocol (mjai.app style): each line on stdin is a JSON array of events (a single event object is accepted
too); after each line it prints exactly one JSON action. When the last event is its own draw it answers
``{"type": "dahai", "actor": SEAT, "pai": TILE, "tsumogiri": true}``; otherwise ``{"type": "none"}`` - it
never wins, calls, declares riichi or nine terminals. Its seat is ``start_game``'s ``id``.

    jantaku simulate --bots "mjai:python3 tests/data/mjai_bots/tsumogiri_bot.py,efficiency,random,efficiency"
"""

import json
import sys


def main() -> int:
    seat = None
    for line in sys.stdin:
        if not line.strip():
            continue
        events = json.loads(line)
        if isinstance(events, dict):
            events = [events]
        answer = {"type": "none"}
        for e in events:
            if e.get("type") == "start_game" and "id" in e:
                seat = e["id"]
        last = events[-1] if events else {}
        if last.get("type") == "tsumo" and last.get("actor") == seat and last.get("pai") != "?":
            answer = {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
