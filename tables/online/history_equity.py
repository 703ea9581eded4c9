"""All-in equity on the replayer's steps: once every player still in the hand is all-in (or all
but one), each one's chance to win or tie, from the cards face up at that step only.

At an all-in the hands are turned face up (TDA 16), so the replay knows them; the board is the
board dealt so far; the deck is never read (``tables.engine.all_in_equity``). Stud has none.

The same hands on the same board give the same figures (the sample is seeded by the hand), and
a hand asks for them many times: at each street of its staged runout (each street's table shows
the streets before), at its end, on its replay. So each board's figures are computed once and
kept in the shared cache under a keyed hash of what they are computed from: a pre-flop figure
samples for about 50 ms (bench/RESULTS.md), and the sweeper computed it four or five times a
hand. The key holds no readable card.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.crypto import salted_hmac

from tables.engine import (
    SAMPLER_VERSION,
    BringIn,
    Call,
    DealBoard,
    Fold,
    PostAnte,
    PostBlind,
    RaiseTo,
    ReturnUncalled,
    StudHand,
    Swap,
    all_in_equity,
)
from tables.online.engine import PlayHand

logger = logging.getLogger(__name__)
BOARD_CARDS = 5
PREFLOP_SAMPLES = 5_000  # a preflop figure by sampling: about ±0.6 % (two standard errors)
KEPT_SECONDS = 60 * 60


@dataclass(frozen=True)
class EquityView:
    """One player's figures at a step, in percent (one decimal)."""

    position: int
    win: float
    tie: float


def chips_in(record: object) -> int:
    """The chips a record moves from a stack into the pot (negative: back to the stack)."""
    if isinstance(record, Call | RaiseTo | PostAnte | PostBlind | BringIn):
        return int(record.amount)
    if isinstance(record, Swap):
        return int(record.fee)  # R7.5, R7.6
    if isinstance(record, ReturnUncalled):
        return -int(record.amount)
    return 0


def equity_by_record(engine: PlayHand, game: str, seed: int) -> dict[int, list[EquityView]]:
    """For each record after which everyone still in is all-in (or all but one) with the board
    not complete: each live player's equity, by the record's index in ``engine.records``."""
    if isinstance(engine, StudHand):
        return {}
    stacks = list(engine.starting_stacks)
    put = [0] * engine.n  # what each one put in so far
    folded = [False] * engine.n
    board: list[int] = []
    found: dict[int, list[EquityView]] = {}
    known: dict[int, list[EquityView]] = {}  # by the board's length: one figure per board
    for index, record in enumerate(engine.records):
        if isinstance(record, Fold):
            folded[record.seat] = True
        elif isinstance(record, DealBoard):
            board.extend(record.cards)
        if chips_in(record) and hasattr(record, "seat"):
            stacks[record.seat] -= chips_in(record)
            put[record.seat] += chips_in(record)
        if not isinstance(record, Call | Fold | DealBoard) or len(board) >= BOARD_CARDS:
            continue
        live = [p for p in range(engine.n) if not folded[p]]
        behind = [p for p in live if stacks[p] > 0]
        if len(live) < 2 or len(behind) > 1:
            continue
        if behind and put[behind[0]] < max(put[p] for p in live):
            continue  # the one with chips has yet to call: no figures before he does
        if len(board) not in known:
            known[len(board)] = _figures(engine, game, live, board, seed)
        if known[len(board)]:
            found[index] = known[len(board)]
    return found


def _figures(
    engine: PlayHand, game: str, live: list[int], board: list[int], seed: int
) -> list[EquityView]:
    hands = [engine.hole_cards[p] for p in live]
    if any(hand is None for hand in hands):
        return []  # a hand the viewer may not see: no figures
    faces = [tuple(hand or ()) for hand in hands]
    samples = None if board else PREFLOP_SAMPLES
    figures = _kept_figures(game, faces, board, samples, seed)
    if not figures:
        return []
    return [
        EquityView(position=p, win=win, tie=tie)
        for p, (win, tie) in zip(live, figures, strict=True)
    ]


def _kept_figures(
    game: str, hands: list[tuple[int, ...]], board: list[int], samples: int | None, seed: int
) -> list[tuple[float, float]]:
    """Each hand's (win, tie) in percent: kept, else computed and kept ([]: no figures). A
    cache that fails costs a computation, never the figures."""
    what = repr((SAMPLER_VERSION, game, hands, board, samples, seed))
    digest = salted_hmac("floorman.equity", what, algorithm="sha256").hexdigest()
    key = f"online-equity-figures:{digest}"
    try:
        kept: list[tuple[float, float]] | None = cache.get(key)
    except Exception:
        logger.warning("the cache failed: an all-in equity is computed again")
        kept = None
    if kept is not None:
        return kept
    try:
        computed = all_in_equity(game=game, hands=hands, board=board, samples=samples, seed=seed)
    except ValueError:
        computed = []
    figures = [(round(f.win * 100, 1), round(f.tie * 100, 1)) for f in computed]
    try:
        cache.set(key, figures, KEPT_SECONDS)
    except Exception:
        logger.warning("the cache failed: an all-in equity is not kept")
    return figures
