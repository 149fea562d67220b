// The review page: a game (stored, or a log file uploaded) replayed on the server with a bot asked at each
// decision of each player (GET /api/games/ID/review, POST /api/review); here the decisions are stepped
// through with the board as the player saw it, the player's action and the bot's side by side.
"use strict";

Object.assign(TEXT.en, {
  reviewTitle: "Game review", reviewIntro: "Each decision of each player beside the bot's choice.",
  reviewStored: "or a stored game", reviewBot: "Bot", reviewPlayer: "Player", allPlayers: "All players",
  onlyDifferences: "Differences only", prevDifference: "Previous difference", nextDifference: "Next difference",
  reviewKeys: "Keys: ← → decisions, ↑ ↓ differences", reviewing: "Reviewing - the bot thinks about every decision...",
  decision: "Decision", played: "Played", botChose: "Bot", agrees: "Same choice", differs: "Different choice",
  agreement: "Agreement", kind_discard: "Discards", kind_call: "Calls", kind_riichi: "Riichi", kind_kan: "Kans",
  kind_win: "Wins", kind_nine_terminals: "Nine terminals", kind_pass: "Other", kind_all: "All", noDecisions: "No decisions to show.",
  ranking: "The bot's ranking", estimate: "estimate", dealInNote: "Dealt in for {n} points; the bot's tile was safe from the winner",
  missedWinNote: "The bot would have won here", answering: "Answering", skippedHands: "Hands skipped",
  tilesLeft: "Tiles left", choices: "choices", decisions: "decisions",
});
Object.assign(TEXT.zh, {
  reviewTitle: "牌谱复盘", reviewIntro: "逐一对比每位玩家的每个选择与机器人的选择。",
  reviewStored: "或已保存的牌谱", reviewBot: "机器人", reviewPlayer: "玩家", allPlayers: "全部玩家",
  onlyDifferences: "只看不同", prevDifference: "上一处不同", nextDifference: "下一处不同",
  reviewKeys: "按键：← → 切换选择，↑ ↓ 跳到不同之处", reviewing: "复盘中——机器人正在逐一思考……",
  decision: "选择", played: "实战", botChose: "机器人", agrees: "选择相同", differs: "选择不同",
  agreement: "一致率", kind_discard: "打牌", kind_call: "鸣牌", kind_riichi: "立直", kind_kan: "杠",
  kind_win: "和牌", kind_nine_terminals: "九种九牌", kind_pass: "其他", kind_all: "合计", noDecisions: "没有可显示的选择。",
  ranking: "机器人的排序", estimate: "估值", dealInNote: "放铳 {n} 点；机器人打出的牌对和牌者是安全的",
  missedWinNote: "机器人会在这里和牌", answering: "应对", skippedHands: "跳过的局",
  tilesLeft: "余牌", choices: "个选项", decisions: "个选择",
});

const $ = (id) => document.getElementById(id);
let review = null;      // the server's answer
let shown = [];         // indexes into review.decisions that pass the filters
let at = 0;             // position in `shown`
let request = null;     // how to ask again (another bot): {stored: id} or {upload: {name, body}, game}

function showError(message) {
  const box = $("error");
  box.textContent = `${t("error")}: ${message}`;
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 8000);
}

function who(seat) { return (review && review.names[seat]) || `${t("seat")} ${seat + 1}`; }

// -- actions ---------------------------------------------------------------------------------------------------

function actionName(a) {
  if (a.type === "hora") return a.target === a.actor ? t("tsumo") : t("ron");
  return t(a.type);
}

function actionTiles(a) {
  if (a.type === "ankan") return a.consumed;
  if (["chi", "pon", "daiminkan"].includes(a.type)) return [a.pai, ...a.consumed];
  return a.pai ? [a.pai] : [];
}

function actionView(a, cls) {
  return el("span", { class: `review-action ${cls || ""}`, "data-action": actionKey(a) }, actionName(a), " ",
    ...actionTiles(a).map((x) => tileImg(fromMjai(x), "small")));
}

function actionKey(a) { return [a.type, a.pai || "", (a.consumed || []).join(",")].join(":"); }

// -- filters and stepping ------------------------------------------------------------------------------------

