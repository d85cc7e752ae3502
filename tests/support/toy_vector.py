"""A batch engine for the toy game of ``tests/support/toy_game.py`` (high card,
TOY-1 to TOY-4): a small, exact :class:`~cardrules.vector.base.VectorGame`
that tests ``cardrules.vector.make``, the Gymnasium-style wrapper and
``simulate(..., engine="vector")`` without a real game's engine.

Chance happens as the real engines do it: inside ``reset`` (the toy's only
chance is at the start: the dealer, then the shuffle), drawn from each
game's stream (:mod:`cardrules.vector.streams`), so game ``i`` is the same
game whatever the number of games.  ``RULES`` is the toy's rules under the
name ``high_card_batch`` with ``vector`` set (the toy's own ``RULES``, named
``toy``, has no batch engine).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from cardrules.engine import ChooseDealer, GameRecord, Shuffle, register
from cardrules.errors import IllegalActionError
from cardrules.vector.base import VectorGame
from cardrules.vector.streams import below, game_keys, shuffle_orders
from support import toy_game

#: The toy game's module (its rules, cards and actions).
toy: Any = toy_game
NUM_CARDS = len(toy.CARDS)


class HighCardVector(VectorGame):
    """``num_games`` games of high card, exact to the toy's reducer."""

    def __init__(self, num_games: int, *, seed: int, num_players: int = 3,
                 ante: int = 1) -> None:
        toy.new_game(num_players, ante)          # the reducer's checks of the settings
        self.rules = RULES
        self.num_games, self.num_players, self.ante = num_games, num_players, ante
        self.num_actions = toy.RULES.encoding.num_actions
        self.observation_size = toy.RULES.encoding.observation_size
        self.seed = seed
        self.keys = game_keys(seed, 0, num_games)
        self.reset()

    def reset(self) -> None:
        g, n = self.num_games, self.num_players
        self.counters = np.zeros(g, dtype=np.uint64)
        self.dealer = below(self.keys, self.counters, n)                  # TOY-1
        self.order = shuffle_orders(self.keys, self.counters, NUM_CARDS)  # TOY-2
        seats = np.arange(n)
        turn_of_seat = (seats[None, :] - self.dealer[:, None] - 1) % n
        self.hands = np.take_along_axis(self.order, turn_of_seat, axis=1)  # ranks by seat
        self.choices = np.full((g, n), -1, dtype=np.int8)   # by turn: 0 fold, 1 stay
        self.turn = np.zeros(g, dtype=np.int64)
        self.terminated = np.zeros(g, dtype=bool)
        self.rewards = np.zeros((g, n), dtype=np.float32)
        self._before = np.zeros((g, n), dtype=np.int64)
        self._update()

    def _returns(self) -> npt.NDArray[np.int64]:
        g, n = self.num_games, self.num_players
        seats = np.arange(n)
        turn_of_seat = (seats[None, :] - self.dealer[:, None] - 1) % n
        stayed = np.take_along_axis(self.choices, turn_of_seat, axis=1) == 1
        paid = self.ante * (1 + stayed.astype(np.int64))
        over = self.turn == n
        ranks = np.where(stayed, self.hands, -1)
        best = np.argmax(ranks, axis=1)
        anyone = stayed.any(axis=1)
        pot = self.ante * (n + stayed.sum(axis=1))
        won = np.zeros((g, n), dtype=np.int64)
        won[np.arange(g), best] = pot
        result = np.where(over[:, None], won - paid, -paid)
        result[over & ~anyone] = 0
        out: npt.NDArray[np.int64] = result
        return out

    def _update(self) -> None:
        n = self.num_players
        self.terminated = self.turn == n
        self.current_player = np.where(self.terminated, -1,
                                       (self.dealer + 1 + self.turn) % n).astype(np.int64)
        self.legal_action_mask = np.repeat(~self.terminated[:, None], self.num_actions, axis=1)
        after = self._returns()
        self.rewards = (after - self._before).astype(np.float32)
        self._before = after

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float32],
                                                    npt.NDArray[np.bool_]]:
        chosen = np.asarray(actions, dtype=np.int64).reshape(self.num_games)
        live = ~self.terminated
        bad = live & ((chosen < 0) | (chosen >= self.num_actions))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise IllegalActionError("TOY-3", f"game {i}: action {int(chosen[i])} is not "
                                              "legal (0 fold, 1 stay)")
        rows = np.flatnonzero(live)
        self.choices[rows, self.turn[rows]] = chosen[rows]
        self.turn[rows] += 1
        self._update()
        return self.rewards, self.terminated

    def observation(self, seat: int | None = None) -> npt.NDArray[np.float32]:
        g, n = self.num_games, self.num_players
        start = toy.START
        out = np.zeros((g, self.observation_size), dtype=np.float32)
        who = self.current_player if seat is None else np.full(g, seat, dtype=np.int64)
        shown_rows = np.ones(g, dtype=bool) if seat is not None else ~self.terminated
        rows = np.flatnonzero(shown_rows)
        out[rows, start["seat"] + who[rows]] = 1
        out[rows, start["dealer"] + self.dealer[rows]] = 1
        out[rows, start["card"] + self.hands[rows, who[rows]]] = 1
        seats = np.arange(n)
        turn_of_seat = (seats[None, :] - self.dealer[:, None] - 1) % n
        by_seat = np.take_along_axis(self.choices, turn_of_seat, axis=1)
        for s in range(n):
            stay = shown_rows & (by_seat[:, s] == 1)
            fold = shown_rows & (by_seat[:, s] == 0)
            out[stay, start["stayed"] + s] = 1
            out[fold, start["folded"] + s] = 1
            shown = stay & self.terminated
            out[shown, start["shown"] + s * NUM_CARDS + self.hands[shown, s]] = 1
        return out

    def _entries(self, index: int) -> list[Any]:
        cards = tuple(toy.CARDS[int(j)] for j in self.order[index])
        return [ChooseDealer(int(self.dealer[index])), Shuffle(cards),
                *(toy.PLAYER_ACTIONS[int(c)] for c in self.choices[index, :self.turn[index]])]

    def state(self, index: int) -> Any:
        state = toy.new_game(self.num_players, self.ante)
        for action in self._entries(index):
            state = toy.apply(state, action)
        return state

    def record(self, index: int) -> GameRecord:
        start = toy.new_game(self.num_players, self.ante)
        record: GameRecord = RULES.record(start, self._entries(index))
        return record


def _vector(num_games: int, seed: int, settings: Mapping[str, int | None]) -> VectorGame:
    return HighCardVector(num_games, seed=seed, **settings)  # type: ignore[arg-type]


#: The toy's rules with a batch engine, registered as ``high_card_batch``.
RULES: Any = register(attrs.evolve(toy.RULES, name="high_card_batch", vector=_vector))
