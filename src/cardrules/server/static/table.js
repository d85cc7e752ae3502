// The table page: one WebSocket to /ws/tables/{id} (with this browser's seat
// token, or none to watch), a view drawn from each "view" message, and the
// legal actions the server lists offered as cards to click and buttons.
//
// Nothing here knows a game's rules: a layout is chosen by the view's
// "format" tag, a move is offered only when its text is in "legal", and
// what is sent back is that text, unchanged.
"use strict";

const TABLE = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop());
const PARAMS = new URLSearchParams(location.search);

const T = {
  token: null,        // this seat's secret, from localStorage (null: a spectator)
  wantedSeat: null,   // the seat asked for in ?seat=
  socket: null,
  version: null,      // the version of the last view
  seat: null,         // the seat the server says we hold (null: watching)
  view: null,
  legal: [],
  seats: null,        // the table's seats as the API lists them, when known
  deadline: null,     // with a turn timer: when a bot moves for this seat (epoch seconds)
  log: new Map(),     // version -> events of that change
  pending: null,      // the action text sent and not yet answered
  chosen: new Set(),  // the cards picked for a split's down hand
  cut: null,          // the cut count chosen
  retries: 0,
  refused: false,
  gotView: false,
  resync: false,      // a sync was asked for: the next view brings the whole log
};

// -- connection --------------------------------------------------------------------

function pickToken() {
  if (PARAMS.has("watch")) return null;
  const held = Seats.of(TABLE);
  if (!held.length) return null;
  const wanted = PARAMS.has("seat") ? parseInt(PARAMS.get("seat"), 10) : null;
  const entry = held.find((s) => s.seat === wanted) || held[0];
  T.wantedSeat = entry.seat;
  return entry.token;
}

function setConnection(state, text) {
  const box = document.getElementById("connection");
  box.dataset.state = state;
  box.textContent = text;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  let url = `${scheme}//${location.host}/ws/tables/${encodeURIComponent(TABLE)}`;
  if (T.token) url += `?token=${encodeURIComponent(T.token)}`;
  setConnection("connecting", T.retries ? "reconnecting" : "connecting");
  const socket = new WebSocket(url);
  T.socket = socket;
  T.gotView = false;
  socket.addEventListener("open", () => {
    setConnection("open", T.token ? "connected" : "watching");
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (err) {
      return;
    }
    receive(message);
  });
  socket.addEventListener("close", (event) => {
    if (T.socket !== socket) return;
    T.pending = null;
    // A close before any view, with a policy code, means the server would
    // not have us (a bad token, no such table): do not knock again and again.
    const refusal = !T.gotView && (event.code === 1008 || (event.code >= 4000 && event.code < 5000));
    if (refusal) {
      T.refused = true;
      setConnection("closed", "refused");
      const why = event.reason || "the server refused the connection";
      notice(T.token
        ? `Your seat's token was not accepted (${why}). You can still watch the table.`
        : `This table cannot be shown (${why}).`, "error", T.token ? watchLink() : null);
      render();
      return;
    }
    if (T.view && isOver(T.view) && event.code === 1000) {
      setConnection("closed", "game over");
      return;
    }
    T.retries += 1;
    const wait = Math.min(10000, 500 * 2 ** Math.min(T.retries, 5));
    setConnection("closed", `connection lost; trying again in ${Math.round(wait / 1000)} s`);
    render();
    setTimeout(connect, wait);
  });
}

function watchLink() {
  return el("a", {href: `/tables/${encodeURIComponent(TABLE)}?watch=1`}, "watch instead");
}

