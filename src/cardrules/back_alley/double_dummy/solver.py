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

How it searches (alpha-beta over whole tricks under a transposition table
kept between calls; :func:`clear_cache` empties it): :doc:`/double_dummy`.

``implementation`` picks the code: ``"python"`` this module, ``"c"`` the C
solver of the speed-ups extension (a :class:`RuntimeError` when it is not
built), ``"auto"`` (the default) the C solver when there is one.  Both give
the same answers.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Literal, overload

import attrs

from cardrules.back_alley.actions import Board, Play
from cardrules.back_alley.double_dummy import _native
from cardrules.back_alley.game import legal_actions
from cardrules.back_alley.state import NUM_PLAYERS, GameState, Phase
from cardrules.back_alley.trick import TRUMP_CLASS

__all__ = ["IMPLEMENTATIONS", "TABLE_ENTRIES", "DoubleDummyTable", "clear_cache",
           "double_dummy_table", "max_tricks", "play_values", "solve_many"]

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

#: ``_PEXT[(u << 8) | m]``: the bits of the byte ``m`` that are in the byte
#: ``u``, packed down in order (a parallel bit extract), for the relative ranks;
#: ``_POP8[u]``: the bits set in ``u``; ``_SPREAD[m]``: the bits of ``m``
#: spread to the even positions.  Filled by ``_build_tables`` at the first search.
_PEXT: list[int] = []
_POP8: list[int] = []
_SPREAD: list[int] = []


def _build_tables() -> None:
    if _PEXT:
        return
    spots = [[bit for bit in range(8) if u >> bit & 1] for u in range(256)]
    for bits in spots:
        _PEXT.extend(sum(1 << at for at, bit in enumerate(bits) if m >> bit & 1)
                     for m in range(256))
    _POP8.extend(len(bits) for bits in spots)
    _SPREAD.extend(sum(1 << (2 * bit) for bit in bits) for bits in spots)


#: The transposition table: for each key (see ``_Search._place``), the answers
#: found so far, each ``(mask, holders, upper, bound, ks)``: team 0 takes at
#: most (``upper``) or at least ``bound`` tricks from every trick start whose
#: holders under ``mask`` are ``holders`` (``ks``: how many cards of each class,
#: from the top, the mask covers).  Shared by every call.
_TABLE: dict[int, list[tuple[int, int, bool, int, tuple[int, ...]]]] = {}
#: The most answers kept under one key (the oldest goes first).
_BUCKET = 32
#: Past this many keys the table is emptied before the next search.
_TABLE_LIMIT = 400_000
#: Past this many trick starts met in one search, their memo is emptied.
_SEEN_LIMIT = 1_000_000


def clear_cache() -> None:
    """Empty the transposition table the searches share (it is kept between
    calls and emptied by itself when it grows past 400,000 keys).

    >>> clear_cache()
    """
    _TABLE.clear()
    _CLASS_MEMO.clear()


def _bit_of(index: int, classes: tuple[int, ...], powers: tuple[int, ...]) -> int:
    cls = classes[index]
    rank = powers[index] - (102 if cls == TRUMP_CLASS else 2)
    return _WIDTH * cls + rank


#: ``_class_pattern`` by the four hands' cards of one class (packed in 60 bits).
_CLASS_MEMO: dict[int, tuple[int, int]] = {}


def _class_pattern(c0: int, c1: int, c2: int, c3: int) -> tuple[int, int]:
    """One class of a trick start (each hand's cards of the class, 15 bits):
    the count of its cards and of seats 1 to 3's in four bits each, and the
    holder of each card from the highest down, two bits a card, left-aligned
    in 30 bits.  Remembered in :data:`_CLASS_MEMO`."""
    u = c0 | c1 | c2 | c3
    pext, pop8, spread = _PEXT, _POP8, _SPREAD
    lo_u, hi_u = (u & 255) << 8, (u >> 8) << 8
    at = pop8[u & 255]
    n = at + pop8[u >> 8]
    r1 = pext[lo_u | (c1 & 255)] | pext[hi_u | c1 >> 8] << at
    r2 = pext[lo_u | (c2 & 255)] | pext[hi_u | c2 >> 8] << at
    r3 = pext[lo_u | (c3 & 255)] | pext[hi_u | c3 >> 8] << at
    a, b = r1 | r3, r2 | r3
    seq = (spread[a & 255] | spread[a >> 8] << 16
           | (spread[b & 255] | spread[b >> 8] << 16) << 1)
    both = (n << 12 | r1.bit_count() << 8 | r2.bit_count() << 4 | r3.bit_count(),
            seq << (2 * (15 - n)))
    if len(_CLASS_MEMO) > _TABLE_LIMIT:
        _CLASS_MEMO.clear()
    _CLASS_MEMO[c0 | c1 << 15 | c2 << 30 | c3 << 45] = both
    return both


