// The score calculator page: sends the form to POST /api/score and shows the yaku, fu and payments.
"use strict";

const WIND_SEAT = { E: 0, S: 1, W: 2, N: 3 };

async function setup() {
  const meta = await (await fetch("/api/presets")).json();
  const rules = document.getElementById("rules");
  for (const p of meta.presets) rules.append(el("option", { value: p }, p));
  rules.value = meta.default;
  document.getElementById("score-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = (id) => document.getElementById(id).value.trim();
    const seatWind = v("seat_wind");
    const req = {
      hand: v("hand"), win: v("win"), melds: v("melds") ? v("melds").split(/\s+/) : [],
      tsumo: document.getElementById("tsumo").checked, riichi: document.getElementById("riichi").checked,
      dora: v("dora"), ura: v("ura"), seat_wind: seatWind, round_wind: v("round_wind"),
      honba: Number(v("honba") || 0), winner: WIND_SEAT[seatWind], rules: rules.value,
    };
    const out = document.getElementById("score-result");
    const res = await fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(req) });
    const data = await res.json();
    if (!res.ok) { out.replaceChildren(el("p", { class: "badge" }, data.error)); return; }
    const total = data.yakuman ? `${t("yakuman")} · ${data.points} ${t("points")}` : `${data.han} ${t("han")} ${data.fu} ${t("fu")} · ${data.points} ${t("points")}`;
    out.replaceChildren(
      el("div", {}, ...Array.from(req.hand.matchAll(/(\d+)([mpsz])/g)).flatMap((m) => [...m[1]].map((d) => tileImg(d + m[2])))),
      el("table", { class: "data" }, ...data.yaku.map(([name, value]) => el("tr", {}, el("td", {}, name), el("td", {}, data.yakuman ? t("yakuman") : `${value} ${t("han")}`)))),
      el("p", {}, total + (data.limit ? ` (${data.limit})` : "")),
      el("p", {}, `${t("payments")}: ${data.payments.map((p) => (p > 0 ? "+" : "") + p).join(" / ")}`),
    );
  });
}

setupLanguage();
setup();
