"""Per-address limits count the real client (issue 32): ``jantaku serve`` ignores X-Forwarded-For unless
``--proxy`` names the proxy it comes through. Run on the real command: uvicorn itself believes the header from
127.0.0.1 by default, so a local client could give itself a new address for every request."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from served import served


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
    with served(tmp_path, "--tables-per-minute", "2", *proxy) as (_, url):
        # three "different" clients: without --proxy they are the one local client they really are
        assert [_create(url, f"203.0.113.{n}") for n in (1, 2, 3)] == expected
