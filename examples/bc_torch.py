"""Behaviour cloning from people's games with torch, then the cloned policy measured at a table.

1. ``jantaku dataset``: every decision of the records (default: the repository's corpus of real Tenhou and Mahjong
   Soul games, ``tests/data/records``) becomes a sample of the environments' encoding - observation, legal action
   mask, the index of what the player did - written as shards (:func:`jantaku.env.dataset.write_shards`).
2. The record files are split: every fifth file is held out, the rest trains.
3. A small convolutional network over the 34 tile kinds (the observation's planes as channels) is trained with a
   masked cross-entropy: the logits of illegal actions are set to the most negative float, so the network is only
   ever asked to choose among the legal actions.
4. Held-out agreement: how often the network's choice is the player's, over all held-out decisions and over their
   discards alone, against chance (one over the number of legal actions, what a uniform pick agrees on), with 95%
   intervals by the jackknife over held-out games (decisions of one game are not independent).
5. The network is saved and played as a bot by ``jantaku evaluate`` (:class:`ClonedPolicy`, seated as
   ``py:examples/bc_torch.py:ClonedPolicy``; :class:`jantaku.env.agent.ViewObserver` gives it the environments'
   observation from its views) against three ``random`` bots and against three ``efficiency`` bots, duplicate
   deals with the seats rotated: mean rank, win and deal-in rates with 95% intervals.

Needs the extras ``env`` and ``rllib`` (torch 2.13.0, CPU build). Run it from the repository root::

    python examples/bc_torch.py                                   # the whole corpus, 3 epochs, 30 deals
    python examples/bc_torch.py --files 40 --epochs 5 --batch 128 --deals 4 --opponents random   # the test's
    python examples/bc_torch.py --json bc.json --checkpoint bc.pt

Seat the saved network anywhere a bot name goes, with ``JANTAKU_BC_CHECKPOINT`` naming the file::

    JANTAKU_BC_CHECKPOINT=bc.pt jantaku evaluate py:examples/bc_torch.py:ClonedPolicy --opponents efficiency
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import torch

from jantaku.env.agent import ViewObserver
from jantaku.env.dataset import read_shards, write_shards
from jantaku.env.encoding import A_RIICHI, NUM_ACTIONS, OBS_PLANES
from jantaku.lab.evaluate import evaluate
from jantaku.lab.measures import estimate
from jantaku.records.load import iter_record_files

CHECKPOINT_ENV = "JANTAKU_BC_CHECKPOINT"
"""The environment variable naming the checkpoint :class:`ClonedPolicy` loads."""

_MASKED = torch.finfo(torch.float32).min


class PolicyNet(torch.nn.Module):
    """Observation planes ``(185, 34)`` -> one logit per action index (161): a 1x1 convolution mixes the planes
    per tile kind, three convolutions over neighbouring kinds (runs within a suit), then two dense layers."""

    def __init__(self, width: int = 64, hidden: int = 256) -> None:
        super().__init__()
        self.width, self.hidden = width, hidden
        self.body = torch.nn.Sequential(
            torch.nn.Conv1d(OBS_PLANES, width, 1),
            torch.nn.ReLU(),
            torch.nn.Conv1d(width, width, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.Conv1d(width, width, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.Conv1d(width, width, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.Flatten(),
            torch.nn.Linear(width * 34, hidden),
            torch.nn.ReLU(),
        )
        self.head = torch.nn.Linear(hidden, NUM_ACTIONS)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Masked logits: illegal actions get the most negative float."""
        logits = self.head(self.body(obs))
        return torch.where(mask, logits, torch.full_like(logits, _MASKED))


def _batches(n: int, size: int, rng: np.random.Generator | None) -> list[np.ndarray]:
    order = rng.permutation(n) if rng is not None else np.arange(n)
    return [order[i : i + size] for i in range(0, n, size)]