function receive(message) {
  if (message.type === "view") {
    const first = !T.gotView || T.resync;
    const moved = message.version !== T.version;
    T.gotView = true;
    T.resync = false;
    T.retries = 0;
    T.version = message.version;
    T.seat = message.seat === undefined ? T.seat : message.seat;
    T.view = message.view;
    T.legal = Array.isArray(message.legal) ? message.legal : [];
    T.deadline = typeof message.deadline === "number" ? message.deadline : null;
    // The first view of a connection brings every event this seat may know,
    // the later ones what changed since: kept by the version each belongs to.
    if (first) T.log.clear();
    for (const event of Array.isArray(message.events) ? message.events : []) {
      const version = event && typeof event === "object" && "version" in event ? event.version : message.version;
      if (!T.log.has(version)) T.log.set(version, []);
      T.log.get(version).push(event);
    }
    if (T.pending !== null) T.pending = null;
    if (!T.legal.some((a) => a.startsWith("split "))) T.chosen.clear();
    if (moved) hideNotice();
    render();
  } else if (message.type === "error") {
    T.pending = null;
    const rule = message.rule ? ` (${message.rule})` : "";
    const stale = message.rule === "stale";
    // A stale move: ask for the whole view again, in case one was missed.
    if (stale && T.socket && T.socket.readyState === WebSocket.OPEN) {
      T.resync = true;   // the answer brings every event again
      T.socket.send(JSON.stringify({type: "sync"}));
    }
    notice(stale
      ? `The table moved on before your move arrived; here is where it stands now.${rule}`
      : `That move was not accepted${rule}: ${message.message || "not allowed now"}.`,
      stale ? "info" : "error");
    render();
  }
}

function send(action) {
  if (!T.socket || T.socket.readyState !== WebSocket.OPEN || T.pending !== null) return;
  T.pending = action;
  T.socket.send(JSON.stringify({type: "act", version: T.version, action: action}));
  render();
}

function notice(text, kind, extra) {
  const box = document.getElementById("notice");
  box.replaceChildren(...present(el("span", {}, text), extra ? " " : null, extra || null,
    el("button", {type: "button", class: "close", "aria-label": "close", onclick: hideNotice}, "\u00d7")));
  box.dataset.kind = kind || "info";
  box.hidden = false;
}

function hideNotice() {
  document.getElementById("notice").hidden = true;
}

// -- what every layout shares ---------------------------------------------------

// The children given, less the null ones (DOM append would write "null").
function present(...children) {
  return children.filter((c) => c !== null && c !== undefined && c !== false);
}

function isOver(view) {
  return view && view.phase === "game_over";
}

function seatKind(seat) {
  const info = (T.seats || []).find((s) => s.seat === seat);
  if (!info) return "";
  const kind = String(info.kind || info.player || "");
  return kind.startsWith("bot") ? kind.replace(/^bot:/, "bot ") : "";
}

function seatName(seat) {
  if (seat === null || seat === undefined) return "nobody";
  if (seat === T.seat) return "you";
  const kind = seatKind(seat);
  return kind ? `seat ${seat} (${kind})` : `seat ${seat}`;
}

// The legal action that names one card and nothing else: "play QH", "discard 7C".
function cardAction(code) {
  for (const action of T.legal) {
    const words = action.split(" ");
    if (words.length === 2 && words[1] === code && !/^\d+$/.test(words[1])) return action;
  }
  return null;
}

function canAct() {
  return T.pending === null && T.socket && T.socket.readyState === WebSocket.OPEN;
}

// A card of the hand: clickable when a legal action names it, dimmed when
// some other card may be played and this one may not.
function handCard(code, options) {
  const opts = options || {};
  const action = opts.action !== undefined ? opts.action : cardAction(code);
  const attrs = {class: "card", "data-card": code};
  if (opts.extraClass) attrs.class += ` ${opts.extraClass}`;
  if (action && canAct()) {
    attrs.class += " legal";
    attrs["data-action"] = action;
    attrs.type = "button";
    attrs.title = action;
    attrs.onclick = () => (opts.onclick ? opts.onclick() : send(action));
    return el("button", attrs, cardImage(code));
  }
  if (opts.dim) attrs.class += " dim";
  return el("span", attrs, cardImage(code));
}

