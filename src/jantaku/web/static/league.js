// The league recorder's pages: the events, an event's public standings, the organiser's page and its
// hand-entry form (the server checks and scores every entry by the event's rule set: /league/api).
"use strict";

const API = "/league/api";
const WINDS = ["E", "S", "W", "N"];
const FU = [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110];

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

const $ = (id) => document.getElementById(id);

// what the page works on; the table page (league-table.js) adds how it signs its requests and sends entries
const state = { event: null, game: null, data: null };

function say(text, ok) {
  const m = $("message");
  if (!m) return;
  m.textContent = text;
  m.className = `message ${ok ? "ok" : "error"}`;
}

async function api(path, options) {
  const opts = options || {};
  const headers = { ...(opts.headers || {}) };
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  if (state.authHeaders) Object.assign(headers, state.authHeaders());  // a player at their table
  else {
    const pw = sessionStorage.getItem("leaguePassword");
    if (pw) headers["X-League-Password"] = pw;
  }
  let res;
  try {
    res = await fetch(API + path, {
      method: opts.method || (opts.body !== undefined ? "POST" : "GET"),
      headers,
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });
  } catch (e) {
    const err = new Error("The network is unreachable.");
    err.offline = true;  // nothing reached the server (or its answer was lost): the write may be sent again
    throw err;
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(data.error || `HTTP ${res.status}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

const fmt = (x) => (x === null || x === undefined ? "-" : (x > 0 ? "+" : "") + Number(x).toFixed(1));
const pct = (x) => (x === null || x === undefined ? "-" : (100 * x).toFixed(1) + "%");

// -- the events ----------------------------------------------------------------------------------------------

async function eventsPage() {
  const data = await api("/events");
  const box = $("event-list");
  if (!data.events.length) { box.textContent = "No event yet."; return; }
  box.replaceChildren(el("ul", {}, data.events.map((e) =>
    el("li", {}, el("a", { href: `/league/event?name=${encodeURIComponent(e.name)}` }, e.name), ` (${e.rules})`))));
}

// -- an event's standings ------------------------------------------------------------------------------------

function standingsTable(rows) {
  // every rate says what it is counted over: wins and deal-ins per recorded hand the player sat in
  const head = el("tr", {}, ["#", "Player", "Team", "Total", "Games", "Avg rank (per game)", "1st/2nd/3rd/4th", "Win (per hand)", "Deal-in (per hand)", "Penalties"]
    .map((h) => el("th", {}, h)));
  return el("table", { class: "data", id: "standings-table" }, head, rows.map((r) =>
    el("tr", { "data-player": r.player }, el("td", {}, r.place), el("td", {}, playerLink(r.player)), el("td", {}, r.team || ""),
      el("td", { class: "num total" }, fmt(r.total)), el("td", { class: "num" }, r.games),
      el("td", { class: "num" }, r.average_rank === null ? "-" : r.average_rank.toFixed(2)),
      el("td", {}, r.ranks.join("/")), el("td", { class: "num" }, pct(r.win_rate)),
      el("td", { class: "num" }, pct(r.deal_in_rate)), el("td", { class: "num" }, r.penalties ? `-${r.penalties}` : ""))));
}

function teamsTable(rows) {
  const head = el("tr", {}, ["#", "Team", "Total", "Games", "Players"].map((h) => el("th", {}, h)));
  return el("table", { class: "data", id: "teams-table" }, head, rows.map((t) =>
    el("tr", { "data-team": t.team }, el("td", {}, t.place), el("td", {}, t.team), el("td", { class: "num total" }, fmt(t.total)),
      el("td", { class: "num" }, t.games), el("td", {}, t.players.join(", ")))));
}

function chart(history) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  const w = 600, h = 220, pad = 30;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("class", "chart");
  const totals = [0, ...history.map((p) => p.total)];
  const lo = Math.min(0, ...totals), hi = Math.max(0, ...totals);
  const span = hi - lo || 1;
  const x = (i) => pad + (i * (w - 2 * pad)) / Math.max(1, totals.length - 1);
  const y = (v) => h - pad - ((v - lo) * (h - 2 * pad)) / span;
  const line = (x1, y1, x2, y2, color) => {
    const l = document.createElementNS(NS, "line");
    for (const [k, v] of Object.entries({ x1, y1, x2, y2, stroke: color, "stroke-width": 2 })) l.setAttribute(k, v);
    svg.append(l);
  };
  line(pad, y(0), w - pad, y(0), "#999");
  totals.forEach((v, i) => {
    if (i) line(x(i - 1), y(totals[i - 1]), x(i), y(v), "#1e4d36");
    const c = document.createElementNS(NS, "circle");
    for (const [k, val] of Object.entries({ cx: x(i), cy: y(v), r: 4, fill: "#8a6d1f" })) c.setAttribute(k, val);
    const title = document.createElementNS(NS, "title");
    title.textContent = i ? `game ${history[i - 1].game ?? "penalty"}: ${fmt(v)}` : "start";
    c.append(title);
    svg.append(c);
  });
  return svg;
}

async function eventPage() {
  const name = new URLSearchParams(location.search).get("name") || "";
  let data;
  try { data = await api(`/events/${encodeURIComponent(name)}`); } catch (e) { say(e.message); return; }
  $("event-title").textContent = data.event.name;
  $("event-rules").textContent = data.event.title;
  $("standings").replaceChildren(standingsTable(data.standings));
  if (data.team_standings.length) {
    $("team-section").classList.remove("hidden");
    $("teams").replaceChildren(teamsTable(data.team_standings));
  }
  const q = `/league/api/events/${encodeURIComponent(name)}/export`;
  $("csv-standings").href = `${q}?format=csv&what=standings`;
  $("csv-games").href = `${q}?format=csv&what=games`;
  $("json-export").href = `${q}?format=json`;
  const games = data.games.map((g) => el("tr", { "data-game": g.id }, el("td", {}, g.id), el("td", {}, g.source),
    el("td", {}, g.players.map((p, i) => `${p}${g.result ? ` ${fmt(g.result.final[i])}` : ""}`).join(", ")),
    el("td", {}, g.status === "finished" ? "finished" : `playing (${g.state.hand})`)));
  $("games").replaceChildren(el("table", { class: "data" }, el("tr", {}, ["Game", "Entry", "Players", "Status"].map((h) => el("th", {}, h))), games));
  const sel = $("history-player");
  sel.replaceChildren(...data.players.map((p) => el("option", { value: p.name }, p.name)));
  const draw = async () => {
    const h = await api(`/events/${encodeURIComponent(name)}/history?player=${encodeURIComponent(sel.value)}`);
    $("chart").replaceChildren(chart(h.history));
  };
  sel.addEventListener("change", draw);
  if (data.players.length) draw();
}

// -- the organiser -------------------------------------------------------------------------------------------

async function adminPage() {
  const presets = await api("/presets");
  $("ev-rules").replaceChildren(...presets.presets.map((p) => el("option", { value: p }, p)));
  // who may create events here: anyone, whoever has the server's admin token, or nobody (the host does)
  $("ev-token-label").hidden = presets.creation !== "token";
  if (presets.creation === "closed") {
    $("ev-create").disabled = true;
    $("ev-closed").hidden = false;
  }
  const fromLink = new URLSearchParams(location.search).get("event");
  if (fromLink) $("login-event").value = fromLink;
  $("ev-create").addEventListener("click", () => act(async () => {
    const name = $("ev-name").value.trim();
    const headers = presets.creation === "token" ? { "X-League-Admin-Token": $("ev-token").value } : {};
    await api("/events", { body: { name, rules: $("ev-rules").value, password: $("ev-password").value }, headers });
    await login(name, $("ev-password").value);
    say(`Event ${name} created.`, true);
  }));
  $("login-btn").addEventListener("click", () => act(() => login($("login-event").value.trim(), $("login-password").value)));
  $("team-add").addEventListener("click", () => act(async () => {
    const name = $("team-name").value;
    await api(`/events/${enc(state.event)}/teams`, { body: { name } });
    if ($("team-name").value === name) $("team-name").value = "";  // a name typed meanwhile stays
    await refreshEvent();
  }));
  $("player-add").addEventListener("click", () => act(async () => {
    const name = $("player-name").value;
    await api(`/events/${enc(state.event)}/players`, { body: { name, team: $("player-team").value, substitute: $("player-substitute").checked } });
    if ($("player-name").value === name) $("player-name").value = "";  // a name typed while it was added stays
    await refreshEvent();
    $("player-name").focus();
  }));
  $("round-method").addEventListener("change", () => $("given-fields").classList.toggle("hidden", $("round-method").value !== "given"));
  $("round-seat").addEventListener("click", () => act(async () => {
    const method = $("round-method").value;
    // without the draw: East first, each player at the wind they have sat least (as given or scheduled)
    // the round this page expects to seat: another organiser's round seated meanwhile is refused, not doubled
    const seated = Math.max(0, ...state.data.games.map((g) => g.round || 0));
    const body = { method, draw: $("round-draw").checked, round: seated + 1 };
    if (method === "given") {
      // the players as the organiser seats them, four a table; the draw (or East first) within each table
      body.players = $("given-players").value.split(",").map((x) => x.trim()).filter(Boolean);
      body.draw = $("given-draw").checked;
    }
    const r = await api(`/events/${enc(state.event)}/rounds`, { body });
    showTables(r);
    say(`Round ${r.round} seated.`, true);
  }));
  $("single-add").addEventListener("click", () => act(async () => {
    // one game of four chosen players, seated as chosen (East first), outside any round
    const players = [0, 1, 2, 3].map((i) => $(`single-p${i}`).value);
    const r = await api(`/events/${enc(state.event)}/games`, { body: { players, first_dealer: Number($("single-dealer").value) } });
    await refreshEvent();
    say(`Game ${r.game} created.`, true);
    await openGame(r.game);
  }));
  $("quick-add").addEventListener("click", () => act(quickEntry));
  $("event-rename").addEventListener("click", () => act(async () => {
    const r = await api(`/events/${enc(state.event)}/rename`, { body: { name: $("event-new-name").value.trim() } });
    $("event-new-name").value = "";
    await login(r.name, sessionStorage.getItem("leaguePassword") || "");
    say(`The event is now called ${r.name}.`, true);
  }));
  $("event-delete").addEventListener("click", () => act(async () => {
    if (!confirm(`Delete the event ${state.event}? Its games leave every page (the database keeps them).`)) return;
    await api(`/events/${enc(state.event)}/delete`, { body: {} });
    $("organiser").classList.add("hidden");
    say(`Event ${state.event} deleted.`, true);
    state.event = null;
  }));
  $("player-rename").addEventListener("click", () => act(async () => {
    const name = $("edit-player").value, to = $("player-new-name").value.trim();
    await api(`/events/${enc(state.event)}/rename-player`, { body: { name, to } });
    $("player-new-name").value = "";
    await refreshEvent();
    say(`${name} is now ${to}.`, true);
  }));
  $("player-delete").addEventListener("click", () => act(async () => {
    const name = $("edit-player").value;
    if (!confirm(`Delete the player ${name}?`)) return;
    await api(`/events/${enc(state.event)}/delete-player`, { body: { name } });
    await refreshEvent();
    say(`${name} deleted.`, true);
  }));
  $("game-open").addEventListener("click", () => act(async () => {
    const game = Number($("edit-game").value);
    if (game) await openGame(game);
  }));
  $("game-delete").addEventListener("click", () => act(async () => {
    const game = Number($("edit-game").value);
    if (!game || !confirm(`Delete game ${game}? It leaves the standings.`)) return;
    await api(`/games/${game}/delete`, { body: {} });
    if (state.game === game) $("game-panel").classList.add("hidden");
    await refreshEvent();
    say(`Game ${game} deleted.`, true);
  }));
  $("import-read").addEventListener("click", () => act(readImportNames));
  $("import-go").addEventListener("click", () => act(importRecord));
  $("schedule-make").addEventListener("click", () => act(async () => {
    const rounds = Number($("schedule-rounds").value);
    if (!confirm(`Decide the tables of ${rounds} rounds ahead? Rounds not seated yet follow the new schedule.`)) return;
    await api(`/events/${enc(state.event)}/schedule`, { body: { rounds } });
    await refreshEvent();
    say(`The schedule has ${rounds} rounds: seat each with the method "prescripted".`, true);
  }));
  $("game-substitute").addEventListener("click", () => act(async () => {
    const game = Number($("edit-game").value), seat = Number($("sub-seat").value), player = $("sub-player").value;
    if (!game || !confirm(`${player} takes seat ${WINDS[seat]} of game ${game}?`)) return;
    const r = await api(`/games/${game}/substitute`, { body: { seat, player } });
    await refreshEvent();
    say(`${r.in} plays in place of ${r.out} in game ${game}.`, true);
  }));
  $("pins-issue").addEventListener("click", () => act(() => issuePins(null)));
  $("pins-one").addEventListener("click", () => act(() => issuePins([$("pins-player").value])));
  $("clock-start").addEventListener("click", () => act(async () => {
    const round = Number($("clock-round").value), minutes = Number($("clock-minutes").value);
    if (!confirm(`Start round ${round}'s clock for ${minutes} minutes? When the time is up, the hand each table is playing is its last.`)) return;
    await api(`/events/${enc(state.event)}/clock`, { body: { round, minutes } });
    await refreshEvent();
    say(`Round ${round}'s clock started.`, true);
  }));
  setInterval(tickClocks, 1000);
  mountEntryForm();
}

