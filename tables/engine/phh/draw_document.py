"""Draw Hold'em hand histories, the writing side: Floorman's PHH fields and actions for the
variant, a hand's records as a document, and a document's fields checked.

The extension itself is described in :mod:`tables.engine.phh.draw`, the public face.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from dataclasses import fields
from enum import StrEnum
from fractions import Fraction

from tables.engine.cards import DECK_SIZE, Card, cards_name
from tables.engine.dealing import plan_seats
from tables.engine.draw.hand import DrawHand
from tables.engine.draw.records import DrawRecord, Reshuffle, StandPat, Swap
from tables.engine.phh.document import (
    UNKNOWN,
    HandHistory,
    PHHError,
    UnsupportedVariant,
    to_chips,
)
from tables.engine.phh.writer import (
    POSTS_FIELD,
    action_text,
    cause_comment,
    dead_small_blind_lines,
)
from tables.engine.records import (
    Blind,
    DealBoard,
    DealHole,
    PostBlind,
)
from tables.engine.rules import AnteMode, Betting, Rules

VARIANT = "_floorman_DH"
BETTING_FIELD = "_floorman_betting"
SWAP_ACTION = "_floorman_swap"
STAND_PAT_ACTION = "_floorman_stand_pat"
RESHUFFLE_ACTION = "_floorman_reshuffle"
# The table's settings (Rules) PHH has no field for: ``_floorman_<name>``, when not the default.
_STANDARD = {"betting", "small_blind", "big_blind", "ante", "ante_mode", "small_bet", "big_bet"}
# The staged runout is the server's pace of showing a street, no rule of the hand's play.
_NOT_RULES = {"omaha", "staged_runout"}
_DEFAULTS = {f.name: f.default for f in fields(Rules) if f.name not in _STANDARD | _NOT_RULES}
SETTINGS = tuple(_DEFAULTS)


# -- writing -----------------------------------------------------------------------------------


def write_draw(hand: DrawHand, *, players: list[str] | None = None) -> str:
    """The PHH document of a Draw Hold'em hand (any state; a finished one gets its stacks)."""
    rules, n, button = hand.rules, hand.n, hand.button
    usual = plan_seats(players=n, button=button)
    dead = dead_small_blind_lines(hand)  # R2.7: p1 posts the big blind, nobody the small
    if not dead and (hand.small_blind_seat, hand.big_blind_seat) != (
        usual.small_blind,
        usual.big_blind,
    ):
        raise ValueError("PHH names the blinds by position: only the usual blind seats")
    if hand.deck_size != DECK_SIZE:
        raise ValueError("a history replays against a full deck: the stub's size decides R7.11")
    order = [(button + 1 + k) % n for k in range(n)]

    def p(seat: int) -> str:  # PHH numbers players from left of the button
        return f"p{order.index(seat) + 1}"

    antes = [0] * n
    if rules.ante_mode is AnteMode.EVERY_PLAYER:
        antes = [rules.ante] * n
    elif rules.ante_mode is AnteMode.BIG_BLIND:
        antes[1] = rules.ante
    lines = [
        f"variant = {_toml(VARIANT)}",
        f"{BETTING_FIELD} = {_toml(rules.betting.value)}",
        "ante_trimming_status = true",
        f"antes = {antes}",
        f"blinds_or_straddles = {[rules.small_blind, rules.big_blind] + [0] * (n - 2)}",
    ]
    if rules.betting is Betting.LIMIT:
        lines += [f"small_bet = {rules.limit_small_bet}", f"big_bet = {rules.limit_big_bet}"]
    else:
        lines.append(f"min_bet = {rules.big_blind}")
    for name in SETTINGS:
        value = getattr(rules, name)
        if value != _DEFAULTS[name]:
            lines.append(f"_floorman_{name} = {_toml_value(value)}")
    lines.append(f"starting_stacks = {[hand.starting_stacks[seat] for seat in order]}")
    posts = [
        int(p(r.seat)[1:])
        for r in hand.records
        if isinstance(r, PostBlind) and r.blind is Blind.BIG and r.seat != hand.big_blind_seat
    ]
    if posts:
        lines.append(f"{POSTS_FIELD} = {posts}")
    lines += dead
    lines.append("actions = [")
    lines += [f"  {_toml(action)}," for r in hand.records if (action := _action(r, p))]
    lines.append("]")
    if players is not None:
        lines.append(f"players = [{', '.join(_toml(players[seat]) for seat in order)}]")
    if hand.is_over:
        lines.append(f"finishing_stacks = {[hand.stacks[seat] for seat in order]}")
    return "\n".join(lines) + "\n"


