"""A double-dummy solver for Back Alley: the tricks each team takes with every
hand open and both teams playing their best, under every rule of play (BA-30
to BA-34: following suit, the trump that may not lead until broken unless the
leader claimed board, the Big and Little Blooper leads, the jokers as the top
trumps, and the no-trump deals of BA-13).

:func:`max_tricks` answers for the seat to act, :func:`play_values` for each
of its legal cards.  Both take a state in the play phase, at the start of a
trick or in the middle of one; the trick in progress counts, the tricks
already won do not.

>>> from cardrules.back_alley import Play, apply, new_game, parse_action
>>> from cardrules.back_alley.actions import CARDS
>>> from cardrules import parse_cards
>>> from cardrules.engine import ChooseDealer, Shuffle
>>> # Seats 0 to 3 hold "AS 2H", "KS 3H", "QS 4H", "JS 5H"; a spade is turned.
>>> deal = parse_cards("AS KS QS JS 2H 3H 4H 5H 2S")
>>> order = deal + tuple(c for c in CARDS if c not in deal)
>>> state = apply(apply(new_game(max_hand_size=2), ChooseDealer(3)), Shuffle(order))
>>> for bid in ("pass", "bid 1", "pass", "pass"):
...     state = apply(state, parse_action(bid))
>>> state.current_player, [str(card) for card in state.hands[1]]
(1, ['3H', 'KS'])
>>> max_tricks(state)  # seat 1 leads: spades are unbroken, so a heart first
1
>>> {str(play): tricks for play, tricks in play_values(state).items()}
{'play 3H': 1}

The searching is the one a fast bridge solver does: alpha-beta over whole
tricks with zero-window searches on a trick target, a transposition table
keyed on the ranks of the cards left relative to one another (positions that
differ only in cards already played share an entry), cards of equal value in
one hand tried once, quick-trick bounds at every trick start and move ordering
that tries winners and cheap ducks first.  The table is kept between calls
(the same question about a related deal is then much quicker);
:func:`clear_cache` empties it.

``implementation`` picks the code: ``"python"`` this module, ``"c"`` the C
solver of the speed-ups extension (a :class:`RuntimeError` when it is not
built), ``"auto"`` (the default) the C solver when there is one.  Both give
the same answers.
"""

from __future__ import annotations

from cardrules.back_alley import _solver_c
from cardrules.back_alley.actions import Board, Play
from cardrules.back_alley.game import legal_actions
from cardrules.back_alley.state import NUM_PLAYERS, GameState, Phase
from cardrules.back_alley.trick import TRUMP_CLASS

__all__ = ["IMPLEMENTATIONS", "clear_cache", "max_tricks", "play_values"]

#: The values ``implementation`` may take.
IMPLEMENTATIONS = ("auto", "c", "python")

# -- the cards as bits ---------------------------------------------------------
#
# Inside the search a hand is one int: card class c (the plain suits 0 to 3 and
# the trump class 4, BA-31) and rank r within it (0 for the two up to 12 for the
# ace; in the trump class 13 for the Little and 14 for the Big Blooper, BA-3)
# is bit 16*c + r.  So a higher bit of the same class is a higher card, and any
# trump is a higher bit than any plain card (which makes BA-34 one comparison).

_WIDTH = 16
_CLASS_BITS = 0x7FFF
_TRUMP_SHIFT = _WIDTH * TRUMP_CLASS
_TRUMPS = _CLASS_BITS << _TRUMP_SHIFT
_PLAIN = sum(_CLASS_BITS << (_WIDTH * c) for c in range(TRUMP_CLASS))
_BB = _TRUMP_SHIFT + 14  # the Big Blooper's bit
_LB = _TRUMP_SHIFT + 13  # the Little Blooper's bit
_JOKERS = (1 << _BB) | (1 << _LB)
_BIG_INDEX, _LITTLE_INDEX = 52, 53