async function issuePins(players) {
  if (players && !confirm(`A new code for ${players[0]}? The old one stops working.`)) return;
  const r = await api(`/events/${enc(state.event)}/pins`, { body: players ? { players } : {} });
  const rows = Object.entries(r.pins);
  $("pins").classList.toggle("hidden", !rows.length);
  $("pins").tBodies[0].replaceChildren(...rows.map(([name, pin]) => el("tr", {}, el("td", {}, name), el("td", { class: "pin" }, pin))));
  say(rows.length ? `${rows.length} code(s): give each player theirs now (they are not shown again).` : "Every player has a code already.", true);
}

// -- the round clock ------------------------------------------------------------------------------------------

state.clocks = [];

function tickClocks() {
  // each started round's time left, counted down here from its end (the server's clock decides)
  const target = $("clocks");
  if (!target) return;
  const shown = state.clocks.filter((c) => c.end && (!state.clockRound || c.round === state.clockRound));
  target.replaceChildren(...shown.map((c) => {
    const left = Math.max(0, (Date.parse(c.end) - Date.now()) / 1000);
    const text = left > 0 ? `${Math.floor(left / 60)}:${String(Math.floor(left % 60)).padStart(2, "0")} left` : "time is up: the hand in play is the last";
    // the last five minutes in amber, then red: the tables see the end coming
    const cls = left <= 0 ? " up" : left <= 300 ? " soon" : "";
    return el("span", { class: `clock-round${cls}`, "data-round": c.round }, `Round ${c.round}: ${text} `);
  }));
}

