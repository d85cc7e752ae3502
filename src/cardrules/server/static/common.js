// Shared by the lobby, the table and the rules page: the page's language and
// its words, the seat tokens this browser holds, calls to the lobby API, and
// small helpers for building the page.
//
// Every word a person reads comes from the server's catalogs
// (/words/{lang}.json, the entries of the context "web"): the scripts hold
// only the English message ids, passed through t().
"use strict";

// The page's language: the server wrote it into <html lang> (from ?lang=,
// else the cookie the language switch sets, else the browser's languages).
const LANG = document.documentElement.lang || "en";
let WORDS = {};

// The words of the page's language, fetched once before a page starts.
async function loadWords() {
  try {
    const response = await fetch(`/words/${encodeURIComponent(LANG)}.json`);
    const data = await response.json();
    WORDS = (data && data.words) || {};
  } catch (err) {
    WORDS = {};   // the English ids are shown
  }
}

// Marks a message for the catalog where it is written, to be shown with t() later.
function N(message) {
  return message;
}

// A message in the page's language, its {fields} filled (t of "round {round}" with {round: 3}).
function t(message, fields) {
  const text = Object.prototype.hasOwnProperty.call(WORDS, message) ? WORDS[message] : message;
  if (!fields) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(fields, name) ? String(fields[name]) : whole);
}

const SUIT_SYMBOLS = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};

// Card codes in a text written as the faces show them: "TS QH" -> "10♠ Q♥".
function faces(text) {
  return String(text).replace(/(^|[^A-Za-z0-9])([2-9TJQKA])([SHDC])(?![A-Za-z0-9])/g,
    (whole, before, rank, suit) => `${before}${rank === "T" ? "10" : rank}${SUIT_SYMBOLS[suit]}`);
}

// One card's name for people and screen readers ("10♠"; the jokers by name).
function cardName(code) {
  if (code === "back") return t("a card face down");
  if (code === "BB") return t("big blooper (joker)");
  if (code === "LB") return t("little blooper (joker)");
  return faces(code);
}

// The language switch in the page's header: remembered in a cookie, and the
// page loaded again in the language chosen.
function languageSwitch() {
  const select = document.getElementById("lang-switch");
  if (!select) return;
  select.value = LANG;
  select.addEventListener("change", () => {
    const lang = select.value;
    document.cookie = `cardrules-lang=${lang}; path=/; max-age=31536000; samesite=lax`;
    const params = new URLSearchParams(location.search);
    params.set("lang", lang);
    location.search = params.toString();
  });
}

const Seats = {
  // localStorage["cardrules.seats"] = {"<table id>": [{"seat": 0, "token": "..."}, ...]}
  KEY: "cardrules.seats",
  all() {
    try {
      const data = JSON.parse(localStorage.getItem(this.KEY) || "{}");
      return data && typeof data === "object" ? data : {};
    } catch (err) {
      return {};
    }
  },
  save(data) {
    localStorage.setItem(this.KEY, JSON.stringify(data));
  },
  of(table) {
    const list = this.all()[String(table)];
    return Array.isArray(list) ? list : [];
  },
  add(table, seat, token) {
    const data = this.all();
    const key = String(table);
    const list = (data[key] || []).filter((s) => s.seat !== seat);
    list.push({seat: seat, token: token});
    list.sort((a, b) => a.seat - b.seat);
    data[key] = list;
    this.save(data);
  },
  forget(table) {
    const data = this.all();
    delete data[String(table)];
    this.save(data);
  },
};

async function api(method, path, body) {
  const options = {method: method, headers: {"Accept": "application/json"}};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const message = data && (data.message || data.error || data.detail);
    const error = new Error(message || `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.data = data;
    throw error;
  }
  return data;
}

// An element with attributes and children: el("button", {class: "x", "data-action": "pass"}, "pass").
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A card picture served by the package (cardrules.svg.card_svg); "back" is face down.
function cardImage(code, attrs) {
  const label = cardName(code);
  return el("img", Object.assign({src: `/cards/${code}.svg`, alt: label, title: label,
                                  class: "card-img", draggable: "false"}, attrs || {}));
}

// A game's title in the page's language, from the name the API uses.
function gameTitle(name) {
  const key = String(name).replace(/_/g, "-");
  if (key === "back-alley") return t("Back Alley");
  if (key === "down-and-back") return t("Down and Back");
  return String(name).replace(/[_-]+/g, " ");
}

// The bots the games register, by name (any other: "bot: NAME").
const BOT_LABELS = {random: N("bot: random"), greedy: N("bot: greedy"), heuristic: N("bot: heuristic"),
                    search: N("bot: search"), dd: N("bot: double dummy")};

function botLabel(name) {
  return Object.prototype.hasOwnProperty.call(BOT_LABELS, name) ? t(BOT_LABELS[name]) : t("bot: {name}", {name: name});
}

// The link to a rule on the rules page ("BA-31" -> /rules/back-alley#BA-31).
function ruleLink(rule) {
  const game = rule.startsWith("BA-") ? "back-alley" : rule.startsWith("DB-") ? "down-and-back" : null;
  if (!game) return document.createTextNode(rule);
  return el("a", {href: `/rules/${game}?lang=${LANG}#${rule}`, class: "rule-link", target: "_blank",
                  rel: "noopener"}, rule);
}

// The rules of a game (GET /rules/{game}.json) as page elements: each rule
// with its id as an anchor, so /rules/back-alley#BA-31 and a refusal's link
// land on it.
function rulesNodes(rules, game) {
  const nodes = [];
  for (const section of rules.sections || []) {
    if (section.heading) nodes.push(el("h3", {}, section.heading));
    for (const item of section.items || []) {
      if (!item.id) {
        nodes.push(el("p", {}, item.text));
        continue;
      }
      const title = item.title && item.title !== item.id ? item.title.replace(`${item.id} -- `, "") : null;
      nodes.push(el("div", {class: "rule", id: item.id, "data-rule": item.id},
        el("p", {class: "rule-title"}, el("a", {href: `/rules/${game}?lang=${LANG}#${item.id}`, class: "rule-id"}, item.id),
           title ? ` ${title}` : ""),
        el("p", {}, item.text)));
    }
  }
  return nodes;
}