#: Bits of ``_PEXT[(u << 8) | m]``: the bits of ``m`` that are in ``u``, packed
#: down in order (a byte's parallel bit extract), for the relative-rank keys.
_PEXT: list[int] = []
for _u in range(256):
    for _m in range(256):
        _packed, _at = 0, 0
        for _bit in range(8):
            if _u >> _bit & 1:
                if _m >> _bit & 1:
                    _packed |= 1 << _at
                _at += 1
        _PEXT.append(_packed)
_POP8 = [bin(_u).count("1") for _u in range(256)]
del _u, _m, _packed, _at, _bit

#: The transposition table: relative-rank key -> (lower, upper) bound on the
#: tricks team 0 takes from that trick start.  Shared by every call.
_TABLE: dict[int, tuple[int, int]] = {}
#: Past this many entries the table is emptied before the next search.
_TABLE_LIMIT = 2_000_000


def clear_cache() -> None:
    """Empty the transposition table the searches share (it is kept between
    calls and emptied by itself when it grows past two million entries).

    >>> clear_cache()
    """
    _TABLE.clear()


def _bit_of(index: int, classes: tuple[int, ...], powers: tuple[int, ...]) -> int:
    cls = classes[index]
    rank = powers[index] - (102 if cls == TRUMP_CLASS else 2)
    return _WIDTH * cls + rank


