// Interface text in English and Chinese. t(key) gives the text in the chosen language.
"use strict";

const TEXT = {
  en: {
    title: "jantaku web table", play: "Play", games: "Stored games", score: "Score calculator",
    newTable: "New table", rules: "Rules", seat: "Seat", human: "Person", efficiency: "Efficiency bot",
    random: "Random bot", name: "Name", create: "Create table",
    strong: "Strong bot", review: "Review", analyse: "Analyse", league: "League",
    open: "Open", round: "Round", honba: "Honba", deposits: "Riichi sticks", wall: "Wall", dora: "Dora",
    you: "you", riichiBadge: "Riichi", yourTurn: "Your turn", waiting: "Waiting for other players",
    dahai: "Discard", reach: "Riichi", tsumo: "Tsumo", ron: "Ron", chi: "Chi", pon: "Pon",
    daiminkan: "Kan", ankan: "Kan", kakan: "Kan", ryukyoku: "Nine terminals", none: "Pass",
    yame: "End the game", continue: "Play on", chooseRiichi: "Choose the riichi discard",
    declareTenpai: "Exhaustive draw: show your tenpai hand, or stay silent (noten)?",
    card: "Referee's card", penalty: "Referee's penalty",
    cancel: "Cancel", handResult: "Hand result", ok: "OK", han: "han", fu: "fu", points: "points",
    yakuman: "yakuman", payments: "Payments", exhaustive: "Exhaustive draw", abortive: "Abortive draw",
    tenpai: "Tenpai", noten: "Noten", finalTable: "Final table", rank: "Rank", scoreCol: "Points",
    finalCol: "Rank points", newGame: "New game", winner: "Winner", from: "from",
    connectionLost: "Connection lost - reconnecting...", error: "Error", id: "Game",
    created: "Created", players: "Players", export: "Export", result: "Result", hand: "Hand",
    melds: "Melds", win: "Winning tile", calc: "Score", seatWind: "Seat wind", roundWind: "Round wind",
    uraDora: "Ura dora", winnerSeat: "Winner seat", language: "Language", noGames: "No stored games yet.",
    wins: "wins", draw: "Draw",
    player: "Player", dealer: "Dealer", calledBy: "called by", showWaits: "Waits", hideWaits: "Hide waits",
    shanten: "Shanten", noWaits: "Not tenpai", discardThen: "Discard", waitsOn: "Waiting on", furiten: "Furiten",
    pao: "Liability", fuItems: "Fu breakdown", nagashi: "Nagashi mangan", gameOver: "The game is over.",
    replay: "Replay", replayTitle: "Replay viewer", upload: "Open a log file (mjlog, tenhou.net/6, mjai)",
    first: "Start", prev: "Back", next: "Forward", last: "End", prevHand: "Previous hand", nextHand: "Next hand",
    step: "Step", of: "of", compare: "Compare with", nothing: "(none)", tilesTarget: "Clicking a tile adds it to",
    clear: "Clear", backspace: "Remove last", problems: "Problems", mangan: "Mangan", haneman: "Haneman",
    baiman: "Baiman", sanbaiman: "Sanbaiman", kazoe_yakuman: "Counted yakuman", "2x_yakuman": "Double yakuman",
    nine_terminals: "nine terminals", four_winds: "four winds", four_riichi: "four riichi", four_kans: "four kans",
    triple_ron: "triple ron", dahaiEvent: "discards", start: "Deal", ryukyokuEvent: "Draw", ura: "Ura dora",
    game: "Game", eventsLabel: "events", calcHint: "Build the hand by clicking tiles, or type it.",
    openMeld: "Open meld (chi/pon/kan)", closedKan: "Closed kan", doubleRiichi: "Double riichi", ippatsu: "Ippatsu",
    haitei: "Last tile", rinshan: "After a kan", chankan: "Robbing a kan",
    // 洁律 (jielu)
    fanPoints: "points", fanPoint: "point", wonBadge: "Won", scoreS: "S", fanValue: "value", halved: "halved",
    wildcards: "Wildcards", noWildcards: "no wildcards", extraWildcard: "extra", capped: "capped at",
    fullFan: "a 32-point fan", winOrder: "winner", order1: "1st", order2: "2nd", order3: "3rd", gain: "gain",
    completions: "Completed with one extra wildcard", noPoint: "no reading worth a point",
    three_winners: "three winners", wall_empty: "the wall is empty", reading: "Reading", pair: "pair",
    pointsMode: "points mode (x3, x2, x1)", originalMode: "original mode (3x(S-4))",
    jieluWaits: "Regular-form shanten, without wildcards; a hand may win whenever wildcards make it worth a point.",
    extraWildcards: "Extra wildcards (jielu)",
    defaultPlayer: "Player {n}", defaultBot: "{bot} {n}", copyLink: "Copy", copied: "Copied",
    selectedToCopy: "Selected: press Ctrl+C", reissue: "New link",
    spectatorLink: "Spectators (read-only)", spectating: "Watching (read-only)", tableLinks: "Links to this table",
  },
  zh: {
    title: "雀卓 网页牌桌", play: "对局", games: "牌谱", score: "点数计算",
    newTable: "新牌桌", rules: "规则", seat: "座位", human: "玩家", efficiency: "效率机器人",
    random: "随机机器人", name: "名字", create: "创建牌桌",
    strong: "强力机器人", review: "复盘", analyse: "规则分析", league: "联赛",
    open: "打开", round: "场", honba: "本场", deposits: "立直棒", wall: "余牌", dora: "宝牌指示牌",
    you: "你", riichiBadge: "立直", yourTurn: "轮到你了", waiting: "等待其他玩家",
    dahai: "打牌", reach: "立直", tsumo: "自摸", ron: "荣和", chi: "吃", pon: "碰",
    daiminkan: "杠", ankan: "暗杠", kakan: "加杠", ryukyoku: "九种九牌", none: "过",
    yame: "结束对局", continue: "继续", chooseRiichi: "选择立直宣言牌",
    declareTenpai: "流局：公开手牌宣告听牌，还是宣告未听？",
    card: "裁判出牌", penalty: "裁判处罚",
    cancel: "取消", handResult: "本局结果", ok: "确定", han: "番", fu: "符", points: "点",
    yakuman: "役满", payments: "收支", exhaustive: "荒牌流局", abortive: "途中流局",
    tenpai: "听牌", noten: "未听牌", finalTable: "终局", rank: "名次", scoreCol: "点数",
    finalCol: "顺位分", newGame: "新对局", winner: "和牌者", from: "放铳",
    connectionLost: "连接中断，正在重连……", error: "错误", id: "对局",
    created: "时间", players: "玩家", export: "导出", result: "结果", hand: "手牌",
    melds: "副露", win: "和了牌", calc: "计算", seatWind: "自风", roundWind: "场风",
    uraDora: "里宝牌指示牌", winnerSeat: "和牌者座位", language: "语言", noGames: "还没有保存的牌谱。",
    wins: "和了", draw: "流局",
    player: "玩家", dealer: "庄家", calledBy: "被鸣牌：", showWaits: "听牌", hideWaits: "隐藏听牌",
    shanten: "向听数", noWaits: "未听牌", discardThen: "打出", waitsOn: "听", furiten: "振听",
    pao: "包牌", fuItems: "符数明细", nagashi: "流局满贯", gameOver: "对局结束。",
    replay: "回放", replayTitle: "牌谱回放", upload: "打开牌谱文件（mjlog、tenhou.net/6、mjai）",
    first: "开始", prev: "后退", next: "前进", last: "结尾", prevHand: "上一局", nextHand: "下一局",
    step: "步", of: "/", compare: "对比规则", nothing: "（无）", tilesTarget: "点击牌加入",
    clear: "清空", backspace: "删除最后一张", problems: "问题", mangan: "满贯", haneman: "跳满",
    baiman: "倍满", sanbaiman: "三倍满", kazoe_yakuman: "累计役满", "2x_yakuman": "双倍役满",
    nine_terminals: "九种九牌", four_winds: "四风连打", four_riichi: "四家立直", four_kans: "四杠散了",
    triple_ron: "三家和了", dahaiEvent: "打出", start: "配牌", ryukyokuEvent: "流局", ura: "里宝牌",
    game: "对局", eventsLabel: "事件", calcHint: "点击牌来组成手牌，或直接输入。",
    openMeld: "副露（吃/碰/明杠）", closedKan: "暗杠", doubleRiichi: "两立直", ippatsu: "一发",
    haitei: "海底/河底", rinshan: "岭上开花", chankan: "抢杠",
    // 洁律
    fanPoints: "分", fanPoint: "分", wonBadge: "已和", scoreS: "S", fanValue: "原分", halved: "减半",
    wildcards: "万能牌", noWildcards: "无万能牌", extraWildcard: "额外", capped: "封顶",
    fullFan: "32分番种", winOrder: "和牌", order1: "第一位", order2: "第二位", order3: "第三位", gain: "得分",
    completions: "补一张万能牌后计分", noPoint: "不足1分",
    three_winners: "三人和牌", wall_empty: "无法摸牌", reading: "牌型", pair: "雀头",
    pointsMode: "积分制（×3、×2、×1）", originalMode: "原版计分（3×(S−4)）",
    jieluWaits: "按一般型（四组一对）计算、不含万能牌的向听数；只要用万能牌后至少1分即可和牌。",
    extraWildcards: "额外万能牌（洁律）",
    defaultPlayer: "玩家{n}", defaultBot: "{bot}{n}", copyLink: "复制", copied: "已复制",
    selectedToCopy: "已选中，请按 Ctrl+C", reissue: "换新链接",
    spectatorLink: "观战（只读）", spectating: "观战中（只读）", tableLinks: "本桌链接",
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

// A yaku or fan ({name, kanji, english, chinese}) in the chosen language (Japanese names beside English).
function yakuName(y) {
  if (lang() === "zh") return y.chinese || y.name;
  return y.english && y.kanji && y.english !== y.kanji ? `${y.english} (${y.kanji})` : (y.english || y.name);
}

// The value of a yaku or fan: han, yakuman (with its multiple) or points (洁律's additive fans).
function valueText(y) {
  if (y.unit === "yakuman") return t("yakuman") + (y.value > 1 ? ` ×${y.value}` : "");
  if (y.unit === "points") return `${y.value} ${t(y.value === 1 ? "fanPoint" : "fanPoints")}`;
  return `${y.value} ${t("han")}`;
}

function limitName(limit) { return t(limit); }

const WIND_NAMES = { en: { E: "East", S: "South", W: "West", N: "North" }, zh: { E: "东", S: "南", W: "西", N: "北" } };

function windName(w) { return WIND_NAMES[lang()][w] || w; }

// "E1" -> "East 1" / "东1局"
function roundLabel(name) {
  if (!name || !WIND_NAMES.en[name[0]]) return name || "";
  return lang() === "zh" ? `${windName(name[0])}${name.slice(1)}局` : `${windName(name[0])} ${name.slice(1)}`;
}

// mjai tile names ("5mr", "E", "P", "?") to the tile pictures' names ("0m", "1z", "5z", "back").
const MJAI_HONORS = { E: "1z", S: "2z", W: "3z", N: "4z", P: "5z", F: "6z", C: "7z" };
function fromMjai(name) {
  if (MJAI_HONORS[name]) return MJAI_HONORS[name];
  if (/^5[mps]r$/.test(name)) return "0" + name[1];
  if (/^[1-9][mps]$/.test(name)) return name;
  return "back";
}

// The order tiles are sorted in a hand (red five beside the fives).
function tileOrder(name) {
  const n = Number(name[0]) || 5;
  const suit = "mpsz".indexOf(name[1]);
  return suit * 20 + n * 2 + (name[0] === "0" ? 1 : 0);
}

// 洁律: a fan row's melds ("123m 456p 789s"), the wildcards as tile pictures ("3z→1z": the hand's own tile, or
// "extra", and what it stands for), and the line "S = 5 (value 11, halved once)".
function fanMelds(y) { return (y.melds || []).join(" "); }

function wildcardList(ws) {
  if (!ws.length) return el("span", { class: "wildcards none" }, t("noWildcards"));
  return el("span", { class: "wildcards" }, ...ws.map((w) => {
    const own = w.tile || "extra";
    return el("span", { class: "wildcard", "data-wildcard": `${own}→${w.stands_for}`, title: `${own}→${w.stands_for}` },
      w.tile ? tileImg(w.tile, "small") : t("extraWildcard"), "→", tileImg(w.stands_for, "small"));
  }));
}

function jieluScoreText(sc) {
  const notes = [`${t("fanValue")} ${sc.value}`];
  if (sc.full) notes.push(t("fullFan"));
  else if (sc.total > sc.value) notes.push(`${sc.total}, ${t("capped")} ${sc.value}`);
  if (sc.wildcards.length) notes.push(`${t("halved")} ×${sc.wildcards.length}`);
  return notes.join(", ");
}

function orderName(n) { return t(`order${n}`) || String(n); }
