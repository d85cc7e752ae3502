// The table page: one WebSocket to /ws/tables/{id} (with this browser's seat
// token, or none to watch, and the page's language), a view drawn from each
// "view" message, and the legal actions the server lists offered as cards
// and buttons (every one a real button: Tab to it, Enter to play it).
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
  game: null,         // the table's game as the API names it ("back-alley")
  deadline: null,     // with a turn timer: when a bot moves for this seat (epoch seconds)
  log: new Map(),     // version -> events of that change
  pending: null,      // the action text sent and not yet answered
  chosen: new Set(),  // the cards picked for a split's down hand
  cut: null,          // the cut count chosen
  retries: 0,
  refused: false,
  gotView: false,
  resync: false,      // a sync was asked for: the next view brings the whole log
  wasMyTurn: false,
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
  const query = new URLSearchParams({lang: LANG});
  if (T.token) query.set("token", T.token);
  const url = `${scheme}//${location.host}/ws/tables/${encodeURIComponent(TABLE)}?${query}`;
  setConnection("connecting", T.retries ? t("reconnecting") : t("connecting"));
  const socket = new WebSocket(url);
  T.socket = socket;
  T.gotView = false;
  socket.addEventListener("open", () => {
    setConnection("open", T.token ? t("connected") : t("watching"));
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
      setConnection("closed", t("refused"));
      notice(T.token
        ? t("Your seat's token was not accepted. You can still watch the table.")
        : t("This table cannot be shown."), "error", T.token ? watchLink() : null);
      render();
      return;
    }
    if (T.view && isOver(T.view) && event.code === 1000) {
      setConnection("closed", t("game over"));
      return;
    }
    T.retries += 1;
    const wait = Math.min(10000, 500 * 2 ** Math.min(T.retries, 5));
    setConnection("closed", t("connection lost; trying again in {seconds} s", {seconds: Math.round(wait / 1000)}));
    render();
    setTimeout(connect, wait);
  });
}

function watchLink() {
  return el("a", {href: `/tables/${encodeURIComponent(TABLE)}?watch=1`}, t("watch instead"));
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
    const stale = message.rule === "stale";
    // A stale move: ask for the whole view again, in case one was missed.
    if (stale && T.socket && T.socket.readyState === WebSocket.OPEN) {
      T.resync = true;   // the answer brings every event again
      T.socket.send(JSON.stringify({type: "sync"}));
    }
    if (stale) {
      notice(t("The table moved on before your move arrived; here is where it stands now."), "info");
    } else {
      const rule = /^(BA|DB)-\d+$/.test(message.rule || "") ? ruleLink(message.rule) : null;
      const parts = [t("That move was not accepted."), " "];
      if (rule) parts.push(t("Rule"), " ", rule, ": ");
      parts.push(faces(message.message || t("not allowed now")));
      notice(el("span", {}, ...parts), "error");
    }
    render();
  }
}

function send(action) {
  if (!T.socket || T.socket.readyState !== WebSocket.OPEN || T.pending !== null) return;
  T.pending = action;
  T.socket.send(JSON.stringify({type: "act", version: T.version, action: action}));
  render();
}

