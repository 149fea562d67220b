// The replay viewer: steps through a game's mjai events (a stored game, or a log file uploaded to
// POST /api/replay) forward and back, with every hand open, on the play page's square table (table.js draws each
// seat's side from the `view` built here, as it does from the server's view of a seat).
"use strict";

let events = [];
let names = ["", "", "", ""];
let position = 0;   // how many events have been applied
let yakuTable = {};
let jielu = false;  // a 洁律 game: no dead wall or dora, fans and S instead of yaku, several winners per hand
let uploaded = null;  // the log file opened here ({name, body}): sent again to be exported
let recordYaku = {};  // the names of the yaku as the record writes them (tenhou.net/6: 立直, ドラ) -> {kanji, english, chinese}
let gameFinal = null;  // the game's rank points when its end_game event has none (an uploaded log, a stored game)
let gameRanks = null;  // a stored game's ranks
let view = null;  // the table as table.js reads it: built from the replayed state at every step (render)
let acting = null;  // the seat of the last event applied: its side is lit

const $ = (id) => document.getElementById(id);

function showError(message) {
  const box = $("error");
  box.textContent = `${t("error")}: ${message}`;
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

function sortHand(tiles) { return [...tiles].sort((a, b) => tileOrder(a) - tileOrder(b)); }

function kindOf(tile) { return tile[0] === "0" ? "5" + tile[1] : tile; }

// The table after the first `upto` events (replayed from the last deal before it).
function stateAt(upto) {
  let start = 0;
  for (let i = 0; i < upto; i++) if (events[i].type === "start_kyoku") start = i;
  const s = {
    kyoku: null, hands: [[], [], [], []], drawn: [null, null, null, null], rivers: [[], [], [], []],
    melds: [[], [], [], []], riichi: [false, false, false, false], pendingRiichi: [false, false, false, false],
    dora: [], scores: [25000, 25000, 25000, 25000], draws: 0, results: [], final: null, last: null,
  };
  const take = (seat, tile) => {
    if (s.drawn[seat] === tile) { s.drawn[seat] = null; return; }
    let i = s.hands[seat].indexOf(tile);
    if (i < 0) i = s.hands[seat].findIndex((x) => kindOf(x) === kindOf(tile));
    if (i < 0) i = s.hands[seat].indexOf("back");
    if (i >= 0) s.hands[seat].splice(i, 1);
    else if (s.drawn[seat] !== null) s.drawn[seat] = null;
  };
  const settle = (seat) => {
    if (s.drawn[seat] !== null) { s.hands[seat].push(s.drawn[seat]); s.drawn[seat] = null; }
    s.hands[seat] = sortHand(s.hands[seat]);
  };
  for (let i = start; i < upto; i++) {
    const e = events[i];
    s.last = e;
    switch (e.type) {
      case "start_kyoku":
        s.kyoku = e;
        s.hands = e.tehais.map((h) => sortHand(h.map(fromMjai)));
        s.dora = e.dora_marker ? [fromMjai(e.dora_marker)] : [];
        if (e.scores) s.scores = [...e.scores];
        break;
      case "tsumo": s.drawn[e.actor] = fromMjai(e.pai); s.draws += 1; break;
      case "dahai": {
        const tile = fromMjai(e.pai);
        if (e.tsumogiri && s.drawn[e.actor] !== null) s.drawn[e.actor] = null; else take(e.actor, tile);
        settle(e.actor);
        s.rivers[e.actor].push({ tile, tsumogiri: !!e.tsumogiri, riichi: s.pendingRiichi[e.actor], calledBy: null });
        s.pendingRiichi[e.actor] = false;
        break;
      }
      case "reach": s.pendingRiichi[e.actor] = true; break;
      case "reach_accepted":
        s.riichi[e.actor] = true;
        if (e.scores) s.scores = [...e.scores]; else s.scores[e.actor] -= 1000;
        break;
      case "chi": case "pon": case "daiminkan": {
        for (const c of e.consumed) take(e.actor, fromMjai(c));
        settle(e.actor);
        const river = s.rivers[e.target];
        if (river.length) river[river.length - 1].calledBy = e.actor;
        s.melds[e.actor].push({ type: e.type, tiles: [fromMjai(e.pai), ...e.consumed.map(fromMjai)], called: fromMjai(e.pai),
          source: (e.target - e.actor + 4) % 4 });
        break;
      }
      case "ankan":
        for (const c of e.consumed) take(e.actor, fromMjai(c));
        settle(e.actor);
        s.melds[e.actor].push({ type: "ankan", tiles: e.consumed.map(fromMjai), called: null, source: null });
        break;
      case "kakan": {
        const tile = fromMjai(e.pai);
        take(e.actor, tile);
        settle(e.actor);
        const pon = s.melds[e.actor].find((m) => m.type === "pon" && kindOf(m.tiles[0]) === kindOf(tile));
        if (pon) { pon.type = "kakan"; pon.tiles.push(tile); }
        break;
      }
      case "dora": s.dora.push(fromMjai(e.dora_marker)); break;
      case "hora": case "ryukyoku":
        s.results.push(e);
        if (e.scores) s.scores = [...e.scores];
        else if (e.deltas) s.scores = s.scores.map((x, k) => x + e.deltas[k]);
        break;
      case "end_game": s.final = e; if (e.scores) s.scores = [...e.scores]; break;
      default: break;
    }
  }
  return s;
}

function seatWindOf(s, seat) {
  const oya = s.kyoku ? s.kyoku.oya : 0;
  return "ESWN"[(seat - oya + 4) % 4];
}

// One seat as table.js draws it (the fields of the server's view of a player): every hand open, the drawn tile
// apart, a called tile kept in its river but taking no place.
function seatView(s, seat) {
  return {
    seat, name: names[seat] || `${t("seat")} ${seat + 1}`, score: s.scores[seat], wind: seatWindOf(s, seat),
    riichi: s.riichi[seat], won: false, hand_count: s.hands[seat].length + (s.drawn[seat] === null ? 0 : 1),
    hand: s.hands[seat], drawn: s.drawn[seat],
    river: s.rivers[seat].map((r) => ({ tile: r.tile, tsumogiri: r.tsumogiri, riichi: r.riichi, called_by: r.calledBy })),
    melds: s.melds[seat].map((m) => ({ type: m.type, tiles: m.tiles, called: m.called, source: m.source, text: "" })),
  };
}

// table.js lights the side of the seat that acted last.
function isActing(seat) { return seat === acting; }

function describe(e) {
  if (!e) return t("start");
  const who = (seat) => names[seat] || `${t("seat")} ${seat + 1}`;
  switch (e.type) {
    case "start_game": return `${t("game")}: ${names.join(", ")}`;
    case "start_kyoku": return `${roundLabel(e.bakaze + e.kyoku)} · ${e.honba} ${t("honba")}`;
    case "tsumo": return `${who(e.actor)}: ${t("tsumo")} ${fromMjai(e.pai)}`;
    case "dahai": return `${who(e.actor)}: ${t("dahai")} ${fromMjai(e.pai)}`;
    case "hora": return `${who(e.actor)}: ${e.actor === e.target ? t("tsumo") : t("ron")}${e.fans ? ` · ${t("scoreS")} = ${e.score}` : ""}`;
    case "ryukyoku": return e.completions ? `${t("handResult")}${e.reason ? ` · ${t(e.reason)}` : ""}` : t("ryukyokuEvent");
    case "end_kyoku": return t("handResult");
    case "end_game": return t("finalTable");
    default: return `${e.actor !== undefined ? who(e.actor) + ": " : ""}${t(e.type)}`;
  }
}

// A yaku's names as the record writes it: the server's reading of the record's own names first (an uploaded
// log's Japanese), then jantaku's table (/api/yaku).
function yakuNames(name) { return recordYaku[name] || yakuTable[name] || {}; }

// "4 han 30 fu", "6 han · Haneman", "Yakuman": the fu only where the record has them (a limit hand has none).
const LIMIT_KEYS = ["", "mangan", "haneman", "baiman", "sanbaiman", "yakuman"];
function winTotal(r) {
  const limit = typeof r.limit === "number" ? LIMIT_KEYS[r.limit] || "" : (r.limit || "");
  if (r.yakuman) return t("yakuman") + (r.yakuman > 1 ? ` ×${r.yakuman}` : "");
  if (r.han === undefined || r.han === null) return limit ? limitName(limit) : "";
  const fu = r.fu !== undefined && r.fu !== null ? ` ${r.fu} ${t("fu")}` : "";
  return `${r.han} ${t("han")}${fu}${limit ? ` · ${limitName(limit)}` : ""}`;
}

// The final table: rank, name, points and rank points (from the end_game event, else the game's own).
function finalView(end) {
  const points = end.final || gameFinal;
  const scores = end.scores || [];
  const ranks = end.ranks || gameRanks || scores.map((x, k) => 1 + scores.filter((y, j) => y > x || (y === x && j < k)).length);
  const rows = scores.map((score, k) => el("tr", { "data-seat": String(k) },
    el("td", {}, String(ranks[k])), el("td", {}, names[k]), el("td", { class: "num" }, String(scores[k])),
    el("td", { class: "num rank-points", "data-final": points ? String(points[k]) : "" }, points ? signedPoints(points[k]) : "")));
  return el("section", { class: "result final" }, el("h3", {}, t("finalTable")),
    el("table", { class: "data" }, el("tr", {}, el("th", {}, t("rank")), el("th", {}, t("name")), el("th", {}, t("scoreCol")),
      el("th", {}, t("finalCol"))), ...rows));
}

function signedPoints(x) {
  const text = Number.isInteger(x) ? String(x) : x.toFixed(1);
  return x > 0 ? `+${text}` : text;
}

function resultView(s) {
  const box = $("replay-result");
  const parts = [];
  for (const r of s.results) {
    const deltas = r.deltas ? el("table", { class: "data payments" }, ...r.deltas.map((d, k) => el("tr", { "data-seat": String(k) },
      el("td", {}, names[k] || String(k + 1)), el("td", { class: "num delta" }, d > 0 ? `+${d}` : String(d))))) : null;
    if (r.type === "hora" && r.fans) {  // 洁律: fans with points and melds, S, the wildcards
      const head = `${names[r.actor]} ${r.actor === r.target ? t("tsumo") : `${t("ron")} ← ${names[r.target]}`}`;
      const wildcards = (r.wildcards || []).map(([own, standsFor]) => ({ tile: own, stands_for: standsFor }));
      const fans = r.fans.map(([name, points, melds]) => {
        const y = { name, value: points, unit: "points", melds, ...yakuNames(name) };
        return el("tr", { "data-yaku": name }, el("td", {}, yakuName(y)), el("td", { class: "fan-melds" }, fanMelds(y)),
          el("td", { class: "num" }, valueText(y)));
      });
      parts.push(el("section", { class: "result win", "data-seat": String(r.actor) }, el("h3", {}, head),
        el("table", { class: "yaku-list fan-list" }, ...fans),
        el("p", {}, el("strong", { class: "win-points", "data-score": String(r.score) }, `${t("scoreS")} = ${r.score}`),
          ` (${jieluScoreText({ value: r.value, total: r.value, full: false, wildcards })})`),
        el("p", { class: "win-wildcards" }, `${t("wildcards")}: `, wildcardList(wildcards)),
        deltas));
    } else if (r.type === "ryukyoku" && r.completions) {  // the end of a 洁律 hand (points mode)
      const what = r.reason === "three_winners" ? t("three_winners") : t(r.reason === "wall_empty" ? "wall_empty" : "exhaustive");
      const rows = Object.entries(r.completions).map(([seat, [score, melds, pair]]) => el("tr", { "data-seat": seat },
        el("td", {}, names[Number(seat)] || seat), el("td", { class: "fan-melds" }, `${melds.join(" ")}${pair ? ` · ${pair}` : ""}`),
        el("td", { class: "num" }, `${t("scoreS")} = ${score}`)));
      parts.push(el("section", { class: "result draw", "data-reason": r.reason || "" }, el("h3", {}, what),
        rows.length ? el("p", {}, t("completions")) : null, rows.length ? el("table", { class: "data completions" }, ...rows) : null, deltas));
    } else if (r.type === "hora") {
      const yaku = (r.yaku || []).map(([name, value]) => {
        const y = { name, value, unit: r.yakuman ? "yakuman" : "han", ...yakuNames(name) };
        return el("tr", { "data-yaku": name }, el("td", {}, yakuName(y)), el("td", { class: "num" }, valueText(y)));
      });
      const head = `${names[r.actor]} ${r.actor === r.target ? t("tsumo") : `${t("ron")} ← ${names[r.target]}`}`;
      const total = winTotal(r);
      parts.push(el("section", { class: "result win", "data-seat": String(r.actor) }, el("h3", {}, head),
        el("table", { class: "yaku-list" }, ...yaku),
        el("p", {}, total ? `${total} · ` : "", el("strong", { class: "win-points" }, r.points !== undefined ? `${r.points} ${t("points")}` : "")),
        r.ura_markers && r.ura_markers.length ? el("div", {}, `${t("uraDora")}: `, ...r.ura_markers.map((x) => tileImg(fromMjai(x), "small"))) : null,
        deltas));
    } else {
      const what = r.reason && r.reason !== "exhaustive" ? (r.reason === "nagashi_mangan" ? t("nagashi") : `${t("abortive")} (${t(r.reason)})`) : t("exhaustive");
      parts.push(el("section", { class: "result draw" }, el("h3", {}, what),
        r.tenpais ? el("p", {}, r.tenpais.map((x, k) => `${names[k]}: ${x ? t("tenpai") : t("noten")}`).join(" · ")) : null, deltas));
    }
  }
  if (s.final) parts.push(finalView(s.final));
  box.replaceChildren(...parts);
}

// Tiles left to draw, as the table engine counts them (jantaku.table.kyoku: tiles_left = live_end - live_next).
// The deal takes 52 of the 136 tiles. With a dead wall (a hand dealt with a dora indicator) the live wall ends
// at 122 less the replacement tiles taken: the dead wall keeps 14 tiles, so each kan's replacement shortens the
// live wall by one. Without one (洁律) the wall runs to 136 and replacements come from its tail. Either way
// every draw, from the front or as a replacement (each a tsumo event), leaves one tile less: 70 (or 84) less
// the hand's tsumo events, and never below 0 (a 洁律 kan on the last tile gets no replacement).
function wallLeft(s) {
  const wall = s.kyoku && s.kyoku.dora_marker ? 122 : 136;
  return Math.max(0, wall - 52 - s.draws);
}

function render() {
  const s = stateAt(position);
  const k = s.kyoku;
  acting = s.last && s.last.actor !== undefined ? s.last.actor : null;
  view = { seat: 0, spectator: true, players: [0, 1, 2, 3].map((seat) => seatView(s, seat)),
    round: { dealer: k ? k.oya : 0 }, wins: [], hold: false };
  for (const box of document.querySelectorAll("#table .player")) renderPlayer(box, view.players[Number(box.dataset.rel)]);
  $("center").replaceChildren(...[
    el("div", { class: "round-name" }, k ? roundLabel(k.bakaze + k.kyoku) : "-"),
    jielu ? null : el("div", { class: "sticks" }, k ? `${k.honba} ${t("honba")} · ${t("deposits")} ${k.kyotaku + s.riichi.filter(Boolean).length}` : ""),
    el("div", { class: "wall-count", id: "wall-count", "data-wall": k ? String(wallLeft(s)) : "" }, k ? `${t("wall")}: ${wallLeft(s)}` : ""),
  ].filter(Boolean));
  renderDora(jielu ? null : s.dora);
  $("step-label").textContent = `${t("step")} ${position} ${t("of")} ${events.length}`;
  $("step-label").dataset.position = String(position);
  $("event-text").textContent = describe(s.last);
  resultView(s);
}

function go(to) { position = Math.max(0, Math.min(events.length, to)); render(); }

function handStarts() { return events.map((e, i) => (e.type === "start_kyoku" ? i + 1 : -1)).filter((i) => i >= 0); }

function load(game) {
  events = game.events || [];
  recordYaku = game.yaku || {};
  gameFinal = game.final || (game.summary && game.summary.final) || null;
  gameRanks = (game.summary && game.summary.ranks) || null;
  const start = events.find((e) => e.type === "start_game");
  names = start && start.names ? start.names : ["1", "2", "3", "4"];
  const deal = events.find((e) => e.type === "start_kyoku");
  jielu = game.family === "jielu" || (start && start.rules === "jielu") || events.some((e) => e.type === "hora" && e.fans)
    || (deal !== undefined && !deal.dora_marker);
  const problems = game.problems || [];
  $("problems").replaceChildren(...(problems.length ? [el("details", {}, el("summary", {}, `${t("problems")}: ${problems.length}`), el("ul", {}, ...problems.map((p) => el("li", {}, p))))] : []));
  $("viewer").hidden = false;
  const firstDeal = handStarts()[0];
  go(firstDeal || 0);
}

async function loadStored(id) {
  const res = await fetch(`/api/games/${encodeURIComponent(id)}`);
  const data = await res.json();
  if (!res.ok) throw new Error(data.error);
  $("source").textContent = `${t("game")} ${data.id} · ${data.rules} · ${data.created}`;
  // tenhou.net/6 holds riichi games only: the formats this game exports to come with it
  const formats = data.exports || ["tenhou6", "mjai"];
  const links = [];
  if (formats.includes("tenhou6")) links.push(el("a", { href: `/api/games/${encodeURIComponent(id)}/export?format=tenhou6`, id: "export-tenhou6" }, "tenhou.net/6"), " · ");
  links.push(el("a", { href: `/api/games/${encodeURIComponent(id)}/export?format=mjai`, id: "export-mjai" }, "mjai"));
  $("exports").replaceChildren(...links);
  load(data);
}

async function upload(file) {
  const body = await file.arrayBuffer();
  const res = await fetch(`/api/replay?name=${encodeURIComponent(file.name)}`, { method: "POST", body });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error);
  const choice = $("game-choice");
  choice.replaceChildren(...data.games.map((g, i) => el("option", { value: String(i) }, `${i + 1}: ${g.source}`)));
  choice.hidden = data.games.length < 2;
  uploaded = { name: file.name, body };
  const show = (i) => { uploadExports(data.games[i], i); load(data.games[i]); };
  choice.onchange = () => show(Number(choice.value));
  $("source").textContent = `${file.name}${data.games[0].rules ? ` · ${data.games[0].rules}` : ""}`;
  show(0);
}