def _tensors(data: dict[str, np.ndarray], rows: np.ndarray) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    obs = torch.from_numpy(data["obs"][rows].astype(np.float32))
    mask = torch.from_numpy(data["mask"][rows] != 0)
    action = torch.from_numpy(data["action"][rows].astype(np.int64))
    return obs, mask, action


def train(net: PolicyNet, data: dict[str, np.ndarray], epochs: int, batch: int, seed: int) -> list[float]:
    """Adam on the masked cross-entropy; the mean loss of each epoch."""
    rng = np.random.default_rng(seed)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    losses = []
    net.train()
    for _ in range(epochs):
        total, count = 0.0, 0
        for rows in _batches(len(data["action"]), batch, rng):
            obs, mask, action = _tensors(data, rows)
            loss = torch.nn.functional.cross_entropy(net(obs, mask), action)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(rows)
            count += len(rows)
        losses.append(total / max(1, count))
    return losses


def agreement(net: PolicyNet, data: dict[str, np.ndarray], batch: int = 1024) -> dict[str, Any]:
    """The network's agreement with the players on ``data`` and chance's, over all decisions and over discards
    (the player discarded: indices below the riichi declarations), each with its jackknife 95% interval over
    games."""
    net.eval()
    hits = np.zeros(len(data["action"]), bool)
    with torch.no_grad():
        for rows in _batches(len(data["action"]), batch, None):
            obs, mask, action = _tensors(data, rows)
            hits[rows] = (net(obs, mask).argmax(dim=1) == action).numpy()
    chance = 1.0 / data["mask"].astype(np.int64).sum(axis=1)
    games = data["record"].astype(np.int64) * 10_000 + data["game"].astype(np.int64)
    keys, group = np.unique(games, return_inverse=True)
    out: dict[str, Any] = {"games": len(keys)}
    for name, rows in (("all", np.ones(len(hits), bool)), ("discards", data["action"] < A_RIICHI)):
        cols = {
            "hits": np.bincount(group[rows], hits[rows], len(keys)),
            "chance": np.bincount(group[rows], chance[rows], len(keys)),
            "n": np.bincount(group[rows], None, len(keys)).astype(float),
        }
        agree = estimate(lambda s: s["hits"] / s["n"], cols, rate=True)
        base = estimate(lambda s: s["chance"] / s["n"], cols, rate=True)
        lift = estimate(lambda s: (s["hits"] - s["chance"]) / s["n"], cols)
        out[name] = {
            "decisions": int(rows.sum()),
            "agreement": agree.as_json(),
            "chance": base.as_json(),
            "above_chance": lift.as_json(),
        }
    return out


@cache
def _load(path: str) -> PolicyNet:
    state = torch.load(path, map_location="cpu", weights_only=True)
    net = PolicyNet(int(state["width"]), int(state["hidden"]))
    net.load_state_dict(state["weights"])
    net.eval()
    return net


class ClonedPolicy:
    """The cloned network as a bot (``act(view, legal)``): the legal action it gives the highest logit. The
    checkpoint is the file ``JANTAKU_BC_CHECKPOINT`` names; one object plays one seat for one game."""

    def __init__(self, seed: Any = 0) -> None:
        path = os.environ.get(CHECKPOINT_ENV)
        if not path or not Path(path).is_file():
            raise RuntimeError(f"set {CHECKPOINT_ENV} to a checkpoint written by examples/bc_torch.py, got {path!r}")
        self.net = _load(str(Path(path).resolve()))
        self.observe = ViewObserver()
        # one observation at a time: torch's worker threads only wait on each other, and beside another process
        # (``jantaku evaluate --workers``, a training run) they spin against it for the same cores
        torch.set_num_threads(1)

    def act(self, view: Any, legal: list[Any]) -> Any:
        """The legal action with the highest logit."""
        obs, mask, mapped = self.observe(view, legal)
        if len(mapped) == 1:
            return legal[0]
        with torch.no_grad():
            logits = self.net(torch.from_numpy(obs)[None], torch.from_numpy(mask != 0)[None])[0]
        return mapped[int(logits.argmax())]