function drawHand(hand, options) {
  const opts = options || {};
  const box = document.getElementById("hand");
  box.replaceChildren();
  const anyCard = hand.some((c) => cardAction(c));
  for (const code of hand) {
    box.append(handCard(code, {dim: anyCard && !cardAction(code), extraClass: opts.marked && opts.marked(code)}));
  }
  if (!hand.length && T.seat !== null && !isOver(T.view)) box.append(el("span", {class: "quiet"}, "no cards in hand"));
}

function actionButton(action, label, extraClass) {
  return el("button", {type: "button", class: `act ${extraClass || ""}`.trim(), "data-action": action,
                       disabled: !canAct(), onclick: () => send(action)}, label || action);
}

function cardRow(cards, attrs) {
  return el("span", Object.assign({class: "row"}, attrs || {}), cards.map((c) => el("span", {class: "card small", "data-card": c}, cardImage(c))));
}

function backs(count) {
  const shown = Math.min(count, 13);
  const row = el("span", {class: "row backs", "data-count": count});
  for (let i = 0; i < shown; i++) row.append(el("span", {class: "card tiny"}, cardImage("back")));
  return row;
}

function eventText(event) {
  if (typeof event === "string") return event;
  if (Array.isArray(event)) return event.map(eventText).join(" ");
  if (event && typeof event === "object") {
    if (typeof event.text === "string") return event.text;
    if (event.public !== undefined || event.private !== undefined) {
      return [event.private, event.public].filter((x) => x !== null && x !== undefined).map(eventText)[0] || "";
    }
    return JSON.stringify(event);
  }
  return String(event);
}

function drawLog() {
  const list = document.getElementById("log");
  const versions = Array.from(T.log.keys()).sort((a, b) => a - b);
  list.replaceChildren();
  for (const version of versions) {
    for (const event of T.log.get(version)) {
      const text = eventText(event);
      if (text) list.append(el("li", {"data-version": version}, text));
    }
  }
  list.scrollTop = list.scrollHeight;
}

function drawStatus(text) {
  const box = document.getElementById("status");
  box.replaceChildren(...present(text, T.deadline !== null ? el("span", {id: "clock", class: "clock"}) : null));
  tick();
}

// With a turn timer, the seconds left before a bot moves for this seat.
function tick() {
  const clock = document.getElementById("clock");
  if (!clock || T.deadline === null) return;
  const left = Math.max(0, Math.ceil(T.deadline - Date.now() / 1000));
  clock.textContent = ` ${left} s left`;
}
setInterval(tick, 1000);

// Links to this table's other seats held here (several people at one screen).
function drawSeatLinks() {
  const held = Seats.of(TABLE);
  const box = document.getElementById("my-seat-links");
  if (!box) return;
  box.replaceChildren(...(held.length > 1 ? held.map((s) => el("a", {
    href: `/tables/${encodeURIComponent(TABLE)}?seat=${s.seat}`,
    class: s.seat === T.seat ? "current" : "", "data-seat-link": s.seat}, `seat ${s.seat}`)) : []));
}

// The final scores, one entry per seat: what the browser test compares with
// the record's.
function drawResult(title, perSeat, lines) {
  const box = document.getElementById("result");
  if (!isOver(T.view)) {
    box.hidden = true;
    return;
  }
  const list = el("ol", {id: "final-scores", class: "final-scores"});
  perSeat.forEach((score, seat) => {
    list.append(el("li", {"data-seat": seat, "data-score": score}, `${seatName(seat)}: ${score}`));
  });
  box.replaceChildren(el("h2", {}, "Game over"), el("p", {class: "verdict"}, title), list,
                      ...(lines || []).map((line) => el("p", {}, line)),
                      el("p", {}, el("a", {href: "/"}, "back to the lobby")));
  box.hidden = false;
}

function seatBox(seat, view, parts) {
  const classes = ["seat"];
  if (seat === T.seat) classes.push("me");
  if (view.current_player === seat) classes.push("to-act");
  return el("div", {class: classes.join(" "), "data-seat": seat},
    el("div", {class: "name"}, seatName(seat), view.dealer === seat ? el("span", {class: "badge", title: "dealer"}, "D") : null),
    ...parts);
}