def _lowest_kept(cards: int, drop: int) -> int:
    """The lowest bit of ``cards`` once its ``drop`` lowest bits are dropped."""
    for _ in range(drop):
        cards &= cards - 1
    return cards & -cards


def _runs_cut(hand: int, moves: list[int], rel: int, outside: int) -> int:
    """The cards to add to ``rel`` when every move of ``moves`` failed.

    Each move is the lowest card of a run of ``hand``'s equal cards (no card
    of ``outside``, the other hands' and the trick's, between them) and stood
    for the whole run.  A position matching on the cards the answer rests on
    (in each class, every card from the highest down to the lowest of
    ``rel``) must find each run wholly among those cards or wholly below them,
    else a card of the run there may not be worth the one searched: so a run
    that reaches from below into those cards adds its lowest card, going down
    each class (each addition lowers the line).  Never across a joker: a
    joker's lead differs (BA-33).

    >>> _runs_cut(0b01110, [1], 0b01000, 0b10000)  # the run 1-3 reaches the 3 counted
    2
    >>> _runs_cut(0b00110, [1], 0b01000, 0b01000)  # the run 1-2 lies below it
    0
    """
    add = 0
    out = hand | outside
    for shift in range(0, _TRUMP_SHIFT + _WIDTH, _WIDTH):
        cls = _CLASS_BITS << shift
        r = rel & out & cls
        if not r:
            continue
        line = (r & -r).bit_length() - 1
        for low in sorted((b for b in moves if b < _LB and cls >> b & 1 and b < line),
                          reverse=True):
            top = low
            while True:
                above = out & cls & ~((2 << top) - 1)
                if not above:
                    break
                nxt = (above & -above).bit_length() - 1
                if nxt >= _LB or not hand >> nxt & 1:
                    break
                top = nxt
            if top >= line:
                add |= 1 << low
                line = low
    return add