function filterDecisions() {
  const player = $("player-filter").value;
  const onlyDiff = $("only-differences").checked;
  const keep = review.decisions[shown[at]];
  shown = [];
  review.decisions.forEach((d, i) => {
    if (player !== "all" && String(d.actor) !== player) return;
    if (onlyDiff && d.agree) return;
    shown.push(i);
  });
  const again = keep ? shown.indexOf(review.decisions.indexOf(keep)) : -1;
  at = again >= 0 ? again : 0;
  render();
}

function go(to) {
  if (!shown.length) return;
  at = Math.max(0, Math.min(shown.length - 1, to));
  render();
}

function jumpDifference(step) {
  for (let i = at + step; i >= 0 && i < shown.length; i += step) {
    if (!review.decisions[shown[i]].agree) { go(i); return; }
  }
}

// -- summary ---------------------------------------------------------------------------------------------------

function summaryView() {
  const kinds = [...new Set(review.decisions.map((d) => d.decision))].sort();
  const tally = {};
  for (const d of review.decisions) {
    for (const key of [`${d.actor}:${d.decision}`, `${d.actor}:all`, `all:${d.decision}`, "all:all"]) {
      tally[key] = tally[key] || [0, 0];
      tally[key][0] += d.agree ? 1 : 0;
      tally[key][1] += 1;
    }
  }
  const cell = (key) => {
    const [hit, n] = tally[key] || [0, 0];
    return el("td", { class: "num", "data-agree": n ? String(hit / n) : "" }, n ? `${Math.round((100 * hit) / n)}% (${hit}/${n})` : "-");
  };
  const head = el("tr", {}, el("th", {}, t("reviewPlayer")), ...[...kinds, "all"].map((k) => el("th", {}, t(`kind_${k}`))));
  const seats = [0, 1, 2, 3].filter((s) => tally[`${s}:all`]);
  const rows = seats.map((s) => el("tr", { "data-seat": String(s) }, el("th", {}, who(s)), ...[...kinds, "all"].map((k) => cell(`${s}:${k}`))));
  if (seats.length > 1) rows.push(el("tr", { "data-seat": "all" }, el("th", {}, t("allPlayers")), ...[...kinds, "all"].map((k) => cell(`all:${k}`))));
  const parts = [el("h2", {}, `${t("agreement")} · ${t(review.bot)}`), el("div", { class: "table-scroll" }, el("table", { class: "data review-summary" }, head, ...rows))];
  if (review.skipped.length) {
    parts.push(el("details", {}, el("summary", {}, `${t("skippedHands")}: ${review.skipped.length}`),
      el("ul", {}, ...review.skipped.map((s) => el("li", {}, s)))));
  }
  $("review-summary").replaceChildren(...parts);
}

// -- one decision ----------------------------------------------------------------------------------------------

function handView(b, d) {
  // the player's action and the bot's marked on the tiles they use (the first matching copy of each)
  const tiles = [...b.hand.map((x) => ({ x, drawn: false })), ...(b.drawn ? [{ x: b.drawn, drawn: true }] : [])];
  const mark = (a, cls) => {
    const want = a.type === "dahai" || a.type === "reach" || a.type === "kakan" ? [a.pai] : (a.consumed || []);
    const used = new Set();
    for (const w of want) {
      let i = tiles.findIndex((tile, k) => !used.has(k) && tile.x === w && (a.tsumogiri === undefined || tile.drawn === a.tsumogiri));
      if (i < 0) i = tiles.findIndex((tile, k) => !used.has(k) && tile.x === w);
      if (i >= 0) { used.add(i); tiles[i][cls] = true; }
    }
  };
  mark(d.actual, "actual");
  mark(d.bot, "bot");
  return el("div", { class: "review-hand", "data-seat": String(b.seat) }, ...tiles.map((tile) =>
    tileImg(fromMjai(tile.x), [tile.drawn ? "drawn" : "", tile.actual ? "pick-actual" : "", tile.bot ? "pick-bot" : ""].filter(Boolean).join(" "))));
}

function meldView(m) {
  return el("span", { class: "meld", "data-meld": m.kind }, ...m.tiles.map((x, i) =>
    tileImg(m.kind === "ankan" && (i === 0 || i === 3) ? "back" : fromMjai(x), "small")));
}

