// The score calculator: build a hand by clicking tiles (or typing mpsz), then POST /api/score under one or two
// rule sets and show each explained side by side: yaku with han, fu and its breakdown, points, payments; under
// 洁律 the fans with their points and melds, S and the wildcards.
"use strict";

const WIND_SEAT = { E: 0, S: 1, W: 2, N: 3 };
const PALETTE = ["1m", "2m", "3m", "4m", "5m", "0m", "6m", "7m", "8m", "9m",
  "1p", "2p", "3p", "4p", "5p", "0p", "6p", "7p", "8p", "9p",
  "1s", "2s", "3s", "4s", "5s", "0s", "6s", "7s", "8s", "9s",
  "1z", "2z", "3z", "4z", "5z", "6z", "7z"];
let yakuTable = {};
let meldInProgress = [];

const $ = (id) => document.getElementById(id);

// "234m55z" -> ["2m", "3m", "4m", "5z", "5z"]
function tilesOf(text) {
  const out = [];
  for (const m of text.replace(/\s+/g, "").matchAll(/(\d+)([mpsz])/g)) for (const d of m[1]) out.push(d + m[2]);
  return out;
}

// ["2m", "3m", "5z"] -> "23m5z"
function compact(tiles) {
  let text = "";
  let run = "";
  let suit = "";
  for (const tile of tiles) {
    if (tile[1] !== suit && run) { text += run + suit; run = ""; }
    suit = tile[1];
    run += tile[0];
  }
  return text + (run ? run + suit : "");
}

function sortTiles(tiles) { return [...tiles].sort((a, b) => tileOrder(a) - tileOrder(b)); }

function preview() {
  $("hand-preview").replaceChildren(...tilesOf($("hand").value).map((x) => tileImg(x, "small")));
  $("win-preview").replaceChildren(...tilesOf($("win").value).map((x) => tileImg(x, "small win-tile")));
  const melds = $("melds").value.trim().split(/\s+/).filter(Boolean);
  $("melds-preview").replaceChildren(...melds.map((m) => el("span", { class: "meld" }, ...tilesOf(m.replace(/[+*^]\d?$/, "")).map((x) => tileImg(x, "small")))));
  $("meld-build").replaceChildren(...meldInProgress.map((x) => tileImg(x, "small")));
}

function target() { return document.querySelector("input[name=target]:checked").value; }

function addTile(tile) {
  const where = target();
  if (where === "hand") $("hand").value = compact(sortTiles([...tilesOf($("hand").value), tile]));
  else if (where === "win") {
    $("win").value = tile;
    // the winning tile is part of the hand (the scorer wants the closed tiles with it)
    $("hand").value = compact(sortTiles([...tilesOf($("hand").value), tile]));
  } else if (where === "meld") meldInProgress.push(tile);
  else $(where).value = compact([...tilesOf($(where).value), tile]);
  preview();
}

function removeLast() {
  const where = target();
  if (where === "meld") meldInProgress.pop();
  else if (where === "win") $("win").value = "";
  else { const tiles = tilesOf($(where).value); tiles.pop(); $(where).value = compact(tiles); }
  preview();
}

function closeMeld(marker) {
  if (!meldInProgress.length) return;
  // jantaku notation: the tiles with the called one first (all of one suit), then "+" (called) or "*" (closed kan)
  const suit = meldInProgress[0][1];
  const digits = meldInProgress.map((x) => x[0]).join("");
  const text = meldInProgress.every((x) => x[1] === suit) ? digits + suit + marker : compact(meldInProgress) + marker;
  $("melds").value = `${$("melds").value.trim()} ${text}`.trim();
  meldInProgress = [];
  preview();
}

// The rule sets scored by 洁律's additive fans (from /api/presets), which take no riichi, dora or honba.
let jieluPresets = new Set(["jielu"]);

