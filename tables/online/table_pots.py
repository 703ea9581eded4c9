"""The pots as the table page shows them: bets in front of the players, the pots in the middle.

During a street the chips bet this round lie in front of each player (``SeatView.bet``); the
middle holds only what earlier rounds gathered, as the main pot and side pots (R3.9), with
Draw Hold'em's swap fees in the pot they join (R7.6) and the fees kept apart for the winner of
the hand (R7.9). Once the hand is over the middle names who won which pot.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine import AwardPot, AwardSwapFees, DrawHand, build_pots
from tables.online.engine import PlayHand
from tables.online.models import TableHand

MAIN, SIDE, FEES = "main", "side", "fees"


@dataclass(frozen=True)
class PotView:
    """One pot in the middle: its kind, its number among the side pots, chips and winners."""

    kind: str  # MAIN, SIDE or FEES (R7.9: the swap fees kept apart)
    number: int  # 1, 2, ... for side pots; 0 otherwise
    amount: int
    winners: tuple[str, ...] = ()  # at the end of the hand: who won it (a split names each)


def middle_pots(engine: PlayHand) -> list[PotView]:
    """The pots gathered before this round (bets still in front of the players are not in
    them), main pot first; an empty list before any chip reached the middle."""
    gathered = [put - bet for put, bet in zip(engine.contributed, engine.bets, strict=True)]
    live = [not folded for folded in engine.folded]
    dead = int(getattr(engine, "dead_money", 0))
    amounts: list[int] = []
    if any(gathered) or dead:
        amounts = [pot.amount for pot in build_pots(gathered, live, dead=dead)]
    if isinstance(engine, DrawHand) and engine.swap_fees_pending:
        amounts = amounts or [0]  # R7.6: this round's fees join the main pot after it
        amounts[0] += engine.swap_fees_pending
    views = [
        PotView(kind=MAIN if index == 0 else SIDE, number=index, amount=amount)
        for index, amount in enumerate(amounts)
        if amount
    ]
    if isinstance(engine, DrawHand) and engine.swap_fees_apart:
        views.append(PotView(kind=FEES, number=0, amount=engine.swap_fees_apart))  # R7.9
    return views


def awarded_pots(engine: PlayHand, names: list[str]) -> list[PotView]:
    """The pots pushed at the end of the hand, each with its winners (``names`` by position)."""
    views: list[PotView] = []
    for record in engine.records:
        if isinstance(record, AwardPot):
            kind = MAIN if record.pot == 0 else SIDE
            winners = tuple(names[seat] for seat in record.winners)
            views.append(
                PotView(kind=kind, number=record.pot, amount=record.amount, winners=winners)
            )
        elif isinstance(record, AwardSwapFees):
            winners = tuple(names[seat] for seat, _ in record.shares)
            views.append(PotView(kind=FEES, number=0, amount=record.amount, winners=winners))
    return views


def won_by_position(engine: PlayHand) -> list[int]:
    """What each position won: its shares of the pots and of the swap fees kept apart."""
    won = [0] * engine.n
    for record in engine.records:
        if isinstance(record, AwardPot | AwardSwapFees):
            for seat, share in record.shares:
                won[seat] += share
    return won


def pot_total(engine: PlayHand) -> int:
    """Every chip in the hand: R7.6's swap fees of this round and R7.9's kept apart too."""
    if isinstance(engine, DrawHand):
        return engine.pot_total + engine.swap_fees_pending + engine.swap_fees_apart
    return engine.pot_total


def results(
    hand: TableHand | None,
    engine: PlayHand | None,
    names: dict[int, str],
) -> list[PotView]:
    """At the end of the hand, who won which pot (by the names at the table)."""
    if hand is None or engine is None or not hand.is_over:
        return []
    by_position = [names.get(number, "—") for number in hand.seat_numbers]
    return awarded_pots(engine, by_position)
