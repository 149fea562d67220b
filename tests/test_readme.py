"""The README's examples work from a clone of the repository.

- Its Python examples run as doctests.
- Every command of its ``sh`` blocks, of the documentation's ``sh`` blocks and of every ``--help`` epilog
  runs on the files in the repository and succeeds, in a scratch folder holding links to ``examples/`` and
  ``tests/`` (so nothing is written into the clone). A plain ``jantaku ARGS`` (with ``< FILE`` or
  ``echo '...' |`` as its input) runs in this process through ``jantaku.cli.main``, the entry point the
  installed command calls, and must return 0; any other shell line runs through ``bash``, and must exit 0
  without a traceback. The PATH's ``jantaku`` (as a simulation's ``mjai:jantaku bot ...`` starts it) is this
  checkout's code run by the test's interpreter.
  Changed on the way, and only this: ``jantaku serve`` gets a free port and a scratch database, is started,
  must answer ``GET /`` with the play page, and is stopped; ``jantaku bot NAME`` with no input is fed
  ``examples/mjai/session.jsonl`` and must answer one JSON action per line, ending with its win;
  ``jantaku simulate`` plays at most 2 games (a whole simulation is a benchmark, not a test);
  ``pip install ...`` is checked to name extras that pyproject.toml declares, and ``python -m pytest`` (this
  very run) is not started again.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

from jantaku.cli import build_parser, main

ROOT = Path(__file__).parents[1]
README = ROOT / "README.md"
SESSION = ROOT / "examples" / "mjai" / "session.jsonl"


def test_readme_examples():
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 6
    assert result.failed == 0


# -- the commands ---------------------------------------------------------------------------------------------


def sh_commands(text: str) -> list[str]:
    """The command lines of a Markdown text's ``sh`` blocks (comments and blank lines dropped)."""
    lines = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M):
        for line in block.splitlines():
            cmd = _strip_comment(line).strip()
            if cmd:
                lines.append(cmd)
    return lines


def _strip_comment(line: str) -> str:
    """A shell line without its trailing ``# comment`` (a ``#`` outside quotes, after a space)."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def help_commands() -> list[str]:
    """Every example command in the epilogs of ``jantaku --help`` and its subcommands' ``--help``.

    An epilog line is an example when it starts with ``jantaku`` or pipes into it; an explanation after three
    or more spaces (or a ``#``) is not part of the command.
    """
    parser = build_parser()
    epilogs = [parser.epilog or ""]
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    epilogs += [p.epilog or "" for p in sub.choices.values()]
    out = []
    for epilog in epilogs:
        for line in epilog.splitlines():
            text = re.split(r"\s{3,}", _strip_comment(line).strip())[0].strip()
            if text.startswith("jantaku ") or "| jantaku " in text:
                out.append(text)
    return out


def _docs_commands() -> list[str]:
    out = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        out += sh_commands(page.read_text(encoding="utf-8"))
    return out


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A scratch folder with the repository's examples and test data, and a ``jantaku`` of this checkout."""
    work = tmp_path_factory.mktemp("clone")
    for name in ("examples", "tests"):
        (work / name).symlink_to(ROOT / name)
    (work / "out").mkdir()  # where the documented commands write (the docs' `mkdir -p out`)
    bindir = work / ".bin"
    bindir.mkdir()
    shim = bindir / "jantaku"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m jantaku.cli "$@"\n')
    shim.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if p)
    env["PYTHONIOENCODING"] = "utf-8"
    return work, env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check_serve(cmd: str, work: Path, env: dict[str, str]) -> None:
    """Start ``jantaku serve ...`` in the scratch folder on a free port (its other options as written, so its
    files land where a person's would), fetch the play page, stop it."""
    args = shlex.split(cmd)
    if "--port" in args:
        i = args.index("--port")
        del args[i : i + 2]
    port = _free_port()
    args += ["--port", str(port)]
    proc = subprocess.Popen(args, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    assert r.status == 200
                    assert "<html" in r.read().decode("utf-8").lower()
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"{cmd}: the server did not answer: {proc.stdout.read()}") from None
                time.sleep(0.3)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()