async function loadClocks() {
  state.clocks = (await api(`/events/${enc(state.event)}/clocks`)).rounds;
  tickClocks();
}

// -- the entry form (the organiser's page and a table's page share it) -------------------------------------

const ENTRY_FORM = `
<div class="row"><label>Entry <select id="kind">
  <option value="win">Win</option><option value="draw">Exhaustive draw</option>
  <option value="abortive">Abortive draw</option><option value="chombo">Chombo</option>
  <option value="card">Card</option><option value="penalty">Penalty</option>
  <option value="time_up">Time is up (the hand in play is the last)</option>
  <option value="yame">All-last dealer: stop or go on</option></select></label></div>
<p id="yame-note" class="hidden"></p>
<div class="row checks" id="riichi-row">Riichi: <span id="riichi-boxes"></span></div>
<div id="f-win">
  <div class="row"><label>Winner <select id="winner" class="seat-select"></select></label>
    <label>From <select id="from" class="seat-select tsumo"></select></label>
    <label>Han <input id="han" type="number" inputmode="numeric" min="1" max="13" class="short"></label>
    <label>Fu <select id="fu"></select></label>
    <label>Yakuman <input id="yakuman" type="number" inputmode="numeric" min="0" max="6" value="0" class="short"></label>
    <label>Pao <select id="pao" class="seat-select none"></select></label></div>
  <div class="row"><label>or the hand <input id="hand-tiles" placeholder="234m567p456s78999s" autocomplete="off"></label>
    <label>winning tile <input id="win-tile" class="short" placeholder="9s" autocomplete="off"></label>
    <label>dora <input id="dora" class="short" placeholder="3m" autocomplete="off"></label>
    <label>ura <input id="ura" class="short" autocomplete="off"></label></div>
  <div class="row"><label><input type="checkbox" id="second"> Second winner</label>
    <span id="second-fields" class="hidden"><label>Winner <select id="winner2" class="seat-select"></select></label>
    <label>Han <input id="han2" type="number" inputmode="numeric" min="1" max="13" class="short"></label>
    <label>Fu <select id="fu2"></select></label>
    <label>Yakuman <input id="yakuman2" type="number" inputmode="numeric" min="0" max="6" value="0" class="short"></label>
    <label>Pao <select id="pao2" class="seat-select none"></select></label></span></div>
  <div class="row hidden" id="third-row"><label><input type="checkbox" id="third"> Third winner</label>
    <span id="third-fields" class="hidden"><label>Winner <select id="winner3" class="seat-select"></select></label>
    <label>Han <input id="han3" type="number" inputmode="numeric" min="1" max="13" class="short"></label>
    <label>Fu <select id="fu3"></select></label>
    <label>Yakuman <input id="yakuman3" type="number" inputmode="numeric" min="0" max="6" value="0" class="short"></label>
    <label>Pao <select id="pao3" class="seat-select none"></select></label></span></div>
</div>
<div id="tenpai-row" class="row checks hidden">Tenpai: <span id="tenpai-boxes"></span></div>
<div id="f-draw" class="hidden"><div class="row checks">Nagashi: <span id="nagashi-boxes"></span></div></div>
<div id="f-abortive" class="hidden"><label>Reason <select id="abortive-reason">
  <option>nine_terminals</option><option>four_winds</option><option>four_riichi</option>
  <option>four_kans</option><option>triple_ron</option></select></label></div>
<div id="f-yame" class="hidden"><label>The dealer <select id="yame-choice">
  <option value="stop">stops the game</option><option value="continue">plays on</option></select></label></div>
<div id="f-player" class="hidden"><label>Player <select id="who" class="seat-select"></select></label>
  <span id="f-card" class="hidden"><label>Card <select id="card-color"><option>yellow</option><option>red</option></select></label></span>
  <span id="f-deliberate" class="hidden"><label><input type="checkbox" id="deliberate"> deliberate (the referee's ruling: it costs the rule set's multiple)</label></span>
  <span id="f-penalty" class="hidden"><label>Points <input id="penalty-pt" type="number" min="0" step="0.1" class="short"></label></span>
  <label>Reason <input id="reason" autocomplete="off"></label></div>
<p id="editing-note" class="hidden"></p>
<div class="row"><label><input type="checkbox" id="correct"> Correct the last entry</label>
  <button id="submit-entry">Enter</button><button id="undo" class="secondary">Undo last</button>
  <button id="edit-cancel" class="secondary hidden">Cancel the correction</button></div>
`;