function turnText(view, verbs) {
  if (isOver(view)) return "The game is over.";
  if (view.current_player === null || view.current_player === undefined) {
    return T.legal.length ? "Your move." : "Dealing\u2026";
  }
  if (view.current_player === T.seat) return `Your turn: ${verbs}.`;
  return `${seatName(view.current_player)} to ${verbs.split(" or ")[0].split(",")[0]}\u2026`;
}

// -- Back Alley ------------------------------------------------------------------

function bidText(bid) {
  if (!bid) return "";
  if (bid.type === "pass") return "pass";
  if (bid.type === "bid") return `bid ${bid.tricks}`;
  if (bid.type === "board") return "board";
  return JSON.stringify(bid);
}

function contractText(c) {
  if (!c) return "";
  if (c.board) return ["", "board", "double board", "triple board", "quadruple board"][c.board] || `board x${c.board}`;
  return String(c.tricks);
}

const SUIT_NAMES = {S: "spades", H: "hearts", D: "diamonds", C: "clubs"};

function renderBackAlley(view) {
  const n = view.hand_sizes.length;
  const deals = view.settings && view.settings.max_hand_size ? 2 * view.settings.max_hand_size - 1 : null;
  document.getElementById("title").textContent = `Back Alley, table #${TABLE}`;
  // Seats
  const seats = document.getElementById("seats");
  seats.replaceChildren();
  for (let s = 0; s < n; s++) {
    const team = s % 2;
    seats.append(seatBox(s, view, [
      el("div", {class: "meta"}, `team ${team}`, T.seat !== null && s % 2 === T.seat % 2 && s !== T.seat ? " (partner)" : ""),
      el("div", {class: "meta"}, view.bids[s] ? `${bidText(view.bids[s])}, ` : "", `tricks ${view.tricks_won[s]}`),
      s === T.seat ? null : backs(view.hand_sizes[s]),
    ]));
  }
  // Centre: trump, the trick in play (or the last one), the deal.
  const centre = document.getElementById("centre");
  centre.replaceChildren();
  const trump = view.trump_card
    ? el("div", {class: "pile", id: "trump"}, el("div", {class: "label"},
        SUIT_NAMES[view.trump_card.slice(-1)] && !/^(BB|LB)$/.test(view.trump_card)
          ? `trump ${SUIT_NAMES[view.trump_card.slice(-1)]}` : "no trump"),
        el("span", {class: "card", "data-card": view.trump_card}, cardImage(view.trump_card)))
    : null;
  const trick = el("div", {class: "trick", id: "trick"});
  let shown = view.trick;
  let leader = view.leader;
  let caption = "the trick";
  if (!shown.length && view.tricks.length) {
    const last = view.tricks[view.tricks.length - 1];
    shown = last.cards;
    leader = last.leader;
    caption = `last trick, won by ${seatName(last.winner)}`;
    trick.classList.add("finished");
  }
  shown.forEach((code, i) => {
    const by = (leader + i) % n;
    trick.append(el("div", {class: "played", "data-seat": by},
      el("span", {class: "card", "data-card": code}, cardImage(code)), el("div", {class: "label"}, seatName(by))));
  });
  centre.append(
    el("div", {class: "deal-info"}, `deal ${view.deal_number}${deals ? ` of ${deals}` : ""}, ${view.hand_size} card${view.hand_size === 1 ? "" : "s"} each`,
       view.joker_discard ? `; ${view.joker_discard} discarded` : ""),
    el("div", {class: "piles"}, trump, el("div", {class: "pile"}, el("div", {class: "label"}, caption), trick)));
  // Hand and actions
  drawHand(view.hand, {marked: (c) => (view.taken === c ? "taken" : "")});
  const actions = document.getElementById("actions");
  actions.replaceChildren();
  for (const action of T.legal) {
    if (!cardActionText(action)) actions.append(actionButton(action));
  }
  const verbs = T.legal.some((a) => a.startsWith("play")) ? "play a card" : "bid";
  drawStatus(turnText(view, verbs));
  // Score
  const score = document.getElementById("score");
  const mine = T.seat === null ? null : T.seat % 2;
  score.replaceChildren(
    el("ul", {class: "teams"}, view.scores.map((pts, team) =>
      el("li", {"data-team": team, "data-score": pts, class: team === mine ? "mine" : ""},
         `team ${team} (seats ${team} and ${team + 2})${team === mine ? ", yours" : ""}: ${pts}`))),
    resultsTable(["deal", "cards", "contracts", "tricks", "points"], view.results.map((r) => [
      r.deal_number, r.hand_size, r.contracts.map(contractText).join(" / "),
      r.tricks.join(" / "), r.points.join(" / ")])));
  // Result
  const a = view.scores[0], b = view.scores[1];
  const verdict = a === b ? `A draw at ${a} each.` : `Team ${a > b ? 0 : 1} wins, ${Math.max(a, b)} to ${Math.min(a, b)}.`;
  drawResult(verdict, view.hand_sizes.map((_, s) => view.scores[s % 2]),
             [`team 0: ${a}, team 1: ${b}`]);
}

