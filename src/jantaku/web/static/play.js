// The play page: the lobby (create a table) and the board (driven by the table's websocket).
"use strict";

const params = new URLSearchParams(location.search);
const tableId = params.get("table");
const token = params.get("token");
let view = null;
let socket = null;
let riichiMode = false;
const WINDS = { en: { E: "East", S: "South", W: "West", N: "North" }, zh: { E: "东", S: "南", W: "西", N: "北" } };

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
    seats.replaceChildren(el("tr", {}, el("th", {}, t("seat")), el("th", {}, ""), el("th", {}, t("name"))));
    for (let s = 0; s < 4; s++) {
      const kind = el("select", { id: `kind${s}` }, el("option", { value: "human" }, t("human")),
        ...meta.bots.map((b) => el("option", { value: b }, t(b))));
      kind.value = s === 0 ? "human" : "efficiency";
      seats.append(el("tr", {}, el("td", {}, String(s + 1)), el("td", {}, kind),
        el("td", {}, el("input", { id: `name${s}`, maxlength: "40" }))));
    }
  };
  render();
  document.getElementById("new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const kinds = [0, 1, 2, 3].map((s) => document.getElementById(`kind${s}`).value);
      const names = [0, 1, 2, 3].map((s) => document.getElementById(`name${s}`).value);
      const table = await api("POST", "/api/tables", { rules: rules.value, seats: kinds, names });
      const list = document.getElementById("link-list");
      list.replaceChildren();
      const humans = table.seats.filter((s) => s.kind === "human");
      if (!humans.length) { location.href = "/games"; return; }
      for (const s of humans) {
        const url = new URL(s.link, location.href).href;
        list.append(el("li", {}, `${t("seat")} ${s.seat + 1} (${s.name}): `, el("a", { href: url }, url)));
      }
      document.getElementById("links").hidden = false;
      if (humans.length === 1) location.href = humans[0].link;
    } catch (e) { showError(e.message); }
  });
}

