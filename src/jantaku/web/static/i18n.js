// Interface text in English and Chinese. t(key) gives the text in the chosen language.
"use strict";

const TEXT = {
  en: {
    title: "jantaku web table", play: "Play", games: "Stored games", score: "Score calculator",
    newTable: "New table", rules: "Rules", seat: "Seat", human: "Person", efficiency: "Efficiency bot",
    random: "Random bot", name: "Name", create: "Create table", links: "Share each person's link:",
    open: "Open", round: "Round", honba: "Honba", deposits: "Riichi sticks", wall: "Wall", dora: "Dora",
    you: "you", riichiBadge: "Riichi", yourTurn: "Your turn", waiting: "Waiting for others",
    dahai: "Discard", reach: "Riichi", tsumo: "Tsumo", ron: "Ron", chi: "Chi", pon: "Pon",
    daiminkan: "Kan", ankan: "Kan", kakan: "Kan", ryukyoku: "Nine terminals", none: "Pass",
    yame: "End the game", continue: "Play on", chooseRiichi: "Choose the riichi discard",
    cancel: "Cancel", handResult: "Hand result", ok: "OK", han: "han", fu: "fu", points: "points",
    yakuman: "yakuman", payments: "Payments", exhaustive: "Exhaustive draw", abortive: "Abortive draw",
    tenpai: "Tenpai", noten: "Noten", finalTable: "Final table", rank: "Rank", scoreCol: "Points",
    finalCol: "Rank points", newGame: "New game", winner: "Winner", from: "from",
    connectionLost: "Connection lost - reconnecting...", error: "Error", id: "Game",
    created: "Created", players: "Players", export: "Export", result: "Result", hand: "Hand",
    melds: "Melds", win: "Winning tile", calc: "Score", seatWind: "Seat wind", roundWind: "Round wind",
    uraDora: "Ura dora", winnerSeat: "Winner seat", language: "Language", noGames: "No stored games yet.",
    wins: "wins", draw: "Draw",
  },
  zh: {
    title: "雀卓 网页牌桌", play: "对局", games: "牌谱", score: "点数计算",
    newTable: "新牌桌", rules: "规则", seat: "座位", human: "玩家", efficiency: "效率机器人",
    random: "随机机器人", name: "名字", create: "创建牌桌", links: "把各自的链接发给每位玩家：",
    open: "打开", round: "场", honba: "本场", deposits: "立直棒", wall: "余牌", dora: "宝牌指示牌",
    you: "你", riichiBadge: "立直", yourTurn: "轮到你了", waiting: "等待其他玩家",
    dahai: "打牌", reach: "立直", tsumo: "自摸", ron: "荣和", chi: "吃", pon: "碰",
    daiminkan: "杠", ankan: "暗杠", kakan: "加杠", ryukyoku: "九种九牌", none: "过",
    yame: "结束对局", continue: "继续", chooseRiichi: "选择立直宣言牌",
    cancel: "取消", handResult: "本局结果", ok: "确定", han: "番", fu: "符", points: "点",
    yakuman: "役满", payments: "收支", exhaustive: "荒牌流局", abortive: "途中流局",
    tenpai: "听牌", noten: "未听牌", finalTable: "终局", rank: "名次", scoreCol: "点数",
    finalCol: "顺位分", newGame: "新对局", winner: "和牌者", from: "放铳",
    connectionLost: "连接中断，正在重连……", error: "错误", id: "对局",
    created: "时间", players: "玩家", export: "导出", result: "结果", hand: "手牌",
    melds: "副露", win: "和了牌", calc: "计算", seatWind: "自风", roundWind: "场风",
    uraDora: "里宝牌指示牌", winnerSeat: "和牌者座位", language: "语言", noGames: "还没有保存的牌谱。",
    wins: "和了", draw: "流局",
  },
};

function lang() {
  const saved = localStorage.getItem("jantaku-lang");
  if (saved && TEXT[saved]) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}

function t(key) {
  return TEXT[lang()][key] ?? TEXT.en[key] ?? key;
}

// Fill every element with data-i18n="key", and wire the language selector (id "lang").
function applyText() {
  document.documentElement.lang = lang() === "zh" ? "zh-CN" : "en";
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  const sel = document.getElementById("lang");
  if (sel) sel.value = lang();
}

function setupLanguage(onChange) {
  const sel = document.getElementById("lang");
  if (sel) {
    sel.addEventListener("change", () => {
      localStorage.setItem("jantaku-lang", sel.value);
      applyText();
      if (onChange) onChange();
    });
  }
  applyText();
}

// A tile picture (served by the project at /tiles/NAME.svg).
function tileImg(name, cls) {
  const img = document.createElement("img");
  img.src = `/tiles/${name}.svg`;
  img.alt = name;
  img.className = "tile" + (cls ? " " + cls : "");
  return img;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function yakuName(y) {
  return lang() === "zh" ? `${y.chinese}` : `${y.english} (${y.kanji})`;
}
