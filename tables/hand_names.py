"""The name of a poker hand in the active language: "Full house, kings over tens" (R1.2)."""

from __future__ import annotations

from django.utils.translation import gettext, pgettext_lazy

from tables.engine import HandCategory, describe

_ACE = 12

# By rank, 0 = deuce .. 12 = ace. Lazy: the language is the one active when a name is made.
_SINGULAR = (
    pgettext_lazy("rank singular", "deuce"),
    pgettext_lazy("rank singular", "three"),
    pgettext_lazy("rank singular", "four"),
    pgettext_lazy("rank singular", "five"),
    pgettext_lazy("rank singular", "six"),
    pgettext_lazy("rank singular", "seven"),
    pgettext_lazy("rank singular", "eight"),
    pgettext_lazy("rank singular", "nine"),
    pgettext_lazy("rank singular", "ten"),
    pgettext_lazy("rank singular", "jack"),
    pgettext_lazy("rank singular", "queen"),
    pgettext_lazy("rank singular", "king"),
    pgettext_lazy("rank singular", "ace"),
)
_PLURAL = (
    pgettext_lazy("rank plural", "deuces"),
    pgettext_lazy("rank plural", "threes"),
    pgettext_lazy("rank plural", "fours"),
    pgettext_lazy("rank plural", "fives"),
    pgettext_lazy("rank plural", "sixes"),
    pgettext_lazy("rank plural", "sevens"),
    pgettext_lazy("rank plural", "eights"),
    pgettext_lazy("rank plural", "nines"),
    pgettext_lazy("rank plural", "tens"),
    pgettext_lazy("rank plural", "jacks"),
    pgettext_lazy("rank plural", "queens"),
    pgettext_lazy("rank plural", "kings"),
    pgettext_lazy("rank plural", "aces"),
)


def hand_name(value: int) -> str:
    """The name of an evaluator hand value, such as "Two pair, aces and eights"."""
    name = describe(value)
    first = name.ranks[0]
    one, many = str(_SINGULAR[first]), str(_PLURAL[first])
    match name.category:
        case HandCategory.STRAIGHT_FLUSH if first == _ACE:
            return gettext("Royal flush")  # R1.2: the ace-high straight flush
        case HandCategory.STRAIGHT_FLUSH:
            return gettext("Straight flush, %(rank)s high") % {"rank": one}
        case HandCategory.FOUR_OF_A_KIND:
            return gettext("Four of a kind, %(rank)s") % {"rank": many}
        case HandCategory.FULL_HOUSE:
            return gettext("Full house, %(trips)s over %(pair)s") % {
                "trips": many, "pair": str(_PLURAL[name.ranks[1]]),
            }  # fmt: skip
        case HandCategory.FLUSH:
            return gettext("Flush, %(rank)s high") % {"rank": one}
        case HandCategory.STRAIGHT:
            return gettext("Straight, %(rank)s high") % {"rank": one}
        case HandCategory.THREE_OF_A_KIND:
            return gettext("Three of a kind, %(rank)s") % {"rank": many}
        case HandCategory.TWO_PAIR:
            return gettext("Two pair, %(high)s and %(low)s") % {
                "high": many, "low": str(_PLURAL[name.ranks[1]]),
            }  # fmt: skip
        case HandCategory.PAIR:
            return gettext("Pair of %(rank)s") % {"rank": many}
    return gettext("High card %(rank)s") % {"rank": one}
