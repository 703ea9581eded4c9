"""All-in equity: each player's chance to win and to tie the pot for the cards still to come,
from the cards face up only (hold'em, Omaha, Draw Hold'em).

When every player still in a hand is all-in (or all but one), nobody acts again and only the
board is left to come. :func:`all_in_equity` counts, for each player, the runouts of the board
he wins alone, those he ties for the best hand, and his share of the pot (a tie split evenly).
It takes the players' hands, the board and any other cards known to be out of the deck
(``dead``: cards shown or mucked face up); it never sees the deck, so it tells nobody more than
the table shows.

Exact by enumeration when the runouts are few (flop, turn, and whenever ``samples`` is at least
their number); otherwise by seeded sampling, with the standard error of each share (a 95%
interval is ``share ± 1.96 * error``). The sampling's generator is SplitMix64, seeded by
``seed``: the same call gives the same figures (the engine uses no random module, R1.1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb, sqrt

from tables.engine.cards import DECK_SIZE, Card, card_name
from tables.engine.evaluator import (
    CARD_KEYS,
    FLUSH_BITS,
    FLUSH_VALUES,
    RANK_SHIFT,
    SUIT_BIAS,
    UNSUITED,
    flush_value,
)

BOARD_SIZE = 5
# The games by name (the online tables' Game values too) and their hole cards (R7.1, R7.3).
HOLE_CARDS = {"holdem": 2, "omaha": 4, "draw_holdem": 2}
_ALIASES = {"nl_holdem": "holdem", "pl_holdem": "holdem", "fl_holdem": "holdem", "plo": "omaha"}
# samples=None: enumerate when the runouts times the players stay under this, else sample.
EXACT_LIMIT = 200_000
DEFAULT_SAMPLES = {"holdem": 20_000, "omaha": 4_000, "draw_holdem": 20_000}
_MASK64 = (1 << 64) - 1
# The sampling's version: the same seed draws other runouts when it changes (2: one 64-bit draw
# a runout), so figures kept by seed (tables.online.history_equity) are kept under it too.
SAMPLER_VERSION = 2
# Added to a board's keys, a suit's 4-bit counter reaches FLUSH_BITS at three cards of the suit.
_THREE_OF_A_SUIT = 0x5555

# Each hand's value with some more board cards: (the sum of their keys, the cards) -> values.
Values = Callable[[int, Sequence[Card]], list[int]]


@dataclass(frozen=True, kw_only=True, slots=True)
class Equity:
    """One player's figures: ``win`` the share of runouts he wins alone, ``tie`` those where
    he ties for the best hand, ``share`` his expected part of the pot (ties split evenly);
    ``error`` the standard error of ``share`` when sampled, None when exact."""

    win: float
    tie: float
    share: float
    error: float | None


def all_in_equity(
    *,
    game: str,
    hands: Sequence[Sequence[Card]],
    board: Sequence[Card],
    dead: Sequence[Card] = (),
    samples: int | None = None,
    seed: int = 0,
) -> list[Equity]:
    """Each hand's equity for the rest of the board, in the order of ``hands``.

    ``game``: "holdem", "omaha" or "draw_holdem" (or an online table's game: "nl_holdem",
    "pl_holdem", "fl_holdem", "plo"); Draw Hold'em is hold'em once no swap is left (R7.8,
    R7.9). ``hands``: two or more hands of face-up hole cards (2 each, Omaha 4); ``board``:
    0, 3, 4 or 5 cards; ``dead``: other cards known out of the deck. ``samples``: None to
    enumerate when that is cheap (flop, turn, river) and else sample the game's default
    number of runouts; a number to sample that many (or enumerate, if the runouts are no
    more). Raises ValueError with the reason for bad input.
    """
    name = _ALIASES.get(game, game)
    if name not in HOLE_CARDS:
        raise ValueError(f"no all-in equity for the game {game!r}")
    _check(name, hands, board, dead)
    known = {*board, *dead, *(card for hand in hands for card in hand)}
    rest = [card for card in range(DECK_SIZE) if card not in known]
    missing = BOARD_SIZE - len(board)
    runouts = comb(len(rest), missing)
    values = _omaha_values(hands, board) if name == "omaha" else _holdem_values(hands, board)
    if samples is None:
        exact = runouts * len(hands) <= EXACT_LIMIT
        samples = DEFAULT_SAMPLES[name]
    else:
        if samples < 1:
            raise ValueError("sample at least one runout")
        exact = samples >= runouts
    if exact:
        return _enumerate(values, rest, missing, len(hands))
    if name != "omaha" and not board:
        return _sample_holdem_preflop(hands, rest, samples, seed)
    return _sample(values, rest, missing, len(hands), samples, seed)


def _check(
    game: str, hands: Sequence[Sequence[Card]], board: Sequence[Card], dead: Sequence[Card]
) -> None:
    if len(hands) < 2:
        raise ValueError("equity needs two or more hands")
    size = HOLE_CARDS[game]
    for hand in hands:
        if len(hand) != size:
            raise ValueError(f"a {game} hand is {size} face-up cards, not {len(hand)}")
    if len(board) not in (0, 3, 4, 5):
        raise ValueError(f"a board is 0, 3, 4 or 5 cards, not {len(board)}")
    cards = [*board, *dead, *(card for hand in hands for card in hand)]
    seen: set[Card] = set()
    for card in cards:
        if not 0 <= card < DECK_SIZE:
            raise ValueError(f"{card!r} is not a card number 0..51")
        if card in seen:
            raise ValueError(f"the card {card_name(card)} appears twice")
        seen.add(card)
    if len(cards) - len(board) + BOARD_SIZE > DECK_SIZE:
        raise ValueError("the deck holds too few cards for the rest of the board")


def _holdem_values(hands: Sequence[Sequence[Card]], board: Sequence[Card]) -> Values:
    """Best five of seven (R1.3): each hand's key with the board's, a flush from its suit."""
    base = sum(CARD_KEYS[card] for card in board) + SUIT_BIAS
    keys = [base + CARD_KEYS[a] + CARD_KEYS[b] for a, b in hands]
    cards = [(*hand, *board) for hand in hands]

    def values(added: int, more: Sequence[Card]) -> list[int]:
        out = []
        for key, own in zip(keys, cards, strict=True):
            key += added
            if key & FLUSH_BITS:
                out.append(flush_value(key, (*own, *more)))
            else:
                out.append(UNSUITED[key >> RANK_SHIFT])
        return out

    return values


def _omaha_values(hands: Sequence[Sequence[Card]], board: Sequence[Card]) -> Values:
    """R7.1: the best of exactly two hole cards and three board cards for each hand.

    Each five is first valued by its ranks alone (the ranks of two cards and of three add up
    apart: no suit counter of five cards carries into them). A flush needs three board cards
    of one suit (five board cards hold one such suit at most) and two hole cards of it; only
    those fives are valued again as flushes, and the better value of a five stands."""
    pairs = [list(combinations(hand, 2)) for hand in hands]
    pair_ranks = [[(CARD_KEYS[a] + CARD_KEYS[b]) >> RANK_SHIFT for a, b in own] for own in pairs]
    suited_pairs = [
        [[1 << (a >> 2) | 1 << (b >> 2) for a, b in own if a & 3 == b & 3 == suit] for own in pairs]
        for suit in range(4)
    ]
    board_key = sum(CARD_KEYS[card] for card in board)

    def values(added: int, more: Sequence[Card]) -> list[int]:
        cards = (*board, *more)
        ranks = [
            (CARD_KEYS[a] + CARD_KEYS[b] + CARD_KEYS[c]) >> RANK_SHIFT
            for a, b, c in combinations(cards, 3)
        ]
        out = [max([UNSUITED[p + t] for p in own for t in ranks]) for own in pair_ranks]
        three = (board_key + added + _THREE_OF_A_SUIT) & FLUSH_BITS
        if three:
            suit = (three.bit_length() - 1) >> 2
            masks = [
                1 << (a >> 2) | 1 << (b >> 2) | 1 << (c >> 2)
                for a, b, c in combinations([card for card in cards if card & 3 == suit], 3)
            ]
            for seat, own in enumerate(suited_pairs[suit]):
                if own:
                    flush = max([FLUSH_VALUES[p | t] for p in own for t in masks])
                    if flush > out[seat]:
                        out[seat] = flush
        return out

    return values


class _Tally:
    """Wins, ties and the pot's shares over runouts, with the sums for a standard error."""

    __slots__ = ("count", "share_squares", "shares", "ties", "wins")

    def __init__(self, players: int) -> None:
        self.count = 0
        self.wins = [0] * players
        self.ties = [0] * players
        self.shares = [0.0] * players
        self.share_squares = [0.0] * players

    def add(self, values: list[int]) -> None:
        self.count += 1
        best = max(values)
        winners = values.count(best)
        if winners == 1:
            seat = values.index(best)
            self.wins[seat] += 1
            self.shares[seat] += 1.0
            self.share_squares[seat] += 1.0
            return
        part = 1.0 / winners
        for seat, value in enumerate(values):
            if value == best:
                self.ties[seat] += 1
                self.shares[seat] += part
                self.share_squares[seat] += part * part

    def result(self, *, sampled: bool) -> list[Equity]:
        n = self.count
        out = []
        for wins, ties, shares, squares in zip(
            self.wins, self.ties, self.shares, self.share_squares, strict=True
        ):
            mean = shares / n
            error = None
            if sampled:
                variance = max(squares / n - mean * mean, 0.0)
                error = sqrt(variance / n)
            out.append(Equity(win=wins / n, tie=ties / n, share=mean, error=error))
        return out


