// The lobby: the games the server offers, a form to create a table, the open
// tables (join a free seat or watch), and the seats this browser holds.
"use strict";

let GAMES = [];

// Each setting's label and the hint under its box (unknown ones: their name).
const SETTINGS = {
  num_players: {label: N("Players"), hint: N("How many seats the table has.")},
  max_hand_size: {label: N("Largest hand"), hint: N("From 1 to 13 cards: the deals grow to this many cards each, then shrink back to one.")},
  ante: {label: N("Ante"), hint: N("The chips each player puts in the pot every round (1 or more).")},
  rounds: {label: N("Rounds"), optional: true, hint: N("How many rounds are played; leave it empty to play on with no limit.")},
};

function normaliseGames(data) {
  const list = (data && data.games) || [];
  return list.map((g) => ({
    name: g.game,
    settings: g.settings || {},
    bots: g.bots || [],
    defaultBot: g.default_bot || (g.bots || [])[0] || null,
    players: Array.isArray(g.players) ? g.players : [],
  }));
}

function currentGame() {
  const name = document.getElementById("game").value;
  return GAMES.find((g) => g.name === name) || GAMES[0];
}

// How many seats the form shows: the num_players setting when the game has
// one, else the number the server gives (a fixed table size), else 4.
function seatCount(game) {
  const input = document.getElementById("setting-num_players");
  if (input) {
    const n = parseInt(input.value || input.placeholder, 10);
    if (n > 0 && n <= 10) return n;
  }
  return game.players.length ? game.players[0] : 4;
}

function settingLabel(name) {
  return SETTINGS[name] ? t(SETTINGS[name].label) : name.replace(/_/g, " ");
}

function drawSettings() {
  const game = currentGame();
  const box = document.getElementById("settings");
  box.replaceChildren(el("legend", {}, t("Settings")));
  for (const [name, value] of Object.entries(game.settings)) {
    const attrs = {type: "number", id: `setting-${name}`, name: name, "data-setting": name,
                   min: 1, step: 1, inputmode: "numeric", value: value === null ? "" : String(value),
                   "aria-describedby": `hint-${name}`,
                   // A box may be left empty only where the setting says so (rounds).
                   required: value !== null && !(SETTINGS[name] && SETTINGS[name].optional)};
    if (name === "num_players" && game.players.length) {
      attrs.min = Math.min(...game.players);
      attrs.max = Math.max(...game.players);
    }
    if (name === "max_hand_size") attrs.max = 13;
    const input = el("input", attrs);
    if (name === "num_players") input.addEventListener("input", drawSeats);
    let hint = SETTINGS[name] ? t(SETTINGS[name].hint) : "";
    if (name === "num_players" && game.players.length) {
      hint = t("From {low} to {high} players.", {low: attrs.min, high: attrs.max});
    }
    box.append(el("div", {class: "setting"},
      el("label", {for: input.id}, settingLabel(name)), input,
      el("p", {class: "hint quiet", id: `hint-${name}`}, hint)));
  }
  drawSeats();
}

function seatKindText(kind) {
  if (kind === "human") return t("you (this browser)");
  if (kind === "open") return t("a person who joins");
  return botLabel(kind.replace(/^bot:/, ""));
}


function drawSeats() {
  const game = currentGame();
  const box = document.getElementById("seats");
  const before = Array.from(box.querySelectorAll("select")).map((s) => s.value);
  box.replaceChildren(el("legend", {}, t("Seats")));
  const n = seatCount(game);
  for (let seat = 0; seat < n; seat++) {
    const select = el("select", {id: `seat-${seat}`, "data-seat": seat});
    for (const kind of ["human", "open", ...game.bots.map((b) => `bot:${b}`)]) {
      select.append(el("option", {value: kind}, seatKindText(kind)));
    }
    // Seat 0 is you; the others default to the game's default bot.
    const fallback = seat === 0 || !game.defaultBot ? "human" : `bot:${game.defaultBot}`;
    select.value = before[seat] && Array.from(select.options).some((o) => o.value === before[seat])
      ? before[seat] : fallback;
    box.append(el("div", {class: "setting"},
      el("label", {for: select.id}, t("seat {number}", {number: seat})), select));
  }
}

function readSettings() {
  const settings = {};
  for (const input of document.querySelectorAll("#settings input[data-setting]")) {
    const name = input.dataset.setting;
    settings[name] = input.value === "" ? null : parseInt(input.value, 10);
  }
  return settings;
}

// Why the server said no, in the page's language where the status says it all.
function refusal(err) {
  if (err.status === 429) return t("Too many tables made or joined from here: wait a moment and try again.");
  if (err.status === 404) return t("This table is gone.");
  if (err.status === 409) return t("No seat is free at this table now.");
  return err.message;
}

function message(text, kind) {
  const box = document.getElementById("create-message");
  box.textContent = text;
  box.dataset.kind = kind || "info";
}