function jieluRequest(rules) {
  const v = (id) => $(id).value.trim();
  const checked = (id) => $(id).checked;
  const extra = Number(v("extra_wildcards") || 0);
  const out = { hand: v("hand"), melds: v("melds") ? v("melds").split(/\s+/) : [], rules };
  if (extra > 0) return { ...out, extra_wildcards: extra };  // a non-winner's hand: no winning tile or circumstances
  const tsumo = checked("tsumo");
  return {
    ...out, win: v("win") || undefined, tsumo, haitei: tsumo && checked("haitei"), houtei: !tsumo && checked("haitei"),
    rinshan: checked("rinshan"), chankan: checked("chankan"),
    seat_wind: v("seat_wind"), round_wind: v("round_wind"), winner: WIND_SEAT[v("seat_wind")],
  };
}

function request(rules) {
  if (jieluPresets.has(rules)) return jieluRequest(rules);
  const v = (id) => $(id).value.trim();
  const checked = (id) => $(id).checked;
  const seatWind = v("seat_wind");
  const tsumo = checked("tsumo");
  return {
    hand: v("hand"), win: v("win"), melds: v("melds") ? v("melds").split(/\s+/) : [],
    tsumo, riichi: checked("riichi") || checked("double_riichi"), double_riichi: checked("double_riichi"),
    ippatsu: checked("ippatsu"), haitei: tsumo && checked("haitei"), houtei: !tsumo && checked("haitei"),
    rinshan: checked("rinshan"), chankan: checked("chankan"),
    dora: v("dora"), ura: v("ura"), seat_wind: seatWind, round_wind: v("round_wind"),
    honba: Number(v("honba") || 0), deposits: Number(v("deposits") || 0), winner: WIND_SEAT[seatWind], rules,
  };
}

function yakuRow(name, value, yakuman) {
  const names = yakuTable[name] || { kanji: name, english: name, chinese: name };
  const y = { name, value, unit: yakuman ? "yakuman" : "han", ...names };
  return el("tr", { "data-yaku": name }, el("td", {}, yakuName(y)), el("td", { class: "num" }, valueText(y)));
}

function fanRow([name, points, melds]) {
  const y = { name, value: points, unit: "points", melds, ...(yakuTable[name] || { kanji: name, english: name, chinese: name }) };
  return el("tr", { "data-yaku": name, "data-points": String(points) }, el("td", {}, yakuName(y)),
    el("td", { class: "fan-melds" }, fanMelds(y)), el("td", { class: "num" }, valueText(y)));
}

// A 洁律 answer: the fans with their points and melds, S (with the value and the halvings), the wildcards and
// what each stands for, the reading; in the original mode each seat's payment.
function jieluColumn(col, data) {
  const wildcards = data.wildcards.each.map(([own, standsFor]) => ({ tile: own === "extra" ? null : own, stands_for: standsFor }));
  col.append(
    el("table", { class: "data yaku-list fan-list" }, ...data.fans.map(fanRow)),
    el("p", { class: "win-total" }, el("strong", { class: "score-points", "data-score": String(data.score) }, `${t("scoreS")} = ${data.score}`),
      ` (${jieluScoreText({ ...data, wildcards })})`),
    el("p", { class: "win-wildcards" }, `${t("wildcards")}: `, wildcardList(wildcards)),
    el("p", { class: "reading" }, `${t("reading")}: ${data.melds.join(" ")} · ${t("pair")} ${data.pair}`),
    el("p", { class: "jielu-mode" }, t(data.mode === "original" ? "originalMode" : "pointsMode")));
  if (data.payments) {
    col.append(el("table", { class: "data payments" }, el("tr", {}, el("th", {}, t("seat")), el("th", {}, t("payments"))),
      ...data.payments.map((p, s) => el("tr", { "data-seat": String(s) }, el("td", {}, windName("ESWN"[s])),
        el("td", { class: "num" }, (p > 0 ? "+" : "") + p)))));
  }
  return col;
}

