"""Draw Hold'em's own records: swaps, standing pat, reshuffles and the fees kept apart (R7.3-R7.11).

A swap is private (R7.11): the record holds the card given back and the card drawn, for the
player himself, the replay and the hand history; :func:`public_view` is what the others see.
"""

from __future__ import annotations

from tables.engine.cards import Card
from tables.engine.records import Cause, DealHole, Record, record


@record
class Swap:
    """R7.4: a player gave back one hole card and drew the next card of the stub.

    ``fee`` is what he paid: the small blind in the first round, credited to his pre-flop bet
    (R7.5; nothing for a blind); after the flop the round's fee, which is no bet (R7.6).
    ``kept_apart`` marks a fee paid while a player was all-in (R7.9). ``discarded`` and
    ``drawn`` are None where they are unknown (the public view, a censored history).
    """

    seat: int
    fee: int
    discarded: Card | None
    drawn: Card | None
    kept_apart: bool = False


@record
class StandPat:
    """A player declined the swap where it was his only choice (the first round, R7.3; after
    the flop with nobody left to bet against, R7.9); ``cause`` as for a fold or check."""

    seat: int
    cause: Cause = Cause.PLAYER


@record
class Reshuffle:
    """R7.11: the stub could not cover a swap; the swapped-out cards and burns were shuffled
    into a new stub for the swaps, ``cards`` top first (None in the public view)."""

    count: int
    cards: tuple[Card, ...] | None


@record
class AwardSwapFees:
    """R7.9, R7.11: the swap fees kept apart went to the best hand at the showdown, tied hands
    splitting them (odd chip by R4.2); ``shares`` pairs seat and chips."""

    amount: int
    shares: tuple[tuple[int, int], ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won a share of the fees."""
        return tuple(seat for seat, _ in self.shares)


DrawRecord = Record | Swap | StandPat | Reshuffle | AwardSwapFees


def public_view(item: DrawRecord) -> DrawRecord:
    """What the other players see of a record (R7.11): a swap without its cards ("swapped one
    card, paid N"), a reshuffle without the new stub's order, a deal without the hole cards."""
    if isinstance(item, Swap):
        return Swap(
            seat=item.seat, fee=item.fee, discarded=None, drawn=None, kept_apart=item.kept_apart
        )
    if isinstance(item, Reshuffle):
        return Reshuffle(count=item.count, cards=None)
    if isinstance(item, DealHole):
        return DealHole(seat=item.seat, cards=None)
    return item