function mountEntryForm() {
  $("entry-form").innerHTML = ENTRY_FORM;
  $("kind").addEventListener("change", showFields);
  $("second").addEventListener("change", () => $("second-fields").classList.toggle("hidden", !$("second").checked));
  $("third").addEventListener("change", () => $("third-fields").classList.toggle("hidden", !$("third").checked));
  $("submit-entry").addEventListener("click", () => act(submitEntry));
  $("undo").addEventListener("click", () => act(async () => {
    const g = state.gameData;
    const last = g && g.entries[g.entries.length - 1];
    if (!last) return say("The game has no entry to delete.");
    if (!confirm(`Delete entry ${last.seq}: ${last.kind} ${describe(last.data, g.players)}?`)) return;
    await api(`/games/${state.game}/undo`, { body: { version: g.version } });
    say(`Entry ${last.seq} deleted.`, true);
    await openGame(state.game);
  }));
  $("edit-cancel").addEventListener("click", () => act(async () => openGame(state.game)));
  for (const id of ["fu", "fu2", "fu3"]) $(id).replaceChildren(...FU.map((f) => el("option", { value: f, selected: f === 30 }, f)));
  showFields();
}

const enc = encodeURIComponent;

async function act(fn) {
  try { await fn(); } catch (e) { say(e.message); }
}

async function login(name, password) {
  sessionStorage.setItem("leaguePassword", password);
  await api(`/events/${enc(name)}/login`, { body: {} });
  state.event = name;
  $("organiser").classList.remove("hidden");
  $("admin-title").textContent = name;
  const link = `${location.origin}/league/admin?event=${enc(name)}`;
  $("admin-link").href = link;
  $("admin-link").textContent = link;
  $("public-link").href = `/league/event?name=${enc(name)}`;
  say(`Organising ${name}.`, true);
  await refreshEvent();
}

async function refreshEvent() {
  const data = await api(`/events/${enc(state.event)}`);
  state.data = data;
  $("player-team").replaceChildren(el("option", { value: "" }, "(none)"), ...data.teams.map((t) => el("option", { value: t }, t)));
  const opts = () => data.players.map((p) => el("option", { value: p.name }, p.name));
  $("edit-player").replaceChildren(...opts());
  $("edit-game").replaceChildren(...data.games.map((g) =>
    el("option", { value: g.id }, `${g.id}: ${g.players.join(", ")} (${g.status})`)));
  $("quick-fields").replaceChildren(...WINDS.map((w, i) => el("span", {},
    el("label", {}, `${w} `, el("select", { id: `quick-p${i}` }, opts())),
    el("label", {}, "score ", el("input", { id: `quick-s${i}`, type: "number", step: 100, class: "short", inputmode: "numeric" })))));
  data.players.slice(0, 4).forEach((p, i) => { $(`quick-p${i}`).value = p.name; });
  $("single-fields").replaceChildren(...WINDS.map((w, i) => el("label", {}, `${w} `, el("select", { id: `single-p${i}` }, opts()))));
  data.players.slice(0, 4).forEach((p, i) => { $(`single-p${i}`).value = p.name; });
  $("pins-player").replaceChildren(...opts());
  $("sub-player").replaceChildren(...opts());
  $("player-list").textContent = data.players.map((p) => `${p.name}${p.team ? ` (${p.team})` : ""}${p.substitute ? " (substitute)" : ""}`).join(", ");
  const rounds = data.schedule || [];
  $("schedule").classList.toggle("hidden", !rounds.length);
  $("schedule").textContent = rounds.map((r, n) => `Round ${n + 1}: ` + r.map((t, k) => `table ${k + 1}: ${t.join(", ")}`).join("; ")).join("\n");
  $("print-link").href = `/league/print?name=${enc(state.event)}`;
  $("table-link").href = `/league/table?event=${enc(state.event)}`;
  const waiting = (await api(`/events/${enc(state.event)}/unconfirmed`)).unconfirmed;
  $("unconfirmed").replaceChildren(...(waiting.length ? waiting.map((u) => el("li", { "data-game": u.game, "data-seq": u.seq },
    `Game ${u.game} (table ${u.table}) entry ${u.seq}, ${u.kind} by ${u.entered_by}: waiting for ${u.waiting.join(", ")} `,
    el("button", { class: "secondary open-unconfirmed" }, "Open"))) : [el("li", {}, "nothing")]));
  for (const b of $("unconfirmed").querySelectorAll("button.open-unconfirmed")) {
    b.addEventListener("click", () => act(() => openGame(Number(b.parentNode.dataset.game))));
  }
  await loadClocks();
  const open = data.games.filter((g) => g.status === "playing" && g.source === "hands");
  if (open.length && !$("tables").children.length) {
    showTables({ round: null, games: open.map((g) => ({ game: g.id, table: g.table, players: g.players, first_dealer: g.first_dealer })) });
  }
}

