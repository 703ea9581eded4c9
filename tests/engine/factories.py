"""Small keyword-only factories for engine tests: rules, and hands with fixed cards."""

from __future__ import annotations

from collections.abc import Sequence

from tables.engine import Betting, Hand, Rules, new_deck, parse_cards


def make_rules(*, betting: Betting = Betting.NO_LIMIT, blinds: tuple[int, int] = (50, 100), **kw):
    """Rules with the given blinds; any other setting by keyword."""
    small, big = blinds
    return Rules(betting=betting, small_blind=small, big_blind=big, **kw)


def make_hand(
    *,
    stacks: Sequence[int],
    button: int = 0,
    rules: Rules | None = None,
    hole: Sequence[str | None] | None = None,
    board: str | None = None,
    **kw,
) -> Hand:
    """A hand with fixed cards: explicit hole cards ('AhKs', None unknown) and board, else a
    deck in new-deck order."""
    return Hand.start(
        rules=rules or make_rules(),
        stacks=stacks,
        button=button,
        deck=new_deck(),
        hole_cards=None if hole is None else [None if h is None else parse_cards(h) for h in hole],
        board=None if board is None else parse_cards(board),
        **kw,
    )


def chips(hand: Hand) -> int:
    """Every chip at the table: stacks, plus what is in the pot while the hand runs."""
    return sum(hand.stacks) + (0 if hand.is_over else hand.pot_total)