def _toml(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return _toml(value) if isinstance(value, str) else str(value)


def _names(cards: tuple[Card, ...] | None, count: int) -> str:
    return UNKNOWN * count if cards is None else cards_name(cards)


def _action(item: DrawRecord, p: Callable[[int], str]) -> str | None:
    match item:
        case DealHole(seat=seat, cards=cards):
            return f"d dh {p(seat)} {_names(cards, 2)}"
        case DealBoard(cards=cards):
            return f"d db {cards_name(cards)}"
        case Swap(seat=seat, fee=fee, discarded=old, drawn=new):
            old_name = UNKNOWN if old is None else cards_name((old,))
            new_name = UNKNOWN if new is None else cards_name((new,))
            return f"{p(seat)} {SWAP_ACTION} {old_name} {new_name} {fee}"
        case StandPat(seat=seat, cause=cause):
            return f"{p(seat)} {STAND_PAT_ACTION}" + cause_comment(cause)
        case Reshuffle(count=count, cards=cards):
            return f"d {RESHUFFLE_ACTION} {_names(cards, count)}"
    return action_text(item, p)  # the hold'em moves, written as hold'em's writer does


# -- loading -----------------------------------------------------------------------------------


def load_draw(text: str) -> HandHistory:
    """The fields of a Draw Hold'em PHH document, checked (whole chips only)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"not valid TOML: {exc}") from exc
    if data.get("variant") != VARIANT:
        raise UnsupportedVariant(f"not a Draw Hold'em history: variant {data.get('variant')!r}")
    for name in ("antes", "blinds_or_straddles", "starting_stacks", "actions"):
        if not isinstance(data.get(name), list):
            raise PHHError(f"the field {name!r} is missing or not a list")
    count = len(data["starting_stacks"])
    if count < 2 or len(data["antes"]) != count or len(data["blinds_or_straddles"]) != count:
        raise PHHError("antes, blinds_or_straddles and starting_stacks need one entry a player")
    finishing = data.get("finishing_stacks")
    return HandHistory(
        variant=VARIANT,
        rules=_rules(data),
        starting_stacks=tuple(to_chips(value, 1) for value in data["starting_stacks"]),
        actions=tuple(str(action) for action in data["actions"]),
        finishing_stacks=None if finishing is None else tuple(Fraction(v) for v in finishing),
        players=tuple(data["players"]) if "players" in data else None,
        extra={k: v for k, v in data.items() if k.startswith("_floorman_")},
    )


def _rules(data: dict[str, object]) -> Rules:
    try:
        betting = Betting(str(data.get(BETTING_FIELD)))
    except ValueError:
        raise PHHError(f"{BETTING_FIELD} must be one of {[b.value for b in Betting]}") from None
    blinds = [to_chips(v, 1) for v in data["blinds_or_straddles"]]  # type: ignore[attr-defined]
    antes = [to_chips(v, 1) for v in data["antes"]]  # type: ignore[attr-defined]
    if any(blinds[2:]):
        raise UnsupportedVariant("straddles are not played (R2.12: no straddle)")
    ante, ante_mode = 0, AnteMode.NONE
    if any(antes):
        if len(set(antes)) == 1:
            ante, ante_mode = antes[0], AnteMode.EVERY_PLAYER
        elif not any(antes[:1] + antes[2:]):
            ante, ante_mode = antes[1], AnteMode.BIG_BLIND
        else:
            raise PHHError(f"antes {antes} are neither equal for all nor a big blind ante")
    settings: dict[str, object] = {}
    if betting is Betting.LIMIT:
        for name in ("small_bet", "big_bet"):
            if name not in data:
                raise PHHError(f"a limit history needs {name!r}")
            settings[name] = to_chips(data[name], 1)
    elif "min_bet" in data and to_chips(data["min_bet"], 1) != blinds[1]:
        raise PHHError(f"min_bet {data['min_bet']} is not the big blind (R3.5)")
    for name in SETTINGS:
        if f"_floorman_{name}" in data:
            value, default = data[f"_floorman_{name}"], _DEFAULTS[name]
            if isinstance(default, StrEnum):
                try:
                    value = type(default)(str(value))
                except ValueError:
                    raise PHHError(f"_floorman_{name} = {value!r} is not a setting") from None
            elif type(value) is not type(default):
                raise PHHError(f"_floorman_{name} = {value!r} is not a {type(default).__name__}")
            settings[name] = value
    try:
        return Rules(
            betting=betting,
            small_blind=blinds[0],
            big_blind=blinds[1],
            ante=ante,
            ante_mode=ante_mode,
            **settings,  # type: ignore[arg-type]
        )
    except (TypeError, ValueError) as exc:
        raise PHHError(f"the rules cannot be set: {exc}") from exc
