// The play page's board drawn as a square mahjong table: the four rivers around the centre, each facing its
// seat (6 tiles a row, the third row running on, as Tenhou draws it), each seat's melds at its right-hand edge
// with the called tile turned toward the seat it came from, the other seats' closed hands along their edges,
// riichi sticks in front of each declarer, and in the centre the round, honba, riichi sticks, tiles left and each
// seat's wind and score (the difference to yours on hover or tap). The dora indicators (with the dora they make)
// sit in the table's corner. Each seat's side is drawn as if it were the bottom one and turned to its place
// (table.css); play.js calls renderPlayer(box, player) and renderCenter(), the replay viewer (replay.js)
// renderPlayer and renderDora. Both pages define the global `view` these read and isActing(seat).
"use strict";

Object.assign(TEXT.en, {
  doraIndicators: "Dora indicators", doraMade: "Dora", tilesLeft: "Tiles left", toYou: "to you",
  riichiStick: "Riichi stick",
});
Object.assign(TEXT.zh, {
  doraIndicators: "宝牌指示牌", doraMade: "宝牌", tilesLeft: "余牌", toYou: "与你相差",
  riichiStick: "立直棒",
});

const SIDEWAYS = 4 / 3;  // a tile turned sideways is as wide as a tile is tall (in tile widths)

// The dora an indicator makes (the next tile of its suit, winds and dragons each in their own cycle).
function doraOf(indicator) {
  const n = Number(indicator[0]) || 5;  // a red five ("0m") indicates the six
  const suit = indicator[1];
  if (suit !== "z") return `${(n % 9) + 1}${suit}`;
  return n <= 4 ? `${(n % 4) + 1}z` : `${((n - 5 + 1) % 3) + 5}z`;
}

// A meld's tiles as the owner sees them, left to right: the called tile turned sideways on the side of the seat
// it came from (source 3: the left, 2: across, the middle, 1: the right), an added kan's tile laid on the called
// one, a closed kan with its two end tiles face down.
function meldLayout(m) {
  if (m.type === "ankan") return m.tiles.map((tile, i) => ({ tile: i === 0 || i === 3 ? "back" : tile }));
  const rest = [...m.tiles];
  const take = (tile) => { const i = rest.indexOf(tile); if (i >= 0) rest.splice(i, 1); };
  if (m.type === "kakan") {
    take(m.tiles[m.tiles.length - 1]);  // the added tile (listed last)
    take(m.called);
  } else if (m.called !== null) {
    take(m.called);
  }
  const called = { tile: m.called, sideways: true };
  if (m.type === "kakan") called.added = m.tiles[m.tiles.length - 1];
  const plain = rest.map((tile) => ({ tile }));
  if (m.called === null) return plain;
  const source = m.type === "chi" ? 3 : m.source;
  if (source === 3) return [called, ...plain];
  if (source === 1) return [...plain, called];
  return [plain[0], called, ...plain.slice(1)];  // across: the second tile
}

function meldTiles(m, small) {
  const span = el("span", { class: "meld", title: m.text, "data-meld": m.type });
  for (const part of meldLayout(m)) {
    const size = small ? "small" : "";
    if (part.added) {  // an added kan: the added tile lies on the called one
      span.append(el("span", { class: "kakan-stack" }, tileImg(part.added, `sideways added ${size}`.trim()),
        tileImg(part.tile, `sideways ${size}`.trim())));
    } else {
      span.append(tileImg(part.tile, [part.sideways ? "sideways" : "", size].filter(Boolean).join(" ")));
    }
  }
  return span;
}

// A river: every discard in order (so that pace.js finds discard i as child i); a called tile stays in the list but
// takes no place, as in Tenhou; rows of 6, the third running on; a riichi tile (or, when it was called, the next
// one) turned sideways. Positions are in river-tile units (table.css: --rw wide, --rh tall).
function riverElement(p) {
  const river = el("div", { class: "river", "data-seat": String(p.seat) });
  let x = 0, row = 0, inRow = 0, turnNext = false;
  for (const r of p.river) {
    const called = r.called_by !== null;
    const cls = [called ? "called" : "", r.tsumogiri ? "tsumogiri" : ""];
    const img = tileImg(r.tile, cls.filter(Boolean).join(" "));
    if (r.riichi) img.title = t("riichiBadge");
    if (called) {
      img.title = `${t("calledBy")} ${view.players[r.called_by].name}`;
      turnNext = turnNext || r.riichi;
      river.append(img);
      continue;
    }
    if (inRow === 6 && row < 2) { row += 1; x = 0; inRow = 0; }
    const sideways = r.riichi || turnNext;
    turnNext = false;
    if (sideways) img.classList.add("sideways");
    img.style.setProperty("--x", String(x));
    img.style.setProperty("--y", String(row));
    x += sideways ? SIDEWAYS : 1;
    inRow += 1;
    river.append(img);
  }
  return river;
}

function scoreDiff(p) {
  const mine = view.spectator ? null : view.players[view.seat].score;
  if (mine === null || p.seat === view.seat) return null;
  const d = p.score - mine;
  return d > 0 ? `+${d}` : String(d);
}

