"""The details of issue 13 in the browser, each at a phone's size and a laptop's: the replay viewer with a real
tenhou.net/6 record (yaku names in the interface's language, fu only where the record has them, rank points,
the arrow keys right after choosing the file); readable links and text on the result panel and final table
(WCAG AA, from the computed colours); call buttons showing the called tile; default names in the Chinese
interface; the creator's copy and reissue buttons and the spectator link, and the spectator's page; the
favicon."""

from __future__ import annotations

import re
from pathlib import Path

from jantaku.records.load import read_records

from .conftest import HEAVY_TIMEOUT_MS
from .scenes import deep_riichi, deep_table

RANKED = Path(__file__).parents[1] / "data" / "records" / "tenhou6-json" / "edge-cases-b" / "ranked_game.json"
"""A real tenhou.net/6 record (Tenhou log 2019050417gm-0029-0000-4f2a8622): three hands, a haneman written
without fu, Japanese yaku names (役牌 發, 赤ドラ...), rank points."""

CONTRAST = """(selector) => {
  const rgba = (text) => {
    const m = text.match(/[\\d.]+/g).map(Number);
    return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
  };
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
  const background = (e) => {  // the first opaque background behind the element
    const layers = [];
    for (let n = e; n; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let out = [255, 255, 255];
    for (const c of layers.reverse()) out = over(c, out);
    return out;
  };
  const opacity = (e) => {
    let o = 1;
    for (let n = e; n; n = n.parentElement) o *= Number(getComputedStyle(n).opacity);
    return o;
  };
  const worst = [];
  for (const root of document.querySelectorAll(selector)) {
    for (const e of [root, ...root.querySelectorAll('*')]) {
      const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own || !e.getClientRects().length) continue;
      const bg = background(e);
      const fg = rgba(getComputedStyle(e).color);
      const shown = over([fg[0], fg[1], fg[2], fg[3] * opacity(e)], bg);
      const [a, b] = [lum(shown), lum(bg)].sort((x, y) => y - x);
      worst.push({ratio: (a + 0.05) / (b + 0.05), tag: e.tagName, text: e.textContent.trim().slice(0, 30)});
    }
  }
  return worst.sort((x, y) => x.ratio - y.ratio);
}"""


def _position(page) -> int:
    return int(page.locator("#step-label").get_attribute("data-position"))


def _upload(page, server, path: Path) -> None:
    page.goto(server.url + "replay")
    page.wait_for_selector("body[data-ready='1']")
    page.focus("#upload")  # as after clicking it to choose the file
    page.set_input_files("#upload", str(path))
    page.wait_for_selector("#viewer:not([hidden])", timeout=HEAVY_TIMEOUT_MS)  # read in the server's worker


def test_replay_of_a_tenhou6_record_speaks_the_interface_language(sized, server):
    record = read_records(RANKED)[0]
    events = record.events
    wins = [e for e in events if e["type"] == "hora"]
    _upload(sized, server, RANKED)
    start = _position(sized)
    sized.keyboard.press("ArrowRight")  # right after the file was chosen
    sized.keyboard.press("ArrowRight")
    assert _position(sized) == start + 2
    sized.keyboard.press("ArrowLeft")
    assert _position(sized) == start + 1
    sized.click("#last")  # the last hand: a haneman without fu, and the final table
    result = sized.locator("#replay-result")
    text = result.inner_text()
    assert "null" not in text and "undefined" not in text
    last = wins[-1]
    assert last["fu"] is None and last["limit"] == 2
    win = result.locator("section.win").last
    assert "fu" not in win.inner_text() and "6 han · Haneman" in win.inner_text()
    names = win.locator("tr[data-yaku] td:first-child").all_inner_texts()
    assert names == ["Mixed triple sequence (三色同順)", "All simples (断幺九)", "dora (ドラ)", "red five (赤ドラ)"]
    final = result.locator(".final td.rank-points").evaluate_all("cs => cs.map(c => Number(c.dataset.final))")
    assert final == record.final == [-19.0, 65.0, -55.0, 9.0]
    assert result.locator(".final td.rank-points").all_inner_texts() == ["-19", "+65", "-55", "+9"]
    ranks = result.locator(".final tr[data-seat] td:first-child").all_inner_texts()
    assert ranks == ["3", "1", "4", "2"]
    # a hand with fu: "4 han 30 fu"
    sized.click("#first")
    sized.click("#next-hand")
    sized.click("#next-hand")
    sized.click("#prev")
    assert "4 han 30 fu" in result.locator("section.win").first.inner_text()
    # in Chinese: the names in Chinese, no Japanese kana
    sized.select_option("#lang", "zh")
    sized.click("#last")
    names = result.locator("section.win").last.locator("tr[data-yaku] td:first-child").all_inner_texts()
    assert names == ["三色同顺", "断幺九", "宝牌", "赤宝牌"]
    shown = result.locator("section.win tr[data-yaku], section.win p").all_inner_texts()
    assert not re.search(r"[\u3040-\u30ff]", " ".join(shown)), f"Japanese kana left in the Chinese interface: {shown}"
    assert "跳满" in result.locator("section.win").last.inner_text()