def save(net: PolicyNet, path: Path) -> None:
    torch.save({"width": net.width, "hidden": net.hidden, "weights": net.state_dict()}, path)


def _evaluation(opponents: str, deals: int, seed: int, workers: int) -> dict[str, Any]:
    ev = evaluate(
        f"py:{Path(__file__).resolve()}:ClonedPolicy",
        opponents,
        rules="tenhou",
        deals=deals,
        seed=seed,
        workers=workers,
    )
    return {
        "opponents": opponents,
        "deals": deals,
        "games": ev.games,
        "seconds": round(ev.seconds, 1),
        "policy": {k: v.as_json() for k, v in ev.measures["policy"].items()},
        "opponent": {k: v.as_json() for k, v in ev.measures[opponents].items()},
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="behaviour cloning from real games, then the clone at a table")
    p.add_argument("records", nargs="*", default=["tests/data/records"], help="record files or folders")
    p.add_argument("--files", type=int, default=0, help="use the first N record files only (0: all)")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--width", type=int, default=64, help="channels of the convolutions")
    p.add_argument("--deals", type=int, default=30, help="duplicate deals per evaluation (4 games each)")
    p.add_argument(
        "--opponents",
        default="random,efficiency",
        help="the bots to play against, one evaluation each, comma-separated (default random,efficiency)",
    )
    p.add_argument("--workers", type=int, default=1, help="processes for the dataset and the evaluations")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--checkpoint", help="where to save the network (default: a temporary file)")
    p.add_argument("--json", help="write the figures to this file")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    torch.manual_seed(args.seed)
    files = [str(f) for f in iter_record_files(args.records)]
    if args.files:
        files = files[: args.files]
    report: dict[str, Any] = {"record_files": len(files)}
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        index = write_shards(files, Path(tmp) / "data", workers=args.workers)
        seconds = time.perf_counter() - start
        report["dataset"] = {
            "samples": index["samples"],
            "seconds": round(seconds, 1),
            "samples_per_s": round(index["samples"] / seconds),
            "hands_skipped": len(index["skipped"]),
        }
        print(f"dataset: {index['samples']:,} samples from {len(files)} files in {seconds:.1f} s", flush=True)
        data = read_shards(Path(tmp) / "data", ("obs", "mask", "action", "record", "game"))
    held = data["record"] % 5 == 4
    train_set = {k: v[~held] for k, v in data.items()}
    test_set = {k: v[held] for k, v in data.items()}
    del data
    net = PolicyNet(args.width)
    start = time.perf_counter()
    losses = train(net, train_set, args.epochs, args.batch, args.seed)
    report["training"] = {
        "samples": len(train_set["action"]),
        "epochs": args.epochs,
        "loss_per_epoch": [round(x, 4) for x in losses],
        "seconds": round(time.perf_counter() - start, 1),
    }
    print(f"training: {report['training']}", flush=True)
    report["held_out"] = agreement(net, test_set)
    print(f"held-out agreement: {json.dumps(report['held_out'])}", flush=True)
    checkpoint = Path(args.checkpoint) if args.checkpoint else Path(tempfile.mkdtemp()) / "bc.pt"
    save(net, checkpoint)
    os.environ[CHECKPOINT_ENV] = str(checkpoint)
    report["checkpoint"] = str(checkpoint)
    opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    report["table"] = [_evaluation(o, args.deals, args.seed, args.workers) for o in opponents]
    for row in report["table"]:
        p = row["policy"]
        print(
            f"vs 3 {row['opponents']}: mean rank {p['rank']['mean']:.2f} {p['rank']['ci']}, "
            f"win rate {p['win_rate']['mean']:.3f}, deal-in rate {p['deal_in_rate']['mean']:.3f} "
            f"({row['games']} games, {row['seconds']} s)",
            flush=True,
        )
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1), encoding="utf-8")
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
