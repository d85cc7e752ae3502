"""High card: a toy game that plugs into cardrules through its ``RULES`` alone.

Rules TOY-1 to TOY-4: two to four players; chance picks the dealer (TOY-1);
the eight kings and queens are shuffled, every seat antes ``ante`` chips and
is dealt one card face down, the seat left of the dealer first (TOY-2); in
the same order each seat stays, adding ``ante`` chips to the pot, or folds
(TOY-3); the highest card that stayed takes the pot, spades over hearts over
diamonds over clubs, and if nobody stayed the antes go back (TOY-4).

>>> from cardrules.engine import RandomBot, rules_for
>>> game = rules_for("toy").play([RandomBot(5), RandomBot(6), RandomBot(7)], seed=2)
>>> print(RULES.summarize(game.state))
seat 0 wins; net +3 -1 -2
>>> print(RULES.view(game.state, 1))
high card, ante 1: you are seat 1, dealer 0
your card QD
seat 0 stays, shows QH
seat 1 folds
seat 2 stays, shows QC
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

import attrs

from cardrules.cards import Card, parse_cards
from cardrules.engine import ChooseDealer, Rules, Shuffle, register
from cardrules.engine.bounds import Bounds
from cardrules.engine.chance import chance_from_dict, chance_to_dict, parse_chance
from cardrules.engine.events import Event
from cardrules.engine.readers import Fields, split_verb
from cardrules.engine.rules import SettingValues
from cardrules.engine.tensors import Encoding, as_action_id, layout, zeros
from cardrules.errors import IllegalActionError, ParseError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

CARDS = parse_cards("QC QD QH QS KC KD KH KS")  # lowest first (TOY-4)
RANK = {card: rank for rank, card in enumerate(CARDS)}
MAX_PLAYERS = 4


@attrs.frozen
class Stay:
    """Stay in, adding an ante to the pot (TOY-3)."""

    def __str__(self) -> str:
        return "stay"


@attrs.frozen
class Fold:
    """Give up the ante (TOY-3)."""

    def __str__(self) -> str:
        return "fold"


Action = ChooseDealer | Shuffle | Stay | Fold
PLAYER_ACTIONS: tuple[Stay | Fold, ...] = (Fold(), Stay())  # numbered 0 and 1
BY_NAME = {str(action): action for action in PLAYER_ACTIONS}

# -- the table, and what one seat knows of it


@attrs.frozen
class State:
    """The table: the settings, the dealer, every seat's card and each choice in turn."""

    num_players: int
    ante: int
    dealer: int | None = None
    hands: tuple[Card, ...] = ()
    stays: tuple[bool, ...] = ()

    @property
    def is_chance(self) -> bool:
        return not self.hands

    @property
    def is_terminal(self) -> bool:
        return bool(self.hands) and len(self.stays) == self.num_players

    @property
    def current_player(self) -> int | None:
        if self.dealer is None or self.is_chance or self.is_terminal:
            return None
        return (self.dealer + 1 + len(self.stays)) % self.num_players

    def stayed(self, seat: int) -> bool | None:
        """Whether ``seat`` stayed (None: it has not chosen yet)."""
        turn = (seat - (self.dealer or 0) - 1) % self.num_players
        return self.stays[turn] if turn < len(self.stays) else None

    @property
    def pot(self) -> int:
        return self.ante * (self.num_players + sum(self.stays)) if self.hands else 0


@attrs.frozen
class View:
    """What ``seat`` knows: its card, every choice and, at the end, the cards that stayed."""

    seat: int
    num_players: int
    ante: int
    dealer: int | None
    card: Card | None
    stayed: tuple[bool | None, ...]
    shown: tuple[Card | None, ...]

    def __str__(self) -> str:
        said = {True: "stays", False: "folds", None: "to choose"}
        dealer = "no dealer yet" if self.dealer is None else f"dealer {self.dealer}"
        lines = [f"high card, ante {self.ante}: you are seat {self.seat}, {dealer}"]
        if self.card is not None:
            lines.append(f"your card {self.card}")
            lines += [f"seat {s} {said[c]}" + (f", shows {self.shown[s]}" if self.shown[s] else "")
                      for s, c in enumerate(self.stayed)]
        return "\n".join(lines)


def new_game(num_players: int = 3, ante: int = 1) -> State:
    if type(num_players) is not int or not 2 <= num_players <= MAX_PLAYERS:
        raise ValueError(f"high card is for 2 to {MAX_PLAYERS} players, not {num_players!r}")
    if type(ante) is not int or ante < 1:
        raise ValueError(f"the ante is a whole number of chips from 1, not {ante!r}")
    return State(num_players, ante)


def legal_actions(state: State) -> tuple[Action, ...]:
    return PLAYER_ACTIONS if state.current_player is not None else ()


