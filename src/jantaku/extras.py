"""The optional parts of jantaku and the extras that install them.

``pip install jantaku`` gives the core with numpy alone: tiles and hands, shapes, riichi scoring under every
preset, rule sets, records (Tenhou, tenhou.net/6, mjai), the table engine, the bots, simulation and replay.
Everything else is an extra, installed by name (``pip install 'jantaku[web]'``; several at once as
``'jantaku[web,lab]'``):

========  ===============================================================  ==============================
extra     what it adds                                                     packages
========  ===============================================================  ==============================
web       ``jantaku serve``: the web table (its 洁律 tables and /league),  Starlette, uvicorn, websockets,
          its games in SQLite or PostgreSQL                                SQLAlchemy, Alembic, psycopg, numba
league    ``jantaku league``: the league recorder, SQLite or PostgreSQL    SQLAlchemy, Alembic, psycopg
jielu     洁律麻将 scoring and play (its legal-win check is compiled)      numba
env       :mod:`jantaku.env`: PettingZoo and Gymnasium environments        PettingZoo, Gymnasium, numba
          (numba compiles the vector environments' batch encoder)
lab       HTML reports of ``jantaku analyze`` and the web Analyse page     matplotlib
ray       ``jantaku simulate --ray``: games as Ray tasks                   Ray
rllib     ``examples/rllib_ppo.py``                                        Ray RLlib, torch 2.13.0
========  ===============================================================  ==============================

:func:`require` imports an optional package or raises :class:`MissingExtra`, a :class:`~jantaku.errors.
JantakuError` whose message names the extra and the command that installs it; the command line prints it as
one line.

>>> require("numpy", "web", "the web table").__name__
'numpy'
>>> try:
...     require("no_such_package_here", "web", "the web table")
... except MissingExtra as e:
...     print(e)
the web table needs the web extra (no_such_package_here is not installed): pip install 'jantaku[web]' (in a clone
of the repository: pip install -e '.[web]')
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType

from jantaku.errors import JantakuError

__all__ = ["EXTRAS", "MissingExtra", "available", "installed_version", "notice", "require", "require_installed"]

notice: Callable[[str], None] | None = None
"""Where a slow first use of an optional part says what it is doing (the 洁律 check's compiler): the command line
prints it on standard error; a library stays quiet unless it sets this."""

EXTRAS = {
    "web": ("starlette", "uvicorn", "websockets", "sqlalchemy", "alembic", "numba"),
    "league": ("sqlalchemy", "alembic"),
    "jielu": ("numba",),
    "env": ("pettingzoo", "gymnasium", "numba"),
    "lab": ("matplotlib",),
    "ray": ("ray",),
}
"""The modules each extra brings (those jantaku imports; psycopg, which SQLAlchemy loads for a PostgreSQL URL,
comes with ``web`` and ``league``)."""


class MissingExtra(JantakuError, ImportError):
    """An optional part was used without the extra that installs it."""


def require(module: str, extra: str, what: str) -> ModuleType:
    """Import ``module``, or raise :class:`MissingExtra` saying that ``what`` needs ``extra``."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise _missing(what, extra, (e.name or module).split(".")[0]) from None


def _missing(what: str, extra: str, module: str) -> MissingExtra:
    return MissingExtra(
        f"{what} needs the {extra} extra ({module} is not installed): pip install 'jantaku[{extra}]' "
        f"(in a clone of the repository: pip install -e '.[{extra}]')"
    )


def require_installed(modules: tuple[str, ...], extra: str, what: str) -> None:
    """Raise :class:`MissingExtra` saying that ``what`` needs ``extra`` when one of ``modules`` is not installed,
    without importing them (a package's first lines name its extra this way: the check costs nothing, and a
    worker that needs only part of the package does not import the rest).

    >>> require_installed(("numpy",), "web", "the web table")
    >>> try:
    ...     require_installed(("numpy", "no_such_package_here"), "web", "the web table")
    ... except MissingExtra as e:
    ...     print(str(e).split(":")[0])
    the web table needs the web extra (no_such_package_here is not installed)
    """
    from importlib.util import find_spec

    for module in modules:
        if find_spec(module) is None:
            raise _missing(what, extra, module)


def available(extra: str) -> bool:
    """Whether every module of ``extra`` can be imported (without importing them).

    >>> available("web") in (True, False)
    True
    """
    from importlib.util import find_spec

    return all(find_spec(m) is not None for m in EXTRAS[extra])


def installed_version() -> str:
    """jantaku's version, as the installed package's metadata says (``jantaku.__version__``, ``jantaku
    --version``); ``0+unknown`` for a source tree that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("jantaku")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree that was never installed
        return "0+unknown"