def _final_table(server, seed: str):
    manager = server.app.state.manager
    table = manager.create("tenhou", ["human", "random", "random", "random"], seed=seed)
    token = table.seats[0].token
    while not table.over:
        view = table.view(0)
        manager.act(table.id, token, view["step"], len(view["actions"]) - 1)
    return table, token


def test_links_and_text_on_the_result_panel_and_final_table_are_readable(sized, server):
    table, token = _final_table(server, "contrast")
    sized.goto(f"{server.url}?table={table.id}&token={token}")
    sized.locator("#result-dialog .final a").first.wait_for()
    checked = sized.evaluate(CONTRAST, "#result-dialog")
    assert len(checked) >= 20 and any(c["tag"] == "A" for c in checked)
    assert checked[0]["ratio"] >= 4.5, f"too little contrast: {checked[:3]}"
    # the stored games' table and the replay's result panel
    sized.goto(server.url + "games")
    sized.locator("table.data a.replay-link").first.wait_for()
    worst = sized.evaluate(CONTRAST, "table.data")
    assert worst[0]["ratio"] >= 4.5, f"too little contrast: {worst[:3]}"
    sized.goto(f"{server.url}replay?game={table.id}")
    sized.wait_for_selector("#viewer:not([hidden])")
    sized.click("#last")
    worst = sized.evaluate(CONTRAST, "#replay-result")
    assert worst and worst[0]["ratio"] >= 4.5, f"too little contrast: {worst[:3]}"


def test_call_buttons_show_the_called_tile(sized, server):
    table = deep_table(server.app.state.manager, "mleague", [f"layout-{n}" for n in range(40)], deep_riichi)
    sized.goto(f"{server.url}?table={table.id}&token={table.seats[0].token}")
    calls = [a for a in table.view(0)["actions"] if a["type"] in ("chi", "pon", "daiminkan")]
    assert calls
    for a in calls:
        button = sized.locator(f"#actions button[data-index='{a['index']}']")
        assert button.locator("img.called-tile").get_attribute("alt") == a["tile"]
        tiles = button.locator("img").evaluate_all("imgs => imgs.map(i => i.alt)")
        assert tiles == [a["tile"], *a["consumed"]]
        box, called = button.bounding_box(), button.locator("img.called-tile").bounding_box()
        assert box["x"] <= called["x"] and called["x"] + called["width"] <= box["x"] + box["width"]


def test_default_names_in_the_chinese_interface(sized, server):
    sized.goto(server.url)
    sized.select_option("#lang", "zh")
    sized.select_option("#rules", "mleague")
    assert sized.get_attribute("#name0", "placeholder") == "玩家1"
    assert sized.get_attribute("#name1", "placeholder") == "强力机器人2"  # the strong bot is the default
    sized.select_option("#kind2", "efficiency")
    assert sized.get_attribute("#name2", "placeholder") == "效率机器人3"
    sized.select_option("#kind3", "random")
    assert sized.get_attribute("#name3", "placeholder") == "随机机器人4"
    sized.click("#new-table button[type=submit]")
    sized.wait_for_selector("#hand > img.tile")
    names = sized.locator(".player h3").all_inner_texts()
    text = " ".join(names)
    for name in ("玩家1", "强力机器人2", "效率机器人3", "随机机器人4"):
        assert name in text, (name, names)
    assert "bot" not in text and "player" not in text