class _Search:
    """One position being searched; the hands are changed and restored in place."""

    __slots__ = ("board", "board_bits", "hands", "in_trick", "nodes", "replies", "seen", "table",
                 "trump_played")

    def __init__(self, hands: list[int], board: tuple[bool, ...], trump_played: bool,
                 in_trick: int) -> None:
        self.hands = hands
        self.board = board
        self.board_bits = sum(1 << seat for seat, claimed in enumerate(board) if claimed)
        self.trump_played = trump_played
        self.in_trick = in_trick
        self.nodes = 0
        #: Per absolute trick start: its table key and the best lead found there.
        self.seen: dict[tuple[int, ...], list[int]] = {}
        #: Per trick so far and seat to play: the card that last cut the search off.
        self.replies: dict[tuple[int, int], int] = {}
        if len(_TABLE) > _TABLE_LIMIT:
            _TABLE.clear()
        self.table = _TABLE

    # -- the key of a trick start -------------------------------------------------

    def _key(self, leader: int) -> int:
        """The position at a trick start with every card replaced by its rank
        among the cards left in its class, and the facts the rules read."""
        h0, h1, h2, h3 = self.hands
        left = h0 | h1 | h2 | h3
        pext, pop8 = _PEXT, _POP8
        trumps_left = left & _TRUMPS
        key = (self.board_bits << 3 | leader << 1 | (self.trump_played or not trumps_left)) << 2
        key |= (left >> _BB & 1) << 1 | (left >> _LB & 1)
        for shift in (0, 16, 32, 48, 64):
            u = left >> shift & _CLASS_BITS
            if not u:
                key <<= 4
                continue
            lo_u, hi_u = (u & 255) << 8, (u >> 8) << 8
            at = pop8[u & 255]
            n = at + pop8[u >> 8]
            key = key << 4 | n
            for hand in (h0, h1, h2):
                m = hand >> shift
                key = key << n | pext[lo_u | (m & 255)] | pext[hi_u | (m >> 8 & 127)] << at
        return key

    # -- quick tricks -------------------------------------------------------------

    def _quick(self, leader: int) -> int:
        """Tricks the leader's team surely takes from this trick start: the
        leader's trumps above every other trump (when it may lead trumps,
        BA-32), then its plain cards above every other card of their suit that
        no opponent holding a trump can ruff (each opponent with trumps must
        follow that many times)."""
        hands = self.hands
        mine = hands[leader]
        partner = hands[leader ^ 2]
        opp1, opp2 = hands[leader ^ 1], hands[leader ^ 3]
        others = partner | opp1 | opp2
        quick = 0
        my_trumps = mine & _TRUMPS
        if my_trumps and (self.trump_played or self.board[leader] or not mine & _PLAIN):
            other_trumps = others & _TRUMPS
            quick += (my_trumps >> other_trumps.bit_length()).bit_count()
        opp_trumps = (opp1 | opp2) & _TRUMPS
        if opp_trumps and not partner & _PLAIN and partner:
            return quick  # a partner holding only trumps would ruff and take the lead
        ruffers = [h for h in (opp1, opp2) if h & _TRUMPS]
        for shift in (0, 16, 32, 48):
            mc = mine >> shift & _CLASS_BITS
            if not mc:
                continue
            run = (mc >> (others >> shift & _CLASS_BITS).bit_length()).bit_count()
            for hand in ruffers:
                run = min(run, (hand >> shift & _CLASS_BITS).bit_count())
            quick += run
        return quick

    # -- the search ---------------------------------------------------------------

    def bounds(self, leader: int, left: int) -> tuple[int, int]:
        """Bounds on team 0's tricks from a trick start: the leader's quick
        tricks, and for each team the trumps of one player above every trump
        of the other team (each wins a trick of its own whenever it is played)."""
        hands = self.hands
        quick = self._quick(leader)
        even_trumps = (hands[0] | hands[2]) & _TRUMPS
        odd_trumps = (hands[1] | hands[3]) & _TRUMPS
        low = high_cut = 0
        if even_trumps:
            top = odd_trumps.bit_length()
            low = max(((hands[0] & _TRUMPS) >> top).bit_count(),
                      ((hands[2] & _TRUMPS) >> top).bit_count())
        if odd_trumps:
            top = even_trumps.bit_length()
            high_cut = max(((hands[1] & _TRUMPS) >> top).bit_count(),
                           ((hands[3] & _TRUMPS) >> top).bit_count())
        if leader & 1:
            high_cut = max(high_cut, quick)
        else:
            low = max(low, quick)
        return low, left - high_cut

    def last(self, leader: int) -> int:
        """Team 0's tricks (0 or 1) from the last trick: every card is forced."""
        hands = self.hands
        win_bit, win_seat = hands[leader].bit_length() - 1, leader
        for k in (1, 2, 3):
            seat = (leader + k) & 3
            bit = hands[seat].bit_length() - 1
            if bit > win_bit and (bit >> 4 == win_bit >> 4 or bit >= _TRUMP_SHIFT):
                win_bit, win_seat = bit, seat
        return 1 - (win_seat & 1)

    def start(self, leader: int, target: int) -> bool:
        """At a trick start with ``leader`` to lead: does team 0 take at least
        ``target`` of the tricks left?"""
        if target <= 0:
            return True
        hands = self.hands
        left = hands[leader].bit_count()
        if target > left:
            return False
        if left == 1:
            return self.last(leader) >= target
        place = (hands[0], hands[1], hands[2], hands[3], leader, self.trump_played)
        seen = self.seen.get(place)
        if seen is None:
            seen = [self._key(leader), -1]
            self.seen[place] = seen
        key = seen[0]
        table = self.table
        entry = table.get(key)
        if entry is None:
            low, high = self.bounds(leader, left)
            if low >= target or high < target:
                table[key] = (low, high)
                return low >= target
        else:
            low, high = entry
            if low >= target:
                return True
            if high < target:
                return False
        result = self.turn(leader, 0, -1, -1, leader, target, -1, seen)
        if result:
            low = target if target > low else low
        else:
            high = target - 1 if target - 1 < high else high
        table[key] = (low, high)
        return result

    def moves(self, seat: int, count: int, led: int, win_bit: int, win_seat: int) -> list[int]:
        """The legal cards of ``seat`` (BA-31 to BA-33), one of each set of
        equal cards, in the order to try them."""
        hands = self.hands
        hand = hands[seat]
        if count == 0:
            if self.trump_played or self.board[seat] or not hand & _PLAIN:
                legal = hand
            else:
                legal = hand & _PLAIN  # BA-32
        else:
            cls_shift = led & ~15
            follow = hand & (_CLASS_BITS << cls_shift)
            if not follow:
                legal = hand
            elif led == _BB:  # BA-33: the highest trump
                legal = 1 << (follow.bit_length() - 1)
            elif led == _LB:  # BA-33: the lowest trump
                legal = follow & -follow
            else:
                legal = follow
        # The cards still out that are not this hand's: two cards of one class
        # with none of those between them are worth the same (the jokers aside,
        # their leads differ).
        outside = (hands[0] | hands[1] | hands[2] | hands[3] | self.in_trick) & ~hand
        reps: list[int] = []
        prev = -1
        rest = legal
        while rest:
            low = rest & -rest
            bit = low.bit_length() - 1
            rest ^= low
            if (prev >= 0 and prev >> 4 == bit >> 4 and bit < _LB and prev < _LB
                    and not outside >> (prev + 1) & ((1 << (bit - prev - 1)) - 1)):
                prev = bit
                reps[-1] = bit  # keep the highest of the run (either would do)
                continue
            prev = bit
            reps.append(bit)
        if len(reps) == 1:
            return reps
        scored = []
        if count == 0:
            # Leads: sure winners first (the top of their class, no opponent to
            # ruff), then low cards to a partner's sure winner, then low cards,
            # and last a plain suit the opponents can ruff.
            opp1, opp2, partner = hands[seat ^ 1], hands[seat ^ 3], hands[seat ^ 2]
            for bit in reps:
                shift = bit & ~15
                cls = _CLASS_BITS << shift
                rank = bit & 15
                ruffed = bit < _TRUMP_SHIFT and any(
                    not h & cls and h & _TRUMPS for h in (opp1, opp2))
                if ruffed:
                    scored.append((300 + rank, bit))
                elif not outside >> (bit + 1) & (_CLASS_BITS >> (rank + 1)):
                    scored.append((rank, bit))
                else:
                    top = (outside & cls).bit_length() - 1
                    if partner >> top & 1:
                        scored.append((100 + rank, bit))
                    else:
                        scored.append((200 + rank + (20 if bit >= _TRUMP_SHIFT else 0), bit))
        else:
            # Following: the cheapest card that surely wins the trick for this
            # team first, then low cards (plain before trumps), overtaking a
            # partner last.
            led_shift = led & ~15
            led_cls = _CLASS_BITS << led_shift
            later = [hands[(seat + k) & 3] for k in range(1, 4 - count)]
            partner_wins = (win_seat ^ seat) & 1 == 0
            for bit in reps:
                rank = (bit & 15) + (16 if bit >= _TRUMP_SHIFT else 0)
                beats = bit > win_bit and (bit >> 4 == win_bit >> 4 or bit >= _TRUMP_SHIFT)
                if beats and partner_wins:
                    scored.append((200 + rank, bit))
                    continue
                if beats or partner_wins:
                    top = bit if beats else win_bit
                    sure = True
                    for k, h in enumerate(later):
                        if k & 1:
                            continue  # the partner: no threat
                        follow = h & led_cls
                        if follow:
                            if top >> 4 == led >> 4 and follow >> (top + 1):
                                sure = False
                                break
                        elif (h & _TRUMPS) >> (top + 1 if top >= _TRUMP_SHIFT else 0):
                            sure = False
                            break
                    if sure:
                        scored.append((rank, bit))
                        continue
                scored.append((100 + rank, bit))
        scored.sort()
        return [bit for _, bit in scored]

    def turn(self, seat: int, count: int, led: int, win_bit: int, win_seat: int,
             target: int, only: int, seen: list[int] | None = None) -> bool:
        """``seat`` plays the ``count``-th card (0 for the lead) of a trick led
        with ``led`` (-1 before the lead), won so far by ``win_bit`` of
        ``win_seat``: does team 0 take at least ``target`` tricks from here
        (this trick included)?  ``only`` >= 0 forces that card; ``seen`` holds
        the best lead found before at this trick start (tried first, updated)."""
        self.nodes += 1
        hands = self.hands
        if only >= 0:
            moves = [only]
        else:
            moves = self.moves(seat, count, led, win_bit, win_seat)
            if len(moves) > 1:
                if count == 0:
                    first = seen[1] if seen is not None else -1
                else:
                    reply_key = (self.in_trick, seat)
                    first = self.replies.get(reply_key, -1)
                if first >= 0 and first in moves and moves[0] != first:
                    moves.remove(first)
                    moves.insert(0, first)
        hand = hands[seat]
        maximizing = seat & 1 == 0
        trump_played = self.trump_played
        for bit in moves:
            mask = 1 << bit
            hands[seat] = hand ^ mask
            if count == 0:
                new_bit, new_seat, new_led = bit, seat, bit
            else:
                new_led = led
                if bit > win_bit and (bit >> 4 == win_bit >> 4 or bit >= _TRUMP_SHIFT):
                    new_bit, new_seat = bit, seat
                else:
                    new_bit, new_seat = win_bit, win_seat
            if count == 3:
                saved_trick = self.in_trick
                self.in_trick = 0
                if bit >= _TRUMP_SHIFT or saved_trick & _TRUMPS:
                    self.trump_played = True
                result = self.start(new_seat, target - 1 if new_seat & 1 == 0 else target)
                self.in_trick = saved_trick
            else:
                self.in_trick |= mask
                result = self.turn((seat + 1) & 3, count + 1, new_led, new_bit, new_seat,
                                   target, -1)
                self.in_trick ^= mask
            self.trump_played = trump_played
            hands[seat] = hand
            if result is maximizing:
                if len(moves) > 1:
                    if count == 0:
                        if seen is not None:
                            seen[1] = bit
                    else:
                        self.replies[(self.in_trick, seat)] = bit
                return result
        return not maximizing