function cardActionText(action) {
  const words = action.split(" ");
  return words.length === 2 && /^[2-9TJQKA][SHDC]$|^(BB|LB)$/.test(words[1]);
}

function resultsTable(head, rows) {
  if (!rows.length) return el("p", {class: "quiet"}, "No results yet.");
  return el("table", {class: "results"},
    el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => el("td", {}, c))))));
}

// -- Down and Back -----------------------------------------------------------------

function splitKey(down) {
  return Array.from(down).sort().join(" ");
}

function legalSplits() {
  const splits = new Map();  // sorted down cards -> action text
  for (const action of T.legal) {
    if (!action.startsWith("split ")) continue;
    const [down] = action.slice(6).split("/");
    splits.set(splitKey(down.trim().split(/\s+/)), action);
  }
  return splits;
}

function renderDownAndBack(view) {
  const n = view.num_players;
  document.getElementById("title").textContent = `Down and Back, table #${TABLE}`;
  const seats = document.getElementById("seats");
  seats.replaceChildren();
  for (let s = 0; s < n; s++) {
    const split = view.splits[s];
    seats.append(seatBox(s, view, [
      el("div", {class: "meta"}, `net ${view.net[s]}, turns ${view.turns[s]}`,
         view.phase === "split" ? (view.split_chosen[s] ? ", has split" : ", splitting") : ""),
      s === T.seat ? null : backs(view.hand_sizes[s]),
      view.seen[s].length ? el("div", {class: "meta"}, "took ", cardRow(view.seen[s])) : null,
      split ? el("div", {class: "split"}, cardRow(split.down, {"data-side": "down"}), " / ", cardRow(split.back, {"data-side": "back"})) : null,
    ]));
  }
  // Centre: the stock, the discard pile, the pot.
  const centre = document.getElementById("centre");
  centre.replaceChildren();
  const drawStock = T.legal.includes("draw stock") ? "draw stock" : null;
  const drawDiscard = T.legal.includes("draw discard") ? "draw discard" : null;
  const stock = el("div", {class: "pile", id: "stock"}, el("div", {class: "label"}, `stock, ${view.stock_size}`),
    view.stock_size ? handCard("back", {action: drawStock && canAct() ? drawStock : null}) : el("span", {class: "quiet"}, "empty"));
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  const under = view.discard.slice(Math.max(0, view.discard.length - 6), -1);
  const discard = el("div", {class: "pile", id: "discard"}, el("div", {class: "label"}, `discard pile, ${view.discard.length}`),
    el("span", {class: "row"}, under.map((c) => el("span", {class: "card small under", "data-card": c}, cardImage(c))),
      top ? handCard(top, {action: drawDiscard && canAct() ? drawDiscard : null}) : el("span", {class: "quiet"}, "empty")));
  const rounds = view.rounds === null ? "" : ` of ${view.rounds}`;
  centre.append(...present(el("div", {class: "deal-info"}, `round ${view.round}${rounds}, ante ${view.ante}, pot `,
                   el("strong", {id: "pot", "data-pot": view.pot}, String(view.pot))),
                isOver(view) ? null : el("div", {class: "piles"}, stock, discard)));
  if (view.showdown) {
    centre.append(el("div", {class: "quiet"}, "Tie-break draws under way (DB-42)."));
  }
  // Hand: discard by clicking a card, or choose the down hand of a split.
  const splits = legalSplits();
  const actions = document.getElementById("actions");
  actions.replaceChildren();
  if (splits.size) {
    drawSplitChooser(view, splits, actions);
  } else {
    drawHand(view.hand, {marked: (c) => (view.drawn === c ? "drawn" : "")});
  }
  const cuts = T.legal.filter((a) => /^cut \d+$/.test(a)).map((a) => parseInt(a.slice(4), 10));
  if (cuts.length) drawCut(cuts, actions);
  for (const action of T.legal) {
    if (action.startsWith("split ") || /^cut \d+$/.test(action) || cardActionText(action)) continue;
    actions.append(actionButton(action));
  }
  const verb = {cut: "cut the deck", draw: "draw from the stock or the discard pile",
                discard: "discard a card", split: "split your seven cards"}[view.phase] || "act";
  if (view.phase === "split" && view.current_player !== T.seat && T.seat !== null) {
    drawStatus(view.split_chosen[T.seat] ? "Waiting for the others to split\u2026" : "Everyone splits: choose your down hand.");
  } else {
    drawStatus(turnText(view, verb));
  }
  // Score: net per seat, then each round.
  const score = document.getElementById("score");
  score.replaceChildren(
    el("ul", {class: "teams"}, view.net.map((net, s) =>
      el("li", {"data-seat": s, "data-score": net, class: s === T.seat ? "mine" : ""}, `${seatName(s)}: net ${net}`))),
    resultsTable(["round", "down", "back", "pot"], view.results.map((r) => [
      r.round, seatName(r.down_winner), seatName(r.back_winner),
      r.pot_winner === null ? `${r.pot} carries` : `${r.pot} to ${seatName(r.pot_winner)}`])),
    lastShowdown(view) || "");
  const best = Math.max(...view.net);
  const leaders = view.net.map((v, s) => (v === best ? s : null)).filter((s) => s !== null);
  const verdict = leaders.length === 1
    ? `${seatName(leaders[0]) === "you" ? "You win" : `${seatName(leaders[0])} wins`} with net ${best}.`
    : `Shared lead at net ${best}: ${leaders.map(seatName).join(", ")}.`;
  drawResult(verdict, view.net.slice(), [`pot left: ${view.pot}`]);
}