// The seat's label at its edge of the centre: wind and score (the difference to yours on hover or tap), badges.
function seatLabel(p) {
  const diff = scoreDiff(p);
  const points = el("span", { class: "points", "data-score": String(p.score) }, String(p.score));
  if (diff !== null) {
    points.title = `${diff} ${t("toYou")}`;
    points.dataset.diff = diff;
    points.addEventListener("click", () => {
      points.textContent = points.textContent === diff ? String(p.score) : diff;
      points.classList.toggle("showing-diff", points.textContent === diff);
    });
  }
  // the dealer's wind in red (its title says so); a riichi shows as the stick in front of the label
  const dealer = p.seat === view.round.dealer;
  const wind = el("span", { class: dealer ? "wind dealer" : "wind", title: dealer ? t("dealer") : "" }, windName(p.wind));
  return el("div", { class: p.riichi ? "seat-label riichi" : "seat-label", "data-dealer": dealer ? "1" : "0" }, wind, " ", points);
}

// The seat's name, at the left-hand end of its edge of the table.
function seatName(p) {
  const you = p.seat === view.seat && !view.spectator ? ` (${t("you")})` : "";
  return el("h3", { class: "seat-name", title: `${p.name}${you}` }, `${p.name}${you}`);
}

function renderPlayer(box, p) {
  const win = p.won ? (view.wins || []).find((w) => w.seat === p.seat) : null;
  // a seat's box is drawn again only when something it shows changed: a step changes one or two seats, and
  // drawing all four boxes at every step kept a browser a third busy while a table played at its pace
  const key = JSON.stringify([p, win, isActing(p.seat), view.seat, !!view.spectator, view.round.dealer,
    view.players.map((q) => [q.name, q.score]), lang(), !!view.hold]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.dataset.draws = String(Number(box.dataset.draws || 0) + 1);
  const label = seatLabel(p);
  const won = p.won ? el("span", { class: "badge won", "data-won": String(p.seat) }, t("wonBadge"),
    win ? ` · ${t("scoreS")} ${win.score} · ${signed(win.payments[p.seat])}` : "") : null;
  const stick = p.riichi ? el("div", { class: "riichi-stick", title: t("riichiStick"), "data-seat": String(p.seat) }) : null;
  const melds = el("div", { class: "melds" }, ...p.melds.map((m) => meldTiles(m, true)));
  let hidden = p.seat === view.seat && !view.spectator ? null
    : el("div", { class: "concealed" }, ...Array.from({ length: Math.min(p.hand_count, 14) }, () => tileImg("back", "mini")));
  if (p.hand && (p.seat !== view.seat || view.spectator)) {  // a spectator's view once the game is over: every hand
    hidden = el("div", { class: "concealed shown-hand" }, ...p.hand.map((x) => tileImg(x, "small")),
      p.drawn ? tileImg(p.drawn, "small drawn") : null);  // the replay viewer: a drawn tile apart
  }
  if (win && (p.seat !== view.seat || view.spectator)) {  // 洁律: a winner's hand is open while the others play on
    hidden = el("div", { class: "concealed won-hand" }, ...win.hand.map((x) => tileImg(x, "small")),
      win.win_tile && win.from !== null ? tileImg(win.win_tile, "small win-tile") : null);
  }
  const edge = el("div", { class: "edge" }, seatName(p), won, hidden, melds);
  box.replaceChildren(...[label, stick, riverElement(p), edge].filter(Boolean));
  box.dataset.seat = String(p.seat);
  const acting = isActing(p.seat);
  box.classList.toggle("acting", acting);
  // the person's own turn: the only one its label pulses for (table.css)
  box.classList.toggle("you-act", acting && p.seat === view.seat && !view.spectator);
  box.classList.toggle("won", !!p.won);
}

function renderCenter() {
  const r = view.round;
  const center = document.getElementById("center");
  const jielu = view.family === "jielu";
  center.replaceChildren(...[
    el("div", { class: "round-name" }, roundLabel(r.name) || `${windName(r.wind)} ${r.number}`),
    jielu ? null : el("div", { class: "sticks" }, `${r.honba} ${t("honba")} · ${t("deposits")} ${r.deposits}`),
    el("div", { id: "wall-count" }, `${t("tilesLeft")} ${r.tiles_left}`),
    el("div", { class: "rules-name" }, view.rules),
    jielu ? el("div", { class: "rules-name", id: "jielu-mode" }, t(view.mode === "original" ? "originalMode" : "pointsMode")) : null,
  ].filter(Boolean));
  renderDora(jielu ? null : r.dora_indicators);
}

// The table's corner: the dora indicators and the dora they make (null: a 洁律 table, which has none).
function renderDora(indicators) {
  const dora = document.getElementById("dora");
  dora.hidden = indicators === null;
  if (indicators === null) return;
  dora.replaceChildren(
    el("div", { class: "dora-label" }, t("doraIndicators")),
    el("div", { class: "dora-row indicators" }, ...indicators.map((d) => tileImg(d, "small"))),
    el("div", { class: "dora-label" }, t("doraMade")),
    el("div", { class: "dora-row made" }, ...indicators.map((d) => tileImg(doraOf(d), "small"))),
  );
}
