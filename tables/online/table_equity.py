"""All-in equity on the live table (issue 19): each shown player's chance to win and to tie at
each street of an all-in, on the public table.

The engine runs the board out at once when nobody can act again, and the hands are face up to
everyone only once the hand is over (R1.8, TDA 16; ``selectors.visible_cards``). So the figures
appear then, street by street, from the shown hands and the board only: the hand replayed as a
spectator sees it (``history.viewer_hand``), the replayer's own function
(``history_equity.equity_by_record``). A finished hand does not change but for a hand shown by
choice, so the figures are computed once per hand and shown set, never per viewer.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.core.cache import cache

from tables.engine import DealBoard
from tables.online.history import viewer_hand
from tables.online.history_equity import equity_by_record
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
    """The finished hand's all-in figures by street, from the cards face up; [] for none."""
    if hand is None or not hand.is_over or len(hand.shown) < 2:
        return []
    key = _key(hand)
    try:
        kept: list[StreetEquity] | None = cache.get(key)
    except Exception:
        logger.warning("the cache failed: hand %s's equity is computed again", hand.pk)
        kept = None
    if kept is not None:
        return kept
    try:
        streets = _streets(hand, game)
    except ValueError as refused:
        # The spectator's replay refuses some tournament hands (a dead small blind); the
        # table is shown without the figures rather than not at all.
        logger.info("hand %s shows no all-in equity: the replay refused it (%s)", hand.pk, refused)
        streets = []
    try:
        cache.set(key, streets, KEPT_SECONDS)
    except Exception:
        logger.warning("the cache failed: hand %s's equity is not kept", hand.pk)
    return streets


def _streets(hand: TableHand, game: str) -> list[StreetEquity]:
    engine = viewer_hand(hand, None)  # the shown hands only: what every spectator saw
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