def test_the_creators_links_copy_reissue_and_the_spectator_page(sized, server):
    sized.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url.rstrip("/"))
    sized.goto(server.url)
    sized.select_option("#rules", "mleague")
    sized.select_option("#kind1", "human")
    sized.click("#new-table button[type=submit]")
    rows = sized.locator("#link-list li")
    rows.first.wait_for()
    assert rows.count() == 3  # two people and the spectators
    seat1 = sized.locator("#link-list li[data-seat='1']")
    url = seat1.locator("a.seat-link").get_attribute("href")
    for row in rows.all():  # every row fits the screen
        box = row.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= sized.viewport_size["width"] + 0.5
    seat1.locator("button.copy-link").click()
    seat1.locator("button.copy-link[data-copied]").wait_for()
    assert seat1.locator("button.copy-link").get_attribute("data-copied") == "clipboard"
    assert sized.evaluate("() => navigator.clipboard.readText()") == url
    # reissue: a new link is shown, the old one is refused
    seat1.locator("button.reissue-link").click()
    sized.wait_for_function("(old) => document.querySelector(\"#link-list li[data-seat='1'] a\").href !== old", arg=url)
    fresh = seat1.locator("a.seat-link").get_attribute("href")
    table_id = re.search(r"table=([^&]+)", url).group(1)
    old_invite, new_invite = url.rsplit("invite=", 1)[1], fresh.rsplit("invite=", 1)[1]
    claim = f"{server.url}api/tables/{table_id}/claim"
    headers = {"Origin": server.url.rstrip("/")}
    assert sized.request.post(claim, data={"invite": old_invite}, headers=headers).status == 409
    taken = sized.request.post(claim, data={"invite": new_invite}, headers=headers)
    assert taken.status == 200 and taken.json()["seat"] == 1
    # once taken, the creator's panel (at the creator's own seat) says so and shows no link for it
    watch = sized.locator("#link-list li[data-seat='spectator'] a.spectator-link").get_attribute("href")
    sized.click("#go-to-seat")
    sized.wait_for_selector("#hand > img.tile")
    sized.click("#table-links summary")
    sized.locator("#table-link-list li[data-seat='1'][data-state='taken']").wait_for()
    assert sized.locator("#table-link-list li[data-seat='1'] a, #table-link-list li[data-seat='1'] button").count() == 0
    assert sized.locator("#table-link-list li[data-seat='0'][data-state='yours'] a.own-link").count() == 1
    # the spectator's page: every seat's tiles closed, no hand or buttons, it says it only watches
    spectator = sized.context.new_page()
    spectator.goto(watch)
    spectator.wait_for_selector(".player .concealed img")
    assert spectator.locator("#hand-area").is_hidden()
    assert spectator.locator("#status").inner_text() == "Watching (read-only)"
    assert set(spectator.locator(".player img").evaluate_all("imgs => imgs.map(i => i.alt)")) - {"back"} <= set(
        spectator.locator(".player .river img, .player .melds img").evaluate_all("imgs => imgs.map(i => i.alt)")
    )
    backs = spectator.locator(".player .concealed img").evaluate_all("imgs => imgs.map(i => i.alt)")
    assert backs.count("back") >= 13 * 4
    spectator.close()


def test_copy_falls_back_to_selecting_the_link_and_the_owner_sees_the_links_while_playing(sized, server):
    sized.keep = False  # an init script cannot be taken off: the page is not kept for a later test
    sized.add_init_script("Object.defineProperty(navigator, 'clipboard', { value: undefined })")
    sized.goto(server.url)
    sized.select_option("#rules", "tenhou")
    sized.click("#new-table button[type=submit]")  # one person: straight to the table
    sized.wait_for_selector("#hand > img.tile")
    panel = sized.locator("#table-links")
    assert panel.is_visible()
    sized.click("#table-links summary")
    row = sized.locator("#table-link-list li[data-seat='spectator']")
    row.locator("button.copy-link").click()
    row.locator("button.copy-link[data-copied]").wait_for()
    assert row.locator("button.copy-link").get_attribute("data-copied") == "selected"
    assert sized.evaluate("() => window.getSelection().toString()") == row.locator("a").get_attribute("href")
    # the creator's own seat is listed as theirs, with nothing to replace; the seat can be left
    own = sized.locator("#table-link-list li[data-seat='0']")
    assert own.get_attribute("data-state") == "yours" and own.locator("button").count() == 0
    assert sized.locator("#leave-seat").is_visible()


def test_the_favicon_and_no_missing_file(sized, server):
    missing: list[str] = []
    sized.keep = False  # listeners of its own: the page is not kept for a later test
    sized.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    sized.on("console", lambda m: missing.append(m.text) if m.type == "error" else None)
    for path in ("", "score", "games", "replay"):
        sized.goto(server.url + path)
        sized.wait_for_load_state("networkidle")
        assert sized.locator("link[rel=icon]").get_attribute("href") == "/favicon.svg"
    icon = sized.request.get(server.url + "favicon.ico")
    assert icon.status == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.body().startswith(b"<svg")
    assert not missing, missing


def test_the_spectator_sees_every_hand_once_the_game_is_over(sized, server):
    table, _ = _final_table(server, "spectate-over")
    sized.goto(f"{server.url}?table={table.id}&watch={table.spectator_token()}")
    sized.locator("#result-dialog .final").wait_for()
    sized.click("#result-dialog button")
    k = table.game.kyoku
    for s in range(4):
        rel = s  # a spectator sees seat 0 at the bottom
        shown = sized.locator(f".player[data-rel='{rel}'] .shown-hand img").evaluate_all("i => i.map(x => x.alt)")
        assert sorted(shown) == sorted(k.tile(i).mpsz for i in k.seats[s].tiles)
    assert sized.locator("#hand-area").is_hidden() and sized.locator("#table-links").is_hidden()