// -- the board ---------------------------------------------------------------------------------------------

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}?token=${encodeURIComponent(token)}`);
  socket.onmessage = (msg) => {
    const data = JSON.parse(msg.data);
    if (data.type === "view") { view = data.view; riichiMode = false; render(); }
    else if (data.type === "error") { showError(data.error); if (data.status === 404 || data.status === 403) socket.fatal = true; }
  };
  socket.onclose = () => {
    if (socket.fatal) return;
    document.getElementById("status").textContent = t("connectionLost");
    setTimeout(connect, 1500);
  };
}

function act(index) {
  const msg = { type: "act", step: view.step, index };
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
  else api("POST", `/api/tables/${tableId}/act`, { token, step: view.step, index }).then((v) => { view = v; render(); })
    .catch((e) => showError(e.message));
}

function windName(w) { return WINDS[lang()][w]; }

function renderPlayer(box, p) {
  const you = p.seat === view.seat ? ` (${t("you")})` : "";
  const title = el("h3", {}, `${windName(p.wind)} · ${p.name}${you} · ${p.score}`);
  if (p.riichi) title.append(el("span", { class: "badge" }, t("riichiBadge")));
  const river = el("div", { class: "river" });
  for (const r of p.river) {
    const cls = [r.riichi ? "sideways" : "", r.called_by !== null ? "called" : "", r.tsumogiri ? "tsumogiri" : ""];
    river.append(tileImg(r.tile, cls.filter(Boolean).join(" ")));
  }
  const melds = el("div", { class: "melds" });
  for (const m of p.melds) {
    const span = el("span", { class: "meld", title: m.text });
    for (const tile of m.tiles) {
      const face = m.type === "ankan" && (span.childElementCount === 0 || span.childElementCount === 3) ? "back" : tile;
      span.append(tileImg(face, tile === m.called && m.type !== "ankan" ? "sideways" : ""));
    }
    melds.append(span);
  }
  const hidden = p.seat === view.seat ? null : el("div", {}, ...Array.from({ length: Math.min(p.hand_count, 14) }, () => tileImg("back")));
  if (hidden) for (const img of hidden.children) { img.style.width = "14px"; img.style.height = "19px"; }
  box.replaceChildren(title, hidden, river, melds);
  box.classList.toggle("acting", view.to_act.includes(p.seat));
}

function renderCenter() {
  const r = view.round;
  const center = document.getElementById("center");
  center.replaceChildren(
    el("div", {}, `${windName(r.wind)} ${r.number} · ${r.honba} ${t("honba")} · ${t("deposits")} ${r.deposits}`),
    el("div", {}, `${t("wall")}: ${r.tiles_left}`),
    el("div", {}, `${t("dora")}: `, ...r.dora_indicators.map((d) => tileImg(d))),
    el("div", {}, view.rules),
  );
}

function actionLabel(a) {
  const b = el("button", { type: "button" }, t(a.type));
  if (["chi", "pon", "daiminkan", "ankan", "kakan"].includes(a.type)) {
    for (const c of a.consumed) b.append(tileImg(c));
  } else if (["tsumo", "ron"].includes(a.type) && a.tile) b.append(tileImg(a.tile));
  return b;
}

function renderHand() {
  const hand = document.getElementById("hand");
  const actions = document.getElementById("actions");
  hand.replaceChildren();
  actions.replaceChildren();
  const kind = riichiMode ? "reach" : "dahai";
  const pick = (tile, drawn) => view.actions.find((a) => a.type === kind && a.tile === tile && a.tsumogiri === drawn);
  const add = (tile, drawn) => {
    const a = pick(tile, drawn);
    const img = tileImg(tile, (drawn ? "drawn " : "") + (a ? "playable" : "unplayable") + (a && riichiMode ? " riichi-choice" : ""));
    if (a) img.addEventListener("click", () => act(a.index));
    hand.append(img);
  };
  for (const tile of view.hand) add(tile, false);
  if (view.drawn) add(view.drawn, true);
  for (const p of view.players) {
    if (p.seat === view.seat) for (const m of p.melds) {
      const span = el("span", { class: "meld melds" });
      for (const tile of m.tiles) span.append(tileImg(tile, tile === m.called && m.type !== "ankan" ? "sideways" : ""));
      hand.append(span);
    }
  }
  if (riichiMode) {
    actions.append(el("span", {}, t("chooseRiichi") + " "), el("button", { type: "button", onclick: () => { riichiMode = false; render(); } }, t("cancel")));
    return;
  }
  let riichiShown = false;
  for (const a of view.actions) {
    if (a.type === "dahai") continue;
    if (a.type === "reach") {
      if (!riichiShown) {
        riichiShown = true;
        actions.append(el("button", { type: "button", onclick: () => { riichiMode = true; render(); } }, t("reach")));
      }
      continue;
    }
    const b = actionLabel(a);
    b.addEventListener("click", () => act(a.index));
    actions.append(b);
  }
}

function resultBody(r) {
  const body = el("div", {}, el("h2", {}, `${t("handResult")} · ${r.round} ${r.honba} ${t("honba")}`));
  const name = (s) => view.players[s].name;
  for (const w of r.wins) {
    const head = w.from === null ? `${name(w.seat)} ${t("tsumo")}` : `${name(w.seat)} ${t("ron")} (${t("from")} ${name(w.from)})`;
    const hand = el("div", {}, ...w.hand.map((x) => tileImg(x)), " ");
    for (const m of w.melds) hand.append(el("span", { class: "meld" }, ...m.tiles.map((x) => tileImg(x))));
    if (w.win_tile) hand.append(" ", tileImg(w.win_tile));
    const yaku = el("table", { class: "yaku-list" }, ...w.yaku.map((y) => el("tr", {}, el("td", {}, yakuName(y)),
      el("td", {}, y.unit === "yakuman" ? t("yakuman") + (y.value > 1 ? ` x${y.value}` : "") : `${y.value} ${t("han")}`))));
    const total = w.yakuman ? `${t("yakuman")} · ${w.points} ${t("points")}` : `${w.han} ${t("han")} ${w.fu} ${t("fu")} · ${w.points} ${t("points")}`;
    body.append(el("h3", {}, head), hand, yaku, el("p", {}, total + (w.limit ? ` (${w.limit})` : "")));
  }
  if (!r.wins.length) {
    body.append(el("h3", {}, r.kind === "exhaustive" ? t("exhaustive") : `${t("abortive")}${r.reason ? ` (${r.reason})` : ""}`));
    if (r.kind === "exhaustive") body.append(el("p", {}, r.tenpai.map((x, s) => `${name(s)}: ${x ? t("tenpai") : t("noten")}`).join(" · ")));
  }
  body.append(el("table", { class: "data" }, el("tr", {}, el("th", {}, ""), el("th", {}, t("payments")), el("th", {}, t("scoreCol"))),
    ...r.deltas.map((d, s) => el("tr", {}, el("td", {}, name(s)), el("td", {}, d > 0 ? `+${d}` : String(d)), el("td", {}, r.scores[s])))));
  return body;
}

function finalBody() {
  const f = view.final;
  const rows = [0, 1, 2, 3].sort((a, b) => f.ranks[a] - f.ranks[b]).map((s) => el("tr", {},
    el("td", {}, f.ranks[s]), el("td", {}, view.players[s].name), el("td", {}, f.scores[s]), el("td", {}, f.final[s].toFixed(1))));
  return el("div", {}, el("h2", {}, t("finalTable")),
    el("table", { class: "data" }, el("tr", {}, el("th", {}, t("rank")), el("th", {}, t("name")), el("th", {}, t("scoreCol")), el("th", {}, t("finalCol"))), ...rows),
    el("p", {}, el("a", { href: `/api/games/${tableId}/export?format=tenhou6` }, "tenhou.net/6"), " · ",
      el("a", { href: `/api/games/${tableId}/export?format=mjai` }, "mjai"), " · ", el("a", { href: "/" }, t("newGame"))));
}

function render() {
  if (!view) return;
  for (const box of document.querySelectorAll(".player")) {
    const p = view.players[(view.seat + Number(box.dataset.rel)) % 4];
    renderPlayer(box, p);
  }
  renderCenter();
  renderHand();
  const mine = view.actions.length > 0;
  document.getElementById("status").textContent = view.over ? "" : (mine ? t("yourTurn") : t("waiting"));
  const key = `jantaku-seen-${tableId}-${view.seat}`;
  const seen = Number(localStorage.getItem(key) || 0);
  const dialog = document.getElementById("result-dialog");
  if (view.over) {
    document.getElementById("result-body").replaceChildren(...(view.last_result && seen < view.hand_results ? [resultBody(view.last_result)] : []), finalBody());
    localStorage.setItem(key, String(view.hand_results));
    if (!dialog.open) dialog.showModal();
  } else if (view.last_result && seen < view.hand_results) {
    document.getElementById("result-body").replaceChildren(resultBody(view.last_result));
    localStorage.setItem(key, String(view.hand_results));
    if (!dialog.open) dialog.showModal();
  }
}

setupLanguage(() => { if (view) render(); });
if (tableId && token) {
  document.getElementById("board").hidden = false;
  connect();
} else {
  lobby().catch((e) => showError(e.message));
}
