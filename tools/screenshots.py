"""Regenerate the README's screenshots (docs/*.png) with Playwright and Debian's chromium.

    python tools/screenshots.py            # writes docs/play.png, docs/result.png, docs/score.png, docs/replay.png

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
from e2e.driver import play_until_result  # noqa: E402
from jantaku.web.app import create_app  # noqa: E402
from jantaku.web.background import BackgroundServer  # noqa: E402
from jantaku.web.storage import SqliteStore  # noqa: E402

SEED = "screenshot-3"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "docs"), help="folder for the PNG files (default docs/)")
    ap.add_argument("--seed", default=SEED, help="the table seed (default %(default)s)")
    ap.add_argument("--lang", default="en", choices=["en", "zh"], help="interface language")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    chromium, _ = ensure_chromium()
    seeds = itertools.count()
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "games.sqlite3")
        app = create_app(store, seed_source=lambda: f"{args.seed}-{next(seeds)}")
        with BackgroundServer(app) as server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=LAUNCH_ARGS)
            ctx = browser.new_context(viewport={"width": 1280, "height": 860}, device_scale_factor=1)
            ctx.add_init_script(f"localStorage.setItem('jantaku-lang', '{args.lang}')")
            page = ctx.new_page()
            page.goto(server.url)
            page.select_option("#rules", "mleague")
            page.click("#new-table button[type=submit]")
            page.wait_for_selector("#hand img.tile")
            # a few turns in, so the rivers have tiles
            play_until_result(page, max_turns=7)
            page.click("#waits-button")
            page.screenshot(path=str(out / "play.png"))
            print(f"wrote {out / 'play.png'}")
            play_until_result(page, prefer_wins=True)
            page.locator("#result-dialog").screenshot(path=str(out / "result.png"))
            print(f"wrote {out / 'result.png'}")
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
            page.screenshot(path=str(out / "score.png"), full_page=True)
            print(f"wrote {out / 'score.png'}")
            bots = page.request.post(server.url + "api/tables", data={"rules": "tenhou", "seats": ["efficiency"] * 4})
            page.goto(f"{server.url}replay?game={bots.json()['id']}")
            page.wait_for_selector("#viewer:not([hidden])")
            for _ in range(3):
                page.click("#next-hand")
            for _ in range(45):
                page.click("#next")
            page.screenshot(path=str(out / "replay.png"), full_page=True)
            print(f"wrote {out / 'replay.png'}")
            browser.close()
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
