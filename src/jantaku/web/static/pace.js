// The play page's pace and time: the table options in the lobby, and on the board the last discard's mark and
// animation, announcements of calls, riichi, wins and draws, the finished hand shown under its result panel
// (with the server told when this person closed it), the turn timer and the auto options. play.js calls
// setupTableOptions(meta), tableOptions() and renderPacing(); everything else is here.
"use strict";

Object.assign(TEXT.en, {
  pace: "Pace", paceNormal: "Normal", paceFast: "Fast", paceInstant: "Instant",
  resultWait: "Result panel", seconds: "s", noWait: "no wait",
  timer: "Turn timer", timerOff: "Off", length: "Length", lengthRules: "the rule set's", lengthEast: "East only",
  lengthHanchan: "East and South", autoWin: "Auto win", autoNoCalls: "No calls", autoRiichi: "Auto discard in riichi",
  announce_chi: "Chi", announce_pon: "Pon", announce_daiminkan: "Kan", announce_ankan: "Kan", announce_kakan: "Kan",
  announce_reach: "Riichi", announce_tsumo: "Tsumo", announce_ron: "Ron", announce_ryukyoku: "Draw",
  holdNote: "The next hand is dealt when everyone has closed this panel, or in", holdWaiting: "Waiting for the others to close the result:",
  timeLeft: "Time", bank: "bank",
});
Object.assign(TEXT.zh, {
  pace: "节奏", paceNormal: "正常", paceFast: "快速", paceInstant: "即时",
  resultWait: "结果面板", seconds: "秒", noWait: "不等待",
  timer: "思考时间", timerOff: "关闭", length: "局数", lengthRules: "按规则", lengthEast: "东风战",
  lengthHanchan: "半庄战", autoWin: "自动和牌", autoNoCalls: "不鸣牌", autoRiichi: "立直后自动摸切",
  announce_chi: "吃", announce_pon: "碰", announce_daiminkan: "杠", announce_ankan: "杠", announce_kakan: "杠",
  announce_reach: "立直", announce_tsumo: "自摸", announce_ron: "荣和", announce_ryukyoku: "流局",
  holdNote: "所有人关闭此面板后发下一局，最迟", holdWaiting: "等待其他玩家关闭结果：",
  timeLeft: "时间", bank: "备用",
});

// -- the lobby ---------------------------------------------------------------------------------------------

const RESULT_CHOICES = [0, 10, 20, 30, 60];

function setupTableOptions(meta) {
  const box = document.getElementById("table-options");
  const opts = meta.table_options;
  if (!box || !opts) return;
  const d = opts.defaults;
  const draw = () => {
    const keep = (id, fallback) => document.getElementById(id)?.value ?? fallback;
    const paceNames = Object.entries(opts.paces);
    const defaultPace = (paceNames.find(([, ms]) => ms === d.pace) || ["custom"])[0];
    const pace = el("select", { id: "opt-pace" }, ...paceNames.map(([name, ms]) =>
      el("option", { value: name }, `${t("pace" + name[0].toUpperCase() + name.slice(1))} (${(ms / 1000).toFixed(2)} ${t("seconds")})`)));
    if (defaultPace === "custom") pace.append(el("option", { value: String(d.pace) }, `${d.pace} ms`));
    pace.value = keep("opt-pace", defaultPace === "custom" ? String(d.pace) : defaultPace);
    const seconds = [...new Set([...RESULT_CHOICES, d.result_seconds])].sort((a, b) => a - b);
    const result = el("select", { id: "opt-result" }, ...seconds.map((s) =>
      el("option", { value: String(s) }, s ? `${s} ${t("seconds")}` : t("noWait"))));
    result.value = keep("opt-result", String(d.result_seconds));
    const timer = el("select", { id: "opt-timer" }, ...opts.timers.map((x) =>
      el("option", { value: x }, x === "off" ? t("timerOff") : `${x} ${t("seconds")}`)));
    timer.value = keep("opt-timer", d.timer);
    const length = el("select", { id: "opt-length" }, el("option", { value: "" }, t("lengthRules")),
      el("option", { value: "east" }, t("lengthEast")), el("option", { value: "hanchan" }, t("lengthHanchan")));
    length.value = keep("opt-length", d.length || "");
    box.replaceChildren(
      el("label", {}, `${t("pace")} `, pace), " ", el("label", {}, `${t("resultWait")} `, result), " ",
      el("label", {}, `${t("timer")} `, timer), " ", el("label", {}, `${t("length")} `, length));
  };
  draw();
  const before = setupLanguage.onChange;
  setupLanguage.onChange = () => { if (before) before(); draw(); };
}

