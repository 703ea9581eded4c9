"""Poker Hand History (PHH) files: a document's fields, checked, and the table's rules.

Amounts become whole chips (multiplied by a scale where the history has fractions); what the
engine does not play (stud, draw, straddles...) is refused with :class:`UnsupportedVariant`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm

from tables.engine.rules import AnteMode, Betting, Rules

# PHH variant codes the engine plays. "PT" (pot-limit Texas hold'em) is not in the PHH
# standard's table; it follows the standard's naming scheme (F/N/P + game).
VARIANTS: dict[str, tuple[Betting, bool]] = {
    "NT": (Betting.NO_LIMIT, False),
    "FT": (Betting.LIMIT, False),
    "PT": (Betting.POT_LIMIT, False),
    "PO": (Betting.POT_LIMIT, True),
}
UNKNOWN = "??"


class PHHError(ValueError):
    """A hand history that cannot be read or replayed."""


class UnsupportedVariant(PHHError):
    """A history of a game the engine does not play (stud, draw, razz, short deck...)."""


class IllegalHistory(PHHError):
    """A history whose actions the engine refuses, or that stops before the hand is over."""

    def __init__(self, index: int | None, action: str | None, reason: str) -> None:
        where = "the history" if index is None else f"action {index} ({action!r})"
        super().__init__(f"{where}: {reason}")
        self.index = index
        self.action = action
        self.reason = reason


@dataclass(frozen=True, kw_only=True)
class HandHistory:
    """The fields of one PHH file, amounts in whole chips (multiplied by ``scale``)."""

    variant: str
    rules: Rules
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    finishing_stacks: tuple[Fraction, ...] | None = None
    scale: int = 1  # chips per PHH unit, so that amounts such as 1259450.25 become whole
    players: tuple[str, ...] | None = None
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def player_count(self) -> int:
        """The number of players dealt in."""
        return len(self.starting_stacks)


def load(text: str) -> HandHistory:
    """The fields of a PHH document, checked; raises PHHError or UnsupportedVariant."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"not valid TOML: {exc}") from exc
    variant = data.get("variant")
    if variant not in VARIANTS:
        raise UnsupportedVariant(f"unsupported variant {variant!r}")
    betting, omaha = VARIANTS[variant]
    for name in ("antes", "blinds_or_straddles", "starting_stacks", "actions"):
        if not isinstance(data.get(name), list):
            raise PHHError(f"the field {name!r} is missing or not a list")
    count = len(data["starting_stacks"])
    if count < 2 or len(data["antes"]) != count or len(data["blinds_or_straddles"]) != count:
        raise PHHError("antes, blinds_or_straddles and starting_stacks need one entry a player")
    amounts = _amounts(data)
    scale = lcm(*(amount.denominator for amount in amounts))
    rules = _rules(data, betting=betting, omaha=omaha, scale=scale)
    finishing = data.get("finishing_stacks")
    return HandHistory(
        variant=variant,
        rules=rules,
        starting_stacks=tuple(to_chips(value, scale) for value in data["starting_stacks"]),
        actions=tuple(str(action) for action in data["actions"]),
        finishing_stacks=None if finishing is None else tuple(_fraction(v) for v in finishing),
        scale=scale,
        players=tuple(data["players"]) if "players" in data else None,
        extra={k: v for k, v in data.items() if k not in _CORE_FIELDS},
    )


_CORE_FIELDS = frozenset(
    (
        "variant", "ante_trimming_status", "antes", "blinds_or_straddles", "min_bet",
        "small_bet", "big_bet", "starting_stacks", "actions", "finishing_stacks", "players",
    )
)  # fmt: skip


def _fraction(value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PHHError(f"{value!r} is not an amount of chips")
    amount = Fraction(value)
    if amount < 0:
        raise PHHError(f"{value!r} is a negative amount of chips")
    return amount


def _amounts(data: dict[str, object]) -> list[Fraction]:
    values: list[object] = []
    for name in ("antes", "blinds_or_straddles", "starting_stacks"):
        listed = data[name]
        if isinstance(listed, list):  # load() has checked that it is
            values.extend(listed)
    values.extend(data[name] for name in ("min_bet", "small_bet", "big_bet") if name in data)
    return [_fraction(value) for value in values]


def to_chips(value: object, scale: int) -> int:
    """A PHH amount in whole chips at ``scale`` chips per unit; PHHError if not whole."""
    amount = _fraction(value) * scale
    if amount.denominator != 1:
        raise PHHError(f"{value!r} is not a whole number of chips")
    return int(amount)


def _rules(data: dict[str, object], *, betting: Betting, omaha: bool, scale: int) -> Rules:
    blinds = [to_chips(v, scale) for v in data["blinds_or_straddles"]]  # type: ignore[attr-defined]
    antes = [to_chips(v, scale) for v in data["antes"]]  # type: ignore[attr-defined]
    if any(blinds[2:]):
        raise UnsupportedVariant("straddles are not played (R2.12: no straddle)")
    small_blind, big_blind = blinds[0], blinds[1]
    # The lists are in blind order (small blind first, also heads-up, where p2 posts it).
    ante, ante_mode = 0, AnteMode.NONE
    if any(antes):
        if len(set(antes)) == 1:
            ante, ante_mode = antes[0], AnteMode.EVERY_PLAYER
        elif not any(antes[:1] + antes[2:]):
            ante, ante_mode = antes[1], AnteMode.BIG_BLIND
        else:
            raise PHHError(f"antes {antes} are neither equal for all nor a big blind ante")
    small_bet = big_bet = None
    if betting is Betting.LIMIT:
        for name in ("small_bet", "big_bet"):
            if name not in data:
                raise PHHError(f"a limit history needs {name!r}")
        small_bet, big_bet = to_chips(data["small_bet"], scale), to_chips(data["big_bet"], scale)
    elif "min_bet" in data and to_chips(data["min_bet"], scale) != big_blind:
        raise PHHError(f"min_bet {data['min_bet']} is not the big blind (R3.5)")
    try:
        return Rules(
            betting=betting,
            small_blind=small_blind,
            big_blind=big_blind,
            ante=ante,
            ante_mode=ante_mode,
            omaha=omaha,
            small_bet=small_bet,
            big_bet=big_bet,
        )
    except ValueError as exc:
        raise PHHError(f"the rules cannot be set: {exc}") from exc
