"""Per-address limits count the real client (issue 32): ``jantaku serve`` ignores X-Forwarded-For unless
``--proxy`` names the proxy it comes through. Run on the real command: uvicorn itself believes the header from
127.0.0.1 by default, so a local client could give itself a new address for every request."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from jantaku.sim.ray_cluster import free_ports


def _jantaku() -> list[str]:
    beside = Path(sys.executable).with_name("jantaku")
    return [str(beside)] if beside.exists() else [sys.executable, "-m", "jantaku.cli"]


def _serve(tmp_path: Path, *extra: str):
    port = free_ports(1)[0]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.Popen(
        [*_jantaku(), "serve", "--port", str(port), "--tables-per-minute", "2", *extra],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(url, timeout=5).read()
            return proc, url
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(f"jantaku serve did not start: {proc.stdout.read()}") from None
            time.sleep(0.2)


def _create(url: str, forwarded_for: str) -> int:
    body = json.dumps({"rules": "tenhou", "seats": ["human", "random", "random", "random"]}).encode()
    headers = {"Content-Type": "application/json", "X-Forwarded-For": forwarded_for, "X-Real-IP": forwarded_for}
    request = urllib.request.Request(url + "api/tables", data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


@pytest.mark.parametrize(("proxy", "expected"), [((), [201, 201, 429]), (("--proxy", "127.0.0.1"), [201, 201, 201])])
def test_a_forwarded_address_counts_only_from_the_named_proxy(tmp_path, proxy, expected):
    proc, url = _serve(tmp_path, *proxy)
    try:
        # three "different" clients: without --proxy they are the one local client they really are
        assert [_create(url, f"203.0.113.{n}") for n in (1, 2, 3)] == expected
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