function column(rules, data, status) {
  const col = el("section", { class: "score-column", "data-rules": rules, "data-family": jieluPresets.has(rules) ? "jielu" : "riichi" }, el("h2", {}, rules));
  if (status !== 200) { col.append(el("p", { class: "badge score-error" }, data.error)); return col; }
  if (jieluPresets.has(rules)) return jieluColumn(col, data);
  const total = data.yakuman ? `${t("yakuman")}${data.yakuman > 1 ? ` ×${data.yakuman}` : ""}` : `${data.han} ${t("han")} ${data.fu} ${t("fu")}`;
  col.append(
    el("table", { class: "data yaku-list" }, ...data.yaku.map(([name, value]) => yakuRow(name, value, data.yakuman > 0))),
    el("p", { class: "win-total" }, `${total} · `, el("strong", { class: "score-points" }, `${data.points} ${t("points")}`),
      data.limit ? ` (${limitName(data.limit)})` : ""));
  if (data.fu_items && data.fu_items.length) {
    col.append(el("details", {}, el("summary", {}, t("fuItems")),
      el("ul", {}, ...data.fu_items.map(([what, f]) => el("li", {}, `${what}: ${f} ${t("fu")}`)))));
  }
  col.append(el("table", { class: "data payments" }, el("tr", {}, el("th", {}, t("seat")), el("th", {}, t("payments"))),
    ...data.payments.map((p, s) => el("tr", { "data-seat": String(s) }, el("td", {}, windName("ESWN"[s])),
      el("td", { class: "num" }, (p > 0 ? "+" : "") + p)))));
  return col;
}

async function calculate() {
  const chosen = [$("rules").value, $("rules2").value].filter(Boolean);
  const out = $("score-result");
  const columns = await Promise.all(chosen.map(async (rules) => {
    const res = await fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request(rules)) });
    return column(rules, await res.json(), res.status);
  }));
  out.replaceChildren(el("div", { class: "score-hand" }, ...tilesOf($("hand").value).map((x) => tileImg(x)),
    ...$("melds").value.trim().split(/\s+/).filter(Boolean).map((m) => el("span", { class: "meld" }, ...tilesOf(m.replace(/[+*^]\d?$/, "")).map((x) => tileImg(x))))),
  el("div", { class: "score-columns" }, ...columns));
}

async function setup() {
  const [meta, yaku] = await Promise.all([(await fetch("/api/presets")).json(), (await fetch("/api/yaku")).json()]);
  yakuTable = yaku.yaku;
  const presets = meta.scoring || meta.presets;
  if (meta.jielu) jieluPresets = new Set(meta.jielu);
  for (const p of presets) $("rules").append(el("option", { value: p }, p));
  $("rules").value = meta.default;
  $("rules2").append(el("option", { value: "" }, t("nothing")), ...presets.map((p) => el("option", { value: p }, p)));
  $("palette").append(...PALETTE.map((tile) => {
    const img = tileImg(tile, "palette-tile");
    img.dataset.tile = tile;
    img.addEventListener("click", () => addTile(tile));
    return img;
  }));
  for (const id of ["hand", "melds", "win"]) $(id).addEventListener("input", preview);
  $("backspace").addEventListener("click", removeLast);
  $("clear").addEventListener("click", () => { for (const id of ["hand", "melds", "win", "dora", "ura"]) $(id).value = ""; $("extra_wildcards").value = "0"; meldInProgress = []; preview(); });
  $("meld-open").addEventListener("click", () => closeMeld("+"));
  $("meld-closed").addEventListener("click", () => closeMeld("*"));
  $("score-form").addEventListener("submit", (ev) => { ev.preventDefault(); calculate().catch((e) => { $("error").textContent = e.message; $("error").hidden = false; }); });
  preview();
}

setupLanguage(() => { if ($("score-result").childElementCount) calculate(); });
setup();
