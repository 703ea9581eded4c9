"""The append-only records of a hand: postings, deals, moves, returns and awards."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from enum import StrEnum
from typing import Any, dataclass_transform

from tables.engine.cards import Card
from tables.engine.rules import Street


class Cause(StrEnum):
    """Who made a move: the player, or the server for an absent (R2.9) or timed-out (R3.10) one."""

    PLAYER = "player"
    ABSENT = "absent"  # R2.9
    TIME_OUT = "time_out"  # R3.10: disconnect protection (all-in with chips in, else fold)
    CLOCK = "clock"  # R3.10 house reading: a connected player's time ran out: check, else fold


class Blind(StrEnum):
    """Which blind a posting is."""

    SMALL = "small_blind"
    BIG = "big_blind"


@dataclass_transform(kw_only_default=True, frozen_default=True)
def record[T](cls: type[T]) -> type[T]:
    """A frozen, slotted, keyword-only dataclass whose ``__init__`` fills the slots directly.

    A record is made on every move. The ``__init__`` of a frozen dataclass sets each field
    through ``object.__setattr__``; this one calls the slot descriptors' setters, about a third
    faster, and is generated from the fields as dataclasses generates its own. Records stay
    frozen: assigning to a field afterwards still raises. The engine's hot paths make records
    through :func:`maker` instead, the same fields as keywords, about 1.7 times as fast.
    """
    made = dataclass(frozen=True, kw_only=True, slots=True, init=False)(cls)
    # maker's draft: a plain class with the record's slots (the same memory layout), filled
    # by plain assignments, then given the record's class; frozen from then on.
    draft = type(f"{made.__name__}Draft", (), {"__slots__": made.__slots__})  # type: ignore[attr-defined]
    namespace: dict[str, Any] = {"_cls": made, "_draft": draft}
    params, body, fill = [], [], []
    for index, field in enumerate(fields(made)):  # type: ignore[arg-type]
        namespace[f"_set{index}"] = made.__dict__[field.name].__set__
        if field.default is MISSING:
            params.append(field.name)
        else:
            namespace[f"_default{index}"] = field.default
            params.append(f"{field.name}=_default{index}")
        body.append(f"    _set{index}(self, {field.name})")
        fill.append(f"    self.{field.name} = {field.name}")
    signature = ", ".join(["*", *params]) if params else ""
    source = (
        f"def __init__(self, {signature}):\n" + "\n".join(body or ["    pass"]) + "\n"
        f"def make({signature}):\n    self = _draft()\n"
        + "\n".join([*fill, "    self.__class__ = _cls", "    return self"])
    )
    exec(source, namespace)  # noqa: S102 - built from the class's own field names only
    init, make = namespace["__init__"], namespace["make"]
    init.__qualname__ = f"{made.__qualname__}.__init__"
    make.__qualname__ = f"maker({made.__qualname__})"
    made.__init__ = init  # type: ignore[method-assign]
    draft().__class__ = made  # the layouts agree, or this raises TypeError at import
    _MAKERS[made] = make
    return made


_MAKERS: dict[type, Callable[..., Any]] = {}


def maker[T](cls: type[T]) -> Callable[..., T]:
    """A record class's maker for the engine's hot paths: called with the same keywords as the
    class, it gives the same frozen record (equal, same type, ``__init__``'s defaults).

    A class called with keywords gathers them in a dict for ``__init__`` (CPython 3.12 has no
    faster path for a class), and ``__init__`` must get past the frozen ``__setattr__`` through
    the slots' setters; a plain function takes keywords without a dict, and its draft takes
    plain assignments. mypy does not check the keywords here: the tests do, records compared.
    """
    return _MAKERS[cls]


@record
class PostAnte:
    """A player posted an ante (R2.9, R2.10: all-in if short)."""

    seat: int
    amount: int
    all_in: bool = False


@record
class PostBlind:
    """A player posted a blind (R2.1, R2.10: all-in if short)."""

    seat: int
    blind: Blind
    amount: int
    all_in: bool = False


@record
class DealHole:
    """A player's hole cards; None where they are unknown (a replay of a mucked hand)."""

    seat: int
    cards: tuple[Card, ...] | None


@record
class DealBoard:
    """The board cards of a street."""

    street: Street
    cards: tuple[Card, ...]


@record
class Fold:
    """A player folded."""

    seat: int
    cause: Cause = Cause.PLAYER


@record
class Check:
    """A player checked."""

    seat: int
    cause: Cause = Cause.PLAYER


@record
class Call:
    """A player called; ``amount`` is the chips he added."""

    seat: int
    amount: int
    all_in: bool = False


@record
class RaiseTo:
    """A player bet (nothing to call) or raised, to ``to`` in front of him this street."""

    seat: int
    to: int
    amount: int  # chips added by this move
    bet: bool = False  # True when there was nothing to call: a bet, not a raise
    all_in: bool = False


@record
class TimeOut:
    """R3.10: a player with chips in the pot timed out; he stays in, all-in protected."""

    seat: int


@record
class ReturnUncalled:
    """The uncalled part of a bet went back to the player."""

    seat: int
    amount: int


@record
class ShowHand:
    """A player's hand at the showdown, in showing order; ``value`` is the evaluator's."""

    seat: int
    cards: tuple[Card, ...] | None
    value: int


@record
class AwardPot:
    """A pot (0 = main pot) was pushed: ``shares`` pairs seat and chips (R4.1, R4.2)."""

    pot: int
    amount: int
    shares: tuple[tuple[int, int], ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won a share of this pot."""
        return tuple(seat for seat, _ in self.shares)


@record
class NextStreet:
    """The server dealt the next street of a staged all-in runout (``Rules.staged_runout``).

    A move, never one of a hand's ``records``: the street's cards are its ``DealBoard``, so a
    staged hand's records are those of the same hand run out at once.
    """

    street: Street


Record = (
    PostAnte
    | PostBlind
    | DealHole
    | DealBoard
    | Fold
    | Check
    | Call
    | RaiseTo
    | TimeOut
    | ReturnUncalled
    | ShowHand
    | AwardPot
)
Move = Fold | Check | Call | RaiseTo | TimeOut
MOVES = (Fold, Check, Call, RaiseTo, TimeOut)
