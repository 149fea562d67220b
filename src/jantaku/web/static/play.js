// The play page: the lobby (create a table) and the board (driven by the table's websocket).
"use strict";

const params = new URLSearchParams(location.search);
const tableId = params.get("table");
const watching = !params.get("token") && !!params.get("watch");  // a spectator's read-only link
const token = params.get("token") || params.get("watch");
const invite = params.get("invite");  // an invitation: the page takes the seat, then shows it
let view = null;
let socket = null;
let riichiMode = false;
let pending = false;   // an action was sent and its answer has not come yet
let showWaits = false;
let finalShown = false;  // the final table pops up once per page load; the status line's button reopens it

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = `${t("error")}: ${message}`;
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

async function api(method, url, body) {
  const res = await fetch(url, {
    method, headers: { "Content-Type": "application/json" }, body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

// -- the lobby ---------------------------------------------------------------------------------------------

async function lobby() {
  document.getElementById("lobby").hidden = false;
  const meta = await api("GET", "/api/presets");
  const rules = document.getElementById("rules");
  for (const p of meta.presets) rules.append(el("option", { value: p }, p));
  rules.value = meta.default;
  const seats = document.getElementById("seat-choice");
  const render = () => {
    const keep = [0, 1, 2, 3].map((s) => document.getElementById(`kind${s}`)?.value);
    seats.replaceChildren(el("tr", {}, el("th", {}, t("seat")), el("th", {}, t("player")), el("th", {}, t("name"))));
    for (let s = 0; s < 4; s++) {
      const kind = el("select", { id: `kind${s}`, "aria-label": `${t("seat")} ${s + 1}` },
        el("option", { value: "human" }, t("human")), ...meta.bots.map((b) => el("option", { value: b }, t(b))));
      kind.value = keep[s] || (s === 0 ? "human" : meta.default_bot || meta.bots[0]);
      seats.append(el("tr", {}, el("td", {}, String(s + 1)), el("td", {}, kind),
        el("td", {}, el("input", { id: `name${s}`, maxlength: "40", placeholder: defaultName(kind.value, s) }))));
      kind.addEventListener("change", () => { document.getElementById(`name${s}`).placeholder = defaultName(kind.value, s); renderCreator(); });
    }
    renderCreator();
  };
  // which seat the creator takes: the first person's by default, or none (an organiser who only invites)
  const renderCreator = () => {
    const select = document.getElementById("creator-seat");
    const keep = select.value;
    const humans = [0, 1, 2, 3].filter((s) => document.getElementById(`kind${s}`).value === "human");
    select.replaceChildren(...humans.map((s) => el("option", { value: String(s) }, `${t("seat")} ${s + 1}`)),
      el("option", { value: "none" }, t("yourSeatNone")));
    select.value = [...select.options].some((o) => o.value === keep) ? keep : (humans.length ? String(humans[0]) : "none");
    document.getElementById("creator-seat-label").hidden = humans.length < 2;
  };
  render();
  setupLanguage.onChange = render;
  setupTableOptions(meta);
  document.getElementById("new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const kinds = [0, 1, 2, 3].map((s) => document.getElementById(`kind${s}`).value);
      // a name left empty: the default in the interface's language ("玩家1", "效率机器人2")
      const names = [0, 1, 2, 3].map((s) => document.getElementById(`name${s}`).value.trim() || defaultName(kinds[s], s));
      const creator = document.getElementById("creator-seat").value;
      const table = await api("POST", "/api/tables", { rules: rules.value, seats: kinds, names, ...tableOptions(),
        creator_seat: creator === "none" ? null : Number(creator) });
      const humans = table.seats.filter((s) => s.kind === "human");
      if (!humans.length) { location.href = `/replay?game=${encodeURIComponent(table.id)}`; return; }
      saveOwnerLinks(table);
      const mine = humans.find((s) => s.claimed);
      if (humans.length === 1 && mine) { location.href = mine.link; return; }
      await renderLinks(document.getElementById("link-list"), table.id);
      const go = document.getElementById("go-to-seat");
      go.hidden = !mine;
      if (mine) go.href = mine.link;
      document.getElementById("links").hidden = false;
    } catch (e) { showError(e.message); }
  });
}

// -- the creator's links: every person's seat link and the read-only spectator link, to copy or reissue ------

function defaultName(kind, s) {
  return kind === "human" ? t("defaultPlayer").replace("{n}", s + 1)
    : t("defaultBot").replace("{bot}", t(kind)).replace("{n}", s + 1);
}

// -- the board ---------------------------------------------------------------------------------------------

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}?token=${encodeURIComponent(token)}`);
  socket.onmessage = (msg) => {
    const data = JSON.parse(msg.data);
    if (data.type === "view") { setView(data.view); }
    else if (data.type === "error") {
      pending = false;
      showError(data.error);
      if (data.status === 404 || data.status === 403) socket.fatal = true;
    }
  };
  socket.onclose = (ev) => {
    if (socket.fatal) return;
    document.getElementById("status").textContent = t("connectionLost");
    setTimeout(connect, ev.code === 1013 ? 10000 : 1500);  // 1013: the server's connection cap; try again later
  };
}

function setView(v) {
  if (view && v.step < view.step) return;  // an older view arriving late
  view = v;
  pending = false;
  riichiMode = false;
  render();
}

function act(index) {
  if (pending || !view) return;
  pending = true;
  const msg = { type: "act", step: view.step, index };
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
  else api("POST", `/api/tables/${tableId}/act`, { token, step: view.step, index }).then(setView)
    .catch((e) => { pending = false; showError(e.message); });
}

const CALLS = ["chi", "pon", "daiminkan", "ankan", "kakan"];

// Whose box is marked as acting: this seat when it is asked, another seat only on its draw/discard turn (or the
// all-last dealer's choice to stop, after a hand has ended), which everyone sees. Whether someone may call, rob a kan or declare tenpai is private: the server never says it (a
// seat not asked is told only that the table waits), and the page never guesses it.
const PUBLIC_PHASES = ["drawn", "called", "ended"];

function isActing(seat) {
  if (view.over || !view.to_act.includes(seat)) return false;
  return seat === view.seat || PUBLIC_PHASES.includes(view.round.phase);
}

function actionButton(a) {
  const b = el("button", { type: "button", "data-action": a.type, "data-index": String(a.index) }, t(a.type));
  if (["chi", "pon", "daiminkan"].includes(a.type) && a.tile) b.append(tileImg(a.tile, "small called-tile"), "+");
  if (CALLS.includes(a.type)) for (const c of a.consumed) b.append(tileImg(c, "small"));
  else if (["tsumo", "ron"].includes(a.type) && a.tile) b.append(tileImg(a.tile, "small"));
  b.addEventListener("click", () => act(a.index));
  return b;
}

function renderHand() {
  const hand = document.getElementById("hand");
  const actions = document.getElementById("actions");
  // drawn again only when it changed (the other seats' steps leave it as it is)
  const me = view.players[view.seat];
  const key = JSON.stringify([view.hand, view.drawn, view.actions, me.melds, view.waits, view.round.phase, riichiMode,
    showWaits, lang()]);
  if (hand.dataset.key === key) return;
  hand.dataset.key = key;
  hand.replaceChildren();
  actions.replaceChildren();
  const kind = riichiMode ? "reach" : "dahai";
  const pick = (tile, drawn) => view.actions.find((a) => a.type === kind && a.tile === tile && a.tsumogiri === drawn);
  const add = (tile, drawn) => {
    const a = pick(tile, drawn);
    const cls = [drawn ? "drawn" : "", a ? "playable" : "unplayable", a && riichiMode ? "riichi-choice" : ""];
    const img = tileImg(tile, cls.filter(Boolean).join(" "));
    img.dataset.tile = tile;
    if (a) { img.dataset.index = String(a.index); img.addEventListener("click", () => act(a.index)); }
    hand.append(img);
  };
  for (const tile of view.hand) add(tile, false);
  if (view.drawn) add(view.drawn, true);
  // a full hand's count of tiles (14 less 3 a meld): a phone sizes the hand's tiles by it (table.css), the same
  // whether the drawn tile is there or not
  hand.style.setProperty("--hand-slots", String(14 - 3 * me.melds.length));
  if (me.melds.length) hand.append(el("span", { class: "own-melds" }, ...me.melds.map((m) => meldTiles(m, false))));
  const waitsButton = el("button", { type: "button", id: "waits-button", class: "secondary" }, t(showWaits ? "hideWaits" : "showWaits"));
  waitsButton.addEventListener("click", () => { showWaits = !showWaits; render(); });
  if (riichiMode) {
    actions.append(el("span", {}, t("chooseRiichi") + " "),
      el("button", { type: "button", id: "riichi-cancel", onclick: () => { riichiMode = false; render(); } }, t("cancel")));
  } else {
    if (view.round.phase === "declare" && view.actions.length) actions.append(el("span", { id: "declare-prompt" }, t("declareTenpai") + " "));
    let riichiShown = false;
    for (const a of view.actions) {
      if (a.type === "dahai") continue;
      if (a.type === "reach") {
        if (!riichiShown) {
          riichiShown = true;
          actions.append(el("button", { type: "button", "data-action": "reach", onclick: () => { riichiMode = true; render(); } }, t("reach")));
        }
        continue;
      }
      actions.append(actionButton(a));
    }
  }
  actions.append(waitsButton);
  renderWaits();
}

function waitList(ws) {
  return el("span", { class: "wait-list" }, ...ws.map((w) => el("span", { class: "wait" }, tileImg(w.tile, "small"), `×${w.left}`)));
}

function renderWaits() {
  const box = document.getElementById("waits");
  box.hidden = !showWaits;
  if (!showWaits) return;
  const w = view.waits;
  if (!w) { box.replaceChildren(); return; }
  const rows = [];
  if (w.jielu) rows.push(el("div", { class: "jielu-note" }, t("jieluWaits")));
  if (!w.tenpai.length) rows.push(el("div", {}, w.shanten > 0 ? `${t("shanten")}: ${w.shanten}` : t("noWaits")));
  for (const o of w.tenpai) {
    const head = o.discard ? el("span", {}, `${t("discardThen")} `, tileImg(o.discard, "small"), ` → `) : el("span", {}, `${t("waitsOn")}: `);
    rows.push(el("div", { class: "wait-row" }, head, waitList(o.waits),
      o.furiten ? el("span", { class: "badge furiten" }, t("furiten")) : null));
  }
  box.replaceChildren(...rows);
}

function signed(d) { return d > 0 ? `+${d}` : String(d); }

function jieluWinParts(w, name) {
  const fans = el("table", { class: "yaku-list fan-list" }, ...w.yaku.map((y) => el("tr", { "data-yaku": y.name, "data-points": String(y.value) },
    el("td", {}, yakuName(y)), el("td", { class: "fan-melds" }, fanMelds(y)), el("td", { class: "num" }, valueText(y)))));
  const gain = w.payments[w.seat];
  // points mode: S times 3, 2 or 1 by order of winning; original mode: 3x(S-4) as paid
  const gainText = w.multiplier ? `×${w.multiplier} = ${signed(gain)}` : `${t("gain")} ${signed(gain)}`;
  const total = el("p", { class: "win-total" }, el("strong", { class: "win-points", "data-score": String(w.score) }, `${t("scoreS")} = ${w.score}`),
    ` (${jieluScoreText(w)})`, el("span", { class: "win-gain", "data-gain": String(gain) }, gainText),
    w.pao !== null && w.pao !== undefined ? ` · ${t("pao")}: ${name(w.pao)}` : "");
  const wild = el("p", { class: "win-wildcards" }, `${t("wildcards")}: `, wildcardList(w.wildcards));
  const reading = el("p", { class: "reading" }, `${t("reading")}: ${w.reading.melds.join(" ")} · ${t("pair")} ${w.reading.pair}`);
  return [fans, total, wild, reading];
}

function completionSection(c, name) {
  const hand = el("div", { class: "win-hand" }, ...c.hand.map((x) => tileImg(x, "small")));
  for (const m of c.melds) hand.append(" ", meldTiles(m, true));
  const fans = el("table", { class: "yaku-list fan-list" }, ...c.fans.map((y) => el("tr", { "data-yaku": y.name },
    el("td", {}, yakuName(y)), el("td", { class: "fan-melds" }, fanMelds(y)), el("td", { class: "num" }, valueText(y)))));
  return el("section", { class: "completion", "data-seat": String(c.seat) }, el("h4", {}, name(c.seat)), hand, fans,
    el("p", {}, el("strong", { class: "completion-score", "data-score": String(c.score) }, `${t("scoreS")} = ${c.score}`),
      c.score ? ` (${jieluScoreText(c)})` : ` (${t("noPoint")})`),
    c.score ? el("p", {}, `${t("wildcards")}: `, wildcardList(c.wildcards)) : null);
}

function resultBody(r) {
  const name = (s) => view.players[s].name;
  const jielu = r.family === "jielu";
  const body = el("div", { class: "result", "data-kind": r.kind, "data-family": r.family || "riichi" },
    el("h2", {}, `${t("handResult")} · ${roundLabel(r.round)}${jielu ? "" : ` · ${r.honba} ${t("honba")}`}`));
  if (jielu) {
    body.append(el("p", { class: "jielu-mode" }, t(r.mode === "original" ? "originalMode" : "pointsMode"),
      r.reason ? ` · ${t(r.reason)}` : ""));
  }
  for (const w of r.wins) {
    let head = w.from === null ? `${name(w.seat)} ${t("tsumo")}` : `${name(w.seat)} ${t("ron")} ← ${name(w.from)}`;
    if (jielu && r.mode === "points") head += ` · ${orderName(w.order)} ${t("winOrder")}`;
    const hand = el("div", { class: "win-hand" }, ...w.hand.map((x) => tileImg(x)));
    for (const m of w.melds) hand.append(" ", meldTiles(m, false));
    if (w.win_tile) hand.append(" ", tileImg(w.win_tile, "win-tile"));
    if (jielu) {
      body.append(el("section", { class: "win", "data-seat": String(w.seat) }, el("h3", {}, head), hand, ...jieluWinParts(w, name)));
      continue;
    }
    const yaku = el("table", { class: "yaku-list" }, ...w.yaku.map((y) => el("tr", { "data-yaku": y.name }, el("td", {}, yakuName(y)),
      el("td", { class: "num" }, valueText(y)))));
    const fu = w.fu !== null ? `${w.han} ${t("han")} ${w.fu} ${t("fu")}` : w.yakuman ? t("yakuman") + (w.yakuman > 1 ? ` ×${w.yakuman}` : "") : "";
    const total = el("p", { class: "win-total" }, `${fu}${fu ? " · " : ""}`, el("strong", { class: "win-points" }, `${w.points} ${t("points")}`),
      w.limit ? ` (${limitName(w.limit)})` : "", w.pao !== null && w.pao !== undefined ? ` · ${t("pao")}: ${name(w.pao)}` : "");
    const fuItems = w.fu_items && w.fu_items.length ? el("details", {}, el("summary", {}, t("fuItems")),
      el("ul", {}, ...w.fu_items.map(([what, f]) => el("li", {}, `${what}: ${f} ${t("fu")}`)))) : null;
    const ura = w.ura_indicators.length ? el("div", {}, `${t("uraDora")}: `, ...w.ura_indicators.map((x) => tileImg(x, "small"))) : null;
    body.append(el("section", { class: "win", "data-seat": String(w.seat) }, el("h3", {}, head), hand, yaku, total, fuItems, ura));
  }
  if (!r.wins.length) {
    const what = r.kind === "exhaustive" ? t("exhaustive") : r.reason === "nagashi_mangan" ? t("nagashi") : `${t("abortive")}${r.reason ? ` (${t(r.reason)})` : ""}`;
    body.append(el("h3", { class: "draw" }, what));
    if (r.kind === "exhaustive" && !jielu) {
      body.append(el("p", {}, r.tenpai.map((x, s) => `${name(s)}: ${x ? t("tenpai") : t("noten")}`).join(" · ")));
      for (const [s, tiles] of Object.entries(r.tenpai_hands)) body.append(el("div", {}, `${name(Number(s))}: `, ...tiles.map((x) => tileImg(x, "small"))));
    }
  }
  const completions = Object.values(r.completions || {});
  if (completions.length) {
    body.append(el("div", { class: "completions" }, el("h3", {}, t("completions")), ...completions.map((c) => completionSection(c, name))));
  }
  if (!jielu) body.append(el("div", {}, `${t("dora")}: `, ...r.dora_indicators.map((x) => tileImg(x, "small"))));
  body.append(el("table", { class: "data payments" },
    el("tr", {}, el("th", {}, t("player")), el("th", {}, t("payments")), el("th", {}, t("scoreCol"))),
    // ranked by the scores after the hand (equal scores in seat order)
    ...[0, 1, 2, 3].sort((a, b) => r.scores[b] - r.scores[a] || a - b).map((s) => el("tr", { "data-seat": String(s) },
      el("td", {}, name(s)), el("td", { class: "num delta" }, signed(r.deltas[s])), el("td", { class: "num" }, String(r.scores[s]))))));
  return body;
}

function finalBody() {
  const f = view.final;
  const jielu = view.family === "jielu";
  const rows = [0, 1, 2, 3].sort((a, b) => f.ranks[a] - f.ranks[b]).map((s) => el("tr", { "data-seat": String(s) },
    el("td", {}, String(f.ranks[s])), el("td", {}, view.players[s].name), el("td", { class: "num" }, String(f.scores[s])),
    el("td", { class: "num" }, (f.final[s] > 0 ? "+" : "") + f.final[s].toFixed(jielu ? 0 : 1))));
  // tenhou.net/6 holds riichi games only: a 洁律 game exports as mjai
  const tenhou6 = jielu ? [] : [el("a", { href: `/api/games/${tableId}/export?format=tenhou6`, id: "final-tenhou6" }, "tenhou.net/6"), " · "];
  return el("div", { class: "final" }, el("h2", {}, t("finalTable")),
    el("table", { class: "data" }, el("tr", {}, el("th", {}, t("rank")), el("th", {}, t("name")), el("th", {}, t("scoreCol")), el("th", {}, t("finalCol"))), ...rows),
    el("p", {}, el("a", { href: `/replay?game=${encodeURIComponent(tableId)}` }, t("replay")), " · ", ...tenhou6,
      el("a", { href: `/api/games/${tableId}/export?format=mjai`, id: "final-mjai" }, "mjai"), " · ", el("a", { href: "/" }, t("newGame"))));
}

function render() {
  if (!view) return;
  for (const box of document.querySelectorAll(".player")) {
    const p = view.players[(view.seat + Number(box.dataset.rel)) % 4];
    renderPlayer(box, p);
  }
  renderCenter();
  document.getElementById("hand-area").hidden = !!view.spectator;
  if (!view.spectator) renderHand();
  const mine = view.actions.length > 0;
  const status = document.getElementById("status");
  status.textContent = view.over ? t("gameOver") : (view.spectator ? t("spectating") : mine ? t("yourTurn") : t("waiting"));
  status.dataset.mine = mine ? "1" : "0";
  document.body.dataset.step = String(view.step);
  const key = `jantaku-seen-${tableId}-${view.seat}`;
  const seen = Number(localStorage.getItem(key) || 0);
  const dialog = document.getElementById("result-dialog");
  const fresh = (view.last_result && seen < view.hand_results) || holdNeedsPanel();
  if (view.over) {
    status.replaceChildren(t("gameOver"), " ", el("button", { type: "button", id: "final-button", onclick: () => {
      finalShown = false; render(); } }, t("finalTable")));
  }
  if ((view.over && !finalShown) || fresh) {
    finalShown = finalShown || view.over;
    const parts = [];
    if (view.last_result && (fresh || view.over)) parts.push(resultBody(view.last_result));
    if (view.over) parts.push(finalBody());
    document.getElementById("result-body").replaceChildren(...parts);
    localStorage.setItem(key, String(view.hand_results));
    if (!dialog.open) dialog.showModal();
  }
  renderPacing();
}

setupLanguage(() => { if (view) render(); else if (setupLanguage.onChange) setupLanguage.onChange(); });
if (tableId && invite && !token) {
  document.getElementById("board").hidden = false;
  claimInvite(tableId, invite);
} else if (tableId && token) {
  document.getElementById("board").hidden = false;
  const list = document.getElementById("table-link-list");
  const panel = document.getElementById("table-links");
  if (!watching && list && ownerLinks(tableId)) {
    panel.hidden = false;
    panel.addEventListener("toggle", () => { if (panel.open) renderLinks(list, tableId).catch((e) => showError(e.message)); });
  }
  if (!watching) {
    const leave = document.getElementById("leave-seat");
    leave.hidden = false;
    leave.addEventListener("click", () => leaveSeat(tableId, token).catch((e) => showError(e.message)));
  }
  connect();
} else {
  lobby().catch((e) => showError(e.message));
}