function showTables(r) {
  $("tables").replaceChildren(...r.games.map((g) => el("div", { class: "row" },
    el("span", {}, `Table ${g.table}: ${g.players.map((p, i) => `${WINDS[i]} ${p}`).join(", ")}; first dealer ${g.players[g.first_dealer]}`),
    el("button", { class: "open-game", "data-game": g.game }, `Enter hands (game ${g.game})`))));
  for (const b of $("tables").querySelectorAll("button.open-game")) {
    b.addEventListener("click", () => act(() => openGame(Number(b.dataset.game))));
  }
}

function boxes(id, name, players) {
  $(id).replaceChildren(...players.map((p, i) => el("label", {}, el("input", { type: "checkbox", name, value: i }), ` ${p}`)));
}

function checked(name) {
  return [...document.querySelectorAll(`input[name=${name}]:checked`)].map((b) => Number(b.value));
}

async function openGame(id) {
  const g = await api(`/games/${id}`);
  state.game = id;
  showGame(g);
  resetForm(g);
}

function showGame(g) {
  // the game as stored: seats, scores, the hand in play and the entries (the form is left as it is)
  state.gameData = g;
  $("game-panel").classList.remove("hidden");
  $("game-title").textContent = `Game ${g.id}`;
  $("game-title").title = g.round ? `round ${g.round}, table ${g.table}` : "";
  const st = g.state;
  $("game-seats").replaceChildren(...g.players.map((p, i) => el("div", { class: `seat${st.dealer === i && g.status !== "finished" ? " dealer" : ""}`, "data-seat": i },
    el("div", {}, `${WINDS[(i - st.dealer + 4) % 4]} ${p}`), el("div", { class: "score" }, st.scores[i]),
    g.result ? el("div", { class: "final" }, `${g.result.ranks[i]}. ${fmt(g.result.final[i])}`) : "")));
  $("game-hand").textContent = g.status === "finished" ? "Game over" : `${st.hand} - ${st.honba} honba, ${st.deposits} riichi sticks`;
  $("game-hand").dataset.status = g.status;
  const actions = state.entryActions || organiserActions;
  $("entries").replaceChildren(...g.entries.map((e) => el("li", { "data-seq": e.seq },
    `${(e.outcome && e.outcome.hand) || ""} ${e.kind} ${describe(e.data, g.players)}${changes(e.outcome, g.players)} `,
    ...actions(e, g))));
}

function waitingNote(e) {
  // a player's entry waits for the rest of the table; the organiser's needs nobody
  if (e.confirmed === null || e.confirmed === undefined) return [];
  return [el("span", { class: `confirm-state${e.waiting.length ? " waiting" : ""}` },
    e.waiting.length ? `(by ${e.entered_by}; waiting for ${e.waiting.join(", ")}) ` : `(by ${e.entered_by}; confirmed) `)];
}

function organiserActions(e, g) {
  const out = [...waitingNote(e)];
  if (e.confirmed && e.waiting.length) {
    const accept = el("button", { class: "accept-entry secondary" }, "Accept");
    accept.addEventListener("click", () => act(async () => {
      await api(`/games/${g.id}/confirm`, { body: { seq: e.seq, version: g.version } });
      await openGame(g.id);
      say(`Entry ${e.seq} accepted for the table.`, true);
    }));
    out.push(accept);
  }
  const edit = el("button", { class: "edit-entry secondary", "data-seq": e.seq }, "Correct");
  edit.addEventListener("click", () => act(async () => startEditing(e.seq)));
  const del = el("button", { class: "delete-entry secondary", "data-seq": e.seq }, "Delete");
  del.addEventListener("click", () => act(async () => changeEntry(e.seq, null)));
  return [...out, edit, del];
}

function resetForm(g) {
  const st = g.state;
  for (const sel of document.querySelectorAll("select.seat-select")) {
    const extra = sel.classList.contains("tsumo") ? [el("option", { value: "" }, "tsumo")] : sel.classList.contains("none") ? [el("option", { value: "" }, "-")] : [];
    sel.replaceChildren(...extra, ...g.players.map((p, i) => el("option", { value: i }, p)));
  }
  boxes("riichi-boxes", "riichi", g.players);
  boxes("tenpai-boxes", "tenpai", g.players);
  boxes("nagashi-boxes", "nagashi", g.players);
  state.editing = null;
  $("editing-note").classList.add("hidden");
  $("edit-cancel").classList.add("hidden");
  $("submit-entry").textContent = "Enter";
  $("entry-form").classList.toggle("hidden", g.status === "finished");
  $("correct").checked = false;
  $("deliberate").checked = false;
  $("han").value = "";
  $("yakuman").value = "0";
  for (const id of ["hand-tiles", "win-tile", "dora", "ura"]) $(id).value = "";
  $("second").checked = false;
  $("second-fields").classList.add("hidden");
  $("yakuman2").value = "0";
  $("third").checked = false;
  $("third-fields").classList.add("hidden");
  $("yakuman3").value = "0";
  // a third winner on one discard only where the rule set lets all of them win (multiple_ron "all")
  $("third-row").classList.toggle("hidden", !(g.multiple_ron === "all"));
  const yame = st.yame_choice !== null && st.yame_choice !== undefined && g.status !== "finished";
  $("yame-note").classList.toggle("hidden", !yame);
  $("yame-note").textContent = yame ? `${g.players[st.yame_choice]} (the all-last dealer) may stop the game now: enter "All-last dealer: stop or go on".` : "";
  if (yame) { $("kind").value = "yame"; showFields(); }
  else if ($("kind").value === "yame") { $("kind").value = "win"; showFields(); }
}