// The options to send with a new table (the 洁律 rule set keeps its own length).
function tableOptions() {
  const get = (id) => document.getElementById(id)?.value;
  const out = {};
  const pace = get("opt-pace");
  if (pace) out.pace = /^\d+$/.test(pace) ? Number(pace) : pace;
  if (get("opt-result") !== undefined) out.result_seconds = Number(get("opt-result"));
  if (get("opt-timer")) out.timer = get("opt-timer");
  const rules = get("rules") || "";
  if (get("opt-length") && !rules.startsWith("jielu")) out.length = get("opt-length");
  return out;
}

// -- the board ---------------------------------------------------------------------------------------------

// what the page showed last (undefined: nothing yet, so what is there at load is not animated or announced)
const pacing = { discard: undefined, announce: undefined, readySent: -1, tick: null };

function boxOfSeat(seat) {
  return document.querySelector(`.player[data-rel="${(seat - view.seat + 4) % 4}"]`);
}

function renderPacing() {
  if (!view) return;
  markLastDiscard();
  announceEvent();
  showFinishedHands();
  renderAutoOptions();
  renderClocks();
}

// The last discard: marked in its river, and animated when it is new (CSS; none with reduced motion).
function markLastDiscard() {
  const d = view.last_discard;
  if (!d) { pacing.discard = null; return; }
  const key = `${view.round.name}-${view.round.honba}-${d.seat}-${d.index}`;
  const img = document.querySelector(`.river[data-seat="${d.seat}"]`)?.children[d.index];
  if (!img) return;
  // a river that was not drawn again (nothing in its box changed) still marks the discard before this one
  for (const old of document.querySelectorAll(".river .tile.last-discard")) {
    if (old !== img) old.classList.remove("last-discard", "discard-anim");
  }
  img.classList.add("last-discard");
  if (pacing.discard !== undefined && pacing.discard !== key) img.classList.add("discard-anim");
  pacing.discard = key;
}

// A call, riichi, win or draw: a banner by the seat's box, once per event (not for what was there at load).
function announceEvent() {
  const a = view.announce;
  const key = a ? a.key : null;
  if (pacing.announce === undefined || key === pacing.announce) { pacing.announce = key; return; }
  pacing.announce = key;
  if (!a) return;
  const kind = a.type === "hora" ? (a.tsumo ? "tsumo" : "ron") : a.type;
  const seatBox = a.seat !== null && a.seat !== undefined ? boxOfSeat(a.seat) : null;
  const box = seatBox ? seatBox.querySelector(".seat-label") || seatBox : document.getElementById("center");
  if (!box) return;
  // on the page, never over the result panel: an open panel (a modal dialog) lies above the banner
  const layer = document.body;
  const r = box.getBoundingClientRect();
  const banner = el("div", { class: `announce announce-${kind}`, role: "status", "data-announce": kind, "data-seat": String(a.seat ?? "") },
    t(`announce_${kind}`));
  banner.style.left = `${Math.max(4, Math.min(window.innerWidth - 120, r.left + r.width / 2 - 50))}px`;
  banner.style.top = `${Math.max(4, r.top + Math.min(r.height / 2, 60) - 20)}px`;
  layer.append(banner);
  setTimeout(() => banner.remove(), 1600);
}

