"""Regenerate the README's screenshots (docs/*.png) with Playwright and Debian's chromium.

    python tools/screenshots.py            # writes docs/play.png, docs/result.png, docs/score.png, docs/replay.png,
                                           # docs/jielu-result.png at a laptop's size (1366x768), the same with
                                           # -phone (docs/play-phone.png...) at a phone's (390x844), docs/tiles.png
    python tools/screenshots.py --only jielu-result     # one (or a comma-separated few) of them
    python tools/screenshots.py --sizes phone           # one of the two sizes

The web table is served in-process on a free loopback port with a throwaway database and fixed seeds, so the
pictures come out the same each time (as long as the engine and bots play the same). The play screen is a table
played on the server deep into its first hand (long rivers, an open meld, a call offered: see
tests/e2e/scenes.py), then the hand is played on by clicking until its result panel opens.

The tiles need no font, but the pages' Chinese and Japanese text (yaku names beside their English) does: on a
machine without a CJK font give chromium one through fontconfig, without installing it, e.g. Debian's
fonts-wqy-microhei unpacked with ``apt-get download fonts-wqy-microhei; dpkg-deb -x fonts-wqy-*.deb fonts`` and a
fonts.conf that includes /etc/fonts/fonts.conf and ``<dir>fonts/usr/share/fonts</dir>``, then
``FONTCONFIG_FILE=fonts.conf python tools/screenshots.py`` (the pictures in docs/ were taken so).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402

from e2e.chromium import LAUNCH_ARGS, ensure_chromium  # noqa: E402
from e2e.driver import play_turn, play_until_result, wait_ready  # noqa: E402
from e2e.scenes import deep_riichi, deep_table  # noqa: E402
from jantaku.web.app import create_app  # noqa: E402
from jantaku.web.background import BackgroundServer  # noqa: E402
from jantaku.web.storage import SqliteStore  # noqa: E402

SEED = "screenshot-3"
SHOTS = ("play", "result", "score", "replay", "jielu-result", "tiles")
SIZES = {"laptop": ((1366, 768), ""), "phone": ((390, 844), "-phone")}
"""The screen sizes the pictures are taken at, with the suffix of their file names."""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "docs"), help="folder for the PNG files (default docs/)")
    ap.add_argument("--seed", default=SEED, help="the table seed (default %(default)s)")
    ap.add_argument("--lang", default="en", choices=["en", "zh"], help="interface language")
    ap.add_argument("--only", default=",".join(SHOTS), help="comma-separated pictures to write (default: all)")
    ap.add_argument("--sizes", default=",".join(SIZES), help="comma-separated screen sizes (default: laptop,phone)")
    args = ap.parse_args(argv)
    only = {name.strip() for name in args.only.split(",") if name.strip()}
    if only - set(SHOTS):
        ap.error(f"--only: unknown picture(s) {', '.join(sorted(only - set(SHOTS)))}; one of {', '.join(SHOTS)}")
    sizes = [name.strip() for name in args.sizes.split(",") if name.strip()]
    if set(sizes) - set(SIZES):
        ap.error(f"--sizes: unknown size(s) {', '.join(sorted(set(sizes) - set(SIZES)))}; one of {', '.join(SIZES)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    chromium, _ = ensure_chromium()
    seeds = itertools.count()
    fixed: list[str] = []  # a seed for the next table only (the 洁律 picture's, the same with --only or without)

    def seed_source() -> str:
        return fixed.pop() if fixed else f"{args.seed}-{next(seeds)}"

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=LAUNCH_ARGS)
        for size in sizes:
            (width, height), suffix = SIZES[size]
            seeds = itertools.count()  # each size plays the same tables
            store = SqliteStore(Path(tmp) / f"games-{size}.sqlite3")
            app = create_app(store, seed_source=seed_source)
            with BackgroundServer(app) as server:
                ctx = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
                ctx.add_init_script(f"localStorage.setItem('jantaku-lang', '{args.lang}')")
                page = ctx.new_page()
                shots = Shots(out, suffix, (width, height))
                if only & {"play", "result", "score", "replay"}:
                    _riichi_shots(page, server, shots, only, args.seed)
                if "tiles" in only and not suffix:
                    _tiles(page, server, out)
                if "jielu-result" in only:
                    fixed.append(f"{args.seed}-jielu")
                    _jielu_result(page, server, shots)
                ctx.close()
            store.close()
        browser.close()
    return 0


class Shots:
    """Where the pictures of one screen size go: ``docs/NAME{suffix}.png``."""

    def __init__(self, out: Path, suffix: str, viewport: tuple[int, int]) -> None:
        self.out, self.suffix, self.width, self.height = out, suffix, *viewport

    def path(self, name: str) -> Path:
        return self.out / f"{name}{self.suffix}.png"

    def tall(self, page) -> None:
        """The screen made tall enough for a whole result panel (a modal panel is as high as the screen)."""
        page.set_viewport_size({"width": self.width, "height": 1700})

    def normal(self, page) -> None:
        page.set_viewport_size({"width": self.width, "height": self.height})


def _shot(page_or_locator, path: Path, **kw) -> None:
    page_or_locator.screenshot(path=str(path), **kw)
    print(f"wrote {path}")


def _riichi_shots(page, server, shots: Shots, only: set[str], seed: str) -> None:
    """The play screen, a riichi result panel, the calculator and the replay viewer (their tables take the
    seeds in turn whichever pictures are written, so each picture comes out the same either way)."""
    seeds = [f"{seed}-deep-{n}" for n in range(40)]
    table = deep_table(server.app.state.manager, "mleague", seeds, deep_riichi)
    page.goto(f"{server.url}?table={table.id}&token={table.seats[0].token}")
    page.wait_for_selector("#actions button[data-action]")
    page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
    if "play" in only:
        _shot(page, shots.path("play"))
    shots.tall(page)
    play_until_result(page, prefer_wins=True)
    if "result" in only:
        _shot(page.locator("#result-dialog"), shots.path("result"))
    shots.normal(page)
    if "score" in only:
        page.goto(server.url + "score")
        page.fill("#hand", "234m567p456s78999s")
        page.fill("#win", "9s")
        page.check("#tsumo")
        page.check("#riichi")
        page.fill("#dora", "3m")
        page.select_option("#seat_wind", "S")
        page.select_option("#rules", "mleague")
        page.select_option("#rules2", "mu")
        page.click("#score-form button[type=submit]")
        page.wait_for_selector("#score-result .score-column")
        _shot(page, shots.path("score"), full_page=True)
    bots = page.request.post(server.url + "api/tables", data={"rules": "tenhou", "seats": ["efficiency"] * 4})
    if "replay" in only:
        page.goto(f"{server.url}replay?game={bots.json()['id']}")
        page.wait_for_selector("#viewer:not([hidden])")
        for _ in range(3):
            page.click("#next-hand")
        for _ in range(45):
            page.click("#next")
        _shot(page, shots.path("replay"), full_page=True)


def _jielu_result(page, server, shots: Shots) -> None:
    """A 洁律 hand's result panel (points mode): the person lets wins go until a bot has won, so the panel shows
    winners in order (x3, x2, x1) with their fans, S and wildcards, and the completion of who did not win."""
    shots.tall(page)
    page.goto(server.url)
    page.select_option("#rules", "jielu")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#hand img.tile")
    for _ in range(300):
        wait_ready(page)
        if page.evaluate("() => document.getElementById('result-dialog').open"):
            break
        bot_won = page.locator(".badge.won").count() > 0
        play_turn(page, prefer_wins=True, take_wins=bot_won)
    _shot(page.locator("#result-dialog"), shots.path("jielu-result"))
    shots.normal(page)


def _tiles(page, server, out: Path) -> None:
    """All 37 faces and the back as the server sends them (``/tiles/{name}.svg``), one row per suit, at 1.5
    times their size. Built on the server's own page with DOM calls, which its Content-Security-Policy allows."""
    rows = [[f"{n}{suit}" for n in "1234567890"] for suit in "mps"] + [[f"{n}z" for n in "1234567"] + ["back"]]
    page.goto(server.url)
    page.evaluate(
        """rows => {
            const sheet = document.createElement('div');
            Object.assign(sheet.style, {padding: '8px', background: '#2f6b47', display: 'inline-block'});
            sheet.id = 'tile-sheet';
            for (const row of rows) {
                const line = sheet.appendChild(document.createElement('div'));
                line.style.display = 'flex';
                for (const name of row) {
                    const img = line.appendChild(new Image(90, 120));
                    img.src = `/tiles/${name}.svg`;
                    img.alt = name;
                }
            }
            document.body.replaceChildren(sheet);
        }""",
        rows,
    )
    page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
    _shot(page.locator("#tile-sheet"), out / "tiles.png")


if __name__ == "__main__":
    raise SystemExit(main())