def check_pip(cmd: str) -> None:
    """``pip install -e '.[x,y]'``: the extras it names are declared in pyproject.toml."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for target in shlex.split(cmd)[2:]:
        m = re.fullmatch(r"\.(?:\[(.*)\])?", target)
        if target.startswith("-"):
            continue
        assert m, f"{cmd}: installs {target!r}, not this repository"
        for extra in filter(None, (m.group(1) or "").split(",")):
            assert extra in project["optional-dependencies"], f"{cmd}: no extra {extra!r} in pyproject.toml"


def run_command(cmd: str, work: Path, env: dict[str, str]) -> str:
    """Run one documented command line as described in the module docstring; returns its standard output."""
    outputs = []
    for part in (p.strip() for p in cmd.split("&&")):
        if part.startswith("pip install"):
            check_pip(part)
            continue
        if part == "python -m pytest":
            continue
        if part.startswith("jantaku serve"):
            check_serve(part, work, env)
            continue
        part = re.sub(r"--games (\d+)", lambda m: f"--games {min(int(m.group(1)), 2)}", part)
        if part.startswith("jantaku simulate") and "--games" not in part:
            part += " --games 2"
        bot_alone = re.fullmatch(r"jantaku bot \w+( --\S+ \S+)*", part)
        stdin = SESSION.read_text(encoding="utf-8") if bot_alone else ""
        simple = _in_process(part, work)
        if simple is not None:
            argv, stdin_text = simple
            out = _run_main(argv, stdin + stdin_text, work, env, part)
        else:
            proc = subprocess.run(
                ["bash", "-c", part], cwd=work, env=env, input=stdin, capture_output=True, text=True, timeout=300
            )
            assert proc.returncode == 0, f"{part}: exit {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
            assert "Traceback" not in proc.stderr, f"{part}:\n{proc.stderr}"
            out = proc.stdout
        if bot_alone:
            answers = [json.loads(line) for line in out.splitlines()]
            assert len(answers) == len(stdin.splitlines()), out
            assert answers[-1]["type"] == "hora", out
        outputs.append(out)
    stray = _not_ignored(work)
    assert not stray, f"{cmd}: wrote files that .gitignore does not cover (write into out/): {stray}"
    return "".join(outputs)


def _not_ignored(work: Path) -> list[str]:
    """The files a command wrote into the scratch folder that would show in ``git status`` in a clone: not
    covered by the repository's ``.gitignore``, nor a repository file written again unchanged. Followed in a
    clone, the documented commands must leave ``git status`` clean."""
    written = [
        p.relative_to(work).as_posix()
        for p in work.rglob("*")
        if p.is_file() and p.relative_to(work).parts[0] not in ("examples", "tests", ".bin")
    ]
    if not written:
        return []
    done = subprocess.run(
        ["git", "-C", str(ROOT), "check-ignore", "--no-index", "--stdin"],
        input="\n".join(written),
        capture_output=True,
        text=True,
        timeout=60,
    )
    ignored = set(done.stdout.splitlines())
    # a file of the repository written again as it is (the generated rule reference) leaves `git status` clean
    same = {w for w in written if (ROOT / w).is_file() and (ROOT / w).read_bytes() == (work / w).read_bytes()}
    return [w for w in written if w not in ignored and w not in same]


def _in_process(part: str, work: Path) -> tuple[list[str], str] | None:
    """``jantaku ARGS``, ``jantaku ARGS < FILE`` or ``echo 'TEXT' | jantaku ARGS`` as (ARGS, input); else None."""
    stdin = ""
    m = re.fullmatch(r"echo '([^']*)' \| (jantaku .*)", part)
    if m:
        stdin, part = m.group(1) + "\n", m.group(2)
    m = re.fullmatch(r"(jantaku [^<>|&;$`]*?) < (\S+)", part)
    if m:
        part, stdin = m.group(1), (work / m.group(2)).read_text(encoding="utf-8")
    if not part.startswith("jantaku ") or re.search(r"[<>|&;$`]", part):
        return None
    return shlex.split(part)[1:], stdin


def _run_main(argv: list[str], stdin: str, work: Path, env: dict[str, str], part: str) -> str:
    """Run ``jantaku.cli.main(argv)`` in ``work`` with ``stdin`` as its input; it must return 0.

    The PATH is the scratch folder's, so that an mjai bot named ``mjai:jantaku bot ...`` is this checkout's.
    """
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, Path.cwd(), os.environ.get("PATH", "")
    sys.stdin = io.StringIO(stdin)
    os.environ["PATH"] = env["PATH"]
    os.chdir(work)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:  # --help
                code = e.code or 0
    finally:
        sys.stdin = saved[0]
        os.chdir(saved[1])
        os.environ["PATH"] = saved[2]
    assert code == 0, f"{part}: status {code}\n{out.getvalue()[-2000:]}\n{err.getvalue()[-2000:]}"
    return out.getvalue()


README_COMMANDS = sh_commands(README.read_text(encoding="utf-8"))


def test_readme_has_commands():
    assert len(README_COMMANDS) >= 10
    assert any(c.startswith("jantaku serve") for c in README_COMMANDS)
    assert any(re.fullmatch(r"jantaku bot \w+", c) for c in README_COMMANDS)


@pytest.mark.parametrize("cmd", README_COMMANDS)
def test_readme_command(cmd, workdir):
    out = run_command(cmd, *workdir)
    if cmd.startswith("jantaku ") and "serve" not in cmd:
        assert out.strip(), f"{cmd}: printed nothing"


def test_help_commands(workdir):
    """Every example of every ``--help`` runs on the repository's files (each command once)."""
    commands = list(dict.fromkeys(help_commands()))
    assert len(commands) >= 15
    assert any("examples/records" in c for c in commands)
    for cmd in commands:
        run_command(cmd, *workdir)


def test_docs_commands(workdir):
    """The documentation's commands that the README does not already run."""
    commands = [c for c in dict.fromkeys(_docs_commands()) if c not in README_COMMANDS]
    for cmd in commands:
        run_command(cmd, *workdir)


def test_comment_and_epilog_parsing():
    assert _strip_comment("jantaku rules mleague   # every parameter") == "jantaku rules mleague   "
    assert (
        _strip_comment("echo '# not a comment' | jantaku bot random") == "echo '# not a comment' | jantaku bot random"
    )
    assert sh_commands("text\n```sh\njantaku x  # c\n\n# only a comment\n```\n```python\nnot this\n```\n") == [
        "jantaku x"
    ]
    with pytest.raises(AssertionError, match="no extra 'nope'"):
        check_pip("pip install -e '.[nope]'")


def test_readme_rule_file_is_the_example_file():
    """The README's rule file is ``examples/rules/my_league.toml`` (its comments aside), which the commands use."""
    [block] = re.findall(r"^```toml\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)
    example = (ROOT / "examples" / "rules" / "my_league.toml").read_text(encoding="utf-8")
    assert block.splitlines() == [line for line in example.splitlines() if not line.startswith("#")]