function notice(content, kind, extra) {
  const box = document.getElementById("notice");
  box.replaceChildren(...present(typeof content === "string" ? el("span", {}, content) : content,
    extra ? " " : null, extra || null,
    el("button", {type: "button", class: "close", "aria-label": t("close"), onclick: hideNotice}, "\u00d7")));
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

function botOf(seat) {
  const info = (T.seats || []).find((s) => s.seat === seat);
  const kind = info ? String(info.kind || "") : "";
  return kind.startsWith("bot:") ? kind.slice(4) : null;
}

// In Back Alley the seat across the table is your partner (BA-1).
function partnerOf(seat) {
  if (T.view && T.view.format === "cardrules/back_alley/view/1" && seat !== null) return (seat + 2) % 4;
  return null;
}

function seatName(seat) {
  if (seat === null || seat === undefined) return t("nobody");
  if (seat === T.seat) return t("you");
  if (T.seat !== null && seat === partnerOf(T.seat)) return t("your partner");
  return t("seat {number}", {number: seat});
}

// Who sits at a seat, for its box: a bot's kind, or a person.
function seatWho(seat) {
  const bot = botOf(seat);
  if (bot) return botLabel(bot);
  return T.seats ? t("a person") : "";
}

// Where a seat sits around the table, seen from ours (ours at the bottom).
const POSITIONS = {
  1: ["bottom"], 2: ["bottom", "top"], 3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"], 5: ["bottom", "left", "top-left", "top-right", "right"],
};

function position(seat, n) {
  const me = T.seat === null ? 0 : T.seat;
  const places = POSITIONS[n] || [];
  return places[(seat - me + n) % n] || "top";
}

// A legal action's words on a button ("bid 3" -> "bid 3" in the page's language).
function actionLabel(action) {
  let m;
  if (action === "pass") return t("pass");
  if (action === "board") return t("board");
  if ((m = /^bid (\d+)$/.exec(action))) return t("bid {n}", {n: m[1]});
  if (action === "draw stock") return t("draw from the stock");
  if (action === "draw discard") return t("take the top discard");
  if ((m = /^cut (\d+)$/.exec(action))) return t("cut {n} cards", {n: m[1]});
  if ((m = /^play (\S+)$/.exec(action))) return t("play {card}", {card: cardName(m[1])});
  if ((m = /^discard (\S+)$/.exec(action))) return t("discard {card}", {card: cardName(m[1])});
  return faces(action);
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

// A card of the hand: a button when a legal action names it, dimmed when
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
    attrs.title = actionLabel(action);
    attrs["aria-label"] = actionLabel(action);
    attrs.onclick = () => (opts.onclick ? opts.onclick() : send(action));
    return el("button", attrs, cardImage(code, {alt: ""}));
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
  if (!hand.length && T.seat !== null && !isOver(T.view)) box.append(el("span", {class: "quiet"}, t("no cards in hand")));
}

function actionButton(action, label, extraClass) {
  return el("button", {type: "button", class: `act ${extraClass || ""}`.trim(), "data-action": action,
                       disabled: !canAct(), onclick: () => send(action)}, label || actionLabel(action));
}

function cardRow(cards, attrs) {
  return el("span", Object.assign({class: "row", role: "img", "aria-label": cards.map(cardName).join(" ")}, attrs || {}),
    cards.map((c) => el("span", {class: "card small", "data-card": c}, cardImage(c, {alt: ""}))));
}

function backs(count) {
  const shown = Math.min(count, 13);
  const row = el("span", {class: "row backs", "data-count": count, role: "img",
                          "aria-label": t("cards in hand: {n}", {n: count})});
  for (let i = 0; i < shown; i++) row.append(el("span", {class: "card tiny"}, cardImage("back", {alt: ""})));
  return row;
}

function eventText(event) {
  if (typeof event === "string") return event;
  if (Array.isArray(event)) return event.map(eventText).join(" ");
  if (event && typeof event === "object" && typeof event.text === "string") return event.text;
  return "";
}

// A text with each rule id it cites ("(BA-34)") a link to that rule.
function withRuleLinks(text) {
  return text.split(/((?:BA|DB)-\d+)/).map((part, i) => (i % 2 ? ruleLink(part) : part));
}

function drawLog() {
  const list = document.getElementById("log");
  const versions = Array.from(T.log.keys()).sort((a, b) => a - b);
  list.replaceChildren();
  for (const version of versions) {
    for (const event of T.log.get(version)) {
      const text = eventText(event);
      if (text) list.append(el("li", {"data-version": version}, ...withRuleLinks(faces(text))));
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
  clock.textContent = ` ${t("{seconds} s left", {seconds: left})}`;
}
setInterval(tick, 1000);

// Links to this table's other seats held here (several people at one screen).
function drawSeatLinks() {
  const held = Seats.of(TABLE);
  const box = document.getElementById("my-seat-links");
  if (!box) return;
  box.replaceChildren(...(held.length > 1 ? held.map((s) => el("a", {
    href: `/tables/${encodeURIComponent(TABLE)}?seat=${s.seat}`,
    class: s.seat === T.seat ? "current" : "", "data-seat-link": s.seat}, t("seat {number}", {number: s.seat}))) : []));
}

// The final scores, one entry per seat (what the browser test compares with
// the record's), named as the table names them.
function drawResult(title, perSeat, names, lines) {
  const box = document.getElementById("result");
  if (!isOver(T.view)) {
    box.hidden = true;
    return;
  }
  const list = el("ul", {id: "final-scores", class: "final-scores"});
  perSeat.forEach((score, seat) => {
    list.append(el("li", {"data-seat": seat, "data-score": score}, `${names(seat)}: ${score}`));
  });
  box.replaceChildren(el("h2", {}, t("Game over")), el("p", {class: "verdict"}, title), list,
                      ...(lines || []).map((line) => el("p", {}, line)),
                      el("p", {}, el("a", {href: "/"}, t("back to the lobby"))));
  box.hidden = false;
}

function seatBox(seat, view, parts) {
  const n = Array.isArray(view.hand_sizes) ? view.hand_sizes.length : view.num_players;
  const classes = ["seat"];
  if (seat === T.seat) classes.push("me");
  if (view.current_player === seat) classes.push("to-act");
  const who = seat === T.seat ? "" : seatWho(seat);
  return el("div", {class: classes.join(" "), "data-seat": seat, "data-pos": position(seat, n),
                    role: "group", "aria-label": seatName(seat)},
    el("div", {class: "name"}, seatName(seat),
       seatName(seat) !== t("seat {number}", {number: seat}) ? el("span", {class: "quiet-inline"}, ` (${t("seat {number}", {number: seat})})`) : null,
       view.dealer === seat ? el("span", {class: "badge", title: t("dealer"), "aria-label": t("dealer")}, t("D")) : null),
    who ? el("div", {class: "meta who"}, who) : null,
    ...parts);
}

function waiting(view) {
  return t("Waiting for {name}\u2026", {name: seatName(view.current_player)});
}

// -- Back Alley ------------------------------------------------------------------

function bidText(bid) {
  if (!bid) return "";
  if (bid.type === "pass") return t("passed");
  if (bid.type === "bid") return t("bid {n}", {n: bid.tricks});
  if (bid.type === "board") return t("board");
  return "";
}

function contractText(c) {
  if (!c) return "\u2013";
  if (c.board) return [t("board"), t("board"), t("double board"), t("triple board"), t("quadruple board")][c.board] || t("board");
  return String(c.tricks);
}

const SUIT_NAMES = {S: N("spades"), H: N("hearts"), D: N("diamonds"), C: N("clubs")};

function teamName(team) {
  if (T.seat !== null) return team === T.seat % 2 ? t("your team") : t("the other team");
  return t("team {team} (seats {a} and {b})", {team: team, a: team, b: team + 2});
}

function renderBackAlley(view) {
  const n = view.hand_sizes.length;
  const deals = view.settings && view.settings.max_hand_size ? 2 * view.settings.max_hand_size - 1 : null;
  document.getElementById("title").textContent = `${t("Back Alley")} #${TABLE}`;
  const seats = document.getElementById("seats");
  seats.replaceChildren();
  for (let s = 0; s < n; s++) {
    const bid = view.bids[s] ? bidText(view.bids[s]) : t("no bid yet");
    seats.append(seatBox(s, view, [
      el("div", {class: "meta"}, teamName(s % 2)),
      el("div", {class: "meta"}, `${bid} \u00b7 ${t("tricks: {n}", {n: view.tricks_won[s]})}`),
      s === T.seat ? null : backs(view.hand_sizes[s]),
    ]));
  }
  // The middle: trump, the trick in play (or the last one), the deal.
  const centre = document.getElementById("centre");
  centre.replaceChildren();
  const suit = view.trump_card ? view.trump_card.slice(-1) : null;
  const trump = view.trump_card
    ? el("div", {class: "pile", id: "trump"}, el("div", {class: "label"},
        SUIT_NAMES[suit] && !/^(BB|LB)$/.test(view.trump_card)
          ? t("trumps: {suit}", {suit: t(SUIT_NAMES[suit])}) : t("no trumps")),
        el("span", {class: "card", "data-card": view.trump_card}, cardImage(view.trump_card)))
    : null;
  const trick = el("div", {class: "trick", id: "trick"});
  let shown = view.trick;
  let leader = view.leader;
  let caption = t("the trick");
  if (!shown.length && view.tricks.length) {
    const last = view.tricks[view.tricks.length - 1];
    shown = last.cards;
    leader = last.leader;
    caption = t("last trick, won by {name}", {name: seatName(last.winner)});
    trick.classList.add("finished");
  }
  shown.forEach((code, i) => {
    const by = (leader + i) % n;
    trick.append(el("div", {class: "played", "data-seat": by},
      el("span", {class: "card", "data-card": code}, cardImage(code)), el("div", {class: "label"}, seatName(by))));
  });
  if (!shown.length) trick.append(el("div", {class: "quiet empty"}, t("no card played yet")));
  const info = t("deal {deal} of {deals}, {n} cards each", {deal: view.deal_number, deals: deals || "?", n: view.hand_size});
  centre.append(
    el("div", {class: "deal-info"}, info, view.joker_discard ? ` \u00b7 ${t("{card} discarded", {card: cardName(view.joker_discard)})}` : ""),
    el("div", {class: "piles"}, trump, el("div", {class: "pile trick-pile"}, el("div", {class: "label"}, caption), trick)));
  drawHand(view.hand, {marked: (c) => (view.taken === c ? "taken" : "")});
  const actions = document.getElementById("actions");
  actions.replaceChildren();
  for (const action of T.legal) {
    if (!cardActionText(action)) actions.append(actionButton(action));
  }
  let status;
  if (isOver(view)) status = t("The game is over.");
  else if (view.current_player === T.seat && T.legal.length) {
    status = T.legal.some((a) => a.startsWith("play")) ? t("Your turn: play a card.") : t("Your turn: bid.");
  } else if (view.current_player === null || view.current_player === undefined) status = t("Dealing\u2026");
  else status = waiting(view);
  drawStatus(status);
  // The score: each team's points, then each deal.
  const score = document.getElementById("score");
  const mine = T.seat === null ? null : T.seat % 2;
  score.replaceChildren(
    el("ul", {class: "teams"}, view.scores.map((pts, team) =>
      el("li", {"data-team": team, "data-score": pts, class: team === mine ? "mine" : ""},
         `${teamName(team)}: ${t("{n} points", {n: pts})}`))),
    resultsTable([t("deal"), t("cards"), teamName(0), teamName(1)], view.results.map((r) => [
      r.deal_number, r.hand_size,
      ...[0, 1].map((team) => t("bid {contract}, won {tricks}: {points}", {
        contract: contractText(r.contracts[team]), tricks: r.tricks[team], points: r.points[team]}))])));
  const a = view.scores[0], b = view.scores[1];
  let verdict;
  if (a === b) verdict = t("A draw at {n} points each.", {n: a});
  else verdict = t("{team} wins, {high} to {low}.", {team: teamName(a > b ? 0 : 1), high: Math.max(a, b), low: Math.min(a, b)});
  drawResult(verdict, view.hand_sizes.map((_, s) => view.scores[s % 2]),
             (s) => `${seatName(s)} (${teamName(s % 2)})`, []);
}

function cardActionText(action) {
  const words = action.split(" ");
  return words.length === 2 && /^[2-9TJQKA][SHDC]$|^(BB|LB)$/.test(words[1]);
}

function resultsTable(head, rows) {
  if (!rows.length) return el("p", {class: "quiet"}, t("No results yet."));
  return el("table", {class: "results"},
    el("thead", {}, el("tr", {}, head.map((h) => el("th", {scope: "col"}, h)))),
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
  document.getElementById("title").textContent = `${t("Down and Back")} #${TABLE}`;
  const seats = document.getElementById("seats");
  seats.replaceChildren();
  for (let s = 0; s < n; s++) {
    const split = view.splits[s];
    let state = "";
    if (view.phase === "split") state = view.split_chosen[s] ? t("has split") : t("splitting");
    seats.append(seatBox(s, view, [
      el("div", {class: "meta"}, t("net {net} \u00b7 turns {turns}", {net: view.net[s], turns: view.turns[s]}),
         state ? ` \u00b7 ${state}` : ""),
      s === T.seat ? null : backs(view.hand_sizes[s]),
      view.seen[s].length ? el("div", {class: "meta"}, t("took"), " ", cardRow(view.seen[s])) : null,
      split ? el("div", {class: "split"}, cardRow(split.down, {"data-side": "down"}), " / ", cardRow(split.back, {"data-side": "back"})) : null,
    ]));
  }
  // The middle: the stock, the discard pile, the pot.
  const centre = document.getElementById("centre");
  centre.replaceChildren();
  const drawStock = T.legal.includes("draw stock") ? "draw stock" : null;
  const drawDiscard = T.legal.includes("draw discard") ? "draw discard" : null;
  const stock = el("div", {class: "pile", id: "stock"}, el("div", {class: "label"}, t("stock: {n}", {n: view.stock_size})),
    view.stock_size ? handCard("back", {action: drawStock && canAct() ? drawStock : null}) : el("span", {class: "quiet"}, t("empty")));
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  const under = view.discard.slice(Math.max(0, view.discard.length - 6), -1);
  const discard = el("div", {class: "pile", id: "discard"}, el("div", {class: "label"}, t("discard pile: {n}", {n: view.discard.length})),
    el("span", {class: "row"}, under.map((c) => el("span", {class: "card small under", "data-card": c}, cardImage(c))),
      top ? handCard(top, {action: drawDiscard && canAct() ? drawDiscard : null}) : el("span", {class: "quiet"}, t("empty"))));
  const round = view.rounds === null ? t("round {round}", {round: view.round})
    : t("round {round} of {rounds}", {round: view.round, rounds: view.rounds});
  centre.append(...present(el("div", {class: "deal-info"}, `${round} \u00b7 ${t("ante {ante}", {ante: view.ante})} \u00b7 ${t("pot")} `,
                   el("strong", {id: "pot", "data-pot": view.pot}, String(view.pot))),
                isOver(view) ? null : el("div", {class: "piles"}, stock, discard)));
  if (view.showdown) {
    centre.append(el("div", {class: "quiet"}, t("Tie-break draws under way"), " (", ruleLink("DB-42"), ")"));
  }
  // The hand: discard by choosing a card, or choose the down hand of a split.
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
  const yours = {cut: N("Your turn: cut the deck."), draw: N("Your turn: draw from the stock or take the top discard."),
                 discard: N("Your turn: discard a card."), split: N("Your turn: split your seven cards.")};
  let status;
  if (isOver(view)) status = t("The game is over.");
  else if (view.phase === "split" && T.seat !== null) {
    status = view.split_chosen[T.seat] ? t("Waiting for the others to split\u2026") : t("Everyone splits: choose your down hand.");
  } else if (view.current_player === T.seat && T.legal.length) status = t(yours[view.phase] || "Your turn.");
  else if (view.current_player === null || view.current_player === undefined) status = t("Dealing\u2026");
  else status = waiting(view);
  drawStatus(status);
  // The score: net per seat, then each round.
  const score = document.getElementById("score");
  score.replaceChildren(
    el("ul", {class: "teams"}, view.net.map((net, s) =>
      el("li", {"data-seat": s, "data-score": net, class: s === T.seat ? "mine" : ""}, `${seatName(s)}: ${t("net {net}", {net: net})}`))),
    resultsTable([t("round"), t("down hand"), t("back hand"), t("pot")], view.results.map((r) => [
      r.round, seatName(r.down_winner), seatName(r.back_winner),
      r.pot_winner === null ? t("{pot} carries over", {pot: r.pot}) : t("{pot} to {name}", {pot: r.pot, name: seatName(r.pot_winner)})])),
    lastShowdown(view) || "");
  const best = Math.max(...view.net);
  const leaders = view.net.map((v, s) => (v === best ? s : null)).filter((s) => s !== null);
  let verdict;
  if (leaders.length === 1 && leaders[0] === T.seat) verdict = t("You win with net {net}.", {net: best});
  else if (leaders.length === 1) verdict = t("{name} wins with net {net}.", {name: seatName(leaders[0]), net: best});
  else verdict = t("Shared lead at net {net}: {names}.", {net: best, names: leaders.map(seatName).join(", ")});
  drawResult(verdict, view.net.slice(), seatName, [t("pot left: {pot}", {pot: view.pot})]);
}

function lastShowdown(view) {
  if (!view.results.length) return null;
  const r = view.results[view.results.length - 1];
  return el("div", {class: "showdown", id: "last-showdown"}, el("h3", {}, t("Round {round} showdown", {round: r.round})),
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
                                 "aria-label": t("{card} in the down hand", {card: cardName(code)}),
                                 title: chosen ? t("in the down hand") : t("in the back hand"),
                                 disabled: !canAct(),
                                 onclick: () => {
                                   if (T.chosen.has(code)) T.chosen.delete(code);
                                   else if (T.chosen.size < 4) T.chosen.add(code);
                                   render();
                                 }}, cardImage(code, {alt: ""}));
    box.append(button);
  }
  const action = T.chosen.size === 4 ? splits.get(splitKey(T.chosen)) : null;
  const down = view.hand.filter((c) => T.chosen.has(c)).map(cardName).join(" ");
  const back = view.hand.filter((c) => !T.chosen.has(c)).map(cardName).join(" ");
  const label = T.chosen.size === 4
    ? t("split: down {down} / back {back}", {down: down, back: back})
    : t("choose {n} more for the four-card down hand", {n: 4 - T.chosen.size});
  actions.append(el("button", {type: "button", class: "act primary", id: "split-button",
                               "data-action": action || "", disabled: !action || !canAct(),
                               onclick: () => action && send(action)}, label));
  if (T.chosen.size) {
    actions.append(el("button", {type: "button", class: "act quiet-button", id: "split-clear",
                                 onclick: () => { T.chosen.clear(); render(); }}, t("clear")));
  }
}

function drawCut(cuts, actions) {
  const lo = Math.min(...cuts), hi = Math.max(...cuts);
  if (T.cut === null || T.cut < lo || T.cut > hi) T.cut = Math.round((lo + hi) / 2);
  const input = el("input", {type: "number", id: "cut-count", min: lo, max: hi, value: T.cut, inputmode: "numeric"});
  const button = el("button", {type: "button", class: "act primary", id: "cut-button",
                               "data-action": `cut ${T.cut}`, disabled: !canAct(),
                               onclick: () => send(`cut ${T.cut}`)}, actionLabel(`cut ${T.cut}`));
  input.addEventListener("input", () => {
    const value = parseInt(input.value, 10);
    if (value >= lo && value <= hi) {
      T.cut = value;
      button.dataset.action = `cut ${value}`;
      button.textContent = actionLabel(`cut ${value}`);
    }
  });
  actions.append(el("label", {for: "cut-count"}, t("How many cards to cut ({low} to {high})?", {low: lo, high: hi}), " "), input, button);
}

// -- any other game: the hand and every legal action as a button --------------------

function renderGeneric(view) {
  document.getElementById("title").textContent = `#${TABLE}`;
  document.getElementById("seats").replaceChildren();
  document.getElementById("centre").replaceChildren(el("pre", {class: "raw"}, JSON.stringify(view, null, 1)));
  drawHand(Array.isArray(view.hand) ? view.hand : []);
  const actions = document.getElementById("actions");
  actions.replaceChildren(...T.legal.filter((a) => !cardActionText(a)).map((a) => actionButton(a)));
  drawStatus(isOver(view) ? t("The game is over.") : T.legal.length ? t("Your turn.") : "");
  document.getElementById("score").replaceChildren();
  drawResult("", [], seatName, []);
}

const LAYOUTS = {
  "cardrules/back_alley/view/1": renderBackAlley,
  "cardrules/down_and_back/view/1": renderDownAndBack,
};

// What has the keyboard's focus, to give it back after the page is redrawn.
function focusKey() {
  const active = document.activeElement;
  if (!active || active === document.body) return null;
  if (!document.getElementById("felt").contains(active)) return undefined;   // elsewhere: leave it
  for (const name of ["pick", "action", "card"]) {
    if (active.dataset && active.dataset[name]) return `[data-${name}="${active.dataset[name]}"]`;
  }
  return active.id ? `#${active.id}` : null;
}

function restoreFocus(key, turnBegins) {
  if (key === undefined) return;
  const target = (key && document.querySelector(`#felt ${key}:not([disabled])`))
    || (turnBegins || key ? document.querySelector("#mine button:not([disabled]), #centre button:not([disabled]), #mine input") : null);
  if (target && target !== document.activeElement) target.focus({preventScroll: true});
}

function render() {
  const main = document.getElementById("table");
  if (!T.view) return;
  const view = T.view;
  const key = focusKey();
  (LAYOUTS[view.format] || renderGeneric)(view);
  const myTurn = Boolean(T.legal.length && canAct());
  main.dataset.version = T.version;
  main.dataset.phase = view.phase || "";
  main.dataset.seat = T.seat === null ? "" : T.seat;
  main.dataset.current = view.current_player === null || view.current_player === undefined ? "" : view.current_player;
  main.dataset.myTurn = myTurn ? "1" : "";
  main.dataset.over = isOver(view) ? "1" : "";
  main.dataset.pending = T.pending === null ? "" : "1";
  main.dataset.legal = JSON.stringify(canAct() ? T.legal : []);
  main.dataset.players = Array.isArray(view.hand_sizes) ? view.hand_sizes.length : (view.num_players || "");
  document.body.classList.toggle("watching", T.seat === null);
  drawSeatLinks();
  drawLog();
  restoreFocus(key, myTurn && !T.wasMyTurn);
  T.wasMyTurn = myTurn;
  if (T.view && !T.rulesGame) setRulesGame();
}

// -- the rules panel ------------------------------------------------------------

function gameOfView() {
  if (T.game) return T.game;
  if (!T.view) return null;
  const m = /^cardrules\/(\w+)\/view\//.exec(T.view.format || "");
  return m ? m[1].replace(/_/g, "-") : null;
}

function setRulesGame() {
  const game = gameOfView();
  if (!game) return;
  T.rulesGame = game;
  const link = document.getElementById("rules-open");
  link.href = `/rules/${game}?lang=${LANG}`;
}

async function toggleRules(event) {
  const game = gameOfView();
  if (!game) return;
  event.preventDefault();
  const panel = document.getElementById("rules");
  if (!panel.hidden) {
    panel.hidden = true;
    return;
  }
  const body = document.getElementById("rules-body");
  if (!body.childElementCount) {
    try {
      body.replaceChildren(...rulesNodes(await api("GET", `/rules/${game}.json?lang=${encodeURIComponent(LANG)}`), game));
    } catch (err) {
      body.replaceChildren(el("a", {href: `/rules/${game}?lang=${LANG}`}, t("How to play")));
    }
  }
  panel.hidden = false;
  panel.scrollIntoView({block: "start"});
  panel.querySelector("h2").setAttribute("tabindex", "-1");
  panel.querySelector("h2").focus({preventScroll: true});
}

async function loadSeats() {
  // The seat kinds (who is a bot) for the labels.
  try {
    const table = await api("GET", `/api/tables/${encodeURIComponent(TABLE)}`);
    T.seats = table.seats || null;
    T.game = table.game || null;
    render();
  } catch (err) {
    // Only labels are lost.
  }
}

async function start() {
  languageSwitch();
  await loadWords();
  document.getElementById("rules-open").addEventListener("click", toggleRules);
  T.token = pickToken();
  if (!T.token && !PARAMS.has("watch")) {
    notice(t("You hold no seat at this table in this browser, so you are watching."), "info");
  }
  connect();
  loadSeats();
}

start();