// While a finished hand is held under its result panel: every hand shown at its end (the winners', the tenpai
// hands at a draw) open in its seat's box, the winning tile marked.
function showFinishedHands() {
  const r = view.hold ? view.last_result : null;
  if (!r) return;
  const open = (seat, tiles, winTile) => {
    const box = boxOfSeat(seat);
    if (!box || seat === view.seat) return;
    const hand = el("div", { class: "concealed shown-hand", "data-seat": String(seat) }, ...tiles.map((x) => tileImg(x, "small")),
      winTile ? tileImg(winTile, "small win-tile") : null);
    const old = box.querySelector(".concealed");
    if (old) old.replaceWith(hand); else box.append(hand);
  };
  for (const w of r.wins) {
    open(w.seat, w.hand, w.win_tile);
    if (w.from !== null && view.last_discard && view.last_discard.seat === w.from) {
      document.querySelector(`.river[data-seat="${w.from}"]`)?.children[view.last_discard.index]?.classList.add("win-tile");
    }
  }
  for (const [s, tiles] of Object.entries(r.tenpai_hands || {})) open(Number(s), tiles, null);
}

// Whether the result panel must be (re)opened: a finished hand held that this person has not closed yet.
function holdNeedsPanel() {
  return !!(view && view.hold && !view.hold.ready && pacing.readySent !== view.hand_results);
}

function sendReady() {
  if (!view || !view.hold || view.hold.ready || pacing.readySent === view.hand_results) return;
  pacing.readySent = view.hand_results;
  renderClocks();  // the countdown moves to the status line
  api("POST", `/api/tables/${tableId}/ready`, { token }).then(setView).catch((e) => showError(e.message));
}

function renderAutoOptions() {
  let bar = document.getElementById("auto-options");
  if (!bar) {
    bar = el("div", { id: "auto-options" });
    document.getElementById("hand-area").append(bar);
  }
  const auto = view.auto || {};
  const box = (key, label) => {
    const input = el("input", { type: "checkbox", id: `auto-${key}`, "data-auto": key });
    input.checked = !!auto[key];
    input.disabled = view.over;
    input.addEventListener("change", () => {
      api("POST", `/api/tables/${tableId}/auto`, { token, [key]: input.checked }).then(setView)
        .catch((e) => { input.checked = !input.checked; showError(e.message); });
    });
    return el("label", { class: "auto-option" }, input, ` ${t(label)}`);
  };
  // 洁律 has no riichi, so no automatic discards in riichi
  const riichi = view.family !== "jielu";
  bar.replaceChildren(box("win", "autoWin"), box("no_calls", "autoNoCalls"), riichi ? box("riichi_discard", "autoRiichi") : null);
}

// The person's own decision clock and the held hand's countdown, counted down here between views.
function renderClocks() {
  const shownAt = performance.now();
  const timerView = view.timer && view.timer.left !== null ? view.timer : null;
  const hold = view.hold;
  let clock = document.getElementById("turn-timer");
  if (!clock) {
    clock = el("div", { id: "turn-timer", role: "timer" });
    document.getElementById("hand-area").prepend(clock);
  }
  const draw = () => {
    const gone = (performance.now() - shownAt) / 1000;
    if (timerView) {
      const left = Math.max(0, timerView.left - gone);
      const inBank = left <= timerView.bank;
      clock.hidden = false;
      clock.classList.toggle("in-bank", inBank);
      clock.textContent = `${t("timeLeft")}: ${Math.ceil(left)} ${t("seconds")}` +
        (inBank ? "" : ` (+${Math.round(timerView.bank)} ${t("bank")})`);
      clock.dataset.left = String(Math.ceil(left));
    } else {
      clock.hidden = true;
      clock.textContent = "";
    }
    const note = document.getElementById("hold-note");
    if (hold && note) {
      const left = Math.max(0, Math.ceil(hold.seconds_left - gone));
      note.textContent = `${t(hold.ready ? "holdWaiting" : "holdNote")} ${left} ${t("seconds")}`;
      note.dataset.left = String(left);
    }
  };
  document.getElementById("hold-note")?.remove();
  if (hold) {  // in the open result panel, else on the status line
    const dialog = document.getElementById("result-dialog");
    const where = dialog && dialog.open ? document.getElementById("result-body") : document.getElementById("status");
    if (where) where.append(el("p", { id: "hold-note", class: "hold-note" }));
  }
  clearInterval(pacing.tick);
  draw();
  if (timerView || hold) pacing.tick = setInterval(draw, 250);
}

document.addEventListener("DOMContentLoaded", () => {
  const dialog = document.getElementById("result-dialog");
  if (dialog) dialog.addEventListener("close", sendReady);
});