function seatView(b, seat, d) {
  const title = el("h3", {}, el("span", { class: "wind" }, windName(seatWind(seat))), ` ${who(seat)} `,
    el("span", { class: "points" }, String(b.scores[seat])));
  if (b.riichi[seat]) title.append(el("span", { class: "badge" }, t("riichiBadge")));
  const river = el("div", { class: "river", "data-seat": String(seat) }, ...b.rivers[seat].map(([x, flags]) =>
    tileImg(fromMjai(x), [flags.includes("r") ? "sideways" : "", flags.includes("c") ? "called" : "", flags.includes("t") ? "tsumogiri" : ""].filter(Boolean).join(" "))));
  const box = el("section", { class: `review-seat${seat === d.actor ? " acting" : ""}`, "data-seat": String(seat) }, title,
    el("div", { class: "melds" }, ...b.melds[seat].map(meldView)), river);
  if (b.discard && b.discard[0] === seat) box.classList.add("discarder");
  return box;
}

function seatWind(seat) {
  const oya = review.decisions[shown[at]].board.dealer ?? null;
  if (oya === null) return "";
  return "ESWN"[(seat - oya + 4) % 4];
}

function render() {
  const box = $("decision");
  if (!shown.length) {
    box.replaceChildren(el("p", {}, t("noDecisions")));
    $("review-board").replaceChildren();
    $("decision-label").textContent = "";
    return;
  }
  const d = review.decisions[shown[at]];
  const b = d.board;
  $("decision-label").textContent = `${t("decision")} ${at + 1} ${t("of")} ${shown.length}`;
  $("decision-label").dataset.index = String(shown[at]);
  const verdict = el("span", { class: `verdict ${d.agree ? "agree" : "differ"}`, "data-agree": String(d.agree) }, d.agree ? t("agrees") : t("differs"));
  const note = d.note === "deal-in" ? t("dealInNote").replace("{n}", String(Math.round(d.cost))) : d.note === "missed win" ? t("missedWinNote") : "";
  const heading = el("h2", {}, `${roundLabel(d.kyoku)} · ${d.honba} ${t("honba")} · ${who(d.actor)} · ${t(`kind_${d.decision}`)} `, verdict);
  const answering = b.discard ? el("p", { class: "answering" }, `${t("answering")}: ${who(b.discard[0])} `, tileImg(fromMjai(b.discard[1]), "small")) : null;
  const compare = el("div", { class: "review-compare" },
    el("div", { class: "played" }, el("span", { class: "label" }, `${t("played")}: `), actionView(d.actual, "actual")),
    el("div", { class: "bot" }, el("span", { class: "label" }, `${t("botChose")}: `), actionView(d.bot, "bot")));
  const ranking = el("ol", { class: "review-ranking" }, ...d.ranking.map((r) => {
    const isActual = actionKey(r.action) === actionKey(d.actual);
    const isBot = actionKey(r.action) === actionKey(d.bot);
    return el("li", { class: [isActual ? "is-actual" : "", isBot ? "is-bot" : ""].filter(Boolean).join(" ") }, actionView(r.action),
      r.score === null || r.score === undefined ? "" : el("span", { class: "estimate" }, ` ${t("estimate")} ${r.score > 0 ? "+" : ""}${Math.round(r.score)}`));
  }));
  box.replaceChildren(...[heading, note ? el("p", { class: "review-note", "data-note": d.note }, note) : null, answering, compare,
    handView(b, d), el("details", { class: "ranking-box", open: "" }, el("summary", {}, `${t("ranking")} (${d.choices} ${t("choices")})`), ranking)]
    .filter(Boolean));
  const center = el("div", { class: "review-center" },
    el("span", {}, `${t("dora")}: `, ...b.dora.map((x) => tileImg(fromMjai(x), "small"))),
    el("span", { class: "wall-count" }, `${t("tilesLeft")}: ${b.tiles_left}`));
  $("review-board").replaceChildren(center, el("div", { class: "review-seats" }, ...[0, 1, 2, 3].map((s) => seatView(b, s, d))));
}

// -- loading ---------------------------------------------------------------------------------------------------

