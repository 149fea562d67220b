// The stored games page: GET /api/games as a table with export links.
"use strict";

async function showGames() {
  const data = await (await fetch("/api/games")).json();
  const box = document.getElementById("game-list");
  if (!data.games.length) { box.replaceChildren(el("p", {}, t("noGames"))); return; }
  const head = el("tr", {}, ...["id", "created", "rules", "players", "result", "export"].map((k) => el("th", {}, t(k))));
  const rows = data.games.map((g) => {
    const s = g.summary || {};
    const players = g.players.map((p, i) => `${p.name}${s.final ? ` ${s.final[i] > 0 ? "+" : ""}${s.final[i]}` : ""}`).join(", ");
    return el("tr", {}, el("td", {}, g.id), el("td", {}, g.created), el("td", {}, g.rules), el("td", {}, players),
      el("td", {}, s.ranks ? s.ranks.join(" / ") : g.status),
      el("td", {}, el("a", { href: `/replay?game=${encodeURIComponent(g.id)}`, class: "replay-link" }, t("replay")), " ",
        el("a", { href: `/review?game=${encodeURIComponent(g.id)}`, class: "review-link" }, t("review")), " ",
        // tenhou.net/6 holds riichi games only (a 洁律 game exports as mjai)
        ...(g.exports || ["tenhou6", "mjai"]).map((f) => [el("a", { href: `/api/games/${g.id}/export?format=${f}`, "data-format": f },
          f === "tenhou6" ? "tenhou.net/6" : f), " "]).flat()));
  });
  box.replaceChildren(el("table", { class: "data" }, head, ...rows));
}

setupLanguage(showGames);
showGames();
