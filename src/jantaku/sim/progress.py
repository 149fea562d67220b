"""The progress bar of the commands that play many games (``simulate``, ``analyze``, ``evaluate``).

:class:`ProgressBar` is a ``progress(done, total, seconds)`` callback (the runners call it after every chunk of
games) that draws a `tqdm <https://tqdm.github.io>`_ bar on standard error: the games done, the rate in games
per second and the time left at that rate.

>>> import io
>>> out = io.StringIO()
>>> bar = ProgressBar(file=out)
>>> bar(5, 10, 1.0); bar(10, 10, 2.0)
>>> "10/10" in out.getvalue()
True
"""

from __future__ import annotations

import sys
from typing import IO

from tqdm import tqdm

__all__ = ["ProgressBar"]


class ProgressBar:
    """A games-done bar (one per run): created on the first call, closed when every game is done."""

    def __init__(self, unit: str = "game", file: IO[str] | None = None) -> None:
        self.unit = unit
        self.file = file
        self._bar: tqdm | None = None  # type: ignore[type-arg]

    def __call__(self, done: int, total: int, seconds: float) -> None:
        if self._bar is None:
            self._bar = tqdm(
                total=total,
                unit=f" {self.unit}s",
                file=self.file if self.file is not None else sys.stderr,
                smoothing=0,  # the rate since the start (chunks of games end in bursts)
                dynamic_ncols=True,
                mininterval=0.5,
            )
            self._bar.start_t -= seconds  # the run began before its first chunk ended
        bar = self._bar
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    def close(self) -> None:
        """End the bar early (an interrupted run)."""
        if self._bar is not None:
            self._bar.close()