class _Search:
    """One position being searched; the hands are changed and restored in place.

    Every search also leaves in :attr:`rel` the cards whose ranks its answer
    rests on (the cards that won a trick by outranking a card of their class,
    and those a bound counted): the answer holds for every position with the
    same hand lengths in every class and the same holders of every card down to
    the lowest relevant one of each class, whatever the smaller cards are.  The
    table keeps each answer under that pattern (the winning ranks of a bridge
    solver), so one entry serves many positions.
    """

    __slots__ = ("board", "board_bits", "hands", "in_trick", "nodes", "rel", "replies", "seen",
                 "table", "trump_played")

    def __init__(self, hands: list[int], board: tuple[bool, ...], trump_played: bool,
                 in_trick: int) -> None:
        self.hands = hands
        self.board = board
        self.board_bits = sum(1 << seat for seat, claimed in enumerate(board) if claimed)
        self.trump_played = trump_played
        self.in_trick = in_trick
        self.nodes = 0
        self.rel = 0
        #: Per absolute trick start: its table key, its holders packed, the
        #: cards left in each class and the best lead found there (last).
        self.seen: dict[tuple[int, ...], list[int]] = {}
        #: Per trick so far and seat to play: the card that last cut the search off.
        self.replies: dict[tuple[int, int], int] = {}
        if len(_TABLE) > _TABLE_LIMIT:
            _TABLE.clear()
        self.table = _TABLE

    # -- the key of a trick start -------------------------------------------------

    def _place(self, leader: int) -> list[int]:
        """A trick start described for the table: ``[key, holders, u0..u4, -1]``.

        ``key`` holds what must be equal exactly (the leader, the BA-32 facts,
        who holds each joker, every hand's length in every class); ``holders``
        packs, class by class in fields of 30 bits, the holder of every card
        left from the highest down (two bits each, left-aligned), so that
        "the same holders of the top k cards of a class" is one mask."""
        hands = self.hands
        h0, h1, h2, h3 = hands
        left = h0 | h1 | h2 | h3
        key = (self.board_bits << 3 | leader << 1
               | (self.trump_played or not left & _TRUMPS))
        for joker in (_BB, _LB):
            owner = 4
            for seat in (0, 1, 2, 3):
                if hands[seat] >> joker & 1:
                    owner = seat
            key = key << 3 | owner
        packed = 0
        place = [0, 0]
        memo = _CLASS_MEMO
        for shift in (0, 16, 32, 48, 64):
            c0, c1 = h0 >> shift & _CLASS_BITS, h1 >> shift & _CLASS_BITS
            c2, c3 = h2 >> shift & _CLASS_BITS, h3 >> shift & _CLASS_BITS
            place.append(c0 | c1 | c2 | c3)
            both = memo.get(c0 | c1 << 15 | c2 << 30 | c3 << 45)
            if both is None:
                both = _class_pattern(c0, c1, c2, c3)
            key = key << 16 | both[0]
            packed = packed << 30 | both[1]
        place[0], place[1] = key, packed
        place.append(-1)
        return place

    # -- quick tricks -------------------------------------------------------------

    def _quick(self, leader: int) -> tuple[int, int]:
        """Tricks the leader's team surely takes from this trick start, and the
        lowest card counted in each class: the leader's trumps above every
        other trump (each wins a trick whenever it is played), then its plain cards
        above every other card of their suit that no opponent holding a trump
        can ruff (each opponent with trumps must follow that many times)."""
        hands = self.hands
        mine = hands[leader]
        partner = hands[leader ^ 2]
        opp1, opp2 = hands[leader ^ 1], hands[leader ^ 3]
        others = partner | opp1 | opp2
        quick = rel = 0
        my_trumps = mine & _TRUMPS
        if my_trumps:  # led or not, each wins a trick of its own (BA-34)
            top = (others & _TRUMPS).bit_length()
            cards = my_trumps >> top << top
            if cards:
                quick = cards.bit_count()
                rel = cards & -cards
        opp_trumps = (opp1 | opp2) & _TRUMPS
        if opp_trumps and not partner & _PLAIN and partner:
            return quick, rel  # a partner holding only trumps would ruff and take the lead
        ruffers = [h for h in (opp1, opp2) if h & _TRUMPS]
        for shift in (0, 16, 32, 48):
            mc = mine >> shift & _CLASS_BITS
            if not mc:
                continue
            top = (others >> shift & _CLASS_BITS).bit_length()
            cards = mc >> top << top
            if not cards:
                continue
            count = run = cards.bit_count()
            for hand in ruffers:
                run = min(run, (hand >> shift & _CLASS_BITS).bit_count())
            if run:
                quick += run
                rel |= _lowest_kept(cards, count - run) << shift
        if quick:
            return quick, rel
        # No winner of its own: a low card to the partner's winners, which the
        # partner then cashes (the tricks of the best such suit).
        mine_or_opps = mine | opp1 | opp2
        for shift in (0, 16, 32, 48):
            if not mine >> shift & _CLASS_BITS:
                continue
            pc = partner >> shift & _CLASS_BITS
            top = (mine_or_opps >> shift & _CLASS_BITS).bit_length()
            cards = pc >> top << top
            if not cards:
                continue
            count = run = cards.bit_count()
            for hand in ruffers:
                run = min(run, (hand >> shift & _CLASS_BITS).bit_count())
            if run > quick:
                quick, rel = run, _lowest_kept(cards, count - run) << shift
        return quick, rel

    # -- the search ---------------------------------------------------------------

    def bounds(self, leader: int, left: int) -> tuple[int, int, int, int]:
        """Bounds on team 0's tricks from a trick start, each with the cards it
        rests on: the leader's quick tricks, and for each team the trumps of one
        player above every trump of the other team (each wins a trick of its
        own whenever it is played)."""
        hands = self.hands
        quick, quick_rel = self._quick(leader)
        even_trumps = (hands[0] | hands[2]) & _TRUMPS
        odd_trumps = (hands[1] | hands[3]) & _TRUMPS
        low = cut = rel_low = rel_high = 0
        if even_trumps:
            top = odd_trumps.bit_length()
            for hand in (hands[0], hands[2]):
                cards = (hand & _TRUMPS) >> top << top
                if cards.bit_count() > low:
                    low, rel_low = cards.bit_count(), cards & -cards
        if odd_trumps:
            top = even_trumps.bit_length()
            for hand in (hands[1], hands[3]):
                cards = (hand & _TRUMPS) >> top << top
                if cards.bit_count() > cut:
                    cut, rel_high = cards.bit_count(), cards & -cards
        if leader & 1:
            if quick > cut:
                cut, rel_high = quick, quick_rel
        elif quick > low:
            low, rel_low = quick, quick_rel
        return low, left - cut, rel_low, rel_high

    def last(self, leader: int) -> int:
        """Team 0's tricks (0 or 1) from the last trick, where every card is
        forced; :attr:`rel` the winner if it outranked a card of its class."""
        hands = self.hands
        win_bit, win_seat = hands[leader].bit_length() - 1, leader
        trick = hands[0] | hands[1] | hands[2] | hands[3]
        for k in (1, 2, 3):
            seat = (leader + k) & 3
            bit = hands[seat].bit_length() - 1
            if bit > win_bit and (bit >> 4 == win_bit >> 4 or bit >= _TRUMP_SHIFT):
                win_bit, win_seat = bit, seat
        same = trick & (_CLASS_BITS << (win_bit & ~15))
        self.rel = 1 << win_bit if same & (same - 1) else 0
        return 1 - (win_seat & 1)

    def start(self, leader: int, target: int) -> bool:
        """At a trick start with ``leader`` to lead: does team 0 take at least
        ``target`` of the tricks left?"""
        hands = self.hands
        left = hands[leader].bit_count()
        if target <= 0 or target > left:
            self.rel = 0
            return target <= 0
        if left == 1:
            return self.last(leader) >= target
        where = (hands[0], hands[1], hands[2], hands[3], leader, self.trump_played)
        place = self.seen.get(where)
        if place is None:
            place = self._place(leader)
            if len(self.seen) > _SEEN_LIMIT:
                self.seen.clear()
            self.seen[where] = place
        key = place[0]
        table = self.table
        bucket = table.get(key)
        if bucket is not None:
            packed = place[1]
            for mask, value, upper, bound, ks in bucket:
                if packed & mask == value and (bound < target if upper else bound >= target):
                    rel = 0
                    for cls, k in enumerate(ks):
                        if k:
                            u = place[2 + cls]
                            rel |= _lowest_kept(u, u.bit_count() - k) << (_WIDTH * cls)
                    self.rel = rel
                    return not upper
        low, high, rel_low, rel_high = self.bounds(leader, left)
        if low >= target:
            self.rel = rel_low
            return True
        if high < target:
            self.rel = rel_high
            return False
        result = self.turn(leader, 0, -1, -1, leader, target, -1, place)
        rel = self.rel
        # File the answer under the holders of the cards it rests on.
        mask = 0
        counts: list[int] = []
        for cls in (0, 1, 2, 3, 4):
            r = rel >> (_WIDTH * cls) & _CLASS_BITS
            if r:
                u = place[2 + cls]
                k = (u >> ((r & -r).bit_length() - 1)).bit_count()
                mask |= ((1 << 2 * k) - 1) << (30 - 2 * k) << (30 * (4 - cls))
                counts.append(k)
            else:
                counts.append(0)
        ks = tuple(counts)
        upper = not result
        bound = target - 1 if upper else target
        value = place[1] & mask
        if bucket is None:
            table[key] = [(mask, value, upper, bound, ks)]
        else:
            for at, entry in enumerate(bucket):
                if entry[0] == mask and entry[1] == value and entry[2] == upper:
                    if (bound < entry[3]) if upper else (bound > entry[3]):
                        bucket[at] = (mask, value, upper, bound, ks)
                    break
            else:
                bucket.append((mask, value, upper, bound, ks))
                if len(bucket) > _BUCKET:
                    del bucket[0]
        self.rel = rel
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
                continue  # the lowest of a run stands for it (see _Search)
            prev = bit
            reps.append(bit)
        if len(reps) == 1:
            return reps
        # Each card gets a score (lowest tried first) times 128 plus its bit.
        scored = []
        if count == 0:
            # Leads: sure winners first (the top of their class, no opponent to
            # ruff), then low cards to a partner's sure winner, then the other
            # cards high first, and last a plain suit the opponents can ruff.
            opp1, opp2, partner = hands[seat ^ 1], hands[seat ^ 3], hands[seat ^ 2]
            opp1_trumps, opp2_trumps = opp1 & _TRUMPS, opp2 & _TRUMPS
            for bit in reps:
                cls = _CLASS_BITS << (bit & ~15)
                rank = bit & 15
                if bit < _TRUMP_SHIFT and ((opp1_trumps and not opp1 & cls)
                                           or (opp2_trumps and not opp2 & cls)):
                    scored.append((300 + rank) << 7 | bit)
                elif not outside >> (bit + 1) & (_CLASS_BITS >> (rank + 1)):
                    scored.append(rank << 7 | bit)
                elif partner >> ((outside & cls).bit_length() - 1) & 1:
                    scored.append((100 + rank) << 7 | bit)
                else:
                    scored.append((200 - rank + (20 if bit >= _TRUMP_SHIFT else 0)) << 7 | bit)
        else:
            # Following: the cheapest card that surely wins the trick for this
            # team first, then low cards (plain before trumps), overtaking a
            # partner last.
            partner_wins = (win_seat ^ seat) & 1 == 0
            # The opponent still to play after this seat (none for the fourth).
            threat = hands[(seat + 1) & 3] if count < 3 else 0
            led_cls = _CLASS_BITS << (led & ~15)
            threat_follow = threat & led_cls
            threat_trumps = threat & _TRUMPS
            for bit in reps:
                rank = (bit & 15) + (16 if bit >= _TRUMP_SHIFT else 0)
                beats = bit > win_bit and (bit >> 4 == win_bit >> 4 or bit >= _TRUMP_SHIFT)
                if beats and partner_wins:
                    scored.append((200 + rank) << 7 | bit)
                elif beats or partner_wins:
                    top = bit if beats else win_bit
                    if threat_follow:
                        sure = not (top >> 4 == led >> 4 and threat_follow >> (top + 1))
                    elif threat_trumps:
                        sure = top >= _TRUMP_SHIFT and not threat_trumps >> (top + 1)
                    else:
                        sure = True
                    scored.append((rank if sure else 100 + rank) << 7 | bit)
                else:
                    scored.append((100 + rank) << 7 | bit)
        scored.sort()
        return [code & 127 for code in scored]

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
                    first = seen[-1] if seen is not None else -1
                else:
                    reply_key = (self.in_trick, seat)
                    first = self.replies.get(reply_key, -1)
                if first >= 0 and first in moves and moves[0] != first:
                    moves.remove(first)
                    moves.insert(0, first)
        hand = hands[seat]
        maximizing = seat & 1 == 0
        trump_played = self.trump_played
        rel_all = 0
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
                rel = self.rel
                # The winner's rank counts when it outranked a card of its class.
                same = (saved_trick | mask) & (_CLASS_BITS << (new_bit & ~15))
                if same & (same - 1):
                    rel |= 1 << new_bit
            else:
                self.in_trick |= mask
                result = self.turn((seat + 1) & 3, count + 1, new_led, new_bit, new_seat,
                                   target, -1)
                self.in_trick ^= mask
                rel = self.rel
            self.trump_played = trump_played
            hands[seat] = hand
            if result is maximizing:
                if len(moves) > 1:
                    if count == 0:
                        if seen is not None:
                            seen[-1] = bit
                    else:
                        self.replies[(self.in_trick, seat)] = bit
                self.rel = rel
                return result
            rel_all |= rel
        outside = (hands[0] | hands[1] | hands[2] | hands[3] | self.in_trick) & ~hand
        self.rel = rel_all | _runs_cut(hand, moves, rel_all, outside)
        return not maximizing


