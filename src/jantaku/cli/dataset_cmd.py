"""``jantaku dataset``: game records -> training samples of the environments' encoding (sharded npz)."""

from __future__ import annotations

import argparse
import json
import sys

from jantaku.extras import require


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "dataset",
        help="turn game records into training samples (observation, mask, action, outcome) in npz shards",
        description="Play game records (Tenhou mjlog, tenhou.net/6 JSON, Mahjong Soul, mjai; files, folders, "
        "gzip) through the engine and write every decision of the chosen players as a sample of the environments' "
        "own encoding: the observation, the legal-action mask, the action the player took, the seat's final "
        "place and score, and where it came from. Needs the env extra.",
        epilog="examples:\n  jantaku dataset examples/records --out out/dataset\n"
        "  jantaku dataset examples/records --players 0 --shard-size 200 --out out/seat0   (seat 0, small shards)\n"
        "  jantaku dataset examples/records --places 1 --out out/winners   (each game's winner only)\n"
        "  jantaku dataset examples/records --name 剣城 --name デジタル仙人 --out out/two   (two players, any seat)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="+", help="record files or folders (searched recursively)")
    p.add_argument("--out", required=True, help="the folder the shards and index.json are written to")
    p.add_argument("--players", default="all", help="the seats whose decisions are kept: all (default) or 0,2,...")
    p.add_argument(
        "--name",
        action="append",
        default=None,
        metavar="NAME",
        help="keep only the decisions of the player the records call NAME, at whatever seat (repeat for several; "
        "default: everyone)",
    )
    p.add_argument(
        "--places",
        default="all",
        help="keep only the seats that finished in these places, e.g. 1 or 1,2 (default all)",
    )
    p.add_argument("--rules", default=None, help="play the records by this preset or TOML file (default: their own)")
    p.add_argument("--shard-size", type=int, default=50_000, help="samples per shard file (default 50000)")
    p.add_argument("--workers", type=int, default=1, help="processes sharing out the record files (default 1)")
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        default=None,
        metavar="ADDRESS",
        help="play the records as Ray tasks: on a local Ray instance of --workers CPUs (no ADDRESS), or on the "
        "cluster at HOST:PORT (or auto); needs the ray extra",
    )
    p.add_argument(
        "--planes",
        default="",
        help="optional observation planes to add, comma-separated: shanten, ukeire, waits, furiten, riichi_turn, "
        "safe (default none)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    require("gymnasium", "env", "jantaku dataset")
    from jantaku.env.dataset import write_shards

    planes = [x.strip() for x in args.planes.split(",") if x.strip()]
    index = write_shards(
        args.paths,
        args.out,
        players=args.players,
        names=args.name,
        places=args.places,
        rules=args.rules,
        shard_size=args.shard_size,
        workers=args.workers,
        extra_planes=planes,
        ray=args.ray,
    )
    summary = {k: index[k] for k in ("samples", "shards")}
    summary["records"] = len(index["sources"])
    summary["skipped"] = len(index["skipped"])
    print(json.dumps(summary))
    if not index["samples"] and index["sources"]:
        chosen = index["selection"]
        print(
            f"jantaku dataset: no decision matched the selection (seats {chosen['seats']}, names {chosen['names']}, "
            f"places {chosen['places']}): check the spelling of --name against the records' player names",
            file=sys.stderr,
        )
    for s in index["skipped"]:
        print(f"skipped: {s}")
    return 0
