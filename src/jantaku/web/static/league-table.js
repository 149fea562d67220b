// A player's page at their table (/league/table): sign in with the personal code, enter the table's hands and
// confirm the others' from a phone. An entry is kept on the phone (localStorage) until the server has it: with
// no network it waits, and it is sent again, in order, when the network is back. Each carries its own request
// id, so an entry whose answer was lost is recognised by the server, never stored twice.
"use strict";

const CREDS_KEY = "leaguePlayer";
const QUEUE_KEY = "leagueQueue";

const creds = () => JSON.parse(localStorage.getItem(CREDS_KEY) || "null");
const queued = () => JSON.parse(localStorage.getItem(QUEUE_KEY) || "[]");

function saveQueue(q) {
  localStorage.setItem(QUEUE_KEY, JSON.stringify(q));
  showQueue();
}

function newRequestId() {
  // crypto.randomUUID exists only on https and localhost pages; a club's server is often plain http
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function tablePage() {
  state.authHeaders = () => {
    const c = creds();
    return c ? { "X-League-Player": c.player, "X-League-Pin": c.pin } : {};
  };
  state.sendEntry = queueEntry;
  state.entryActions = tableActions;
  mountEntryForm();
  $("correct").parentNode.append(" (while the table has not confirmed it)");
  const events = (await api("/events")).events;
  $("t-event").replaceChildren(...events.map((e) => el("option", { value: e.name }, e.name)));
  const fromLink = new URLSearchParams(location.search).get("event");
  if (fromLink) $("t-event").value = fromLink;
  $("t-event").addEventListener("change", () => act(loadPlayers));
  $("t-login").addEventListener("click", () => act(signIn));
  $("t-signout").addEventListener("click", () => {
    if (queued().length && !confirm("Entries not sent yet stay on this phone. Sign out anyway?")) return;
    localStorage.removeItem(CREDS_KEY);
    location.reload();
  });
  $("t-games").addEventListener("change", () => act(() => openGame(Number($("t-games").value))));
  window.addEventListener("online", () => act(flush));
  window.addEventListener("offline", () => showQueue());
  setInterval(() => act(tick), 5000);
  setInterval(tickClocks, 1000);
  const c = creds();
  if (c) {
    $("t-event").value = c.event;
    await enter(c);
  } else {
    await loadPlayers();
  }
  showQueue();
}

async function loadPlayers() {
  const ev = $("t-event").value;
  if (!ev) return;
  const data = await api(`/events/${enc(ev)}`);
  $("t-player").replaceChildren(...data.players.map((p) => el("option", { value: p.name }, p.name)));
}

async function signIn() {
  const c = { event: $("t-event").value, player: $("t-player").value, pin: $("t-pin").value.trim() };
  localStorage.setItem(CREDS_KEY, JSON.stringify(c));
  try {
    await enter(c);
  } catch (e) {
    if (!e.offline) localStorage.removeItem(CREDS_KEY);
    throw e;
  }
}

async function enter(c) {
  // signed in (now, or before a reload): the player's games, the one in play opened
  const r = await api(`/events/${enc(c.event)}/player-login`, { body: {} });
  state.event = c.event;
  $("signin").classList.add("hidden");
  $("me").classList.remove("hidden");
  $("t-who").textContent = `${r.player}, ${c.event}`;
  $("public-link").href = `/league/event?name=${enc(c.event)}`;
  const hands = r.games.filter((g) => g.source === "hands");
  $("t-games").replaceChildren(...hands.map((g) => el("option", { value: g.game },
    `Game ${g.game}, table ${g.table} (${g.status === "playing" ? "in play" : "over"})`)));
  await loadClocks();
  if (!hands.length) return say("You have no game to enter yet: the organiser seats the round.", true);
  await openGame(hands[0].game);
  state.clockRound = state.gameData.round;  // this table's round clock only
  tickClocks();
  say(`Signed in as ${r.player}.`, true);
}

function tableActions(e, g) {
  // who wrote the entry, who has still to confirm it, and a Confirm button when it waits for this player
  const out = [...waitingNote(e)];
  const c = creds();
  const mine = c ? g.players.indexOf(c.player) : -1;
  if (e.confirmed && mine >= 0 && !e.confirmed.includes(mine)) {
    const b = el("button", { class: "confirm-entry", "data-seq": e.seq }, "Confirm");
    b.addEventListener("click", () => act(async () => {
      await api(`/games/${g.id}/confirm`, { body: { seq: e.seq, version: g.version } });
      await openGame(g.id);
      say(`Entry ${e.seq} confirmed.`, true);
    }));
    out.push(b);
  }
  return out;
}

async function queueEntry(entry, correct) {
  // kept on the phone first, then sent: the numbers follow the entries waiting before it
  const g = state.gameData;
  const q = queued();
  const before = q.filter((x) => x.game === g.id && !x.correct).length;
  const n = g.entries.length + before;
  q.push({ game: g.id, entry, correct, expected_seq: correct ? n : n + 1, request_id: newRequestId(), made: Date.now() });
  saveQueue(q);
  resetForm(g);
  await flush();
}

async function flush() {
  // send what waits, oldest first; stop at the first that cannot go (no network, or refused: shown)
  if (state.flushing) return;
  state.flushing = true;
  let sent = 0;
  try {
    for (let q = queued(); q.length; q = queued()) {
      const item = q[0];
      const body = { entry: item.entry, correct: item.correct, expected_seq: item.expected_seq, request_id: item.request_id };
      let out;
      try {
        out = await api(`/games/${item.game}/entries`, { body });
      } catch (e) {
        if (e.offline) {
          say(`No network: ${q.length} entr${q.length === 1 ? "y waits" : "ies wait"} on this phone and will be sent when it is back.`);
          return;
        }
        item.error = e.message;
        saveQueue(q);
        say(`Entry not stored: ${e.message}`);
        return;
      }
      q.shift();
      saveQueue(q);
      sent += 1;
      say(`Entry ${out.seq} ${out.repeat ? "was stored already" : item.correct ? "corrected" : "stored"}.`, true);
    }
  } finally {
    state.flushing = false;
    showQueue();
  }
  if (sent && state.game) await openGame(state.game);
}

function showQueue() {
  const q = queued();
  const net = $("net");
  if (!net) return;
  net.dataset.online = navigator.onLine ? "1" : "0";
  net.textContent = q.length ? `${q.length} entr${q.length === 1 ? "y" : "ies"} not sent yet${navigator.onLine ? "" : " (no network)"}` : "";
  $("queue").replaceChildren(...q.map((item, i) => {
    const players = (state.gameData && state.gameData.players) || [0, 1, 2, 3].map(String);
    const li = el("li", { class: item.error ? "refused" : "waiting" },
      `Game ${item.game}: ${item.entry.kind} ${describe(item.entry, players)}${item.error ? ` - refused: ${item.error} ` : " "}`);
    if (item.error) {
      const retry = el("button", { class: "secondary" }, "Send again");
      retry.addEventListener("click", () => act(async () => { delete item.error; const all = queued(); all[i] = item; saveQueue(all); await flush(); }));
      const drop = el("button", { class: "secondary" }, "Discard");
      drop.addEventListener("click", () => { const all = queued(); all.splice(i, 1); saveQueue(all); });
      li.append(retry, drop);
    }
    return li;
  }));
}

async function tick() {
  // every few seconds: send what waits, else show what the rest of the table entered or confirmed
  if (!creds() || document.hidden) return;
  if (queued().some((x) => !x.error)) return flush();
  if (!state.game || state.flushing) return;
  let g;
  try {
    g = await api(`/games/${state.game}`);
  } catch (e) {
    if (e.offline) return showQueue();
    throw e;
  }
  const before = state.gameData;
  const same = before && before.version === g.version && JSON.stringify(before.entries) === JSON.stringify(g.entries);
  if (!same) {
    showGame(g);  // the form (what this player is typing) is left alone
    if (!before || before.version !== g.version) say("The table's entries changed: check them.", true);
  }
}

PAGES.table = tablePage;
