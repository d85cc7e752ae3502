// Shared by the lobby and the table page: the seat tokens this browser
// holds, calls to the lobby API, and small helpers for building the page.
"use strict";

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
  const label = code === "back" ? "a card face down" : code;
  return el("img", Object.assign({src: `/cards/${code}.svg`, alt: label, title: label,
                                  class: "card-img", draggable: "false"}, attrs || {}));
}

// A game's name for people from the name the API uses ("back_alley" -> "Back alley").
function gameTitle(games, name) {
  for (const game of games || []) {
    if (game.name === name) return game.title || name;
  }
  return String(name).replace(/[_-]+/g, " ").replace(/^./, (c) => c.toUpperCase());
}
