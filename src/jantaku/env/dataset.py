"""Training data from people's games: every decision of a game record as a sample of the environments' own
encoding (``jantaku dataset``).

A record (Tenhou mjlog, tenhou.net/6 JSON, Mahjong Soul, mjai, jantaku's own; a file, a folder, gzip) is played
through the engine hand by hand; at each decision of a chosen seat with two or more legal actions the sample is

- ``obs``: the seat's observation (:func:`jantaku.env.encoding.encode`, ``OBS_PLANES x 34``, as the
  environments give it), ``mask``: the legal action indices (``NUM_ACTIONS``), ``action``: the index of what the
  player did - always legal under its mask;
- ``seat``, the game's final ``rank`` of that seat (1-4) and its final ``score`` (points), and where it came from:
  ``record`` (the file's index in the run, see the shard's ``sources``), ``game`` (the record's game in its
  file), ``hand`` and ``step`` (the decision's number in the game, counting every seat's decisions with a choice,
  so that it is the same whichever players are chosen).

The decisions kept are those of the chosen players: by seat (``players``), by the name the record gives the
player (``names``: a Tenhou or Mahjong Soul account, say, wherever it sat) and by the place the seat finished in
(``places``: ``[1]`` keeps only each game's winner); a seat is kept when it passes all three.

A hand the engine cannot follow (a record of rules it does not know) is skipped and counted, never guessed.

>>> from pathlib import Path
>>> first = next(iter_samples(["examples/records/2010102910gm-00a9-0000-cdb9804c.mjlog"]))
>>> first["obs"].shape, int(first["mask"][first["action"]]), first["rank"] in (1, 2, 3, 4)
((185, 34), 1, True)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from jantaku.errors import JantakuError
from jantaku.records.load import iter_record_files, read_records
from jantaku.records.replay import rules_for_record
from jantaku.rules import Ruleset

from .batch import BatchEncoder
from .encoding import NUM_ACTIONS, OBS_PLANES, GameFacts, legal_indices, mask_of
from .planes import check_names, plane_count

__all__ = ["FIELDS", "Selection", "iter_samples", "read_shards", "torch_dataset", "write_shards"]

FIELDS = ("obs", "mask", "action", "seat", "rank", "score", "record", "game", "hand", "step")
"""The arrays of a shard (one row per sample)."""


def _final(events: list[dict[str, Any]], first_dealer: int) -> tuple[list[int], list[int]]:
    """The game's final scores (the last ones the record shows) and each seat's place (ties: from the first
    dealer's seat on)."""
    scores: list[int] | None = None
    for e in reversed(events):
        s = e.get("scores")
        if e.get("type") in ("end_game", "hora", "ryukyoku", "end_kyoku") and isinstance(s, list) and len(s) == 4:
            scores = [int(x) for x in s]
            break
    if scores is None:
        raise JantakuError("the record shows no final scores")
    order = sorted(range(4), key=lambda s: (-scores[s], (s - first_dealer) % 4))
    ranks = [0] * 4
    for place, seat in enumerate(order, 1):
        ranks[seat] = place
    return scores, ranks


def _players(players: str | Sequence[int] | None) -> set[int]:
    if players is None or players == "all":
        return {0, 1, 2, 3}
    try:
        seats = {int(p) for p in (players.split(",") if isinstance(players, str) else players)}
    except (TypeError, ValueError):
        seats = set()
    if not seats or not seats <= {0, 1, 2, 3}:
        raise JantakuError(f"players are seats 0-3 (or all), got {str(players)[:60]!r}")
    return seats


@dataclass(frozen=True)
class Selection:
    """Whose decisions a dataset keeps: a seat in ``seats``, whose name is in ``names`` (any, when ``None``) and
    whose final place is in ``places`` (any, when ``None``).

    >>> sel = Selection.of(players="all", names=["Aさん"], places="1,2")
    >>> sel.seats_in(["Aさん", "B", "C", "Aさん"], [1, 3, 4, 2]), sel.seats_in(["Aさん", "B", "C", "D"], [3, 1, 2, 4])
    ({0, 3}, set())
    """

    seats: frozenset[int] = frozenset((0, 1, 2, 3))
    names: frozenset[str] | None = None
    places: frozenset[int] | None = None

    @classmethod
    def of(
        cls,
        players: str | Sequence[int] | None = None,
        names: Sequence[str] | None = None,
        places: str | Sequence[int] | None = None,
    ) -> Selection:
        """The selection of seats ``players`` (``all`` or ``"0,2"``/``[0, 2]``), player ``names`` (``None``: any) and
        final ``places`` (``"1"``/``[1, 2]``; ``None`` or ``all``: any); a :class:`JantakuError` for anything else."""
        chosen_names = None
        if names is not None:
            listed = None if isinstance(names, str) else list(names)  # a lone string is not a list of names
            if not listed or not all(isinstance(n, str) and n for n in listed):
                raise JantakuError(f"names are a list of player names, got {str(names)[:60]!r}")
            chosen_names = frozenset(listed)
        chosen_places = None
        if places is not None and places != "all":
            try:
                chosen_places = frozenset(int(p) for p in (places.split(",") if isinstance(places, str) else places))
            except (TypeError, ValueError):
                chosen_places = frozenset()
            if not chosen_places or not chosen_places <= {1, 2, 3, 4}:
                raise JantakuError(f"places are final places 1-4 (or all), got {str(places)[:60]!r}")
        return cls(frozenset(_players(players)), chosen_names, chosen_places)

    def seats_in(self, names: Sequence[str] | None, ranks: Sequence[int]) -> set[int]:
        """The seats of a game kept: its players' ``names`` (``None`` when the record names nobody) and final
        places ``ranks``."""
        return {
            s
            for s in self.seats
            if (self.names is None or (names is not None and names[s] in self.names))
            and (self.places is None or ranks[s] in self.places)
        }

    def to_json(self) -> dict[str, Any]:
        """For a dataset's index."""
        return {
            "seats": sorted(self.seats),
            "names": None if self.names is None else sorted(self.names),
            "places": None if self.places is None else sorted(self.places),
        }


def _record_names(events: list[dict[str, Any]]) -> list[str] | None:
    for e in events:
        if e.get("type") == "start_game":
            names = e.get("names")
            if isinstance(names, list) and len(names) == 4 and all(isinstance(n, str) for n in names):
                return names
            return None
    return None


def iter_samples(
    paths: Iterable[str | Path],
    *,
    players: str | Sequence[int] | None = None,
    rules: Ruleset | str | None = None,
    skipped: list[str] | None = None,
    extra_planes: Sequence[str] = (),
    names: Sequence[str] | None = None,
    places: str | Sequence[int] | None = None,
) -> Iterator[dict[str, Any]]:
    """The samples of every record in ``paths`` (files or folders), one dict per decision (see the module), of
    the seats ``players`` (default all), the players ``names`` (default any) and the final ``places`` (default
    any). ``rules``: the rule set to play them by (default: what each record says). Hands the engine cannot
    follow are appended to ``skipped`` (file and hand) when given. ``extra_planes``: optional observation planes
    to add (:mod:`jantaku.env.planes`)."""
    selection = Selection.of(players, names, places)
    extra = check_names(extra_planes)
    files = [str(f) for f in iter_record_files([str(p) for p in paths])]
    yield from _samples_of(files, 0, selection, rules, skipped, extra)


def _samples_of(
    files: Sequence[str],
    first: int,
    selection: Selection,
    rules: Ruleset | str | None,
    skipped: list[str] | None,
    extra: tuple[str, ...] = (),
) -> Iterator[dict[str, Any]]:
    """The samples of ``files``, the first of them record number ``first`` of the run."""
    from jantaku.bots.review import drive_hand, hand_kyoku

    encoder = BatchEncoder(1, extra_planes=extra)
    for r_index, path in enumerate(files, first):
        for g_index, record in enumerate(read_records(Path(path))):
            rs = rules_for_record(record, rules)
            hands = list(record.hands())
            if not hands:
                continue
            first_dealer = int(hands[0][0]["oya"])
            scores, ranks = _final(record.events, first_dealer)
            seats = selection.seats_in(_record_names(record.events), ranks)
            if not seats:  # nobody chosen played this game
                continue
            step = 0  # decisions with a choice so far in the game, every seat's (chosen or not)
            for n, hand in enumerate(hands):
                collect = _Collector(seats, ranks, scores, {"record": r_index, "game": g_index, "hand": n}, encoder)
                collect.decisions = step
                try:
                    k = hand_kyoku(record, n, hand, rs)
                    collect.game = GameFacts(rs, k, n, first_dealer)
                    drive_hand(k, hand[1:], collect)
                except (JantakuError, ValueError, KeyError, IndexError, StopIteration, AssertionError) as e:
                    if skipped is not None:
                        skipped.append(f"{path}: game {g_index + 1}, hand {n + 1}: {e}")
                    step = collect.decisions
                    continue
                step = collect.decisions
                for sample in collect.out:
                    sample["source"] = str(path)
                    yield sample


class _Collector:
    """The ``ask`` of :func:`jantaku.bots.review.drive_hand` for one hand: a sample per decision of the chosen
    seats that had a choice."""

    def __init__(
        self, seats: set[int], ranks: list[int], scores: list[int], where: dict[str, int], encoder: BatchEncoder
    ) -> None:
        self.encoder = encoder
        """The compiled encoder of one observation (the arrays :func:`~jantaku.env.encoding.encode` gives, about three
        times faster)."""
        self.seats = seats
        self.ranks = ranks
        self.scores = scores
        self.where = where
        self.game: GameFacts | None = None
        self.out: list[dict[str, Any]] = []
        self.decisions = 0
        """Decisions with a choice in the game so far, every seat's: the next one's ``step``."""

    def __call__(self, k: Any, seat: int, legal: list[Any], actual: Any, known: bool = True) -> None:
        if not known or len(legal) < 2:
            return
        step = self.decisions
        self.decisions += 1
        if seat not in self.seats:
            return
        index = legal_indices(legal)
        # the action the record shows is the engine's own object (drive_hand picks it from the legal list)
        chosen = next((i for i, a in index.items() if a is actual), None)
        if chosen is None:
            chosen = next((i for i, a in index.items() if a == actual), None)
        if chosen is None:  # pragma: no cover - the encoding maps every legal action
            raise JantakuError(f"{actual!r} has no action index")
        self.out.append(
            {
                "obs": self.encoder.encode([self.game], [seat])[0],  # type: ignore[list-item]
                "mask": mask_of(index),
                "action": chosen,
                "seat": seat,
                "rank": self.ranks[seat],
                "score": self.scores[seat],
                "step": step,
                **self.where,
            }
        )


def write_shards(
    paths: Iterable[str | Path],
    out: str | Path,
    *,
    players: str | Sequence[int] | None = None,
    rules: Ruleset | str | None = None,
    shard_size: int = 50_000,
    workers: int = 1,
    extra_planes: Sequence[str] = (),
    ray: str | None = None,
    names: Sequence[str] | None = None,
    places: str | Sequence[int] | None = None,
) -> dict[str, Any]:
    """Write the samples of ``paths`` into npz shards in ``out`` (at most ``shard_size`` samples each: ``obs`` as
    ``float16``, the rest as small integers, see :data:`FIELDS`) and ``out/index.json`` (the shards in order, the
    record files - a sample's ``record`` is its place in this list -, the samples and the hands skipped). With
    ``workers`` > 1 the record files are shared out to that many processes, each writing its own shards; the
    samples are the same. With ``ray`` (``"local"`` for a local Ray instance of ``workers`` CPUs, or a cluster's
    ``HOST:PORT`` / ``auto``) the parts are Ray tasks: each is sent its record files' bytes and returns its shards'
    bytes, which this process writes (a cluster needs no shared folder; the shards are the same). ``extra_planes``:
    optional observation planes to add (:mod:`jantaku.env.planes`), named in the index. ``players``, ``names``
    and ``places`` choose whose decisions are kept (as :func:`iter_samples`; the index says so). Returns the
    index."""
    extra = check_names(extra_planes)
    selection = Selection.of(players, names, places)
    if isinstance(shard_size, bool) or not isinstance(shard_size, int) or shard_size < 1:
        raise JantakuError(f"shard_size must be 1 or more, got {shard_size!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise JantakuError(f"workers must be 1 or more, got {workers!r}")
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    files = [str(f) for f in iter_record_files([str(p) for p in paths])]
    size = max(1, -(-len(files) // (workers * 4))) if workers > 1 or ray is not None else max(1, len(files))
    jobs = [
        (files[i : i + size], i, str(folder), f"shard-{n:03d}", selection, rules, shard_size, extra)
        for n, i in enumerate(range(0, len(files), size))
    ]
    if ray is not None:
        parts = _parts_on_ray(jobs, folder, ray, workers)
    elif workers > 1 and len(jobs) > 1:
        parts = _parts_in_pool(jobs, workers)
    else:
        parts = [_write_part(job) for job in jobs]
    shards = [s for part in parts for s in part["shards"]]
    index = {
        "format": "jantaku-dataset-1",
        "obs_planes": OBS_PLANES + plane_count(extra),
        "extra_planes": list(extra),
        "actions": NUM_ACTIONS,
        "fields": list(FIELDS),
        "shards": shards,
        "samples": sum(s["samples"] for s in shards),
        "sources": files,
        "selection": selection.to_json(),
        "skipped": [x for part in parts for x in part["skipped"]],
    }
    (folder / "index.json").write_text(json.dumps(index, indent=1, ensure_ascii=False), encoding="utf-8")
    return index


def _parts_in_pool(jobs: list[Any], workers: int) -> list[dict[str, list[Any]]]:
    """The jobs in ``workers`` processes (:func:`jantaku.sim.pool.run_despite_dead_workers`), their results in
    order. A part whose worker died (killed, out of memory) is written again in a new pool - its shards are the
    same, under the same names -, :data:`~jantaku.sim.pool.POOL_ATTEMPTS` times in all; then a
    :class:`JantakuError` names the record files never read, and no index is written."""
    from jantaku.sim.pool import POOL_ATTEMPTS, run_despite_dead_workers

    parts: list[dict[str, list[Any]] | None] = [None] * len(jobs)
    failed = run_despite_dead_workers(_write_part, jobs, workers, parts.__setitem__)
    if failed:
        missing = [f for i in failed for f in jobs[i][0]]
        raise JantakuError(
            f"worker processes died (killed, or out of memory) while reading {len(missing)} record file(s), "
            f"{POOL_ATTEMPTS} times each, the first {missing[0]}: the dataset is incomplete and no index.json was "
            "written"
        )
    return [p for p in parts if p is not None]


def _write_part(
    job: tuple[list[str], int, str, str, Selection, Ruleset | str | None, int, tuple[str, ...]],
) -> dict[str, list[Any]]:
    """Write the shards of some record files (``prefix-0000.npz``, ...): their names and sizes, the hands
    skipped."""
    files, first, folder, prefix, selection, rules, shard_size, extra = job
    skipped: list[str] = []
    shards: list[dict[str, Any]] = []
    batch: list[dict[str, Any]] = []  # the shard's samples, their observations moved into ``obs``
    obs: np.ndarray | None = None
    """The shard's observations as float16, filled as they come; grown by doubling up to ``shard_size``. (A float32
    copy of each, then a float32 stack of them all, took five times this block's memory: 3.2 GB at the peak for a
    shard of 50,000.)"""

    def flush() -> None:
        if not batch:
            return
        assert obs is not None
        name = f"{prefix}-{len(shards):04d}.npz"
        np.savez_compressed(
            Path(folder) / name,
            obs=obs[: len(batch)],
            mask=np.stack([b["mask"] for b in batch]).astype(np.int8),
            **{
                k: np.array([b[k] for b in batch], dtype=np.int32 if k in ("score", "record", "step") else np.int16)
                for k in FIELDS[2:]
            },
        )
        shards.append({"file": name, "samples": len(batch)})
        batch.clear()

    for sample in _samples_of(files, first, selection, rules, skipped, extra):
        n = len(batch)
        if obs is None or n == len(obs):
            grown = np.empty((min(shard_size, max(256, 2 * n)), *sample["obs"].shape), np.float16)
            if obs is not None:
                grown[:n] = obs[:n]
            obs = grown
        obs[n] = sample.pop("obs")
        batch.append(sample)
        if len(batch) >= shard_size:
            flush()
    flush()
    return {"shards": shards, "skipped": skipped}


def _part_from_bytes(
    records: list[tuple[str, bytes]],
    first: int,
    selection: Selection,
    rules: Ruleset | str | None,
    shard_size: int,
    extra: tuple[str, ...],
) -> dict[str, list[Any]]:
    """One Ray task: the record files (name and bytes) into shards, returned as ``(samples, npz bytes)``."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="jantaku-dataset-") as tmp:
        paths = []
        for i, (name, data) in enumerate(records):
            path = Path(tmp) / f"{i:05d}" / Path(name).name  # the name kept: its extension says the format
            path.parent.mkdir()
            path.write_bytes(data)
            paths.append(str(path))
        part = _write_part((paths, first, tmp, "part", selection, rules, shard_size, extra))
        shards = [(s["samples"], (Path(tmp) / s["file"]).read_bytes()) for s in part["shards"]]
        skipped = []
        for line in part["skipped"]:
            for path, (name, _data) in zip(paths, records, strict=True):
                line = line.replace(path, name)
            skipped.append(line)
    return {"shards": shards, "skipped": skipped}


def _parts_on_ray(jobs: list[Any], folder: Path, address: str, workers: int) -> list[dict[str, list[Any]]]:
    """The jobs as Ray tasks (see :func:`write_shards`); their shards written into ``folder`` in order."""
    from jantaku.sim.ray_runner import _connect, _first_line, import_ray

    ray = import_ray()
    started = _connect(ray, None if address == "local" else address, workers if address == "local" else None)
    try:
        task = ray.remote(num_cpus=1, max_retries=0)(_part_from_bytes)
        refs = []
        for files, first, _folder, _prefix, selection, rules, shard_size, extra in jobs:
            records = [(f, Path(f).read_bytes()) for f in files]
            refs.append(task.remote(records, first, selection, rules, shard_size, extra))
        parts = []
        for n, ref in enumerate(refs):
            try:
                done = ray.get(ref)
            except ray.exceptions.RayError as e:
                raise JantakuError(f"--ray: a task failed: {_first_line(e)}") from None
            shards = []
            for k, (samples, data) in enumerate(done["shards"]):
                name = f"shard-{n:03d}-{k:04d}.npz"
                (folder / name).write_bytes(data)
                shards.append({"file": name, "samples": samples})
            parts.append({"shards": shards, "skipped": done["skipped"]})
        return parts
    finally:
        if started:
            ray.shutdown()


def read_shards(folder: str | Path, fields: Sequence[str] = FIELDS) -> dict[str, np.ndarray]:
    """The ``fields`` of every shard :func:`write_shards` wrote in ``folder``, each concatenated in the shards'
    order (``obs`` stays float16: a batch is made float32 when it is used)."""
    index = json.loads((Path(folder) / "index.json").read_text(encoding="utf-8"))
    parts: dict[str, list[np.ndarray]] = {k: [] for k in fields}
    for shard in index["shards"]:
        with np.load(Path(folder) / shard["file"]) as z:
            for k in fields:
                parts[k].append(z[k])
    return {k: np.concatenate(v) for k, v in parts.items()}


def torch_dataset(folder: str | Path) -> Any:
    """A PyTorch ``IterableDataset`` over the shards :func:`write_shards` wrote in ``folder``: each item is
    ``(obs float32 tensor, mask bool tensor, action int64)``; with several data-loader workers each reads its own
    shards."""
    from jantaku.extras import require

    torch = require("torch", "rllib", "jantaku.env.dataset.torch_dataset")
    index = json.loads((Path(folder) / "index.json").read_text(encoding="utf-8"))
    files = [Path(folder) / s["file"] for s in index["shards"]]

    class Shards(torch.utils.data.IterableDataset):  # type: ignore[name-defined,misc]
        def __iter__(self) -> Iterator[Any]:
            info = torch.utils.data.get_worker_info()
            mine = files if info is None else files[info.id :: info.num_workers]
            for f in mine:
                with np.load(f) as z:
                    obs, mask, action = z["obs"], z["mask"], z["action"]
                for i in range(len(action)):
                    yield (
                        torch.from_numpy(obs[i].astype(np.float32)),
                        torch.from_numpy(mask[i] != 0),
                        int(action[i]),
                    )

    return Shards()