async function createTable(event) {
  event.preventDefault();
  const game = currentGame();
  const seats = Array.from(document.querySelectorAll("#seats select")).map((s) => s.value);
  const button = document.getElementById("create-button");
  button.disabled = true;
  try {
    const answer = await api("POST", "/api/tables", {game: game.name, settings: readSettings(), seats: seats});
    const mine = (answer.seats || []).filter((s) => s.token);
    for (const s of mine) Seats.add(answer.id, s.seat, s.token);
    location.href = mine.length ? `/tables/${answer.id}?seat=${mine[0].seat}` : `/tables/${answer.id}`;
  } catch (err) {
    message(t("The table was not created: {reason}", {reason: refusal(err)}), "error");
  } finally {
    button.disabled = false;
  }
}

async function join(table) {
  try {
    const answer = await api("POST", `/api/tables/${table}/join`, {});
    Seats.add(table, answer.seat, answer.token);
    location.href = `/tables/${table}?seat=${answer.seat}`;
  } catch (err) {
    message(t("Could not join table {table}: {reason}", {table: table, reason: refusal(err)}), "error");
    refresh();
  }
}

function seatText(s) {
  const kind = String(s.kind || "human");
  if (kind.startsWith("bot:")) return botLabel(kind.slice(4));
  return s.taken ? t("a person") : t("free");
}

function freeSeats(table) {
  return (table.seats || []).filter((s) => s.kind === "human" && !s.taken).length;
}

function settingsText(settings) {
  return Object.entries(settings || {}).map(([k, v]) =>
    `${settingLabel(k)}: ${v === null ? t("no limit") : v}`).join(", ");
}

async function refresh() {
  let data;
  try {
    data = await api("GET", "/api/tables");
  } catch (err) {
    message(t("The list of tables did not load: {reason}", {reason: err.message}), "error");
    return;
  }
  const tables = Array.isArray(data) ? data : (data && data.tables) || [];
  const list = document.getElementById("tables");
  list.replaceChildren();
  for (const table of tables) {
    const held = Seats.of(table.id);
    const actions = el("div", {class: "row-actions"});
    if (held.length) {
      actions.append(el("a", {href: `/tables/${table.id}?seat=${held[0].seat}`, class: "button", "data-open": table.id},
                         t("back to my seat")));
    } else if (freeSeats(table) > 0) {
      actions.append(el("button", {type: "button", "data-join": table.id, onclick: () => join(table.id)}, t("join")));
    }
    actions.append(el("a", {href: `/tables/${table.id}?watch=1`, class: "button quiet-button", "data-watch": table.id},
                       t("watch")));
    list.append(el("li", {class: "listed", "data-table": table.id},
      el("div", {class: "listed-title"}, el("strong", {}, gameTitle(table.game)), ` #${table.id}`),
      el("div", {class: "quiet"}, settingsText(table.settings)),
      el("div", {}, t("Seats: {seats}", {seats: (table.seats || []).map(seatText).join(", ")})),
      actions));
  }
  document.getElementById("no-tables").hidden = tables.length > 0;
  drawMine();
  drawFinished();
}

async function drawFinished() {
  let data;
  try {
    data = await api("GET", "/api/tables?finished=1");
  } catch (err) {
    return;
  }
  const tables = ((data && data.tables) || []).slice(-20).reverse();
  const list = document.getElementById("finished");
  list.replaceChildren(...tables.map((table) => el("li", {"data-finished": table.id},
    el("a", {href: `/tables/${table.id}?watch=1`}, `#${table.id}`), ` ${gameTitle(table.game)} `,
    el("a", {href: `/api/tables/${table.id}/record`, class: "quiet"}, t("record")))));
  document.getElementById("no-finished").hidden = tables.length > 0;
}

function drawMine() {
  const list = document.getElementById("my-seats");
  list.replaceChildren();
  for (const [table, seats] of Object.entries(Seats.all())) {
    for (const s of seats || []) {
      list.append(el("li", {},
        el("a", {href: `/tables/${table}?seat=${s.seat}`}, t("table #{table}, seat {number}", {table: table, number: s.seat})), " ",
        el("button", {type: "button", class: "quiet-button", title: t("Forget this table's tokens"),
                      onclick: () => { Seats.forget(table); drawMine(); }}, t("forget"))));
    }
  }
  document.getElementById("no-seats").hidden = list.children.length > 0;
}

async function start() {
  languageSwitch();
  await loadWords();
  try {
    GAMES = normaliseGames(await api("GET", "/api/games"));
  } catch (err) {
    message(t("The games did not load: {reason}", {reason: err.message}), "error");
    return;
  }
  const select = document.getElementById("game");
  for (const g of GAMES) select.append(el("option", {value: g.name}, gameTitle(g.name)));
  select.addEventListener("change", drawSettings);
  drawSettings();
  document.getElementById("create-form").addEventListener("submit", createTable);
  document.getElementById("refresh").addEventListener("click", refresh);
  document.body.dataset.ready = "1";
  refresh();
}

start();
