"""All-in equity on the live table (issue 19): each live player's chance to win and to tie for
the cards to come, street by street, on the public table.

When nobody can act again, the hand's board comes a street at a time (a staged runout,
``Rules.staged_runout``; tables.online.play) with the live hands face up to everyone (TDA 16;
``selectors.visible_cards``): at each street the figures are those of the hands tabled and the
board so far, by the replayer's own function (``history_equity.equity_by_record``), which never
reads the deck. After the hand they are those of the hands shown (R1.8), the hand replayed as a
spectator sees it (``history.viewer_hand``). Either is computed once per table version of the
hand (its sequence, or its shown set), never per viewer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache

from tables.engine import DealBoard, StudHand
from tables.online.engine import PlayHand, is_stud, rebuild
from tables.online.history import viewer_hand
from tables.online.history_equity import equity_by_record
from tables.online.kept import kept_state, stored_moves
from tables.online.models import TableHand
from tournaments.live_clock import namespace

logger = logging.getLogger(__name__)
KEPT_SECONDS = 60 * 60


@dataclass(frozen=True)
class StreetEquity:
    """The figures on one street: its board's length (0 pre-flop, 3 flop, 4 turn) and each
    player's seat number, win and tie in percent."""

    board: int
    players: list[tuple[int, float, float]]


def _key(hand: TableHand) -> str:
    shown = "-".join(str(p) for p in sorted(hand.shown))
    return f"{namespace()}:online-equity:{hand.pk}:{hand.commitment}:{shown}"


def table_equity(hand: TableHand | None, game: str) -> list[StreetEquity]:
    """The hand's all-in figures by street, from the cards face up; [] for none. A running
    hand has them only in a runout (nobody's turn: the hand waits for its next street)."""
    if hand is None:
        return []
    if not hand.is_over:
        if hand.actor is not None or is_stud(game):
            return []  # someone acts: the hands are not tabled
        return _runout(hand, game)
    if len(hand.shown) < 2:
        return []
    return _kept(_key(hand), hand, lambda: _streets(hand, game))


def _kept(
    key: str, hand: TableHand, compute: Callable[[], list[StreetEquity]]
) -> list[StreetEquity]:
    """The figures kept under ``key``, else ``compute()``'s, kept (a failing cache costs a
    computation, never the table)."""
    try:
        kept: list[StreetEquity] | None = cache.get(key)
    except Exception:
        logger.warning("the cache failed: hand %s's equity is computed again", hand.pk)
        kept = None
    if kept is not None:
        return kept
    streets = compute()
    try:
        cache.set(key, streets, KEPT_SECONDS)
    except Exception:
        logger.warning("the cache failed: hand %s's equity is not kept", hand.pk)
    return streets


def _runout(hand: TableHand, game: str) -> list[StreetEquity]:
    """A running hand's figures in its staged runout, up to the board dealt so far."""
    key = f"{namespace()}:online-runout-equity:{hand.pk}:{hand.commitment}:{hand.sequence}"
    return _kept(key, hand, lambda: _runout_streets(hand, game))


def _runout_streets(hand: TableHand, game: str) -> list[StreetEquity]:
    engine = kept_state(hand)
    if engine is None:
        engine = rebuild(hand, stored_moves(hand.pk, through=hand.sequence))
    # Only the tabled hands and the board dealt: the deck is never read (all_in_equity).
    tabled = not isinstance(engine, StudHand) and engine.tabled
    return _streets_of(hand, engine, game) if tabled else []


def _streets(hand: TableHand, game: str) -> list[StreetEquity]:
    engine = viewer_hand(hand, None)  # the shown hands only: what every spectator saw
    return _streets_of(hand, engine, game)


def _streets_of(hand: TableHand, engine: PlayHand, game: str) -> list[StreetEquity]:
    found = equity_by_record(engine, game, seed=hand.pk)  # the replayer's very figures
    streets: list[StreetEquity] = []
    board = 0
    for index, record in enumerate(engine.records):
        if isinstance(record, DealBoard):
            board += len(record.cards)
        if index in found and not any(street.board == board for street in streets):
            players = [
                (int(hand.seat_numbers[view.position]), view.win, view.tie) for view in found[index]
            ]
            streets.append(StreetEquity(board=board, players=players))
    return streets
