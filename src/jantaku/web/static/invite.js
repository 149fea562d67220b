// Seats and invitations: the creator's panel of links (an invitation per open seat, to copy or replace; which
// seats are taken; the spectators' link) and the page an invitation opens (it takes the seat, once).
// A claimed seat's secret is its holder's alone: the creator's panel shows that the seat is taken, never its link.
"use strict";

Object.assign(TEXT.en, {
  links: "Send each person their invitation: the first to open it takes the seat.",
  yourSeat: "Your seat", yourSeatNone: "none (I only send the invitations)", goToSeat: "Go to your seat",
  seatYou: "you", seatTaken: "taken", seatOpen: "invitation:",
  reissueHint: "Replace this invitation: the old link stops working",
  claiming: "Taking the seat…", claimFailed: "This invitation cannot be used",
  leaveSeat: "Leave this seat", leaveConfirm: "Leave this seat? Your link stops working and the table's creator can invite someone else.",
  leftSeat: "You left the seat.",
});
Object.assign(TEXT.zh, {
  links: "把邀请链接发给每位玩家：最先打开链接的人得到这个座位。",
  yourSeat: "你的座位", yourSeatNone: "不入座（只发邀请）", goToSeat: "进入你的座位",
  seatYou: "你", seatTaken: "已入座", seatOpen: "邀请链接：",
  reissueHint: "换一个邀请链接，旧链接随即失效",
  claiming: "正在入座…", claimFailed: "此邀请链接无法使用",
  leaveSeat: "离开座位", leaveConfirm: "确定离开座位吗？你的链接将失效，创建者可以邀请其他人。",
  leftSeat: "你已离开座位。",
});

// The creator keeps the table's owner token, its own seat's link and the spectators' link in this browser only.
function ownerKey(id) { return `jantaku-owner-${id}`; }

function saveOwnerLinks(table) {
  const mine = table.seats.find((s) => s.kind === "human" && s.claimed);
  localStorage.setItem(ownerKey(table.id), JSON.stringify({
    owner: table.owner_token, mine: mine ? { seat: mine.seat, link: mine.link } : null, spectator: table.spectator_link,
  }));
}

function ownerLinks(id) {
  try { return JSON.parse(localStorage.getItem(ownerKey(id)) || "null"); } catch { return null; }
}

function flash(button, text) {
  const label = button.textContent;
  button.textContent = text;
  setTimeout(() => { button.textContent = label; }, 1500);
}

// Copy a link: the clipboard where the browser allows it, else the link's text is selected for the person to copy.
function copyButton(link) {
  const button = el("button", { type: "button", class: "secondary copy-link" }, t("copyLink"));
  button.addEventListener("click", async () => {
    try {
      if (!navigator.clipboard || !navigator.clipboard.writeText) throw new Error("no clipboard");
      await navigator.clipboard.writeText(link.href);
      button.dataset.copied = "clipboard";
      flash(button, t("copied"));
    } catch {
      const range = document.createRange();
      range.selectNodeContents(link);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      button.dataset.copied = "selected";
      flash(button, t("selectedToCopy"));
    }
  });
  return button;
}

// The creator's panel: asks the server which seats are taken (and the invitations of the open ones).
async function renderLinks(list, id) {
  const info = ownerLinks(id);
  if (!info) return false;
  const answer = await api("GET", `/api/tables/${encodeURIComponent(id)}/invitations?token=${encodeURIComponent(info.owner)}`);
  const rows = answer.seats.map((s) => {
    const head = `${t("seat")} ${s.seat + 1} (${s.name}): `;
    if (info.mine && info.mine.seat === s.seat) {
      const link = el("a", { href: new URL(info.mine.link, location.href).href, class: "own-link" }, t("seatYou"));
      return el("li", { "data-seat": String(s.seat), "data-state": "yours" }, head, link);
    }
    if (s.claimed) return el("li", { "data-seat": String(s.seat), "data-state": "taken" }, head, el("span", { class: "badge taken" }, t("seatTaken")));
    const url = new URL(s.link, location.href).href;
    const link = el("a", { href: url, class: "seat-link" }, url);
    const reissue = el("button", { type: "button", class: "secondary reissue-link", "data-seat": String(s.seat), title: t("reissueHint") }, t("reissue"));
    reissue.addEventListener("click", () => reissueInvite(id, s.seat, list).catch((e) => showError(e.message)));
    return el("li", { "data-seat": String(s.seat), "data-state": "open" }, head, `${t("seatOpen")} `, link, " ", copyButton(link), reissue);
  });
  if (answer.spectator_link) {
    const url = new URL(answer.spectator_link, location.href).href;
    const link = el("a", { href: url, class: "spectator-link" }, url);
    rows.push(el("li", { "data-seat": "spectator" }, `${t("spectatorLink")}: `, link, " ", copyButton(link)));
  }
  list.replaceChildren(...rows);
  return true;
}

// A new invitation for a seat nobody holds (the old one is refused from then on).
async function reissueInvite(id, seat, list) {
  const info = ownerLinks(id);
  await api("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/reissue`, { token: info.owner });
  await renderLinks(list, id);
}

// The page an invitation opens: take the seat (once; this browser remembers the seat it took), then go to it.
async function claimInvite(id, invite) {
  const key = `jantaku-claimed-${id}-${invite}`;
  let link = localStorage.getItem(key);
  if (!link) {
    document.getElementById("status").textContent = t("claiming");
    try {
      link = (await api("POST", `/api/tables/${encodeURIComponent(id)}/claim`, { invite })).link;
    } catch (e) {
      const status = document.getElementById("status");
      status.replaceChildren(el("strong", {}, t("claimFailed")), ": ", e.message);
      status.dataset.claim = "refused";
      return;
    }
    localStorage.setItem(key, link);
  }
  location.replace(link);
}

// The seat's holder leaves it: the link stops working and the creator may invite someone else.
async function leaveSeat(id, token) {
  if (!confirm(t("leaveConfirm"))) return;
  await api("POST", `/api/tables/${encodeURIComponent(id)}/leave`, { token });
  if (socket) socket.fatal = true;
  document.getElementById("status").textContent = t("leftSeat");
}