function show(data) {
  review = data;
  const filter = $("player-filter");
  const before = filter.value || "all";
  filter.replaceChildren(el("option", { value: "all" }, t("allPlayers")), ...[0, 1, 2, 3].map((s) => el("option", { value: String(s) }, who(s))));
  filter.value = before;
  const games = data.games || 1;
  const choice = $("review-game-choice");
  if (request && request.upload && games > 1) {
    choice.replaceChildren(...Array.from({ length: games }, (_, i) => el("option", { value: String(i) }, `${t("game")} ${i + 1}`)));
    choice.value = String(data.game || 0);
    choice.hidden = false;
  } else {
    choice.hidden = true;
  }
  $("review-title").textContent = `${data.source} · ${data.rules} · ${data.decisions.length} ${t("decisions")}`;
  $("review").hidden = false;
  summaryView();
  shown = [];
  at = 0;
  filterDecisions();
}

async function ask() {
  if (!request) return;
  const bot = $("bot-choice").value;
  $("review-status").textContent = t("reviewing");
  document.body.dataset.loading = "1";
  try {
    let res;
    if (request.stored) {
      res = await fetch(`/api/games/${encodeURIComponent(request.stored)}/review?bot=${bot}`);
    } else {
      const query = new URLSearchParams({ name: request.upload.name, game: String(request.game || 0), bot });
      res = await fetch(`/api/review?${query}`, { method: "POST", body: request.upload.body });
    }
    const data = await res.json();
    if (!res.ok) throw new Error(data.error);
    $("review-status").textContent = "";
    show(data);
  } catch (e) {
    $("review-status").textContent = "";
    showError(e.message);
  } finally {
    delete document.body.dataset.loading;
  }
}

async function storedGames() {
  const res = await fetch("/api/games?limit=100");
  if (!res.ok) return;
  const data = await res.json();
  const select = $("stored-choice");
  for (const g of data.games) {
    select.append(el("option", { value: g.id }, `${g.created} · ${g.rules} · ${g.players.map((p) => p.name).join(", ")}`));
  }
}

function setup() {
  $("review-upload").addEventListener("change", async () => {
    const file = $("review-upload").files[0];
    if (!file) return;
    request = { upload: { name: file.name, body: await file.arrayBuffer() }, game: 0 };
    $("stored-choice").value = "";
    await ask();
  });
  $("stored-choice").addEventListener("change", () => {
    const id = $("stored-choice").value;
    if (!id) return;
    request = { stored: id };
    history.replaceState(null, "", `/review?game=${encodeURIComponent(id)}`);
    ask();
  });
  $("bot-choice").addEventListener("change", ask);
  $("review-game-choice").addEventListener("change", () => { request.game = Number($("review-game-choice").value); ask(); });
  $("player-filter").addEventListener("change", filterDecisions);
  $("only-differences").addEventListener("change", filterDecisions);
  $("prev-decision").onclick = () => go(at - 1);
  $("next-decision").onclick = () => go(at + 1);
  $("prev-difference").onclick = () => jumpDifference(-1);
  $("next-difference").onclick = () => jumpDifference(1);
  document.addEventListener("keydown", (ev) => {
    // arrows step through the decisions, except where they edit or choose (a list, a text field)
    const typing = ev.target.tagName === "SELECT" || ev.target.tagName === "TEXTAREA"
      || (ev.target.tagName === "INPUT" && !["checkbox", "button", "file"].includes(ev.target.type));
    if (!review || typing) return;
    const moves = { ArrowRight: () => go(at + 1), ArrowLeft: () => go(at - 1), ArrowDown: () => jumpDifference(1), ArrowUp: () => jumpDifference(-1) };
    if (moves[ev.key]) { ev.preventDefault(); moves[ev.key](); }
  });
  const id = new URLSearchParams(location.search).get("game");
  storedGames().then(() => { if (id) $("stored-choice").value = id; }).catch(() => {});
  if (id) { request = { stored: id }; ask(); }
  document.body.dataset.ready = "1";
}

setupLanguage(() => {
  if (!review) return;
  const filter = $("player-filter");
  for (const option of filter.options) option.textContent = option.value === "all" ? t("allPlayers") : who(Number(option.value));
  summaryView();
  render();
});
setup();
