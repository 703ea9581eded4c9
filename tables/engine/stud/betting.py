"""One stud betting round's sizes: the bring-in and its completion, the open pair's choice of
bets on fourth street, the cap and short all-ins (R7.2, R3.4, TDA 47)."""

from __future__ import annotations

from tables.engine.stud.rules import StudRules, StudStreet


class StudRound:
    """The amounts that decide what a bet or raise may be in the current stud round.

    ``current_bet`` is what each player must have in front of him to stay in (R3.3);
    ``full_level`` the bet reached by the last full bet, completion or raise, which a raise
    adds a fixed bet to; ``raises`` counts those against the cap. ``sizes`` are the fixed bets
    a bet or raise may add: the street's bet, or on fourth street with an open pair the small
    or the big bet until a big one is made, then only the big one (R7.2, seed 003).
    ``bring_in_due`` is set on third street until the low card brings in or completes. The
    cap is reached at ``raises >= rules.cap`` (R7.2, R3.4); a player who acted when the bet was
    ``acted_at`` may raise again only if ``full_level > acted_at`` (R3.7, TDA 47: a completion
    reopens the betting to the bring-in); the legality reads both inline.
    """

    __slots__ = ("bring_in_due", "current_bet", "full_level", "raises", "sizes")

    def __init__(self, *, rules: StudRules, street: StudStreet, open_pair: bool = False) -> None:
        small, big = rules.small_bet, rules.big_bet
        if street is StudStreet.FOURTH and open_pair and big > small:
            self.sizes: tuple[int, ...] = (small, big)
        else:  # rules.bet(street), inline: a StudRound a street
            self.sizes = (small,) if street <= StudStreet.FOURTH else (big,)
        self.current_bet = self.full_level = self.raises = 0
        self.bring_in_due = street is StudStreet.THIRD

    def targets(self, *, total: int) -> tuple[int, ...]:
        """The legal raise-to amounts for a player with ``total`` chips (bet + stack): a fixed
        bet above the last full level, or all-in for less (R2.10)."""
        level = self.full_level
        first = level + self.sizes[0]
        if len(self.sizes) == 1 or first >= total:
            return (first if first < total else total,)
        second = level + self.sizes[1]
        return (first, second if second < total else total)

    def post_bring_in(self, amount: int, *, small_bet: int) -> None:
        """The bring-in opens the round; it is a bet only when it is a full small bet."""
        self.bring_in_due = False
        self.current_bet = amount
        if amount >= small_bet:
            self.full_level = amount
            self.raises = 1

    def raise_to(self, amount: int) -> None:
        """Record a completion, bet or raise to ``amount`` (already checked legal)."""
        self.bring_in_due = False
        gain = amount - self.full_level
        sizes = self.sizes
        # TDA 47 (limit): an all-in of half a bet or more counts as a full bet or raise.
        if gain * 2 >= sizes[0]:
            self.full_level = amount
            self.raises += 1
            if len(sizes) > 1 and gain >= sizes[1]:
                self.sizes = (sizes[1],)  # seed 003: after a big bet, raises are big ones
        self.current_bet = amount
