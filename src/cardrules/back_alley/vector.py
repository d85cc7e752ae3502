"""Back Alley in the batch engine: :class:`BackAlleyVector`, exact to the
reducer :mod:`cardrules.back_alley` (BA-1 to BA-43).

Each game lives in rows of numpy arrays: the four hands as 64-bit card sets
(bit ``i`` is card ``i`` of ``cardrules.back_alley.actions.CARDS``, the
jokers 52 and 53), the trump per game, the current trick, the bids, board
levels, tricks won, the cards each seat played to finished tricks, and the
scores.  The follow-suit rules (BA-31 to BA-33) and the trick winner
(BA-34) read lookup arrays built from the reducer's own trump tables
(:mod:`cardrules.back_alley.trick`).

Chance is played inside :meth:`BackAlleyVector.step` and at creation and
:meth:`~BackAlleyVector.reset`, from each game's stream
(:mod:`cardrules.vector.streams`, ``game_keys(seed, 0, num_games)``): the
first dealer is ``below(..., 4)`` (one word), each deal's shuffle is
``shuffle_orders(..., 54)`` (54 words), read as the card indexes from the
top of the pack, which is the reducer's ``Shuffle(order)``.  Every path is
vectorised, the rare ones included: a throw-in (BA-25) deals again at once
in the same arrays, and the joker exchange of BA-13 is a few operations on
the rows whose turned card is a joker; no game ever falls back to the
reducer while it is stepped.  The reducer is used only by
:meth:`~BackAlleyVector.state` (which replays :meth:`~BackAlleyVector.record`)
and to word the error of an illegal action.

>>> import numpy as np
>>> from cardrules.vector import random_actions
>>> games = BackAlleyVector(8, seed=1, max_hand_size=2)
>>> rng = np.random.default_rng(0)
>>> while not games.terminated.all():
...     _ = games.step(random_actions(games.legal_action_mask, rng))
>>> from cardrules.back_alley import RULES
>>> last = list(RULES.replay(games.record(3)))[-1]
>>> last == games.state(3), last.scores == tuple(games.scores[3])
(True, True)
"""

from __future__ import annotations

import operator

import numpy as np
import numpy.typing as npt

from cardrules.back_alley._vector_tables import (
    BID_BITS,
    BITS,
    CLASSES_FLAT,
    LED_SETS_FLAT,
    TRUMP_SETS,
    TRUMPS_BY_POWER,
    WIN_FLAT,
)
from cardrules.back_alley.actions import (
    BIDS,
    BOARD,
    CARDS,
    PASS,
    PLAYS,
    Action,
    ChooseDealer,
    Shuffle,
)
from cardrules.back_alley.encoding import (
    NUM_ACTIONS,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    action_from_id,
)
from cardrules.back_alley.game import PHASE_RULES, new_game
from cardrules.back_alley.state import GameState, Settings
from cardrules.engine.records import GameRecord
from cardrules.engine.registry import rules_for
from cardrules.errors import IllegalActionError
from cardrules.vector.base import VectorGame
from cardrules.vector.streams import below, game_keys, shuffle_orders

__all__ = ["BackAlleyVector"]

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]

_BID, _PLAY, _OVER = 2, 3, 4          # the phases' places in Phase (the observation's order)
_PASS, _BOARD, _PLAY_ID = 0, 13, 14
_ZERO = np.uint64(0)
_S14, _S50 = np.uint64(14), np.uint64(50)
_AT = {name: start for name, start, _ in OBSERVATION_LAYOUT}
_SEATS = np.arange(4, dtype=np.int64)
_POSITIONS = np.arange(54, dtype=np.int64)
_TEAM_SEATS = np.array([0, 1, 0, 1])
_BID_SLOTS = 15 * _SEATS[None, :]  # each position's 15 bid entries


