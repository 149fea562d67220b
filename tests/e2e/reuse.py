"""Browser pages kept open from one test to the next: a fresh context and page cost chromium about 0.3 s of
processor time (a renderer process started, every tile picture fetched again) where reusing a page costs a
navigation; the browser tests open about 300 pages.

A page handed back is cleared as a new one would be (its origin's storage and cookies, its permissions, emulated
media, default timeout) and left on ``about:blank``, so no test sees what the one before did; a test that changed
its page in a way that cannot be undone (an init script, listeners of its own) sets ``page.keep = False`` and the
page is closed instead. JavaScript errors are gathered per test in ``page.errors``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from playwright.sync_api import Error as PlaywrightError

LOCALE = "en-US"


class PagePool:
    """Pages of ``browser`` by viewport size, each in its own context (cookies and storage are per context)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.free: dict[tuple[int, int], list[Any]] = {}

    def take(self, size: tuple[int, int], timeout_ms: int) -> Any:
        """A page of ``size`` (a kept one, or a new one), waiting up to ``timeout_ms``; ``page.errors`` empty."""
        free = self.free.get(size) or []
        page = free.pop() if free else self._new(size)
        page.context.set_default_timeout(timeout_ms)
        page.errors = []
        page.keep = True
        return page

    @contextlib.contextmanager
    def pages(self, size: tuple[int, int], n: int, timeout_ms: int) -> Iterator[list[Any]]:
        """``n`` pages of ``size`` for one test, handed back after it; a JavaScript error on any fails the test."""
        opened = [self.take(size, timeout_ms) for _ in range(n)]
        try:
            yield opened
            errors = [e for p in opened for e in p.errors]
            assert not errors, f"JavaScript errors on the pages: {errors}"
        finally:
            for p in opened:
                self.give_back(p)

    def _new(self, size: tuple[int, int]) -> Any:
        ctx = self.browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=LOCALE)
        page = ctx.new_page()
        page.size = size
        page.on("pageerror", lambda e, p=page: p.errors.append(str(e)))
        return page

    def give_back(self, page: Any) -> None:
        """The page cleared and kept for a later test, or closed (``page.keep`` false, or it would not clear)."""
        if not getattr(page, "keep", False) or page.is_closed():
            self._close(page)
            return
        try:
            for other in page.context.pages:  # a window the test opened (a report, a download)
                if other is not page:
                    other.close()
            if page.url.startswith("http"):
                page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            page.goto("about:blank")
            page.context.clear_cookies()
            page.context.clear_permissions()
            page.emulate_media(media=None, reduced_motion="no-preference", color_scheme="light")
        except PlaywrightError:
            self._close(page)
            return
        self.free.setdefault(page.size, []).append(page)

    def close(self) -> None:
        for pages in self.free.values():
            for page in pages:
                self._close(page)
        self.free.clear()

    @staticmethod
    def _close(page: Any) -> None:
        with contextlib.suppress(PlaywrightError):
            page.context.close()
