"""Down and Back in the batch engine: :class:`DownAndBackVector` (DB-30 to DB-44).

Every game of a batch is exact to the reducer :mod:`cardrules.down_and_back`:
the same legal action numbers (its ``encoding``), the same chips, the same
observation vectors.  A game keeps its cards as 64-bit card sets (bit
``card.index`` of a ``uint64``: hands, cards seen, the discard pile as a
set) and its piles as ``(num_games, 52)`` int8 arrays with their ends.

**All games move together.**  A round has the same number of decisions in
every game: one cut (DB-32), six draws and six discards per seat (DB-35)
and one split per seat (DB-40); reshuffles (DB-36) and tie-break draws
(DB-42) are chance and happen inside :meth:`DownAndBackVector.step`.  So the
phase, the turn and the round are one number for the whole batch, and each
step is a handful of array operations over all games.

**Chance.**  Game ``i`` draws from its own stream
(:func:`cardrules.vector.streams.game_keys` of ``seed``, game ``i``): the
first dealer is ``below(..., num_players)`` (one word, DB-31); a deal's
shuffle is ``shuffle_orders(..., 52)``, the order of the deck from the top,
card ``order[k]`` being ``DECK[order[k]]`` (52 words, DB-32); a reshuffle of
a discard pile of ``L`` cards takes 52 words too and orders the pile (bottom
card first) by the first ``L`` of them, the others ignored (DB-36).  The
draw, discard, cut and split steps and the showdown of games without a tie
are vectorised (reshuffles included); a showdown with a tie (DB-42) is
played game by game in Python on that game's arrays (about one round in
four hundred in random play), still inside ``step``; the reducer is not
needed there.  :attr:`~DownAndBackVector.reshuffles` and
:attr:`~DownAndBackVector.tiebreaks` count both.

**Exactness.**  :meth:`~DownAndBackVector.record` gives each game's
:class:`~cardrules.engine.GameRecord` with every chance action, rebuilt from
the action numbers taken and the game's stream; :meth:`~DownAndBackVector.state`
is the reducer's state at its end.

>>> import numpy as np
>>> from cardrules.vector.base import random_actions
>>> games = DownAndBackVector(8, seed=1, num_players=3, rounds=1)
>>> rng = np.random.default_rng(0)
>>> steps = 0
>>> while not games.terminated.all():
...     _ = games.step(random_actions(games.legal_action_mask, rng))
...     steps += 1
>>> steps, bool((games.current_player == -1).all())
(40, True)
>>> games.state(5).is_terminal
True
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from cardrules.cards import DECK
from cardrules.down_and_back.actions import ChooseDealer, Shuffle
from cardrules.down_and_back.batch import evaluate3_batch, evaluate4_batch, split_strengths_batch
from cardrules.down_and_back.encoding import OBSERVATION_LAYOUT, OBSERVATION_SIZE, action_from_id
from cardrules.down_and_back.game import PHASE_RULES, apply, new_game
from cardrules.down_and_back.state import DEFAULT_ROUNDS, HAND_SIZE, TURNS, GameState, Phase
from cardrules.engine.registry import rules_for
from cardrules.errors import IllegalActionError
from cardrules.vector.base import VectorGame
from cardrules.vector.streams import below, game_keys, shuffle_orders, words

if TYPE_CHECKING:
    from cardrules.engine.records import GameRecord

__all__ = ["DownAndBackVector", "pile_orders"]

NUM_ACTIONS = 140
_CUT0, _STOCK, _PILE, _DISCARD0, _SPLIT0 = 0, 51, 52, 53, 105
_PHASES = tuple(Phase)
_P_CUT = _PHASES.index(Phase.CUT)
_P_DRAW = _PHASES.index(Phase.DRAW)
_P_DISCARD = _PHASES.index(Phase.DISCARD)
_P_SPLIT = _PHASES.index(Phase.SPLIT)
_P_OVER = _PHASES.index(Phase.GAME_OVER)
_AT = {name: start for name, start, _ in OBSERVATION_LAYOUT}
_ONE = np.uint64(1)
#: ``_BITS[c]`` is the card set holding card ``c`` alone.
_BITS = _ONE << np.arange(52, dtype=np.uint64)
#: The positions (of a 7-card hand in canonical order) of split ``k``'s down
#: and back hands, as the encoding numbers splits.
_DOWN_POSITIONS = np.array(list(combinations(range(HAND_SIZE), 4)), dtype=np.intp)
_BACK_POSITIONS = np.array([[p for p in range(HAND_SIZE) if p not in row]
                            for row in _DOWN_POSITIONS.tolist()], dtype=np.intp)
_LOW = np.uint64(63)
_HIGH = ~_LOW

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]


def pile_orders(keys: U64, counters: U64, lengths: npt.ArrayLike) -> npt.NDArray[np.intp]:
    """The reshuffle orders (DB-36): per stream, a uniform order of
    ``range(lengths[j])`` in the first ``lengths[j]`` places of a row of 52
    (the rest of the row is ``lengths[j]`` to 51).  Each takes 52 words, so
    a reshuffle costs every game the same whatever its pile; the first
    ``lengths[j]`` are ordered as :func:`~cardrules.vector.streams.shuffle_orders`
    orders words (by their top 58 bits, ties by position).

    >>> import numpy as np
    >>> from cardrules.vector.streams import game_keys
    >>> c = np.zeros(2, dtype=np.uint64)
    >>> o = pile_orders(game_keys(0, 0, 2), c, [3, 5])
    >>> sorted(o[0, :3].tolist()), sorted(o[1, :5].tolist()), c.tolist()
    ([0, 1, 2], [0, 1, 2, 3, 4], [52, 52])
    """
    drawn = words(keys, counters, 52)
    size = np.asarray(lengths, dtype=np.int64).reshape(-1, 1)
    # As shuffle_orders: the top 58 bits of each word, ties by position; the
    # places past the pile sort last, their keys all ones above the position.
    drawn &= _HIGH
    drawn[np.arange(52)[None, :] >= size] = _HIGH
    drawn |= np.arange(52, dtype=np.uint64)[None, :]
    drawn.sort(axis=1)
    order: npt.NDArray[np.intp] = (drawn & _LOW).astype(np.intp)
    return order


def _unpack(sets: U64, count: int = 52) -> npt.NDArray[np.uint8]:
    """The card sets of ``sets`` (any shape) as 0/1 bytes, one more axis of 52."""
    flat = np.ascontiguousarray(sets).reshape(-1)
    raw = np.unpackbits(flat.view(np.uint8).reshape(-1, 8), axis=1, count=count,
                        bitorder="little")
    return raw.reshape(*sets.shape, count)


def _cards_of(sets: U64, size: int = HAND_SIZE) -> npt.NDArray[np.intp]:
    """The ``size`` cards of each card set, in canonical order: ``(len(sets), size)``."""
    rest = sets.copy()
    cards = np.empty((len(sets), size), dtype=np.intp)
    for k in range(size):
        low = rest & (~rest + _ONE)                     # the lowest card left
        cards[:, k] = np.bitwise_count(low - _ONE)
        rest ^= low
    return cards


def _measures(sevens: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """:func:`~cardrules.down_and_back.bots.greedy_measure` of each row of
    seven cards: the largest sum of down and back strengths over its splits."""
    measured: npt.NDArray[np.int64] = split_strengths_batch(sevens).sum(
        axis=2, dtype=np.int64).max(axis=1)
    return measured


class DownAndBackVector(VectorGame):
    """``num_games`` games of Down and Back side by side, exact to the reducer.

    The settings are :func:`~cardrules.down_and_back.new_game`'s, except that
    ``rounds`` must be a whole number: a batch game must end (DB-44).

    >>> games = DownAndBackVector(4, seed=0, num_players=2, rounds=1)
    >>> games.current_player.shape, games.legal_action_mask[:, :51].all()
    ((4,), np.True_)
    >>> games.observation().shape
    (4, 1087)
    """

    def __init__(self, num_games: int, *, seed: int, num_players: int = 4, ante: int = 1,
                 rounds: int = DEFAULT_ROUNDS) -> None:
        if rounds is None or isinstance(rounds, bool) or not isinstance(rounds, int):
            raise ValueError(f"a batch game needs a whole number of rounds (DB-44), "
                             f"not {rounds!r}")
        new_game(num_players, ante=ante, rounds=rounds)  # the reducer checks the settings
        if isinstance(num_games, bool) or not isinstance(num_games, int) or num_games < 1:
            raise ValueError(f"num_games must be a whole number of at least 1, not "
                             f"{num_games!r}")
        # Down and Back's RULES, found by name: the package builds RULES with
        # this engine, so the engine does not import the package's face.
        self.rules = rules_for("down_and_back")
        self.num_games = num_games
        self.num_players = num_players
        self.num_actions = NUM_ACTIONS
        self.observation_size = OBSERVATION_SIZE
        self.ante = ante
        self.rounds = rounds
        self.seed = seed
        self._keys = game_keys(seed, 0, num_games)
        self.reset()

    # -- the arrays ------------------------------------------------------------------

    def reset(self) -> None:
        """Start every game again (the same games: the streams start over).

        >>> games = DownAndBackVector(3, seed=2, num_players=2, rounds=1)
        >>> first = games.observation()
        >>> _ = games.step(np.zeros(3, dtype=np.int64))
        >>> games.reset()
        >>> bool((games.observation() == first).all())
        True
        """
        g, n = self.num_games, self.num_players
        self._counters = np.zeros(g, dtype=np.uint64)
        self._rows = np.arange(g)
        self._seat_base = self._rows * n
        self._card_base = self._rows * 52
        self._action_base = self._rows * NUM_ACTIONS
        self.current_player = np.full(g, -1, dtype=np.int64)
        self.legal_action_mask = np.zeros((g, NUM_ACTIONS), dtype=np.bool_)
        self._mask_flat = self.legal_action_mask.reshape(-1)
        self.rewards = np.zeros((g, n), dtype=np.float32)
        self.terminated = np.zeros(g, dtype=np.bool_)
        self._rewarded = False
        self._phase = _P_CUT
        self._turn = 0
        self._round = 1
        self._splits_made = 0
        self._dealer = below(self._keys, self._counters, n)  # DB-31
        self._pot = np.zeros(g, dtype=np.int64)
        self._net = np.zeros((g, n), dtype=np.int64)
        self._hands = np.zeros((g, n), dtype=np.uint64)
        self._seen = np.zeros((g, n), dtype=np.uint64)
        self._stock = np.zeros((g, 52), dtype=np.int8)
        self._stock_start = np.zeros(g, dtype=np.int64)
        self._stock_end = np.zeros(g, dtype=np.int64)
        self._pile = np.zeros((g, 52), dtype=np.int8)
        self._pile_size = np.zeros(g, dtype=np.int64)
        self._pile_set = np.zeros(g, dtype=np.uint64)
        self._drawn = np.full(g, -1, dtype=np.int64)
        self._split = np.full((g, n), -1, dtype=np.int8)
        self._down = np.zeros((g, n), dtype=np.uint64)
        self._down_cards = np.zeros((g, n, 4), dtype=np.int8)
        self._back_cards = np.zeros((g, n, 3), dtype=np.int8)
        self._log: list[npt.NDArray[np.int16]] = []
        self._reshuffles = 0
        self._tiebreaks = 0
        self._tie_reshuffles = 0
        self._start_round()

    @property
    def reshuffles(self) -> int:
        """How many reshuffles of a discard pile (DB-36) the batch has played
        since the last reset, in draws and in tie-breaks.

        >>> DownAndBackVector(2, seed=0, rounds=1).reshuffles
        0
        """
        return self._reshuffles

    @property
    def tiebreaks(self) -> int:
        """How many showdowns (down or back) were decided by tie-break draws
        (DB-42) since the last reset.

        >>> DownAndBackVector(2, seed=0, rounds=1).tiebreaks
        0
        """
        return self._tiebreaks

    def _clear_table(self, stock: npt.ArrayLike) -> None:
        """Every card in the stock, in the order ``stock``; no hand, pile,
        draw or split (between rounds, DB-31, DB-32, DB-44)."""
        self._stock[:] = stock
        self._stock_start[:] = 0
        self._stock_end[:] = 52
        self._pile_size[:] = 0
        self._pile_set[:] = 0
        self._hands[:] = 0
        self._seen[:] = 0
        self._drawn[:] = -1
        self._split[:] = -1
        self._down[:] = 0
        self._turn = 0
        self._splits_made = 0

    def _start_round(self) -> None:
        """Antes (DB-30), the shuffle (DB-32), the cutter to act."""
        n, ante = self.num_players, self.ante
        self._pot += n * ante
        self._net -= ante
        self._clear_table(shuffle_orders(self._keys, self._counters, 52))
        self._phase = _P_CUT
        self.current_player[:] = (self._dealer - 1) % n
        mask = self.legal_action_mask
        mask[:] = False
        mask[:, _CUT0:_CUT0 + 51] = True

    # -- stepping --------------------------------------------------------------------

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float32],
                                                    npt.NDArray[np.bool_]]:
        """Apply one action number per game, play the chance that follows and
        return ``(rewards, terminated)`` (see :class:`~cardrules.vector.base.VectorGame`).

        >>> games = DownAndBackVector(2, seed=0, num_players=2, rounds=1)
        >>> games.step([60, 0])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardrules.errors.IllegalActionError: DB-32: game 0: action id 60 is not legal ...
        """
        if self._rewarded:
            self.rewards[:] = 0
            self._rewarded = False
        if self._phase == _P_OVER:
            return self.rewards, self.terminated
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_games,) or not np.issubdtype(chosen.dtype, np.integer):
            raise ValueError(f"step() takes one integer action number per game, shape "
                             f"({self.num_games},), not {chosen.dtype} {chosen.shape}")
        chosen = chosen.astype(np.int64, copy=False)
        if int(chosen.min()) < 0 or int(chosen.max()) >= NUM_ACTIONS or not \
                self._mask_flat.take(self._action_base + chosen).all():
            self._refuse(chosen, (chosen >= 0) & (chosen < NUM_ACTIONS))
        self._log.append(chosen.astype(np.int16))
        phase = self._phase
        if phase == _P_DRAW:
            self._draw(chosen)
        elif phase == _P_DISCARD:
            self._discard(chosen)
        elif phase == _P_CUT:
            self._cut(chosen)
        else:
            self._split_step(chosen)
        return self.rewards, self.terminated

    def greedy_actions(self, rng: np.random.Generator) -> I64:
        """What :class:`~cardrules.down_and_back.GreedyBot` does in every game,
        as action numbers: a random cut (drawn from ``rng``), then
        :func:`~cardrules.down_and_back.rollout.greedy_action`: take the
        discard pile's top card when some seven with it measure more
        (``takes_discard`` in ``cardrules.down_and_back.bots``), discard the card
        whose loss leaves the best seven (the lowest on a tie), split for the
        largest sum of strengths (the first split on a tie).  The measures come
        from the batch evaluators (:func:`~cardrules.down_and_back.split_strengths_batch`);
        0 where a game is over.

        >>> import numpy as np
        >>> games = DownAndBackVector(3, seed=2, num_players=2, rounds=1)
        >>> games.step(games.greedy_actions(np.random.default_rng(0)))[1].tolist()
        [False, False, False]
        >>> bool(np.isin(games.greedy_actions(np.random.default_rng(0)), (_STOCK, _PILE)).all())
        True
        """
        from cardrules.vector.base import random_actions

        if self._phase == _P_CUT or self.terminated.all():
            chosen: I64 = random_actions(self.legal_action_mask, rng)
            return chosen
        live = ~self.terminated
        out = np.zeros(self.num_games, dtype=np.int64)
        rows = self._rows[live]
        hand = self._hands[rows, self.current_player[live]]
        if self._phase == _P_SPLIT:
            sums = split_strengths_batch(_cards_of(hand)).sum(axis=2)
            out[live] = _SPLIT0 + np.argmax(sums, axis=1)
            return out
        if self._phase == _P_DISCARD:
            cards = _cards_of(hand, HAND_SIZE + 1)
            keep = np.array([[j for j in range(HAND_SIZE + 1) if j != k]
                             for k in range(HAND_SIZE + 1)])
            sevens = cards[:, keep].reshape(-1, HAND_SIZE)
            measures = _measures(sevens).reshape(len(rows), HAND_SIZE + 1)
            out[live] = _DISCARD0 + cards[np.arange(len(rows)), np.argmax(measures, axis=1)]
            return out
        size = self._pile_size[rows]
        out[live] = _STOCK
        piled = size > 0
        if piled.any():
            prow = rows[piled]
            cards = _cards_of(hand[piled])
            top = self._pile[prow, size[piled] - 1].astype(np.intp)
            now = _measures(cards)
            keep = np.array([[j for j in range(HAND_SIZE) if j != k] for k in range(HAND_SIZE)])
            with_top = np.concatenate(
                [cards[:, keep], np.broadcast_to(top[:, None, None], (len(prow), HAND_SIZE, 1))],
                axis=2).reshape(-1, HAND_SIZE)
            with_top.sort(axis=1)
            better = (_measures(with_top).reshape(len(prow), HAND_SIZE) > now[:, None]).any(axis=1)
            taken = out[live]
            taken[np.flatnonzero(piled)[better]] = _PILE
            out[live] = taken
        return out

    def _refuse(self, chosen: I64, inside: npt.NDArray[np.bool_]) -> None:
        legal = inside.copy()
        legal[inside] = self.legal_action_mask[self._rows[inside], chosen[inside]]
        game = int(np.flatnonzero(~legal)[0])
        phase = _PHASES[self._phase]
        raise IllegalActionError(PHASE_RULES[phase], f"game {game}: action id "
                                 f"{int(chosen[game])} is not legal now (phase {phase})")

    def _cut(self, chosen: I64) -> None:
        """DB-32, DB-33: cut, deal seven cards each and turn one face up."""
        n = self.num_players
        count = chosen + 1
        where = (np.arange(52)[None, :] + count[:, None]) % 52
        deck = np.take_along_axis(self._stock, where, axis=1)
        dealt = HAND_SIZE * n
        bits = _BITS.take(deck[:, :dealt].astype(np.intp))
        by_position = bits[:, :n].copy()                   # (g, n): position p from the left
        for k in range(1, HAND_SIZE):  # card k of each: numpy's reduce is slow on short axes
            by_position |= bits[:, k * n:(k + 1) * n]
        seats = (self._dealer[:, None] + 1 + np.arange(n)[None, :]) % n
        hands = self._hands
        hands[self._rows[:, None], seats] = by_position
        self._stock[:] = deck
        self._stock_start[:] = dealt + 1
        self._pile[:, 0] = deck[:, dealt]
        self._pile_size[:] = 1
        self._pile_set[:] = _BITS[deck[:, dealt].astype(np.intp)]
        self._phase = _P_DRAW
        self.current_player[:] = seats[:, 0]
        mask = self.legal_action_mask
        mask[:, _CUT0:_CUT0 + 51] = False
        mask[:, _STOCK] = True
        mask[:, _PILE] = True

    def _draw(self, chosen: I64) -> None:
        """DB-34, DB-36, DB-37: take the stock's or the pile's top card."""
        slot = self._seat_base + self.current_player
        from_pile = chosen == _PILE
        pile_card = self._pile.reshape(-1).take(self._card_base + self._pile_size - 1)
        stock_card = self._stock.reshape(-1).take(
            self._card_base + np.minimum(self._stock_start, 51))
        card = np.where(from_pile, pile_card, stock_card).astype(np.intp)
        bit = _BITS.take(card)
        hands = self._hands.reshape(-1)
        hand = hands.take(slot) | bit
        hands[slot] = hand
        taken = np.where(from_pile, bit, np.uint64(0))
        seen = self._seen.reshape(-1)
        seen[slot] = seen.take(slot) | taken
        self._pile_set &= ~taken
        self._pile_size -= from_pile
        self._stock_start += ~from_pile
        self._drawn[:] = card
        empty = np.flatnonzero(self._stock_start == self._stock_end)
        if empty.size:
            self._reshuffle(empty)
        self._phase = _P_DISCARD
        mask = self.legal_action_mask
        mask[:, _STOCK:_PILE + 1] = False
        mask.view(np.uint8)[:, _DISCARD0:_DISCARD0 + 52] = _unpack(hand)

    def _reshuffle(self, games: I64) -> None:
        """DB-36 after a draw: the pile of each of ``games`` is shuffled; its
        first card is turned up, the rest is the stock."""
        self._reshuffles += int(games.size)
        sizes = self._pile_size[games]
        order = pile_orders(self._keys[games], self._counters[games], sizes)
        self._counters[games] += np.uint64(52)
        cards = np.take_along_axis(self._pile[games], order, axis=1)
        self._stock[games] = np.roll(cards, -1, axis=1)
        self._stock_start[games] = 0
        self._stock_end[games] = sizes - 1
        self._pile[games, 0] = cards[:, 0]
        self._pile_size[games] = 1
        self._pile_set[games] = _BITS[cards[:, 0].astype(np.intp)]

    def _discard(self, chosen: I64) -> None:
        """DB-34, DB-35, DB-37: discard a card; the turn passes."""
        n, seat = self.num_players, self.current_player
        slot = self._seat_base + seat
        card = chosen - _DISCARD0
        bit = _BITS.take(card)
        keep = ~bit
        hands = self._hands.reshape(-1)
        hands[slot] = hands.take(slot) & keep
        seen = self._seen.reshape(-1)
        seen[slot] = seen.take(slot) & keep
        self._pile.reshape(-1)[self._card_base + self._pile_size] = card
        self._pile_size += 1
        self._pile_set |= bit
        self._drawn[:] = -1
        self._turn += 1
        mask = self.legal_action_mask
        mask[:, _DISCARD0:_DISCARD0 + 52] = False
        if self._turn == TURNS * n:
            self._phase = _P_SPLIT
            seat[:] = (self._dealer + 1) % n
            mask[:, _SPLIT0:] = True
        else:
            self._phase = _P_DRAW
            seat += 1
            seat %= n
            mask[:, _STOCK] = True
            mask[:, _PILE] = self._pile_size > 0

    def _split_step(self, chosen: I64) -> None:
        """DB-40: the player to act splits; after the last, the showdown."""
        n, rows, seat = self.num_players, self._rows, self.current_player
        k = (chosen - _SPLIT0).astype(np.intp)
        hand = self._hands[rows, seat]
        cards = _cards_of(hand)
        down = np.take_along_axis(cards, _DOWN_POSITIONS[k], axis=1)
        back = np.take_along_axis(cards, _BACK_POSITIONS[k], axis=1)
        self._split[rows, seat] = k
        down_bits = _BITS.take(down)
        self._down[rows, seat] = down_bits[:, 0] | down_bits[:, 1] | down_bits[:, 2] | \
            down_bits[:, 3]
        self._down_cards[rows, seat] = down
        self._back_cards[rows, seat] = back
        self._splits_made += 1
        if self._splits_made < n:
            seat += 1
            seat %= n
            return
        self._showdown()

    def _showdown(self) -> None:
        """DB-41 to DB-44: both showdowns, the pot, the next round or the end."""
        g, n = self.num_games, self.num_players
        downs = evaluate4_batch(self._down_cards.reshape(g * n, 4)).reshape(g, n)
        backs = evaluate3_batch(self._back_cards.reshape(g * n, 3)).reshape(g, n)
        down_win = np.argmax(downs, axis=1)
        back_win = np.argmax(backs, axis=1)
        tied = ((downs == downs.max(axis=1, keepdims=True)).sum(axis=1) > 1) | \
            ((backs == backs.max(axis=1, keepdims=True)).sum(axis=1) > 1)
        for game in np.flatnonzero(tied).tolist():
            down_win[game], back_win[game] = self._break_ties(game, downs[game].tolist(),
                                                              backs[game].tolist())
        before = self._net.copy()
        takes = down_win == back_win
        winners = np.flatnonzero(takes)
        self._net[winners, down_win[winners]] += self._pot[winners]
        self._pot[winners] = 0
        if self._round >= self.rounds:
            self._end()
        else:
            self._round += 1
            self._dealer = (self._dealer + 1) % n
            self._start_round()
        self.rewards[:] = self._net - before
        self._rewarded = True

    def _break_ties(self, game: int, downs: list[int], backs: list[int]) -> tuple[int, int]:
        """DB-42 for one game, in Python: the tied draw from the stock in seat
        order from the dealer's left, the highest rank winning, again among
        the still tied; a pass's cards go onto the pile when it is over, and
        an empty stock is reshuffled from the pile (DB-36).  The piles are
        gathered after the round, so only the winners and the stream's
        counter come out of it."""
        n = self.num_players
        start, end = int(self._stock_start[game]), int(self._stock_end[game])
        stock = self._stock[game, start:end].tolist()
        pile = self._pile[game, :int(self._pile_size[game])].tolist()
        order = [(int(self._dealer[game]) + 1 + k) % n for k in range(n)]
        winners = []
        for strengths in (downs, backs):
            best = max(strengths)
            contenders = [seat for seat in order if strengths[seat] == best]
            if len(contenders) > 1:
                self._tiebreaks += 1
            while len(contenders) > 1:
                drawn = []
                for seat in contenders:
                    drawn.append((seat, stock.pop(0)))
                    if not stock:
                        self._reshuffles += 1
                        self._tie_reshuffles += 1
                        counters = self._counters[game:game + 1]
                        perm = pile_orders(self._keys[game:game + 1], counters,
                                           [len(pile)])[0, :len(pile)].tolist()
                        cards = [pile[p] for p in perm]
                        stock, pile = cards[1:], cards[:1]
                top = max(card // 4 for _, card in drawn)
                contenders = [seat for seat, card in drawn if card // 4 == top]
                pile.extend(card for _, card in drawn)
            winners.append(contenders[0])
        return winners[0], winners[1]

    def _end(self) -> None:
        """DB-44: the last round is over; the cards are gathered."""
        self._phase = _P_OVER
        self.current_player[:] = -1
        self.terminated[:] = True
        self.legal_action_mask[:] = False
        self._clear_table(np.arange(52, dtype=np.int8))

    # -- observations ----------------------------------------------------------------

    def observation(self, seat: int | None = None) -> npt.NDArray[np.float32]:
        """``(num_games, 1087)`` float32: each game's
        :func:`~cardrules.down_and_back.encoding.observation_tensor` of the view of
        ``seat`` (of the seat to act when None; zeros once a game is over).

        >>> from cardrules.down_and_back import view
        >>> from cardrules.down_and_back.encoding import observation_tensor
        >>> games = DownAndBackVector(3, seed=4, num_players=3, rounds=1)
        >>> _ = games.step(np.array([5, 6, 7]))
        >>> row = observation_tensor(view(games.state(1), 2))
        >>> bool((games.observation(2)[1] == row).all())
        True
        """
        g, n = self.num_games, self.num_players
        out = np.zeros((g, OBSERVATION_SIZE), dtype=np.float32)
        if seat is None:
            if self._phase == _P_OVER:
                return out
            viewer = self.current_player
        else:
            if isinstance(seat, bool) or not isinstance(seat, int | np.integer) \
                    or not 0 <= seat < n:
                raise ValueError(f"seat must be a whole number from 0 to {n - 1}, not {seat!r}")
            viewer = np.full(g, int(seat), dtype=np.int64)
        at, rows, phase = _AT, self._rows, self._phase
        others = (viewer[:, None] + np.arange(n)[None, :]) % n     # seat at each position
        out[:, at["num_players"] + n - 2] = 1
        out[:, at["phase"] + phase] = 1
        out[rows, at["dealer"] + (self._dealer - viewer) % n] = 1
        if phase != _P_OVER:
            out[rows, at["current_player"] + (self.current_player - viewer) % n] = 1
        out[:, at["round"]] = self._round
        out[:, at["rounds"]] = self.rounds
        out[:, at["ante"]] = self.ante
        out[:, at["pot"]] = self._pot
        out[:, at["net"]:at["net"] + n] = np.take_along_axis(self._net, others, axis=1)
        hands = np.take_along_axis(self._hands, others, axis=1)
        out[:, at["hand_sizes"]:at["hand_sizes"] + n] = np.bitwise_count(hands)
        out[:, at["stock_size"]] = self._stock_end - self._stock_start
        first = (self._dealer + 1) % n
        laps, extra = divmod(self._turn, n)
        out[:, at["turns"]:at["turns"] + n] = laps + ((others - first[:, None]) % n < extra)
        chosen = np.take_along_axis(self._split, others, axis=1) >= 0
        out[:, at["split_chosen"]:at["split_chosen"] + n] = chosen
        own = hands[:, 0]
        down = np.where(chosen[:, 0], self._down[rows, viewer], np.uint64(0))
        back = np.where(chosen[:, 0], own & ~down, np.uint64(0))
        seen = np.take_along_axis(self._seen, others, axis=1)
        sets = np.concatenate([own[:, None], self._pile_set[:, None], down[:, None],
                               back[:, None], seen], axis=1)
        planes = _unpack(sets)
        out[:, at["hand"]:at["hand"] + 52] = planes[:, 0]
        out[:, at["discard"]:at["discard"] + 52] = planes[:, 1]
        out[:, at["split_down"]:at["split_down"] + 52] = planes[:, 2]
        out[:, at["split_back"]:at["split_back"] + 52] = planes[:, 3]
        out[:, at["seen"]:at["seen"] + 52 * n] = planes[:, 4:].reshape(g, 52 * n)
        if phase == _P_DISCARD:
            mine = np.flatnonzero(viewer == self.current_player)
            out[mine, at["drawn"] + self._drawn[mine]] = 1
        piled = np.flatnonzero(self._pile_size > 0)
        if piled.size:
            top = self._pile[piled, self._pile_size[piled] - 1].astype(np.intp)
            out[piled, at["discard_top"] + top] = 1
        return out

    # -- the reducer's view of a game ------------------------------------------------

    def actions(self, index: int) -> list[int]:
        """The action numbers game ``index`` has taken since the last reset.

        >>> games = DownAndBackVector(2, seed=0, num_players=2, rounds=1)
        >>> _ = games.step(np.array([3, 4]))
        >>> games.actions(1)
        [4]
        """
        index = self._check_index(index)
        return [int(column[index]) for column in self._log]

    def _check_index(self, index: int) -> int:
        if isinstance(index, bool) or not isinstance(index, int | np.integer) \
                or not 0 <= index < self.num_games:
            raise ValueError(f"game index must be 0 to {self.num_games - 1}, not {index!r}")
        return int(index)

    def _replay(self, index: int) -> tuple[GameState, list[object]]:
        """Game ``index`` played again by the reducer: its last state and every
        action (chance drawn from the game's stream as :meth:`step` draws it)."""
        index = self._check_index(index)
        key = self._keys[index:index + 1]
        counter = np.zeros(1, dtype=np.uint64)
        state = new_game(self.num_players, ante=self.ante, rounds=self.rounds)
        taken: list[object] = []

        def chance(state: GameState) -> GameState:
            while state.is_chance:
                action: ChooseDealer | Shuffle
                if state.phase is Phase.CHOOSE_DEALER:
                    action = ChooseDealer(int(below(key, counter, self.num_players)[0]))
                elif state.phase is Phase.SHUFFLE:
                    order = shuffle_orders(key, counter, 52)[0].tolist()
                    action = Shuffle(tuple(DECK[j] for j in order))
                else:
                    pile = state.discard
                    order = pile_orders(key, counter, [len(pile)])[0, :len(pile)].tolist()
                    action = Shuffle(tuple(pile[j] for j in order))
                taken.append(action)
                state = apply(state, action)
            return state

        state = chance(state)
        for column in self._log:
            action = action_from_id(state, int(column[index]))
            taken.append(action)
            state = chance(apply(state, action))
        return state, taken

    def state(self, index: int) -> GameState:
        """Game ``index`` as the reducer's state (rebuilt by replaying it).

        >>> games = DownAndBackVector(2, seed=0, num_players=2, rounds=1)
        >>> games.state(0).phase
        <Phase.CUT: 'cut'>
        """
        return self._replay(index)[0]

    def record(self, index: int) -> GameRecord:
        """Game ``index`` so far as a record, chance actions included.

        >>> games = DownAndBackVector(2, seed=0, num_players=2, rounds=1)
        >>> [type(a).__name__ for a in games.record(0).actions]
        ['ChooseDealer', 'Shuffle']
        """
        taken = self._replay(index)[1]
        start = new_game(self.num_players, ante=self.ante, rounds=self.rounds)
        return self.rules.record(start, taken)