class BackAlleyVector(VectorGame):
    """``num_games`` games of Back Alley stepped together, each exact to the
    reducer (see the module).

    ``max_hand_size`` is the reducer's setting (1 to 13, default 13: the
    rules).  Beyond :class:`~cardrules.vector.VectorGame`'s arrays it keeps,
    per game: ``scores`` (``num_games``, 2) int64, the team scores;
    ``hands`` and ``played`` (``num_games``, 4) uint64 card sets per seat (the
    hand, the cards played to this deal's finished tricks); ``trump`` (suit
    value, 4 for no trump), ``trump_card``, ``discard``, ``exchanger`` and
    ``taken`` (BA-13, -1 for none); ``bids`` (-1 none, 0 pass, 1 to 12,
    13 board) and ``levels`` (BA-23) per seat; ``leader`` (-1 outside play),
    ``trick`` (cards in play order) and ``trick_len``; ``trump_played``;
    ``won`` (tricks per seat); ``dealer``, ``results`` (deals finished) and
    ``throw_ins`` (of the deal now due, BA-25); ``phase`` (the place in
    :class:`~cardrules.back_alley.Phase`: 2 bid, 3 play, 4 over).  Read them,
    do not write them.  The
    ``legal_action_mask`` is made anew at every step (a view of the mask's
    bits unpacked); writing into it changes no game.

    >>> games = BackAlleyVector(3, seed=0, max_hand_size=1)
    >>> games.current_player.shape, games.legal_action_mask.shape
    ((3,), (3, 68))
    >>> games.legal_action_mask[0].nonzero()[0].tolist()  # one card: pass or board
    [0, 13]
    """

    def __init__(self, num_games: int, *, seed: int, max_hand_size: int = 13) -> None:
        self.settings = Settings(max_hand_size=max_hand_size)
        # Back Alley's RULES, found by name: the package builds RULES with this
        # engine, so the engine does not import the package's face.
        self.rules = rules_for("back_alley")
        self.num_games = int(num_games)
        if self.num_games < 1:
            raise ValueError(f"num_games must be at least 1, not {num_games}")
        self.num_players = 4
        self.num_actions = NUM_ACTIONS
        self.observation_size = OBSERVATION_SIZE
        self.seed = seed
        self._max = max_hand_size
        self._deals = self.settings.deals
        self._keys = game_keys(seed, 0, self.num_games)
        self.reset()

    # -- set-up ----------------------------------------------------------------

    def reset(self) -> None:
        """Start every game again (the same games: the streams start over).

        >>> games = BackAlleyVector(2, seed=5, max_hand_size=1)
        >>> first = games.legal_action_mask.copy()
        >>> _ = games.step([0, 0])
        >>> games.reset()
        >>> bool((games.legal_action_mask == first).all())
        True
        """
        n = self.num_games
        self._rows = np.arange(n, dtype=np.int64)
        self._rows4 = 4 * self._rows
        self._rows128 = 128 * self._rows
        self._words = np.zeros((n, 2), dtype=np.uint64)
        self._size = np.zeros(n, dtype=np.int64)        # cards per hand this deal
        self._counters = np.zeros(n, dtype=np.uint64)
        self.current_player = np.zeros(n, dtype=np.int64)
        self.legal_action_mask = np.zeros((n, NUM_ACTIONS), dtype=np.bool_)
        self.rewards = np.zeros((n, 4), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.phase = np.full(n, _BID, dtype=np.int64)
        self.dealer = np.zeros(n, dtype=np.int64)
        self.results = np.zeros(n, dtype=np.int64)       # deals finished
        self.throw_ins = np.zeros(n, dtype=np.int64)     # of the deal now due (BA-25)
        self.hands = np.zeros((n, 4), dtype=np.uint64)
        self.trump = np.zeros(n, dtype=np.int64)         # suit value, 4: no trump
        self._trump55 = np.zeros(n, dtype=np.int64)      # 55 * trump (the tables' rows)
        self._trump_set = np.zeros(n, dtype=np.uint64)   # the trumps of each deal
        self._plain_set = np.zeros(n, dtype=np.uint64)   # the other cards
        self.trump_card = np.full(n, -1, dtype=np.int64)
        self.discard = np.full(n, -1, dtype=np.int64)    # the joker discarded (BA-13)
        self.exchanger = np.full(n, -1, dtype=np.int64)
        self.taken = np.full(n, -1, dtype=np.int64)
        self.bids = np.full((n, 4), -1, dtype=np.int64)  # -1 none, 0 pass, 1-12, 13 board
        self.levels = np.zeros((n, 4), dtype=np.int64)   # board levels (BA-23)
        self.boards = np.zeros(n, dtype=np.int64)
        self.leader = np.full(n, -1, dtype=np.int64)
        self.trick = np.zeros((n, 4), dtype=np.int64)    # cards in play order
        self.trick_len = np.zeros(n, dtype=np.int64)
        self.trump_played = np.zeros(n, dtype=np.bool_)
        self.won = np.zeros((n, 4), dtype=np.int64)
        self.played = np.zeros((n, 4), dtype=np.uint64)  # per seat, finished tricks
        self.scores = np.zeros((n, 2), dtype=np.int64)
        # The action log: >= 0 a player action id, -1 - seat the first dealer,
        # -5 - counter a shuffle drawn from the stream at that counter.
        self._log = np.zeros((n, 256), dtype=np.int32)
        self._log_len = np.zeros(n, dtype=np.int64)
        self._log_base = self._rows * self._log.shape[1]
        first = below(self._keys, self._counters, 4)
        self.dealer[:] = first
        self._append(self._rows, -1 - first)
        self._deal(self._rows)
        self._log_top = 2                    # an upper bound of _log_len
        self._update_mask()

    def _append(self, rows: I64, values: I64) -> None:
        at = self._log_len[rows]
        if len(at) and int(at.max()) >= self._log.shape[1]:
            self._grow()
        self._log[rows, at] = values
        self._log_len[rows] = at + 1

    def _deal(self, rows: I64) -> None:
        """Shuffle, deal, turn the trump card and make the joker exchange
        (BA-12, BA-13) in games ``rows``, each at its own hand size."""
        if not len(rows):
            return
        counters = self._counters[rows]
        self._append(rows, -5 - counters.astype(np.int64))
        order = shuffle_orders(self._keys[rows], counters, 54)
        self._counters[rows] = counters
        dealer = self.dealer[rows]
        size = np.abs(self._max - (self.results[rows] + 1)) + 1
        self._size[rows] = size
        dealt = 4 * size
        # position p goes to seat (dealer + 1 + p) % 4: gather the dealt
        # positions by p % 4, then turn the four sets to their seats
        # positions up to the largest deal only (all games deal alike but for
        # throw-ins); a position beyond a game's own deal reads card 54 (none)
        top = int(dealt.max())
        cards = order[:, :top]
        if int(dealt.min()) < top:
            cards = np.where(_POSITIONS[None, :top] < dealt[:, None], cards, 54)
        bits = BITS[cards].reshape(len(rows), top // 4, 4)
        by_offset = bits[:, 0].copy()
        for k in range(1, top // 4):  # one pass a round of the deal
            by_offset |= bits[:, k]
        hands = np.take_along_axis(by_offset, (_SEATS[None, :] - dealer[:, None] - 1) & 3,
                                   axis=1)
        local = np.arange(len(rows))
        turned = order[local, dealt]
        trump = np.where(turned < 52, turned & 3, 4)
        discard = np.full(len(rows), -1, dtype=np.int64)
        exchanger = discard.copy()
        taken = discard.copy()
        joker = (turned >= 52).nonzero()[0]
        if len(joker):  # BA-13: the other joker, if dealt, is exchanged for the next card
            other = 105 - turned[joker]
            holds = (hands[joker] & BITS[other][:, None]) != _ZERO
            held = holds.any(axis=1)
            at = joker[held]
            seat = holds[held].argmax(axis=1)
            card = order[at, dealt[at] + 1]
            hands[at, seat] ^= BITS[other[held]] | BITS[card]
            discard[at], exchanger[at], taken[at] = other[held], seat, card
        self.hands[rows] = hands
        self.trump_card[rows] = turned
        self.trump[rows] = trump
        self._trump55[rows] = 55 * trump
        trump_set = TRUMP_SETS[trump]
        self._trump_set[rows] = trump_set
        self._plain_set[rows] = ~trump_set
        self.discard[rows], self.exchanger[rows], self.taken[rows] = discard, exchanger, taken
        self.phase[rows] = _BID
        self.current_player[rows] = (dealer + 1) & 3
        self.bids[rows] = -1
        self.levels[rows] = 0
        self.boards[rows] = 0
        self.leader[rows] = -1
        self.trick_len[rows] = 0
        self.trump_played[rows] = False
        self.won[rows] = 0
        self.played[rows] = _ZERO

    # -- the mask ----------------------------------------------------------------

    def _legal_cards(self) -> U64:
        """Per game, the card set its player to act may play (BA-31 to BA-33)."""
        seat = self.current_player & 3
        flat = self._rows4 + seat
        hand = self.hands.reshape(-1)[flat]
        leads = self.trick_len == 0
        # the games lead or follow alike in most steps: only that half then
        anyone_leads = bool(leads.any())
        if anyone_leads:
            plain = hand & self._plain_set
            free = plain == _ZERO
            free |= self.trump_played
            free |= self.bids.reshape(-1)[flat] == _BOARD
            leading: U64 = np.where(free, hand, plain)
            if bool(leads.all()):
                return leading
        lead = self.trick[:, 0]
        follow = LED_SETS_FLAT[self._trump55 + lead]
        follow &= hand
        empty = follow == _ZERO
        following: U64 = np.where(empty, hand, follow)
        jokers = lead >= 52
        forced = (jokers & ~leads & ~empty).nonzero()[0] if jokers.any() else lead[:0]
        if len(forced):  # BA-33: a Blooper led forces the highest (lowest) trump
            trump = self.trump
            ranked = TRUMPS_BY_POWER[trump[forced]]
            present = (hand[forced, None] & BITS[ranked]) != _ZERO
            highest = present.argmax(axis=1)
            lowest = 14 - present[:, ::-1].argmax(axis=1)
            at = np.where(lead[forced] == 52, highest, lowest)
            following[forced] = BITS[ranked[np.arange(len(forced)), at]]
        if not anyone_leads:
            return following
        legal: U64 = np.where(leads, leading, following)
        return legal

    def _update_mask(self) -> None:
        """The mask as two 64-bit words per game (bids at bits 0 to 13, the
        cards from bit 14), unpacked at once."""
        n = self.num_games
        words = self._words
        playing = self.phase == _PLAY
        if playing.all():  # the common case: no bids to add
            legal = self._legal_cards()
            np.left_shift(legal, _S14, out=words[:, 0])
        else:
            legal = np.where(playing, self._legal_cards(), _ZERO)
            np.left_shift(legal, _S14, out=words[:, 0])
            words[:, 0] |= np.where(self.phase == _BID, BID_BITS[self._size], _ZERO)
        np.right_shift(legal, _S50, out=words[:, 1])
        # unpacked flat (faster than row by row), then seen as rows of 128
        self._unpacked = np.unpackbits(words.reshape(-1).view(np.uint8),
                                       bitorder="little").reshape(n, 128)
        self.legal_action_mask = self._unpacked[:, :NUM_ACTIONS].view(np.bool_)
        # (a game over has current_player -1 since _score ended it)
        self.terminated = self.phase == _OVER

    # -- step --------------------------------------------------------------------

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float32],
                                                    npt.NDArray[np.bool_]]:
        """Apply one action id per game (ignored where a game is over) and the
        chance that follows; return ``(rewards, terminated)``.

        >>> games = BackAlleyVector(2, seed=3, max_hand_size=1)
        >>> games.step([5, 0])
        Traceback (most recent call last):
        ...
        cardrules.errors.IllegalActionError: BA-21: game 0: action id 5 is not legal: ...
        """
        n = self.num_games
        chosen = np.asarray(actions, dtype=np.int64).reshape(n)
        live = ~self.terminated
        # entries 68 to 127 of a row of the unpacked bits are never set
        safe = np.clip(chosen, 0, 127)
        ok = self._unpacked.reshape(-1)[self._rows128 + safe].view(np.bool_)
        ok &= safe == chosen
        ok |= self.terminated
        if not ok.all():
            bad = (live & ~ok).nonzero()[0]
            self._refuse(int(bad[0]), int(chosen[bad[0]]))
        self.rewards = np.zeros((n, 4), dtype=np.float32)
        # the log: every game writes at its end, only the live ones move on
        self._log_top += 2  # at most one action and one shuffle per game and step
        if self._log_top > self._log.shape[1]:
            self._log_top = int(self._log_len.max()) + 2
            if self._log_top > self._log.shape[1]:
                self._grow()
        self._log.reshape(-1)[self._log_base + self._log_len] = chosen
        self._log_len += live
        phase = self.phase
        # (a game over is in phase _OVER: the others are live)
        bidding = (phase == _BID).nonzero()[0]
        playing = phase == _PLAY
        if len(bidding):
            self._bid(bidding, chosen)
        if playing.any():
            self._play(playing, chosen)
        self._update_mask()
        return self.rewards, self.terminated

    def _grow(self) -> None:
        width = self._log.shape[1]
        grown = np.zeros((self.num_games, 2 * width), dtype=np.int32)
        grown[:, :width] = self._log
        self._log = grown
        self._log_base = self._rows * (2 * width)

    def _refuse(self, index: int, number: int) -> None:
        state = self.state(index)
        if not 0 <= number < NUM_ACTIONS:
            raise IllegalActionError(PHASE_RULES[state.phase], f"game {index}: action ids are "
                                     f"0 to {NUM_ACTIONS - 1}, not {number}")
        try:
            action_from_id(state, number)
        except IllegalActionError as error:
            raise IllegalActionError(error.rule, f"game {index}: action id {number} is not "
                                     f"legal: {error.text}") from None
        raise AssertionError(f"game {index}: the mask and the reducer disagree on {number}")

    def _bid(self, rows: I64, chosen: I64) -> None:
        if not len(rows):
            return
        seat = self.current_player[rows]
        bid = chosen[rows]
        board = bid == _BOARD
        self.boards[rows] += board
        self.bids[rows, seat] = bid
        self.levels[rows, seat] = np.where(board, self.boards[rows], 0)
        dealer = self.dealer[rows]
        last = seat == dealer
        self.current_player[rows[~last]] = (seat[~last] + 1) & 3
        done = rows[last]
        if not len(done):
            return
        dealer = dealer[last]
        bids = self.bids[done]
        thrown = (bids == _PASS).all(axis=1)
        if thrown.any():  # BA-25: thrown in, the next dealer deals again
            again = done[thrown]
            self.throw_ins[again] += 1
            self.dealer[again] = (self.dealer[again] + 1) & 3
            self._deal(again)
        keep = ~thrown
        done, dealer, bids = done[keep], dealer[keep], bids[keep]
        if not len(done):
            return
        # BA-30: the highest bid leads; boards by level, then numbers, first made on ties.
        order = (dealer[:, None] + 1 + _SEATS[None, :]) & 3
        in_order = np.take_along_axis(bids, order, axis=1)
        keys = np.where(in_order == _BOARD, 101 + _SEATS[None, :], in_order)
        leader = (dealer + 1 + keys.argmax(axis=1)) & 3
        self.phase[done] = _PLAY
        self.current_player[done] = leader
        self.leader[done] = leader

    def _play(self, playing: npt.NDArray[np.bool_], chosen: I64) -> None:
        """Play the chosen cards in the games ``playing`` (full-width arrays)."""
        seat = self.current_player & 3
        every = bool(playing.all())  # the common case: fewer masks
        card = chosen - _PLAY_ID if every else np.where(playing, chosen - _PLAY_ID, 54)
        bit = BITS[card]
        flat = self._rows4 + seat
        hands = self.hands.reshape(-1)
        hands[flat] ^= bit  # the card is in the hand (0 where no card is played)
        length = self.trick_len
        tricks = self.trick.reshape(-1)
        at = self._rows4 + length
        if every:
            tricks[at] = card
            length += 1
        else:
            tricks[at] = np.where(playing, card, tricks[at])
            length += playing
        self.trump_played |= (bit & self._trump_set) != _ZERO
        # the next seat plays; the games whose trick is full get its winner below
        following = seat + 1
        following &= 3
        self.current_player = following if every else np.where(
            playing, following, self.current_player)
        full = length == 4
        done = full.nonzero()[0]
        if not len(done):
            return
        # every game ends its trick at once in the common case: slices then
        rows = done if len(done) < self.num_games else slice(None)
        seat = seat[rows]
        trick = self.trick[rows]
        t55 = self._trump55[rows]
        # the value of each card of the trick: its power if it counts (a trump
        # or of the led class), else -1 (BA-34)
        base = 6 * t55 + 55 * CLASSES_FLAT[t55 + trick[:, 0]]
        best = WIN_FLAT[base[:, None] + trick].argmax(axis=1)
        leader = self.leader[rows]
        winner = (leader + best) & 3
        self.won.reshape(-1)[4 * done + winner] += 1
        # seat s played the trick's card (s - leader) % 4
        self.played[rows] |= np.take_along_axis(
            BITS[trick], (_SEATS[None, :] - leader[:, None]) & 3, axis=1)
        self.trick_len[rows] = 0
        self.leader[rows] = winner
        self.current_player[rows] = winner
        over = self.hands.reshape(-1)[4 * done + seat] == _ZERO
        if over.any():
            self._score(done[over])

    def _score(self, rows: I64) -> None:
        """Score both teams (BA-40 to BA-42); the next deal or the end (BA-43)."""
        size = np.abs(self._max - (self.results[rows] + 1)) + 1
        bids = self.bids[rows]
        levels = self.levels[rows]
        won = self.won[rows]
        numbers = np.where((bids >= 1) & (bids <= 12), bids, 0)
        points = np.empty((len(rows), 2), dtype=np.int64)
        for team in range(2):
            level = np.maximum(levels[:, team], levels[:, team + 2])
            taken = won[:, team] + won[:, team + 2]
            bid = numbers[:, team] + numbers[:, team + 2]
            stake = 10 * size * level
            board = np.where(taken == size, stake, -stake)
            plain = np.where(taken >= bid, 4 * bid + taken, -5 * bid)
            points[:, team] = np.where(level > 0, board, plain)
        self.scores[rows] += points
        self.rewards[rows] = points[:, _TEAM_SEATS]
        self.results[rows] += 1
        self.throw_ins[rows] = 0
        ended = self.results[rows] == self._deals
        over = rows[ended]
        if len(over):
            self.phase[over] = _OVER
            self.current_player[over] = -1
            self.leader[over] = -1
            self.trump_card[over] = -1
            self.discard[over] = self.exchanger[over] = self.taken[over] = -1
            self.bids[over] = -1
            self.levels[over] = 0
            self.won[over] = 0
            self.played[over] = _ZERO
            self.trump_played[over] = False
        going = rows[~ended]
        self.dealer[going] = (self.dealer[going] + 1) & 3
        self._deal(going)

    # -- observations ------------------------------------------------------------

    def observation(self, seat: int | None = None) -> npt.NDArray[np.float32]:
        """``(num_games, 698)`` float32: ``observation_tensor(view(state(i), seat))``
        per game (of the seat to act when ``seat`` is None, zeros then for a
        finished game).

        >>> from cardrules.back_alley import view
        >>> from cardrules.back_alley.encoding import observation_tensor
        >>> games = BackAlleyVector(2, seed=4, max_hand_size=3)
        >>> mine = games.observation()[1]
        >>> theirs = observation_tensor(view(games.state(1), int(games.current_player[1])))
        >>> bool((mine == theirs).all())
        True
        """
        n = self.num_games
        rows = self._rows
        at = _AT
        # the card planes (hand, trick, played) are written whole below: only
        # the rest is zeroed first
        out = np.empty((n, OBSERVATION_SIZE), dtype=np.float32)
        out[:, :at["hand"]] = 0
        out[:, at["hand"] + 54:at["trick"]] = 0
        out[:, at["played"] + 216:] = 0
        over = self.terminated
        if seat is None:
            viewer = self.current_player & 3
        else:
            if isinstance(seat, bool) or not 0 <= operator.index(seat) < 4:
                raise ValueError(f"seat must be 0 to 3, not {seat!r}")
            viewer = np.full(n, operator.index(seat), dtype=np.int64)
        # position p is seat (viewer + p) % 4: seats[:, p] is that seat
        seats = (viewer[:, None] + _SEATS[None, :]) & 3
        live = ~over
        # every one-hot entry in one write: an entry a game lacks points at its
        # phase's entry instead, which is 1 anyway
        phase = at["phase"] + self.phase
        ones = np.empty((n, 14), dtype=np.int64)
        ones[:, 0] = phase
        ones[:, 1] = at["dealer"] + ((self.dealer - viewer) & 3)
        ones[:, 2] = np.where(live, at["current_player"] + ((self.current_player - viewer) & 3),
                              phase)
        ones[:, 3] = np.where(live, at["trump_card"] + self.trump_card, phase)
        ones[:, 4] = np.where(live, at["trump_suit"] + self.trump, phase)
        swapped = self.discard >= 0
        ones[:, 5] = np.where(swapped, at["joker_discard"] + self.discard - 52, phase)
        ones[:, 6] = np.where(swapped, at["exchanger"] + ((self.exchanger - viewer) & 3), phase)
        ones[:, 7] = np.where(swapped & (self.exchanger == viewer),
                              at["taken"] + self.taken, phase)
        bids = np.take_along_axis(self.bids, seats, axis=1)
        ones[:, 8:12] = at["bids"] + _BID_SLOTS + bids + 1
        leading = self.leader >= 0
        leader = (self.leader - viewer) & 3
        ones[:, 12] = np.where(leading, at["leader"] + leader, phase)
        ones[:, 13] = phase
        out[rows[:, None], ones] = 1
        deal_number = np.minimum(self.results + 1, self._deals)
        out[:, at["deal"]] = deal_number
        out[:, at["deal"] + 1] = self._deals
        out[:, at["deal"] + 2] = np.abs(self._max - deal_number) + 1
        # the card planes as card sets: the hand, the trick by position, the
        # cards played to finished tricks by position; unpacked at once
        hands = np.take_along_axis(self.hands, seats, axis=1)
        planes = np.zeros((n, 9), dtype=np.uint64)
        planes[:, 0] = hands[:, 0]
        # the trick's k-th card was played by position leader + k
        in_trick = (_SEATS[None, :] < self.trick_len[:, None]) & leading[:, None]
        cards = np.where(in_trick, BITS[self.trick], _ZERO)
        planes[:, 1:5] = np.take_along_axis(cards, (_SEATS[None, :] - leader[:, None]) & 3,
                                            axis=1)
        planes[:, 5:9] = np.take_along_axis(self.played, seats, axis=1)
        bits = np.unpackbits(planes.view(np.uint8).reshape(n, 72), axis=1,
                             bitorder="little").reshape(n, 9, 64)[:, :, :54]
        out[:, at["hand"]:at["hand"] + 54] = bits[:, 0]
        out[:, at["trick"]:at["trick"] + 432].reshape(n, 8, 54)[...] = bits[:, 1:]
        out[:, at["hand_sizes"]:at["hand_sizes"] + 4] = np.bitwise_count(hands)
        out[:, at["board_levels"]:at["board_levels"] + 4] = np.take_along_axis(
            self.levels, seats, axis=1)
        out[:, at["tricks_won"]:at["tricks_won"] + 4] = np.take_along_axis(
            self.won, seats, axis=1)
        out[:, at["trump_played"]] = self.trump_played
        team = viewer & 1
        out[:, at["scores"]] = self.scores[rows, team]
        out[:, at["scores"] + 1] = self.scores[rows, 1 - team]
        if seat is None:
            out[over] = 0
        return out

    # -- the reducer's view ------------------------------------------------------

    def actions(self, index: int, start: int = 0) -> list[Action]:
        """Game ``index``'s actions from number ``start`` on, chance included
        (what :meth:`record` holds).

        >>> games = BackAlleyVector(1, seed=2, max_hand_size=1)
        >>> [type(a).__name__ for a in games.actions(0)]
        ['ChooseDealer', 'Shuffle']
        """
        out: list[Action] = []
        log = self._log[index, start:int(self._log_len[index])].tolist()
        key = self._keys[index:index + 1]
        for value in log:
            if value >= 0:
                out.append(_ACTIONS[value])
            elif value >= -4:
                out.append(ChooseDealer(-1 - value))
            else:
                counter = np.array([-5 - value], dtype=np.uint64)
                order = shuffle_orders(key, counter, 54)[0]
                out.append(Shuffle(tuple(CARDS[k] for k in order.tolist())))
        return out

    def record(self, index: int) -> GameRecord:
        """Game ``index`` so far as a record the reducer replays to :meth:`state`.

        >>> games = BackAlleyVector(2, seed=2, max_hand_size=1)
        >>> len(games.record(1).actions)
        2
        """
        self._check_index(index)
        return self.rules.record(new_game(max_hand_size=self._max), self.actions(index))

    def state(self, index: int) -> GameState:
        """Game ``index`` as the reducer's state (the replay of :meth:`record`).

        >>> games = BackAlleyVector(2, seed=2, max_hand_size=2)
        >>> games.state(0).phase.value
        'bid'
        """
        self._check_index(index)
        state = new_game(max_hand_size=self._max)
        for action in self.actions(index):
            state = self.rules.apply(state, action)
        return state

    def _check_index(self, index: int) -> None:
        if not 0 <= index < self.num_games:
            raise IndexError(f"there are {self.num_games} games, not game {index}")

    def memory_bytes(self) -> int:
        """The bytes of every array kept (the action log included).

        >>> BackAlleyVector(4, seed=0).memory_bytes() > 0
        True
        """
        total = 0
        for value in vars(self).values():
            if isinstance(value, np.ndarray):
                total += value.nbytes
        return total


#: The action of each id, in the encoding's numbering.
_ACTIONS: tuple[Action, ...] = (PASS, *BIDS[:12], BOARD, *PLAYS)
