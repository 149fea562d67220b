"""The code base is ruff clean (lint and format)."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff comes with the test extras")
@pytest.mark.parametrize("args", [["check"], ["format", "--check"]])
def test_ruff(args):
    proc = subprocess.run(
        ["ruff", *args, "src", "tests", "benchmarks", "tools"], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