# -- from a GameState ------------------------------------------------------------

class _Position:
    """A state's play position in bits, and how to search it."""

    def __init__(self, state: GameState) -> None:
        _build_tables()
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

    def team0(self, only: int, guess: int = -1) -> int:
        """The exact tricks team 0 takes from here (with ``only`` forced if
        >= 0): zero-window searches on the target, a binary search between
        the bounds that first tries ``guess`` and its neighbours (up to three
        steps) when one is given."""
        search = self.search
        low, high = 0, self.left
        at_start = self.count == 0 and only < 0
        if at_start:
            quick = search._quick(self.seat)[0]
            if self.seat & 1 == 0:
                low = quick
            else:
                high = self.left - quick
        steps = 0 if guess >= 0 else 3
        while low < high:
            target = guess if low < guess <= high and steps < 3 else (low + high + 1) // 2
            steps += 1
            if at_start:
                ok = search.start(self.seat, target)
            else:
                ok = search.turn(self.seat, self.count, self.led, self.win_bit,
                                 self.win_seat, target, only)
            if ok:
                low, guess = target, target + 1
            else:
                high, guess = target - 1, target - 1
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
    values = _native.play_values(state)
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
    outside = (_hands_or(search.hands) | search.in_trick) & ~hand
    guess = -1
    for rep in reps:  # best first, each searched near the value before it
        guess = done[rep] = position.team0(rep, guess)
    for action in legal_actions(state):
        assert isinstance(action, Play)
        rep = _representative(position.bit_of[action.index], reps, outside)
        values[action] = position.ours(done[rep])
    return values