# -- from a GameState ------------------------------------------------------------

class _Position:
    """A state's play position in bits, and how to search it."""

    def __init__(self, state: GameState) -> None:
        if state.phase is not Phase.PLAY:
            raise ValueError(f"the double-dummy solver needs a deal in play (phase "
                             f"{Phase.PLAY.value!r}), not phase {state.phase.value!r}")
        deal = state.deal
        seat = state.current_player
        leader = state.leader
        assert deal is not None
        assert seat is not None
        assert leader is not None
        classes, powers = deal.table
        self.bit_of = {i: _bit_of(i, classes, powers)
                       for hand in state.hand_indexes for i in hand}
        hands = [sum(1 << self.bit_of[i] for i in hand) for hand in state.hand_indexes]
        trick = [_bit_of(i, classes, powers) for i in state.trick_indexes]
        board = tuple(bid.__class__ is Board for bid in deal.bids)
        # BA-32 reads the tricks before this one: a trump played to the trick in
        # progress counts from the next trick on (the search adds it then).
        earlier = any(classes[card.index] == TRUMP_CLASS
                      for done in state.tricks for card in done.cards)
        self.search = _Search(hands, board, earlier, sum(1 << b for b in trick))
        self.seat = seat
        self.count = len(trick)
        self.led = trick[0] if trick else -1
        win_bit, win_seat = -1, leader
        for k, bit in enumerate(trick):
            if k == 0 or (bit > win_bit and (bit >> 4 == win_bit >> 4
                                             or bit >= _TRUMP_SHIFT)):
                win_bit, win_seat = bit, (leader + k) % NUM_PLAYERS
        self.win_bit, self.win_seat = win_bit, win_seat
        self.left = max(len(hand) for hand in state.hand_indexes)

    def team0(self, only: int) -> int:
        """The exact tricks team 0 takes from here (with ``only`` forced if
        >= 0): a binary search of zero-window searches on the target."""
        search = self.search
        low, high = 0, self.left
        if self.count == 0 and only < 0:
            quick = search._quick(self.seat)
            if self.seat & 1 == 0:
                low = quick
            else:
                high = self.left - quick
        while low < high:
            target = (low + high + 1) // 2
            if self.count == 0 and only < 0:
                ok = search.start(self.seat, target)
            else:
                ok = search.turn(self.seat, self.count, self.led, self.win_bit,
                                 self.win_seat, target, only)
            if ok:
                low = target
            else:
                high = target - 1
        return low

    def ours(self, team0: int) -> int:
        return team0 if self.seat & 1 == 0 else self.left - team0