function changes(outcome, players) {
  // the points each player gained or lost in the entry
  const d = outcome && outcome.deltas;
  if (!d || !d.some((x) => x)) return "";
  return ` (${d.map((x, i) => (x ? `${players[i]} ${x > 0 ? "+" : ""}${x}` : "")).filter(Boolean).join(", ")})`;
}

function startEditing(seq) {
  // the form corrects entry ``seq`` (of a finished game too): its submit previews the correction first
  const g = state.gameData;
  const e = g.entries.find((x) => x.seq === seq);
  if (!e) return;
  state.editing = seq;
  $("entry-form").classList.remove("hidden");
  $("editing-note").textContent = `Correcting entry ${seq}: ${e.kind} ${describe(e.data, g.players)}. Enter it as it should be.`;
  $("editing-note").classList.remove("hidden");
  $("edit-cancel").classList.remove("hidden");
  $("submit-entry").textContent = `Correct entry ${seq}`;
  if (["win", "draw", "abortive", "chombo", "card", "penalty"].includes(e.kind)) { $("kind").value = e.kind; showFields(); }
}

async function changeEntry(seq, entry) {
  // preview what correcting (entry) or deleting (null) entry ``seq`` changes, ask, then write it at the
  // version shown: a change someone made meanwhile is refused, never overwritten
  const g = state.gameData;
  const preview = await api(`/games/${state.game}/entries`, { body: { entry, seq, preview: true } });
  const scores = (s) => s.state.scores.map((x, i) => `${g.players[i]} ${x}`).join(", ");
  const later = preview.entries.filter((c) => c.seq !== seq).map((c) => c.seq);
  const what = entry === null ? `Delete entry ${seq}` : `Correct entry ${seq}`;
  const text = `${what}?\n\nScores now: ${scores(preview.before)}\nScores after: ${scores(preview.after)}` +
    (later.length ? `\nEntries whose points change: ${later.join(", ")}` : "") +
    (preview.before.result && !preview.after.result ? "\nThe game is no longer over." : "") +
    (!preview.before.result && preview.after.result ? "\nThe game ends." : "");
  if (!confirm(text)) return;
  const out = await api(`/games/${state.game}/entries`, { body: { entry, seq, version: g.version } });
  await openGame(state.game);
  say(`Entry ${out.seq} ${entry === null ? "deleted" : "corrected"}.`, true);
}

function describe(d, players) {
  if (d.kind === "win") {
    return d.wins.map((w) => `${players[w.winner]} ${w.from === null ? "tsumo" : `ron ${players[w.from]}`} ${w.yakuman ? `yakuman x${w.yakuman}` : w.hand ? w.hand : `${w.han} han ${w.fu} fu`}${w.pao !== undefined && w.pao !== null ? ` (pao ${players[w.pao]})` : ""}`).join("; ");
  }
  if (d.kind === "draw") return `tenpai: ${(d.tenpai || []).map((s) => players[s]).join(", ") || "none"}`;
  if (d.kind === "abortive") return d.reason;
  if (d.kind === "yame") return d.stop ? "the dealer stops" : "the dealer plays on";
  if (d.kind === "time_up") return "time is up: the hand in play is the last";
  if (d.seat !== undefined) return `${players[d.seat]} ${d.color || ""}${d.pt ? ` -${d.pt}pt` : ""} ${d.reason || ""}`;
  return "";
}

function showFields() {
  const k = $("kind").value;
  $("f-win").classList.toggle("hidden", k !== "win");
  $("f-draw").classList.toggle("hidden", k !== "draw");
  $("f-abortive").classList.toggle("hidden", k !== "abortive");
  $("tenpai-row").classList.toggle("hidden", !["draw", "abortive"].includes(k));  // a riichi player is tenpai anyway
  $("f-yame").classList.toggle("hidden", k !== "yame");
  $("f-player").classList.toggle("hidden", !["chombo", "card", "penalty"].includes(k));
  $("f-card").classList.toggle("hidden", k !== "card");
  $("f-deliberate").classList.toggle("hidden", k !== "chombo");
  $("f-penalty").classList.toggle("hidden", k !== "penalty");
  $("riichi-row").classList.toggle("hidden", !["win", "draw", "abortive"].includes(k));
}

async function submitEntry() {
  const entry = readEntry();
  if (state.editing !== null && state.editing !== undefined) return changeEntry(state.editing, entry);
  const correct = $("correct").checked;
  if (state.sendEntry) return state.sendEntry(entry, correct);  // a table's page: through its queue
  const n = state.gameData.entries.length;
  const body = { entry, correct, expected_seq: correct ? n : n + 1, version: state.gameData.version };
  const out = await api(`/games/${state.game}/entries`, { body });
  await openGame(state.game);
  say(`Entry ${out.seq} ${correct ? "corrected" : "entered"}.`, true);
}

