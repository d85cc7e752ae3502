// The rules page, /rules/{game}: how to play one game, in the page's
// language, from the documentation's rules (GET /rules/{game}.json).
"use strict";

async function start() {
  languageSwitch();
  await loadWords();
  const game = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop());
  const nav = document.getElementById("games");
  nav.replaceChildren(...["back-alley", "down-and-back"].map((g) =>
    el("a", {href: `/rules/${g}?lang=${LANG}`, class: g === game ? "current" : "",
             "aria-current": g === game ? "page" : null}, gameTitle(g))));
  const body = document.getElementById("rules-body");
  try {
    const rules = await api("GET", `/rules/${encodeURIComponent(game)}.json?lang=${encodeURIComponent(LANG)}`);
    body.replaceChildren(el("h2", {}, rules.title), ...rulesNodes(rules, game));
    document.title = `cardrules: ${rules.title}`;
  } catch (err) {
    body.replaceChildren(el("p", {}, t("No such game.")));
  }
  document.body.dataset.ready = "1";
  if (location.hash) {
    const target = document.getElementById(location.hash.slice(1));
    if (target) {
      target.classList.add("target");
      target.scrollIntoView({block: "start"});
    }
  }
}

start();
