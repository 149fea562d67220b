// The Analyse page: POST /api/analyse, then the key measures, the report's pictures and a link to the report.
"use strict";

const KEY = ["win_rate", "deal_in_rate", "draw_rate", "mean_win", "hands_per_game", "skill_share"];

function cell(tag, text) {
  const c = document.createElement(tag);
  c.textContent = text;
  return c;
}

function fmt(name, est) {
  const rate = /rate|share/.test(name);
  if (est.observed === 0) return `not observed (< ${(100 * est.ci[1]).toPrecision(2)}%)`;
  const f = (x) => (rate ? (100 * x).toFixed(1) + "%" : Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(2));
  return `${f(est.mean)} (${f(est.ci[0])} to ${f(est.ci[1])})`;
}

function flagged(data) {
  // the paired differences from the reference that Holm's correction flags (the report's headline)
  const p = document.createElement("p");
  if (!data.comparisons) return p;
  const parts = Object.entries(data.comparisons).map(
    ([name, c]) => `${name}: ${c.flagged.length ? c.flagged.join(", ") : "none"} (of ${c.tested})`);
  p.textContent = `Differences from ${data.reference} flagged after Holm's correction - ${parts.join("; ")}.`;
  return p;
}

function summary(data) {
  const names = Object.keys(data.rule_sets);
  const table = document.createElement("table");
  table.className = "data";
  const head = document.createElement("tr");
  head.append(cell("th", "measure"), ...names.map((n) => cell("th", `${n} (${data.rule_sets[n].games} games)`)));
  table.append(head);
  for (const m of KEY) {
    if (!names.some((n) => data.rule_sets[n].measures[m])) continue;
    const row = document.createElement("tr");
    row.append(cell("td", m), ...names.map((n) => {
      const est = data.rule_sets[n].measures[m];
      return cell("td", est ? fmt(m, est) : "-");
    }));
    table.append(row);
  }
  return table;
}

async function run(event) {
  event.preventDefault();
  const status = document.getElementById("status");
  const button = document.getElementById("run");
  const body = {
    rules: document.getElementById("rules").value,
    sweep: document.getElementById("sweep").value || null,
    games: Number(document.getElementById("games").value),
    seed: Number(document.getElementById("seed").value),
    bots: document.getElementById("bots").value,
  };
  button.disabled = true;
  status.textContent = "Playing the games...";
  try {
    const res = await fetch("/api/analyse", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await res.json();
    if (!res.ok) { status.textContent = `Error: ${data.error || res.status}`; return; }
    status.textContent = "Done.";
    document.getElementById("report-link").href = data.report;
    document.getElementById("summary").replaceChildren(flagged(data), summary(data));
    const figs = Array.from({ length: data.pictures || 4 }, (_, i) => i).map((i) => {
      const img = document.createElement("img");
      img.src = `${data.report}/${i}.png`;
      img.alt = `figure ${i + 1}`;
      img.addEventListener("error", () => img.remove());
      return img;
    });
    document.getElementById("figures").replaceChildren(...figs);
    document.getElementById("result").hidden = false;
  } catch (e) {
    status.textContent = `Error: ${e}`;
  } finally {
    button.disabled = false;
  }
}

async function showLimits() {
  try {
    const lim = await (await fetch("/api/analyse/limits")).json();
    document.getElementById("limits").textContent =
      `at most ${lim.games} games per rule set, ${lim.total_games} in all, ${lim.rule_sets} rule sets`;
    document.getElementById("games").max = lim.games;
    if (lim.available === false) {  // said before any click: the server lacks the lab extra
      document.getElementById("run").disabled = true;
      const status = document.getElementById("status");
      status.dataset.unavailable = "1";
      status.replaceChildren("This server cannot run analyses: its administrator installs them with ",
        Object.assign(document.createElement("code"), { textContent: lim.install }), " and restarts it.");
    }
  } catch (e) { /* the default text stays */ }
}

document.getElementById("analyse-form").addEventListener("submit", run);
showLimits();