function readEntry() {
  // the entry as the form describes it
  const k = $("kind").value;
  const riichi = checked("riichi");
  let entry;
  if (k === "win") {
    const from = $("from").value === "" ? null : Number($("from").value);
    const w = { winner: Number($("winner").value), from };
    const yakuman = Number($("yakuman").value || 0);
    const tiles = $("hand-tiles").value.trim();
    if (tiles) Object.assign(w, { hand: tiles, win: $("win-tile").value.trim(), dora: $("dora").value.trim(), ura: $("ura").value.trim() });
    else if (yakuman) w.yakuman = yakuman;
    else { w.han = Number($("han").value); w.fu = Number($("fu").value); }
    if ($("pao").value !== "") w.pao = Number($("pao").value);
    const wins = [w];
    for (const n of [2, 3]) {
      if (!$(n === 2 ? "second" : "third").checked) continue;
      const wn = { winner: Number($(`winner${n}`).value), from };
      const yakumanN = Number($(`yakuman${n}`).value || 0);
      if (yakumanN) wn.yakuman = yakumanN;
      else { wn.han = Number($(`han${n}`).value); wn.fu = Number($(`fu${n}`).value); }
      if ($(`pao${n}`).value !== "") wn.pao = Number($(`pao${n}`).value);
      wins.push(wn);
    }
    entry = { kind: "win", wins, riichi };
  } else if (k === "yame") {
    entry = { kind: "yame", stop: $("yame-choice").value === "stop" };
  } else if (k === "draw") {
    entry = { kind: "draw", tenpai: checked("tenpai"), nagashi: checked("nagashi"), riichi };
  } else if (k === "abortive") {
    entry = { kind: "abortive", reason: $("abortive-reason").value, tenpai: checked("tenpai"), riichi };
  } else if (k === "time_up") {
    entry = { kind: "time_up" };
  } else {
    entry = { kind: k, seat: Number($("who").value), reason: $("reason").value };
    if (k === "card") entry.color = $("card-color").value;
    if (k === "chombo" && $("deliberate").checked) entry.deliberate = true;
    if (k === "penalty") entry.pt = Number($("penalty-pt").value);
  }
  return entry;
}

async function quickEntry() {
  const players = [0, 1, 2, 3].map((i) => $(`quick-p${i}`).value);
  const scores = [0, 1, 2, 3].map((i) => Number($(`quick-s${i}`).value));
  // the first dealer's seat breaks ties by seat order (the rule set's tie rule)
  const body = { players, scores, deposits: Number($("quick-deposits").value || 0), first_dealer: Number($("quick-dealer").value) };
  const r = await api(`/events/${enc(state.event)}/quick`, { body });
  say(`Game ${r.game} entered.`, true);
  await refreshEvent();
}

// -- importing an online record -------------------------------------------------------------------------------