def _hands_or(hands: list[int]) -> int:
    """Every card in ``hands``."""
    return hands[0] | hands[1] | hands[2] | hands[3]


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
    Seat 0 holds BB and 3H (hearts trump) and claimed board, so it may lead a
    trump (BA-32); BB led draws seat 1's ace (BA-33) and 3H then wins too:

    >>> from cardrules import parse_cards
    >>> from cardrules.back_alley import ChooseDealer, Shuffle, apply, new_game, parse_action
    >>> from cardrules.back_alley.actions import CARDS
    >>> dealt = parse_cards("BB AH 4C 6C 3H 2H 5C 7C 8H", jokers=True)  # one each, turn 8H
    >>> order = dealt + tuple(c for c in CARDS if c not in dealt)
    >>> state = apply(apply(new_game(max_hand_size=2), ChooseDealer(3)), Shuffle(order))
    >>> for bid in ("board", "pass", "pass", "pass"):
    ...     state = apply(state, parse_action(bid))
    >>> {str(play): tricks for play, tricks in play_values(state).items()}
    {'play 3H': 1, 'play BB': 2}
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
    Seat 0 leads AC and KC at no trump (a joker turned, BA-13) and takes both;
    with spades trump seat 1 ruffs them:

    >>> from cardrules import parse_cards
    >>> from cardrules.back_alley import ChooseDealer, Shuffle, apply, new_game, parse_action
    >>> from cardrules.back_alley.actions import CARDS
    >>> def deal(turned):
    ...     dealt = parse_cards(f"AC 2S 4D 6D KC 3S 5D 7D {turned}", jokers=True)
    ...     order = dealt + tuple(c for c in CARDS if c not in dealt)
    ...     state = apply(apply(new_game(max_hand_size=2), ChooseDealer(3)), Shuffle(order))
    ...     for bid in ("bid 1", "pass", "pass", "pass"):
    ...         state = apply(state, parse_action(bid))
    ...     return state
    >>> max_tricks(deal("BB")), max_tricks(deal("9S"))
    (2, 0)
    >>> max_tricks(deal("BB"), implementation="fast")
    Traceback (most recent call last):
    ...
    ValueError: implementation must be one of auto, c, python, not 'fast'
    """
    if _check_implementation(implementation):
        # The C solver answers this question with one search rather than one
        # per card; None means it is not available for this state.
        tricks = _native.max_tricks(state) if state.phase is Phase.PLAY else None
        if tricks is not None:
            return tricks
    values = _c_values(state, implementation)
    if values is not None:
        return max(values.values())
    position = _Position(state)
    return position.ours(position.team0(-1))



@attrs.frozen(slots=True)
class DoubleDummyTable:
    """A deal's double-dummy table, Back Alley's analogue of bridge's: for
    each seat on lead at the start of the play, the tricks each seat's team
    takes in the whole deal, every hand open and both teams at their best.

    ``tricks[leader][seat]`` is the tricks of ``seat``'s team (BA-1: seats 0
    and 2 against 1 and 3) when ``leader`` leads the first trick; in each
    row the two teams' tricks add up to the hand size.  The trump suit, the turned card and the
    board claims (which let a seat lead trump before it is broken, BA-32) are
    those of the deal; only the leader changes.

    >>> table = DoubleDummyTable(tricks=((2, 0, 2, 0), (1, 1, 1, 1), (2, 0, 2, 0), (1, 1, 1, 1)))
    >>> table.team_tricks(1)
    (1, 1)
    >>> print(table)
    leader  team 0  team 1
    seat 0       2       0
    seat 1       1       1
    seat 2       2       0
    seat 3       1       1
    """

    tricks: tuple[tuple[int, ...], ...]

    def team_tricks(self, leader: int) -> tuple[int, int]:
        """Team 0's and team 1's tricks when ``leader`` leads.

        >>> DoubleDummyTable(((3, 1, 3, 1),) * 4).team_tricks(0)
        (3, 1)
        """
        row = self.tricks[leader]
        return row[0], row[1]

    def __str__(self) -> str:
        from cardrules.i18n import gettext

        head = gettext("leader  team 0  team 1")
        rows = [gettext("seat {seat}").format(seat=leader).ljust(6)
                + f"  {row[0]:6}  {row[1]:6}" for leader, row in enumerate(self.tricks)]
        return "\n".join([head, *rows])


def double_dummy_table(state: GameState, *, implementation: str = "auto") -> DoubleDummyTable:
    """The double-dummy table of the deal of ``state`` (see
    :class:`DoubleDummyTable`): four solves, one per seat on lead, of the
    position at the start of the play (BA-30 names who really leads; the
    table asks what each seat's team would take if another did).

    ``state`` must be in the play phase before the first card (the opening
    lead), else a :class:`ValueError`.  The rules of play are those of
    :func:`max_tricks` (BA-31 to BA-34, the no-trump deals of BA-13); a
    seat that claimed board may lead trump from the first trick (BA-32).

    >>> from cardrules import parse_cards
    >>> from cardrules.back_alley import ChooseDealer, Shuffle, apply, new_game, parse_action
    >>> from cardrules.back_alley.actions import CARDS
    >>> dealt = parse_cards("AC AD 2C 3C KC KD 2D 3D 9H")  # hearts trump, none held
    >>> order = dealt + tuple(c for c in CARDS if c not in dealt)
    >>> state = apply(apply(new_game(max_hand_size=2), ChooseDealer(3)), Shuffle(order))
    >>> for bid in ("bid 1", "pass", "pass", "pass"):
    ...     state = apply(state, parse_action(bid))
    >>> [str(hand) for hand in state.hands]
    ['AC KC', 'AD KD', '2D 2C', '3D 3C']
    >>> print(double_dummy_table(state))  # the leader's side cashes its aces and kings
    leader  team 0  team 1
    seat 0       2       0
    seat 1       0       2
    seat 2       2       0
    seat 3       0       2
    >>> double_dummy_table(state).tricks[3]  # seat 3 leads: each seat's team
    (0, 2, 0, 2)
    """
    if state.phase is not Phase.PLAY or state.tricks or state.trick_indexes:
        raise ValueError("a double-dummy table needs a deal at its opening lead (the play "
                         "phase before the first card)")
    deal = state.deal
    assert deal is not None
    rows = []
    for leader in range(NUM_PLAYERS):
        opening = attrs.evolve(state, leader=leader, current_player=leader)
        ours = max_tricks(opening, implementation=implementation)
        theirs = deal.hand_size - ours
        team = (ours, theirs) if leader % 2 == 0 else (theirs, ours)
        rows.append((team[0], team[1], team[0], team[1]))
    return DoubleDummyTable(tuple(rows))


#: The entries of each thread's transposition table in :func:`solve_many`
#: unless told: 2**19 entries of 40 bytes and 256 kB of hints, 21.2 MB a
#: thread (the table of a single :func:`max_tricks` call holds 2**20, 42.2 MB,
#: kept for the next).
TABLE_ENTRIES = 1 << 19

#: Tables of the C solver made by :func:`solve_many`, by size, free for the
#: next call (one thread searches with a table at a time).
_FREE_TABLES: dict[int, list[_native.Table]] = {}
_FREE_LOCK = threading.Lock()


def _take_table(entries: int) -> _native.Table | None:
    with _FREE_LOCK:
        free = _FREE_TABLES.get(entries)
        if free:
            return free.pop()
    return _native.new_table(entries)


def _give_table(table: _native.Table) -> None:
    """Keep ``table`` for the next call, up to one per processor of each
    size (the others are freed: many callers at once do not pin their
    tables' memory for ever)."""
    with _FREE_LOCK:
        free = _FREE_TABLES.setdefault(table.entries, [])
        if len(free) < (os.cpu_count() or 1):
            free.append(table)


def _solve_one(state: GameState, every_card: bool,
               table: _native.Table | None) -> int | dict[Play, int]:
    """One state's answer, searched with ``table`` (keeping what earlier
    states stored in it) when there is one and the C solver takes it."""
    answer: int | dict[Play, int] | None = None
    if table is not None:
        if every_card:
            answer = _native.play_values(state, table, True)
        else:
            answer = _native.max_tricks(state, table, True)
    if answer is None:  # no C solver, or a position it leaves to Python
        if every_card:
            answer = _python_values(state)
        else:
            position = _Position(state)
            answer = position.ours(position.team0(-1))
    return answer


def _solve_shared(states: list[GameState], every_card: bool, use_c: bool, entries: int,
                  answers: list[int | dict[Play, int] | None],
                  turns: queue.SimpleQueue[int]) -> None:
    """Solve, on one thread with one table kept from state to state (what
    one deal stored often serves the next one drawn from the same view),
    the states whose indexes it takes from ``turns`` (shared by every
    thread, so that a thread done with easy states takes the next one),
    each answer put in its place in ``answers``."""
    table = _take_table(entries) if use_c else None
    try:
        while True:
            try:
                at = turns.get_nowait()
            except queue.Empty:
                break
            answers[at] = _solve_one(states[at], every_card, table)
    finally:
        if table is not None:
            _give_table(table)


@overload
def solve_many(states: Iterable[GameState], *, threads: int | None = None,
               every_card: Literal[False] = False, implementation: str = "auto",
               table_entries: int = TABLE_ENTRIES) -> list[int]: ...


@overload
def solve_many(states: Iterable[GameState], *, threads: int | None = None,
               every_card: Literal[True], implementation: str = "auto",
               table_entries: int = TABLE_ENTRIES) -> list[dict[Play, int]]: ...


def solve_many(states: Iterable[GameState], *, threads: int | None = None,
               every_card: bool = False, implementation: str = "auto",
               table_entries: int = TABLE_ENTRIES) -> list[int] | list[dict[Play, int]]:
    """Solve a batch of positions across ``threads`` threads: for each state,
    in order, :func:`max_tricks` or, with ``every_card``, :func:`play_values`
    (the same answers, BA-31 to BA-34).

    The C solver searches with the GIL released, so the threads run at
    once: each thread takes the next state not yet taken (so that one done
    with easy states goes on to the next instead of waiting), and solves it
    with a transposition table of its own of ``table_entries`` entries (a
    power of two, 64 to 2**26; 40 bytes each, and 4 bytes each of hints
    for the first 65,536, so 21.2 MB a thread by default and at most
    ``threads * (table_entries * 40 + 262,144)`` bytes in all), kept from
    one state to the next it takes (an entry holds for any position under
    the same trump suit and board claims).  The answers come in the order
    of ``states`` and do not depend on which thread solved which.  Up to one table
    per processor is kept for the next call.  ``threads`` None means one
    per processor, never more than there are states.  With the pure-Python solver (no C
    extension, ``implementation="python"`` or ``CARDRULES_PURE_PYTHON``)
    the states are solved one after the other.

    A :class:`ValueError` when a state is not in the play phase or
    ``threads`` is below 1.

    >>> from cardrules.back_alley import apply, new_game, ChooseDealer, Shuffle, Bid
    >>> from cardrules.back_alley.actions import CARDS
    >>> state = apply(apply(new_game(max_hand_size=2), ChooseDealer(3)), Shuffle(CARDS))
    >>> for bid in (Bid(1), Bid(1), Bid(1), Bid(1)):
    ...     state = apply(state, bid)
    >>> solve_many([state, state], threads=2) == [max_tricks(state)] * 2
    True
    >>> solve_many([state], every_card=True) == [play_values(state)]
    True
    >>> solve_many([state], threads=0)
    Traceback (most recent call last):
    ...
    ValueError: threads must be at least 1, not 0
    """
    batch = list(states)
    if threads is not None and threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    use_c = _check_implementation(implementation)
    for state in batch:
        if state.phase is not Phase.PLAY:
            _Position(state)  # raises the phase error
    if use_c and not _native.available():
        if implementation == "c":
            raise RuntimeError("the C double-dummy solver is not available: the speed-ups "
                               "extension was built without it (use implementation='python')")
        use_c = False
    if use_c and (table_entries < 64 or table_entries > 1 << 26
                  or table_entries & (table_entries - 1)):
        raise ValueError(f"table_entries must be a power of two from 64 to 2**26, "
                         f"not {table_entries}")
    count = min(threads or os.cpu_count() or 1, len(batch)) if use_c else 1
    answers: list[int | dict[Play, int] | None] = [None] * len(batch)
    turns: queue.SimpleQueue[int] = queue.SimpleQueue()
    for at in range(len(batch)):
        turns.put(at)
    if count <= 1:
        _solve_shared(batch, every_card, use_c, table_entries, answers, turns)
    else:
        with ThreadPoolExecutor(max_workers=count) as pool:
            for done in [pool.submit(_solve_shared, batch, every_card, use_c, table_entries,
                                     answers, turns) for _ in range(count)]:
                done.result()
    return answers  # type: ignore[return-value]