def _check_implementation(implementation: str) -> bool:
    """True when the C solver is to be tried first."""
    if implementation not in IMPLEMENTATIONS:
        raise ValueError(f"implementation must be one of {', '.join(IMPLEMENTATIONS)}, "
                         f"not {implementation!r}")
    return implementation != "python"


def _c_values(state: GameState, implementation: str) -> dict[Play, int] | None:
    if not _check_implementation(implementation):
        return None
    if state.phase is not Phase.PLAY:
        _Position(state)  # raises the phase error
    values = _solver_c.play_values(state)
    if values is None and implementation == "c":
        raise RuntimeError("the C double-dummy solver is not available: the speed-ups "
                           "extension was built without it (use implementation='python')")
    return values


def _python_values(state: GameState) -> dict[Play, int]:
    position = _Position(state)
    search = position.search
    values: dict[Play, int] = {}
    done: dict[int, int] = {}
    reps = search.moves(position.seat, position.count, position.led, position.win_bit,
                        position.win_seat)
    hand = search.hands[position.seat]
    outside = (sum(search.hands) | search.in_trick) & ~hand
    for action in legal_actions(state):
        assert isinstance(action, Play)
        bit = position.bit_of[action.index]
        rep = _representative(bit, reps, outside)
        if rep not in done:
            done[rep] = position.ours(position.team0(rep))
        values[action] = done[rep]
    return values