async function upload(query) {
  const file = $("import-file").files[0];
  if (!file) throw new Error("Choose a record file first.");
  const params = new URLSearchParams([["file", file.name], ...query]);
  const res = await fetch(`${API}/events/${enc(state.event)}/import?${params}`, {
    method: "POST",
    headers: { "Content-Type": "application/octet-stream", "X-League-Password": sessionStorage.getItem("leaguePassword") || "" },
    body: file,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(data.error || `HTTP ${res.status}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

async function readImportNames() {
  const data = await upload([["names", "1"]]);
  const names = [...new Set(data.games.flatMap((g) => g.names))];
  const players = state.data.players.map((p) => p.name);
  $("import-map").replaceChildren(...names.map((n, i) => el("label", {}, `${n} → `,
    el("select", { class: "import-player", "data-name": n, id: `import-p${i}` },
      ...players.map((p) => el("option", { value: p, selected: p === n }, p))))));
  $("import-go").classList.remove("hidden");
  say(`${data.games.length} game(s) in the file: map each name to a player.`, true);
}

async function importRecord() {
  const mapping = [...document.querySelectorAll("select.import-player")].map((s) => ["map", `${s.dataset.name}=${s.value}`]);
  let data;
  try {
    data = await upload(mapping);
  } catch (e) {
    // a game the event holds already: imported again only if the organiser says so
    if (e.status !== 409 || !confirm(`${e.message}\n\nImport it again anyway?`)) throw e;
    data = await upload([...mapping, ["force", "1"]]);
  }
  $("import-map").replaceChildren();
  $("import-go").classList.add("hidden");
  say(`Imported ${data.games.map((g) => `game ${g.game} (${g.entries} entries)`).join(", ")}.`, true);
  await refreshEvent();
}

// -- a round's sheets to print ---------------------------------------------------------------------------------

async function printPage() {
  // the seating sheet of a round (who sits where, who deals first) and a score sheet per table
  const params = new URLSearchParams(location.search);
  const name = params.get("name") || "";
  const data = await api(`/events/${enc(name)}`);
  const rounds = [...new Set(data.games.map((g) => g.round).filter((r) => r !== null))].sort((a, b) => a - b);
  const round = Number(params.get("round")) || rounds[rounds.length - 1];
  const games = data.games.filter((g) => g.round === round).sort((a, b) => a.table - b.table);
  $("print-round").replaceChildren(...rounds.map((r) => el("option", { value: r, selected: r === round }, `Round ${r}`)));
  $("print-round").addEventListener("change", () => { location.search = `?name=${enc(name)}&round=${$("print-round").value}`; });
  $("print-go").addEventListener("click", () => window.print());
  document.title = `${name} - round ${round}`;
  if (!games.length) return say(`${name} has no seated round yet.`);
  const seat = (g, i) => `${g.players[i]}${i === g.first_dealer ? " (deals first)" : ""}`;
  $("sheets").replaceChildren(
    el("section", { class: "sheet seating" },
      el("h1", {}, `${name}: round ${round}, seating`),
      el("table", { class: "sheet-table" },
        el("thead", {}, el("tr", {}, el("th", {}, "Table"), ...WINDS.map((w) => el("th", {}, w)))),
        el("tbody", {}, ...games.map((g) => el("tr", {}, el("td", {}, g.table), ...[0, 1, 2, 3].map((i) => el("td", {}, seat(g, i)))))))),
    ...games.map((g) => el("section", { class: "sheet score-sheet", "data-table": g.table },
      el("h1", {}, `${name}: round ${round}, table ${g.table} (game ${g.id})`),
      el("p", {}, `Rules: ${data.event.title}. Start: ${data.event.starting_points} each. Seats: ` +
        g.players.map((p, i) => `${WINDS[i]} ${seat(g, i)}`).join(", ") + "."),
      el("table", { class: "sheet-table" },
        el("thead", {}, el("tr", {}, el("th", {}, "Hand"), el("th", {}, "What happened (winner, han/fu, from)"),
          ...g.players.map((p) => el("th", {}, p)), el("th", {}, "Sticks"))),
        el("tbody", {}, ...Array.from({ length: 16 }, () => el("tr", {}, ...Array.from({ length: 7 }, () => el("td", {}, ""))))),
        el("tfoot", {}, el("tr", {}, el("th", {}, "Final"), el("td", {}, ""), ...g.players.map(() => el("td", {}, "")), el("td", {}, "")),
          el("tr", {}, el("th", {}, "Signed"), el("td", {}, ""), ...g.players.map(() => el("td", {}, "")), el("td", {}, "")))))),
  );
}

// -- ratings, series and profiles across events -------------------------------------------------------------

const playerLink = (name) => el("a", { href: `/league/player?name=${enc(name)}` }, name);

function ratingsTable(rows) {
  const head = el("tr", {}, ["#", "Player", "Rating (mu - 3 sigma)", "mu", "sigma", "Games"].map((h) => el("th", {}, h)));
  return el("table", { class: "data", id: "ratings" }, head, rows.map((r, i) =>
    el("tr", { "data-player": r.player }, el("td", {}, i + 1), el("td", {}, playerLink(r.player)),
      el("td", { class: "num" }, r.ordinal.toFixed(2)), el("td", { class: "num" }, r.mu.toFixed(2)),
      el("td", { class: "num" }, r.sigma.toFixed(2)), el("td", { class: "num" }, r.games))));
}

async function ratingsPage() {
  const series = (await api("/series")).series;
  const chosen = new URLSearchParams(location.search).get("series") || "";
  $("series-select").append(...series.map((n) => el("option", { value: n, selected: n === chosen }, n)));
  $("series-select").addEventListener("change", () => { location.search = $("series-select").value ? `?series=${enc($("series-select").value)}` : ""; });
  const r = await api(`/ratings${chosen ? `?series=${enc(chosen)}` : ""}`);
  $("ratings-model").textContent = `${r.model}: each finished game, in the order played, moves the four players' ratings by their places. A new player starts at mu 25, sigma 8.33; the list is by mu - 3 sigma.`;
  $("ratings-table").replaceChildren(ratingsTable(r.players));
  if (chosen) {
    const s = await api(`/series/${enc(chosen)}`);
    $("ratings-title").textContent = `Series ${chosen}`;
    $("series-section").classList.remove("hidden");
    $("series-events").textContent = `Events: ${s.events.join(", ")} (each settled under its own rules; totals summed).`;
    const head = el("tr", {}, ["#", "Player", "Total", "Games", "Events", "Avg rank", "1st/2nd/3rd/4th"].map((h) => el("th", {}, h)));
    $("series-standings").replaceChildren(el("table", { class: "data" }, head, s.standings.map((row, i) =>
      el("tr", { "data-player": row.player }, el("td", {}, i + 1), el("td", {}, playerLink(row.player)),
        el("td", { class: "num total" }, fmt(row.total)), el("td", { class: "num" }, row.games), el("td", { class: "num" }, row.events),
        el("td", { class: "num" }, row.average_rank === null ? "-" : row.average_rank.toFixed(2)), el("td", {}, row.ranks.join("/"))))));
  }
}

async function playerPage() {
  const name = new URLSearchParams(location.search).get("name") || "";
  const p = await api(`/players/${enc(name)}`);
  $("player-name").textContent = p.player;
  $("player-rating").textContent = p.rating
    ? `${p.rating.ordinal.toFixed(2)} (mu ${p.rating.mu.toFixed(2)}, sigma ${p.rating.sigma.toFixed(2)}) after ${p.rating.games} game(s)`
    : "no finished game yet";
  const head = el("tr", {}, ["Event", "Rules", "Place", "Total", "Games", "Avg rank"].map((h) => el("th", {}, h)));
  $("player-events").replaceChildren(el("table", { class: "data", id: "profile-events" }, head, p.events.map((e) =>
    el("tr", {}, el("td", {}, el("a", { href: `/league/event?name=${enc(e.event)}` }, e.event)), el("td", {}, e.rules),
      el("td", { class: "num" }, `${e.place} of ${e.of}`), el("td", { class: "num total" }, fmt(e.total)),
      el("td", { class: "num" }, e.games), el("td", { class: "num" }, e.average_rank === null ? "-" : e.average_rank.toFixed(2))))));
  const gh = el("tr", {}, ["Date", "Event", "Game", "Place", "Points"].map((h) => el("th", {}, h)));
  $("player-games").replaceChildren(el("table", { class: "data", id: "profile-games" }, gh, p.games.map((g) =>
    el("tr", {}, el("td", {}, g.date), el("td", {}, g.event), el("td", { class: "num" }, g.game),
      el("td", { class: "num" }, g.rank), el("td", { class: "num" }, fmt(g.final))))));
}

const PAGES = { events: eventsPage, event: eventPage, admin: adminPage, print: printPage, ratings: ratingsPage, player: playerPage };
// run once every deferred script is in (league-table.js adds the table page)
document.addEventListener("DOMContentLoaded", () => PAGES[document.body.dataset.page]().catch((e) => say(e.message)));