// Export buttons for game `index` of the uploaded file: the file goes to the server again, the answer is saved
// as a download (tenhou.net/6 holds riichi games only: the formats come with each game).
function uploadExports(game, index) {
  const formats = game.exports || ["mjai"];
  const buttons = [];
  for (const [format, label] of [["tenhou6", "tenhou.net/6"], ["mjai", "mjai"]]) {
    if (!formats.includes(format)) continue;
    const button = el("button", { type: "button", id: `export-${format}`, "data-format": format }, label);
    button.onclick = () => exportUpload(format, index).catch((e) => showError(e.message));
    buttons.push(button);
  }
  $("exports").replaceChildren(`${t("export")}: `, ...buttons);
}

async function exportUpload(format, index) {
  const query = new URLSearchParams({ format, name: uploaded.name, game: String(index) });
  const res = await fetch(`/api/replay/export?${query}`, { method: "POST", body: uploaded.body });
  if (!res.ok) throw new Error((await res.json()).error);
  const disposition = res.headers.get("Content-Disposition") || "";
  const match = disposition.match(/filename="([^"]+)"/);
  const link = el("a", { href: URL.createObjectURL(await res.blob()), download: match ? match[1] : `export-${format}` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

async function setup() {
  const names = fetch("/api/yaku").then((r) => r.json()).then((d) => { yakuTable = d.yaku; if (events.length) render(); });
  $("first").onclick = () => go(0);
  $("last").onclick = () => go(events.length);
  $("prev").onclick = () => go(position - 1);
  $("next").onclick = () => go(position + 1);
  $("next-hand").onclick = () => go(handStarts().find((i) => i > position) ?? events.length);
  $("prev-hand").onclick = () => go([...handStarts()].reverse().find((i) => i < position) ?? 0);
  document.addEventListener("keydown", (ev) => {
    // the arrows step through the game unless a field that uses them has the focus (the file chooser does not)
    const field = ev.target.tagName === "TEXTAREA" || ev.target.tagName === "SELECT"
      || (ev.target.tagName === "INPUT" && ev.target.type !== "file");
    if (!events.length || field) return;
    if (ev.key === "ArrowRight") go(position + 1);
    else if (ev.key === "ArrowLeft") go(position - 1);
  });
  $("upload").addEventListener("change", () => {
    const file = $("upload").files[0];
    $("upload").blur();  // the arrow keys step through the game at once
    if (file) upload(file).catch((e) => showError(e.message));
  });
  document.body.dataset.ready = "1";
  const id = new URLSearchParams(location.search).get("game");
  if (id) await loadStored(id);
  await names;
}

setupLanguage(() => { if (events.length) render(); });
setup().catch((e) => showError(e.message));