def apply(state: State, action: Action, *, seat: int | None = None) -> State:
    n, dealer = state.num_players, state.dealer
    if seat is not None and seat != state.current_player:
        raise IllegalActionError("TOY-3", f"seat {seat} is not to act")
    if state.is_terminal:
        raise IllegalActionError("TOY-4", "the game is over")
    if dealer is None:
        if not isinstance(action, ChooseDealer) or action.seat >= n:
            raise IllegalActionError("TOY-1", f"chance picks a dealer first, seat 0 to {n - 1}")
        return attrs.evolve(state, dealer=action.seat)
    if state.is_chance:
        if not isinstance(action, Shuffle) or set(action.order) != set(CARDS):
            raise IllegalActionError("TOY-2", "the eight kings and queens are shuffled")
        order = cast(tuple[Card, ...], action.order)  # the toy cards, no joker
        return attrs.evolve(state, hands=tuple(order[(s - dealer - 1) % n] for s in range(n)))
    if not isinstance(action, Stay | Fold):
        raise IllegalActionError("TOY-3", f"seat {state.current_player} stays or folds")
    return attrs.evolve(state, stays=(*state.stays, isinstance(action, Stay)))


def view(state: State, seat: int) -> View:
    if not state.hands:
        return View(seat, state.num_players, state.ante, state.dealer, None, (), ())
    stayed = tuple(state.stayed(s) for s in range(state.num_players))
    shown = tuple(card if state.is_terminal and stayed[s] else None
                  for s, card in enumerate(state.hands))
    return View(seat, state.num_players, state.ante, state.dealer, state.hands[seat],
                stayed, shown)


def winner(state: State) -> int | None:
    """The seat that takes the pot at the end; None if nobody stayed (TOY-4)."""
    stayers = [s for s in range(state.num_players) if state.stayed(s)]
    return max(stayers, key=lambda s: RANK[state.hands[s]]) if stayers else None


def returns(state: State) -> tuple[int, ...]:
    """Net chips: the antes and stays paid in, and the pot to its winner at the end."""
    paid = [state.ante * (1 + bool(state.stayed(s))) if state.hands else 0
            for s in range(state.num_players)]
    best = winner(state) if state.is_terminal else None
    if state.is_terminal and best is None:
        return (0,) * state.num_players
    return tuple(state.pot * (s == best) - chips for s, chips in enumerate(paid))


def events(before: State, action: Action, after: State) -> tuple[Event, ...]:
    if isinstance(action, ChooseDealer):
        return (Event(None, ("dealer", action.seat)),)
    if isinstance(action, Shuffle):
        return (Event(None, ("shuffle, every seat antes", before.ante)),
                *(Event(s, None, ("seat", s, "is dealt", card))
                  for s, card in enumerate(after.hands)))
    told = [Event(None, ("seat", before.current_player, f"{action}s"))]
    if after.is_terminal:
        best = winner(after)
        told += [Event(None, ("seat", s, "shows", after.hands[s]))
                 for s in range(after.num_players) if after.stayed(s)]
        told.append(Event(None, ("nobody stayed: the antes go back",) if best is None
                          else ("seat", best, "takes the pot of", after.pot)))
    return tuple(told)


def summarize(state: State) -> str:
    best = winner(state) if state.is_terminal else None
    head = "not over" if not state.is_terminal else (
        "nobody stayed" if best is None else f"seat {best} wins")
    return f"{head}; net {' '.join(f'{r:+d}' for r in returns(state))}"


def state_to_dict(state: State) -> dict[str, object]:
    return {"num_players": state.num_players, "ante": state.ante, "dealer": state.dealer,
            "hands": [str(card) for card in state.hands], "stays": list(state.stays)}


def state_from_dict(data: Mapping[str, object]) -> State:
    f = Fields(data, "state")
    n = f.integer("num_players", minimum=2, maximum=MAX_PLAYERS)
    ante, dealer = f.integer("ante", minimum=1), f.opt_integer("dealer", minimum=0, maximum=n - 1)
    hands, stays = f.cards("hands", max_length=n), f.array("stays", max_length=n)
    f.done()
    if not all(isinstance(stay, bool) for stay in stays):
        raise ParseError("state: 'stays' holds true or false only")
    state = State(n, ante, dealer, hands, tuple(stay is True for stay in stays))
    try:
        check_invariants(state)
    except ValueError as err:
        raise ParseError(f"state: {err}") from None
    return state


def check_invariants(state: State) -> None:
    if state.hands and (state.dealer is None or len(state.hands) != state.num_players
                        or len(set(state.hands)) != len(state.hands)
                        or not set(state.hands) <= set(CARDS)):
        raise ValueError("after the dealer, each seat holds a different king or queen")
    if len(state.stays) > (state.num_players if state.hands else 0):
        raise ValueError("more choices than seats dealt in")


def hidden_variant(state: State, seat: int, rng: random.Random) -> State:
    """``state`` with every card ``seat`` cannot see dealt afresh."""
    seen = view(state, seat)
    hidden = [s for s in range(len(state.hands)) if s != seat and seen.shown[s] is None]
    hands = list(state.hands)
    pool = [card for card in CARDS if card != seen.card and card not in seen.shown]
    for s, card in zip(hidden, rng.sample(pool, len(hidden)), strict=True):
        hands[s] = card
    return attrs.evolve(state, hands=tuple(hands))