function lastShowdown(view) {
  if (!view.results.length) return null;
  const r = view.results[view.results.length - 1];
  return el("div", {class: "showdown", id: "last-showdown"}, el("h3", {}, `Round ${r.round} showdown`),
    el("ul", {}, r.splits.map((split, s) => el("li", {"data-seat": s}, `${seatName(s)}: `,
      cardRow(split.down), " / ", cardRow(split.back)))));
}

function drawSplitChooser(view, splits, actions) {
  const box = document.getElementById("hand");
  box.replaceChildren();
  for (const code of view.hand) {
    const chosen = T.chosen.has(code);
    const button = el("button", {type: "button", class: `card legal pick${chosen ? " chosen" : ""}`,
                                 "data-card": code, "data-pick": code, "aria-pressed": chosen ? "true" : "false",
                                 title: chosen ? "in the down hand" : "in the back hand",
                                 disabled: !canAct(),
                                 onclick: () => {
                                   if (T.chosen.has(code)) T.chosen.delete(code);
                                   else if (T.chosen.size < 4) T.chosen.add(code);
                                   render();
                                 }}, cardImage(code));
    box.append(button);
  }
  const action = T.chosen.size === 4 ? splits.get(splitKey(T.chosen)) : null;
  const back = view.hand.filter((c) => !T.chosen.has(c));
  const label = T.chosen.size === 4
    ? `split: down ${view.hand.filter((c) => T.chosen.has(c)).join(" ")} / back ${back.join(" ")}`
    : `choose ${4 - T.chosen.size} more card${4 - T.chosen.size === 1 ? "" : "s"} for the 4-card down hand`;
  actions.append(el("button", {type: "button", class: "act primary", id: "split-button",
                               "data-action": action || "", disabled: !action || !canAct(),
                               onclick: () => action && send(action)}, label));
  if (T.chosen.size) {
    actions.append(el("button", {type: "button", class: "act quiet-button", id: "split-clear",
                                 onclick: () => { T.chosen.clear(); render(); }}, "clear"));
  }
}