def _enumerate(values: Values, rest: list[Card], missing: int, players: int) -> list[Equity]:
    """Every runout of the board once, the keys of all but its last card added up once."""
    tally = _Tally(players)
    add = tally.add
    if not missing:
        add(values(0, ()))
        return tally.result(sampled=False)
    keys = [CARD_KEYS[card] for card in rest]
    for head in combinations(range(len(rest)), missing - 1):
        head_key = sum(keys[i] for i in head)
        head_cards = tuple(rest[i] for i in head)
        for last in range(head[-1] + 1 if head else 0, len(rest)):
            add(values(head_key + keys[last], (*head_cards, rest[last])))
    return tally.result(sampled=False)


def _draws(samples: int, seed: int) -> Iterator[int]:
    """SplitMix64 from ``seed``: one 64-bit output a runout."""
    state = seed & _MASK64
    for _ in range(samples):
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        yield z ^ (z >> 31)


def _sample_holdem_preflop(
    hands: Sequence[Sequence[Card]], rest: list[Card], samples: int, seed: int
) -> list[Equity]:
    """``_sample`` of hold'em hands with no board, in about half its time: the same runouts,
    values and figures, bit for bit (tests/engine/test_equity.py), with the five draws, the
    values and a lone winner's tally written out in one loop (two hands apart: most all-ins).

    The live table's all-in figure before the flop is the one sampled (issue 17: 5,000
    runouts took 20-30 ms of the web process's move that made the all-in, a tenth of its CPU
    in bench/online_tables.py's play); the flop's and the turn's are enumerated."""
    tally = _Tally(len(hands))
    wins, shares, squares = tally.wins, tally.shares, tally.share_squares
    keys, unsuited, flush = CARD_KEYS, UNSUITED, flush_value
    own = [(SUIT_BIAS + keys[a] + keys[b], a, b) for a, b in hands]
    (base0, a0, b0), (base1, a1, b1) = own[0], own[1]
    heads_up = len(own) == 2
    values = [0] * len(hands)
    pool = list(rest)
    s0, s1, s2, s3, s4 = (len(pool) - i for i in range(BOARD_SIZE))
    for z in _draws(samples, seed):
        # _sample's partial Fisher-Yates, its five steps one by one.
        z, j = divmod(z, s0)
        pool[0], pool[j] = pool[j], pool[0]
        z, j = divmod(z, s1)
        pool[1], pool[j + 1] = pool[j + 1], pool[1]
        z, j = divmod(z, s2)
        pool[2], pool[j + 2] = pool[j + 2], pool[2]
        z, j = divmod(z, s3)
        pool[3], pool[j + 3] = pool[j + 3], pool[3]
        j = z % s4
        pool[4], pool[j + 4] = pool[j + 4], pool[4]
        board = pool[:BOARD_SIZE]
        added = keys[board[0]] + keys[board[1]] + keys[board[2]] + keys[board[3]] + keys[board[4]]
        if heads_up:
            key = base0 + added
            v0 = flush(key, (a0, b0, *board)) if key & FLUSH_BITS else unsuited[key >> RANK_SHIFT]
            key = base1 + added
            v1 = flush(key, (a1, b1, *board)) if key & FLUSH_BITS else unsuited[key >> RANK_SHIFT]
            winner = 0 if v0 > v1 else 1 if v1 > v0 else -1
            if winner < 0:
                tally.add([v0, v1])
                continue
        else:
            best, winner = -1, 0
            for seat, (base, a, b) in enumerate(own):
                key = base + added
                if key & FLUSH_BITS:
                    value = flush(key, (a, b, *board))
                else:
                    value = unsuited[key >> RANK_SHIFT]
                values[seat] = value
                if value > best:
                    best, winner = value, seat
            if values.count(best) > 1:
                tally.add(values)
                continue
        tally.count += 1
        wins[winner] += 1
        shares[winner] += 1.0
        squares[winner] += 1.0
    return tally.result(sampled=True)


def _sample(
    values: Values, rest: list[Card], missing: int, players: int, samples: int, seed: int
) -> list[Equity]:
    """``samples`` runouts, each a partial Fisher-Yates shuffle of the cards left (SplitMix64).

    One 64-bit output draws a runout's every card, as the digits of a mixed-radix number (the
    cards left, then one fewer, ...): five cards from 48 need under 28 of its bits, so each
    draw's bias stays below 2**-36; one output a card cost half the sampler's time."""
    tally = _Tally(players)
    add = tally.add
    pool = list(rest)
    size = len(pool)
    for z in _draws(samples, seed):
        for i in range(missing):
            z, digit = divmod(z, size - i)
            j = i + digit
            pool[i], pool[j] = pool[j], pool[i]
        more = pool[:missing]
        add(values(sum(map(CARD_KEYS.__getitem__, more)), more))
    return tally.result(sampled=True)
