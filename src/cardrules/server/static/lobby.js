// The lobby: the games the server offers, a form to create a table, the open
// tables (join a free seat or watch), and the seats this browser holds.
"use strict";

let GAMES = [];

function normaliseGames(data) {
  const list = (data && data.games) || [];
  return list.map((g) => ({
    name: g.game,
    title: g.title || g.game,
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

function drawSettings() {
  const game = currentGame();
  const box = document.getElementById("settings");
  box.replaceChildren(el("legend", {}, "Settings"));
  for (const [name, value] of Object.entries(game.settings)) {
    const input = el("input", {type: "number", id: `setting-${name}`, name: name,
                               "data-setting": name, min: 0, step: 1,
                               placeholder: value === null ? "none" : String(value),
                               value: value === null ? "" : String(value)});
    if (name === "num_players") input.addEventListener("input", drawSeats);
    box.append(el("label", {}, name.replace(/_/g, " "), " ", input));
  }
  const hint = el("p", {class: "quiet"}, "Leave a box empty for no limit where the game allows it.");
  box.append(hint);
  drawSeats();
}

function drawSeats() {
  const game = currentGame();
  const box = document.getElementById("seats");
  const before = Array.from(box.querySelectorAll("select")).map((s) => s.value);
  box.replaceChildren(el("legend", {}, "Seats"));
  const n = seatCount(game);
  for (let seat = 0; seat < n; seat++) {
    const select = el("select", {id: `seat-${seat}`, "data-seat": seat});
    select.append(el("option", {value: "human"}, "you (this browser)"));
    select.append(el("option", {value: "open"}, "a person who joins"));
    for (const bot of game.bots) {
      select.append(el("option", {value: `bot:${bot}`}, `bot: ${bot}`));
    }
    // Seat 0 is you; the others default to the game's default bot.
    const fallback = seat === 0 || !game.defaultBot ? "human" : `bot:${game.defaultBot}`;
    select.value = before[seat] && Array.from(select.options).some((o) => o.value === before[seat])
      ? before[seat] : fallback;
    box.append(el("label", {}, `seat ${seat}`, " ", select));
  }
}

function readSettings() {
  const settings = {};
  for (const input of document.querySelectorAll("#settings input[data-setting]")) {
    const name = input.dataset.setting;
    if (input.value === "") {
      settings[name] = null;
    } else {
      settings[name] = parseInt(input.value, 10);
    }
  }
  return settings;
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
    message(`The table was not created: ${err.message}`, "error");
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
    message(`Could not join table ${table}: ${err.message}`, "error");
    refresh();
  }
}

function seatText(s) {
  const kind = String(s.kind || "human");
  if (kind.startsWith("bot:")) return kind.replace(/^bot:/, "bot ");
  return s.taken ? "person" : "free";
}

function freeSeats(table) {
  return (table.seats || []).filter((s) => s.kind === "human" && !s.taken).length;
}

async function refresh() {
  let data;
  try {
    data = await api("GET", "/api/tables");
  } catch (err) {
    message(`The list of tables did not load: ${err.message}`, "error");
    return;
  }
  const tables = Array.isArray(data) ? data : (data && data.tables) || [];
  const body = document.querySelector("#tables tbody");
  body.replaceChildren();
  for (const t of tables) {
    const settings = Object.entries(t.settings || {}).map(([k, v]) => `${k.replace(/_/g, " ")} ${v === null ? "none" : v}`).join(", ");
    const seats = (t.seats || []).map(seatText).join(", ");
    const held = Seats.of(t.id);
    const actions = el("td", {class: "row-actions"});
    if (held.length) {
      actions.append(el("a", {href: `/tables/${t.id}?seat=${held[0].seat}`, class: "button", "data-open": t.id}, "back to my seat"));
    } else if (freeSeats(t) > 0) {
      actions.append(el("button", {type: "button", "data-join": t.id, onclick: () => join(t.id)}, "join"));
    }
    actions.append(el("a", {href: `/tables/${t.id}?watch=1`, class: "button quiet-button", "data-watch": t.id}, "watch"));
    body.append(el("tr", {"data-table": t.id},
      el("td", {}, `#${t.id}`), el("td", {}, gameTitle(GAMES, t.game)),
      el("td", {}, settings), el("td", {}, seats), actions));
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
  list.replaceChildren(...tables.map((t) => el("li", {"data-finished": t.id},
    el("a", {href: `/tables/${t.id}?watch=1`}, `#${t.id}`), ` ${t.title || gameTitle(GAMES, t.game)} `,
    el("a", {href: `/api/tables/${t.id}/record`, class: "quiet"}, "record"))));
  document.getElementById("no-finished").hidden = tables.length > 0;
}

function drawMine() {
  const list = document.getElementById("my-seats");
  list.replaceChildren();
  const all = Seats.all();
  for (const [table, seats] of Object.entries(all)) {
    for (const s of seats || []) {
      list.append(el("li", {},
        el("a", {href: `/tables/${table}?seat=${s.seat}`}, `table #${table}, seat ${s.seat}`), " ",
        el("button", {type: "button", class: "quiet-button", title: "Forget this table's tokens",
                      onclick: () => { Seats.forget(table); drawMine(); }}, "forget")));
    }
  }
  document.getElementById("no-seats").hidden = list.children.length > 0;
}

async function start() {
  try {
    GAMES = normaliseGames(await api("GET", "/api/games"));
  } catch (err) {
    message(`The games did not load: ${err.message}`, "error");
    return;
  }
  const select = document.getElementById("game");
  for (const g of GAMES) select.append(el("option", {value: g.name}, g.title));
  select.addEventListener("change", drawSettings);
  drawSettings();
  document.getElementById("create-form").addEventListener("submit", createTable);
  document.getElementById("refresh").addEventListener("click", refresh);
  document.body.dataset.ready = "1";
  refresh();
}

start();