def action_to_dict(action: Action) -> dict[str, object]:
    return chance_to_dict(action) or {"type": str(action)}


def action_from_dict(data: Mapping[str, object]) -> Action:
    f = Fields(data, "action")
    kind = f.text("type")
    chance = chance_from_dict(f, kind, jokers=False)
    if chance is not None:
        return chance
    if kind not in BY_NAME:
        raise ParseError("action: unknown action type", token=kind)
    f.done()
    return BY_NAME[kind]


def parse_action(text: str) -> Action:
    verb, at, rest, rest_at = split_verb(text)
    chance = parse_chance(verb, rest, rest_at, jokers=False)
    if chance is not None:
        return chance
    if verb not in BY_NAME:
        raise ParseError("unknown action (stay or fold)", token=text[at:at + len(verb)],
                         position=at)
    if rest:
        raise ParseError(f"nothing follows {verb}", token=rest, position=rest_at)
    return BY_NAME[verb]


def action_id(action: Action, state: State | None = None) -> int:
    if not isinstance(action, Stay | Fold):
        raise ValueError(f"only stay and fold are numbered, not {action}")
    if state is not None and state.current_player is None:
        raise IllegalActionError("TOY-3", "nobody is to act")
    return PLAYER_ACTIONS.index(action)


def action_from_id(state: State, number: int) -> Action:
    number = as_action_id(number)
    if number not in legal_action_ids(state):
        raise IllegalActionError("TOY-3", f"action {number} is not legal now")
    return PLAYER_ACTIONS[number]


def legal_action_ids(state: State) -> tuple[int, ...]:
    return (0, 1) if state.current_player is not None else ()


#: The observation: seat, dealer, one's card, who stayed, who folded, the cards shown.
LAYOUT = layout((("seat", MAX_PLAYERS), ("dealer", MAX_PLAYERS), ("card", len(CARDS)),
                 ("stayed", MAX_PLAYERS), ("folded", MAX_PLAYERS),
                 ("shown", MAX_PLAYERS * len(CARDS))))
START = {name: start for name, start, _ in LAYOUT}


def observation_tensor(state: State, seat: int) -> npt.NDArray[np.float32]:
    """The view of ``seat`` as a vector (numpy is imported by ``zeros``, on first use)."""
    seen, out = view(state, seat), zeros(LAYOUT[-1][1] + LAYOUT[-1][2])
    out[START["seat"] + seat] = 1
    if seen.dealer is not None:
        out[START["dealer"] + seen.dealer] = 1
    if seen.card is not None:
        out[START["card"] + RANK[seen.card]] = 1
    for s, (stayed, shown) in enumerate(zip(seen.stayed, seen.shown, strict=True)):
        if stayed is not None:
            out[START["stayed" if stayed else "folded"] + s] = 1
        if shown is not None:
            out[START["shown"] + s * len(CARDS) + RANK[shown]] = 1
    return out


def bounds(settings: SettingValues) -> Bounds:
    start = RULES.new_game_from_settings(settings)
    n, ante = start.num_players, start.ante
    return Bounds(max_decisions=n, max_chance_steps=1 + len(CARDS) - 1,
                  min_return=-2.0 * ante, max_return=2.0 * ante * (n - 1))


def settings_of(state: State) -> SettingValues:
    return {"num_players": state.num_players, "ante": state.ante}


def probe_actions(state: State) -> tuple[Action, ...]:
    """Actions worth trying at every step: the legal ones and some that are not."""
    return (*PLAYER_ACTIONS, ChooseDealer(state.num_players), Shuffle(CARDS[1:]), Shuffle(CARDS))


def chance_pile(state: State) -> tuple[Card, ...] | None:
    """What chance does next (``RULES.sample_chance`` is drawn from it): the
    first dealer, then a shuffle of the eight cards (TOY-1, TOY-2)."""
    return None if state.dealer is None else CARDS


def observation_string(state: State, seat: int) -> str:
    return str(view(state, seat))


RULES: Rules[State, Action] = register(Rules(
    name="toy", title="High card", new_game=new_game,
    default_settings={"num_players": 3, "ante": 1}, settings_of=settings_of,
    legal_actions=legal_actions, apply=apply, view=view,
    state_to_dict=state_to_dict, state_from_dict=state_from_dict,
    action_to_dict=action_to_dict, action_from_dict=action_from_dict,
    parse_action=parse_action,
    check_settings=({"num_players": 2}, {"num_players": 3, "ante": 2}, {"num_players": 4}),
    probe_actions=probe_actions, hidden_variant=hidden_variant,
    check_invariants=check_invariants, summarize=summarize,
    returns=returns, return_unit="net chips", chance_pile=chance_pile,
    chance_cards=tuple(sorted(CARDS, key=lambda card: card.index)), events=events,
    encoding=Encoding(len(PLAYER_ACTIONS), action_id, action_from_id, legal_action_ids,
                      LAYOUT[-1][1] + LAYOUT[-1][2], LAYOUT, observation_tensor,
                      observation_string),
    bounds=bounds))
