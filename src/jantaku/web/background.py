"""The web table served from a background thread on a free loopback port: for browser tests and screenshots.

>>> from jantaku.web.app import create_app
>>> from jantaku.web.storage import SqliteStore
>>> import urllib.request, json
>>> with BackgroundServer(create_app(SqliteStore(":memory:"))) as server:
...     json.load(urllib.request.urlopen(server.url + "api/games"))
{'games': []}
"""

from __future__ import annotations

import socket
import threading
import time
from types import TracebackType

import uvicorn
from starlette.applications import Starlette

from .limits import MAX_JSON_BYTES

__all__ = ["BackgroundServer"]


class BackgroundServer:
    """Serve ``app`` with uvicorn in a daemon thread on ``127.0.0.1`` and a port the system picks.

    Use as a context manager (or :meth:`start` / :meth:`stop`); :attr:`url` is the address to open.
    """

    def __init__(self, app: Starlette, host: str = "127.0.0.1") -> None:
        self.app = app
        self.host = host
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((host, 0))
        self.port: int = self._sock.getsockname()[1]
        config = uvicorn.Config(
            app, log_level="warning", ws="websockets-sansio", ws_max_size=MAX_JSON_BYTES, lifespan="off"
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True)

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT/``."""
        return f"http://{self.host}:{self.port}/"

    def start(self, timeout: float = 20.0) -> BackgroundServer:
        """Start serving; returns once the server accepts connections (``RuntimeError`` after ``timeout``)."""
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the web table did not start on {self.url}")
            time.sleep(0.02)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving and wait for the thread."""
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout)
        self._sock.close()

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