def _representative(bit: int, reps: list[int], outside: int) -> int:
    """The card of ``reps`` that ``bit`` is equal to (the same class, no card
    of another hand or of the trick between them)."""
    for rep in reps:
        if rep == bit:
            return rep
    for rep in reps:
        if rep >> 4 == bit >> 4 and rep < _LB and bit < _LB:
            low, high = min(rep, bit), max(rep, bit)
            if not outside >> (low + 1) & ((1 << (high - low - 1)) - 1):
                return rep
    raise AssertionError("a legal card with no representative")  # pragma: no cover


def play_values(state: GameState, *, implementation: str = "auto") -> dict[Play, int]:
    """For each legal play of the seat to act, in the order of
    :func:`~cardrules.back_alley.legal_actions`, the tricks its team takes
    from here (the trick in progress included) with best play afterwards.

    A :class:`ValueError` outside the play phase; ``state`` is not changed.

    >>> from cardrules.back_alley import new_game
    >>> play_values(new_game())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the double-dummy solver needs a deal in play (phase 'play'), not phase ...
    """
    values = _c_values(state, implementation)
    if values is not None:
        return values
    return _python_values(state)


def max_tricks(state: GameState, *, implementation: str = "auto") -> int:
    """The most tricks the team of the seat to act takes from here to the end
    of the deal, every hand open and both teams playing their best (the trick
    in progress counts, tricks already won do not).

    A :class:`ValueError` outside the play phase; ``state`` is not changed.

    >>> from cardrules.back_alley import new_game
    >>> max_tricks(new_game(), implementation="fast")
    Traceback (most recent call last):
    ...
    ValueError: implementation must be one of auto, c, python, not 'fast'
    """
    values = _c_values(state, implementation)
    if values is not None:
        return max(values.values())
    position = _Position(state)
    return position.ours(position.team0(-1))

