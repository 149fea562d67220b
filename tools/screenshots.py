"""Regenerate the README's screenshots (docs/*.png) with Playwright and Debian's chromium.

    python tools/screenshots.py            # writes docs/play.png, docs/result.png, docs/score.png, docs/replay.png,
                                           # docs/jielu-result.png, docs/tiles.png
    python tools/screenshots.py --only jielu-result     # one (or a comma-separated few) of them

The web table is served in-process on a free loopback port with a throwaway database and fixed seeds, so the
pictures come out the same each time (as long as the engine and bots play the same).
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
from jantaku.web.app import create_app  # noqa: E402
from jantaku.web.background import BackgroundServer  # noqa: E402
from jantaku.web.storage import SqliteStore  # noqa: E402

SEED = "screenshot-3"
SHOTS = ("play", "result", "score", "replay", "jielu-result", "tiles")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "docs"), help="folder for the PNG files (default docs/)")
    ap.add_argument("--seed", default=SEED, help="the table seed (default %(default)s)")
    ap.add_argument("--lang", default="en", choices=["en", "zh"], help="interface language")
    ap.add_argument("--only", default=",".join(SHOTS), help="comma-separated pictures to write (default: all)")
    args = ap.parse_args(argv)
    only = {name.strip() for name in args.only.split(",") if name.strip()}
    if only - set(SHOTS):
        ap.error(f"--only: unknown picture(s) {', '.join(sorted(only - set(SHOTS)))}; one of {', '.join(SHOTS)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    chromium, _ = ensure_chromium()
    seeds = itertools.count()
    fixed: list[str] = []  # a seed for the next table only (the 洁律 picture's, the same with --only or without)

    def seed_source() -> str:
        return fixed.pop() if fixed else f"{args.seed}-{next(seeds)}"

    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "games.sqlite3")
        app = create_app(store, seed_source=seed_source)
        with BackgroundServer(app) as server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=LAUNCH_ARGS)
            ctx = browser.new_context(viewport={"width": 1280, "height": 860}, device_scale_factor=1)
            ctx.add_init_script(f"localStorage.setItem('jantaku-lang', '{args.lang}')")
            page = ctx.new_page()
            if only & {"play", "result", "score", "replay"}:
                _riichi_shots(page, server, out, only)
            if "tiles" in only:
                _tiles(page, server, out)
            if "jielu-result" in only:
                fixed.append(f"{args.seed}-jielu")
                _jielu_result(page, server, out)
            browser.close()
        store.close()
    return 0


def _shot(page_or_locator, path: Path, **kw) -> None:
    page_or_locator.screenshot(path=str(path), **kw)
    print(f"wrote {path}")


def _riichi_shots(page, server, out: Path, only: set[str]) -> None:
    """The play screen, a riichi result panel, the calculator and the replay viewer (their tables take the
    seeds in turn whichever pictures are written, so each picture comes out the same either way)."""
    page.goto(server.url)
    page.select_option("#rules", "mleague")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#hand img.tile")
    # a few turns in, so the rivers have tiles
    play_until_result(page, max_turns=7)
    page.click("#waits-button")
    if "play" in only:
        _shot(page, out / "play.png")
    play_until_result(page, prefer_wins=True)
    if "result" in only:
        _shot(page.locator("#result-dialog"), out / "result.png")
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
        _shot(page, out / "score.png", full_page=True)
    bots = page.request.post(server.url + "api/tables", data={"rules": "tenhou", "seats": ["efficiency"] * 4})
    if "replay" in only:
        page.goto(f"{server.url}replay?game={bots.json()['id']}")
        page.wait_for_selector("#viewer:not([hidden])")
        for _ in range(3):
            page.click("#next-hand")
        for _ in range(45):
            page.click("#next")
        _shot(page, out / "replay.png", full_page=True)


def _jielu_result(page, server, out: Path) -> None:
    """A 洁律 hand's result panel (points mode): the person lets wins go until a bot has won, so the panel shows
    winners in order (x3, x2, x1) with their fans, S and wildcards, and the completion of who did not win."""
    page.set_viewport_size({"width": 1280, "height": 1700})
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
    _shot(page.locator("#result-dialog"), out / "jielu-result.png")
    page.set_viewport_size({"width": 1280, "height": 860})


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