function drawCut(cuts, actions) {
  const lo = Math.min(...cuts), hi = Math.max(...cuts);
  if (T.cut === null || T.cut < lo || T.cut > hi) T.cut = Math.round((lo + hi) / 2);
  const input = el("input", {type: "number", id: "cut-count", min: lo, max: hi, value: T.cut});
  const button = el("button", {type: "button", class: "act primary", id: "cut-button",
                               "data-action": `cut ${T.cut}`, disabled: !canAct(),
                               onclick: () => send(`cut ${T.cut}`)}, `cut ${T.cut} cards`);
  input.addEventListener("input", () => {
    const value = parseInt(input.value, 10);
    if (value >= lo && value <= hi) {
      T.cut = value;
      button.dataset.action = `cut ${value}`;
      button.textContent = `cut ${value} cards`;
    }
  });
  actions.append(el("label", {}, `cut how many cards (${lo} to ${hi})? `, input), button);
}

// -- any other game: the hand and every legal action as a button --------------------

function renderGeneric(view) {
  document.getElementById("title").textContent = `table #${TABLE}`;
  document.getElementById("seats").replaceChildren();
  document.getElementById("centre").replaceChildren(el("pre", {class: "raw"}, JSON.stringify(view, null, 1)));
  drawHand(Array.isArray(view.hand) ? view.hand : []);
  const actions = document.getElementById("actions");
  actions.replaceChildren(...T.legal.filter((a) => !cardActionText(a)).map((a) => actionButton(a)));
  drawStatus(turnText(view, "act"));
  document.getElementById("score").replaceChildren();
  drawResult("", [], []);
}

const LAYOUTS = {
  "cardrules/back_alley/view/1": renderBackAlley,
  "cardrules/down_and_back/view/1": renderDownAndBack,
};

function render() {
  const main = document.getElementById("table");
  if (!T.view) return;
  const view = T.view;
  (LAYOUTS[view.format] || renderGeneric)(view);
  main.dataset.version = T.version;
  main.dataset.phase = view.phase || "";
  main.dataset.seat = T.seat === null ? "" : T.seat;
  main.dataset.current = view.current_player === null || view.current_player === undefined ? "" : view.current_player;
  main.dataset.myTurn = T.legal.length && canAct() ? "1" : "";
  main.dataset.over = isOver(view) ? "1" : "";
  main.dataset.pending = T.pending === null ? "" : "1";
  main.dataset.legal = JSON.stringify(canAct() ? T.legal : []);
  document.body.classList.toggle("watching", T.seat === null);
  drawSeatLinks();
  drawLog();
}

async function loadSeats() {
  // The seat kinds (who is a bot) for the labels.
  try {
    const table = await api("GET", `/api/tables/${encodeURIComponent(TABLE)}`);
    T.seats = table.seats || null;
    T.game = table.title || null;
    render();
  } catch (err) {
    // Only labels are lost.
  }
}

T.token = pickToken();
if (!T.token && !PARAMS.has("watch")) {
  notice("You hold no seat at this table in this browser, so you are watching.", "info");
}
connect();
loadSeats();
