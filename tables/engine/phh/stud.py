"""Poker Hand History (PHH) files of seven-card stud ("F7S"): a strict reader and a writer.

The PHH standard deals a stud street as ``d dh p1 ????7c`` (third street: two down cards, then
the up card; ``??`` is a card not shown), ``d dh p1 9c`` on fourth to seventh street (up, then
down on seventh), and the bring-in as ``p3 pb``. Players are numbered in dealing order: ``p1``
is position 0. As in :mod:`tables.engine.phh.check`, the reader never repairs a history: every
action goes through :class:`tables.engine.stud.hand.StudHand`'s public moves, and the first one the
engine refuses raises :class:`IllegalHistory`.

Floorman's namespaced extensions (PokerKit cannot express them): ``d db 7c`` deals R7.2's
common card; ``p1 _floorman_time_out`` is R3.10's protected time-out; ``# absent`` and
``# clock`` after a fold, check or bring-in mark the server's moves (R2.9, R3.10);
``_floorman_cap`` and ``_floorman_odd_chip`` give settings other than the defaults.
``# reshuffle: ...`` on the first card dealt after R7.2's reshuffle says where the dealer mixed
the deck's last card with the burns (a comment: the counts of cards decide the deal, so a reader
needs nothing more, and other PHH tools read the file).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

from tables.engine.betting import IllegalAction
from tables.engine.cards import Card, cards_name, parse_cards
from tables.engine.phh.document import (
    UNKNOWN,
    IllegalHistory,
    PHHError,
    UnsupportedVariant,
    to_chips,
)
from tables.engine.phh.writer import TIME_OUT_ACTION, cause_comment
from tables.engine.records import Call, Cause, Check, Fold, RaiseTo, ShowHand, TimeOut
from tables.engine.rules import OddChip
from tables.engine.stud.cards import StudDeal
from tables.engine.stud.hand import StudHand
from tables.engine.stud.rules import (
    BringIn,
    DealCommon,
    DealStud,
    StudReshuffle,
    StudRules,
    StudStreet,
)

VARIANT = "F7S"
CAP_FIELD = "_floorman_cap"
ODD_CHIP_FIELD = "_floorman_odd_chip"
_UP_POSITIONS = frozenset(range(2, 6))  # in dealing order: down, down, up x4, down
_SERVER_CAUSES = {cause.value: cause for cause in (Cause.ABSENT, Cause.CLOCK)}


@dataclass(frozen=True, kw_only=True)
class StudHistory:
    """The fields of one F7S file, amounts in whole chips (multiplied by ``scale``)."""

    rules: StudRules
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    finishing_stacks: tuple[Fraction, ...] | None = None
    scale: int = 1
    players: tuple[str, ...] | None = None


# -- reading ---------------------------------------------------------------------------------


def load_stud(text: str) -> StudHistory:
    """The fields of a seven-card stud PHH document, checked."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"not valid TOML: {exc}") from exc
    if data.get("variant") != VARIANT:
        raise UnsupportedVariant(f"{data.get('variant')!r} is not seven-card stud ({VARIANT})")
    for name in ("antes", "starting_stacks", "actions"):
        if not isinstance(data.get(name), list):
            raise PHHError(f"the field {name!r} is missing or not a list")
    for name in ("bring_in", "small_bet", "big_bet"):
        if name not in data:
            raise PHHError(f"a stud history needs {name!r}")
    amounts = [*data["antes"], *data["starting_stacks"]]
    amounts += [data[name] for name in ("bring_in", "small_bet", "big_bet")]
    scale = lcm(*(_fraction(value).denominator for value in amounts))
    antes = {to_chips(value, scale) for value in data["antes"]}
    if len(antes) != 1 or len(data["antes"]) != len(data["starting_stacks"]):
        raise PHHError("a stud history gives every player the same ante")
    finishing = data.get("finishing_stacks")
    try:
        rules = StudRules(
            ante=antes.pop(),
            bring_in=to_chips(data["bring_in"], scale),
            small_bet=to_chips(data["small_bet"], scale),
            big_bet=to_chips(data["big_bet"], scale),
            cap=int(data.get(CAP_FIELD, 4)),
            odd_chip=OddChip(data.get(ODD_CHIP_FIELD, OddChip.HIGHEST_CARD)),
        )
    except ValueError as exc:
        raise PHHError(f"the rules cannot be set: {exc}") from exc
    return StudHistory(
        rules=rules,
        starting_stacks=tuple(to_chips(value, scale) for value in data["starting_stacks"]),
        actions=tuple(str(action) for action in data["actions"]),
        finishing_stacks=None if finishing is None else tuple(map(_fraction, finishing)),
        scale=scale,
        players=tuple(data["players"]) if "players" in data else None,
    )


def _fraction(value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PHHError(f"{value!r} is not an amount of chips")
    if value < 0:
        raise PHHError(f"{value!r} is a negative amount of chips")
    return Fraction(value)


def read_stud(text: str) -> StudHand:
    """The stud hand a PHH document records, replayed strictly."""
    return replay_stud(load_stud(text))


def replay_stud(history: StudHistory) -> StudHand:
    """Play the history through the engine's moves; IllegalHistory at the first bad action."""
    count = len(history.starting_stacks)
    try:
        hand = StudHand.from_deal(
            rules=history.rules,
            stacks=history.starting_stacks,
            deal=StudDeal.from_records(_deal_records(history)),
        )
    except ValueError as exc:
        raise IllegalHistory(None, None, f"the hand cannot start: {exc}") from exc
    seen = 0  # deal actions read so far; the engine must have dealt as many
    for index, action in enumerate(history.actions):
        tokens = _tokens(action)
        if not tokens:
            raise IllegalHistory(index, action, "an empty action")
        if tokens[0] == "d":
            seen = _check_deal(hand, tokens, seen, index, action, count)
        else:
            _move(hand, history, action, seen, index)
    if not hand.is_over:
        actor = "nobody" if hand.actor is None else f"p{hand.actor + 1}"
        raise IllegalHistory(None, None, f"it stops before the hand is over ({actor} to act)")
    if seen < len(_deals(hand)) and sum(not folded for folded in hand.folded) > 1:
        raise IllegalHistory(None, None, "it stops before the cards are dealt out")
    return hand


def _tokens(action: str) -> list[str]:
    return action.split("#", 1)[0].split()


def _comment(action: str) -> str:
    return action.split("#", 1)[1].strip() if "#" in action else ""


def _player(token: str, count: int, index: int, action: str) -> int:
    if len(token) < 2 or token[0] != "p" or not (token[1:].isascii() and token[1:].isdigit()):
        raise IllegalHistory(index, action, f"{token!r} names no player")
    if not 1 <= int(token[1:]) <= count:
        raise IllegalHistory(index, action, f"there is no player {token}")
    return int(token[1:]) - 1


def _cards(text: str, index: int, action: str) -> list[Card | None]:
    if len(text) % 2:
        raise IllegalHistory(index, action, f"{text!r} is not a list of cards")
    try:
        return [
            None if text[k : k + 2] == UNKNOWN else parse_cards(text[k : k + 2])[0]
            for k in range(0, len(text), 2)
        ]
    except ValueError as exc:
        raise IllegalHistory(index, action, str(exc)) from exc


def _deal_records(history: StudHistory) -> list[DealStud | DealCommon]:
    """First pass: the cards each deal action names, by player and street, as deal records;
    cards shown at the showdown fill in down cards dealt unseen, a muck makes them unknown."""
    count = len(history.starting_stacks)
    dealt: list[list[list[Card | None]]] = [[] for _ in range(count)]
    shown: dict[int, list[Card | None] | None] = {}
    common: list[DealCommon] = []
    for index, action in enumerate(history.actions):
        tokens = _tokens(action)
        if tokens[:2] == ["d", "dh"] and len(tokens) == 4:
            dealt[_player(tokens[2], count, index, action)].append(_cards(tokens[3], index, action))
        elif tokens[:2] == ["d", "db"] and len(tokens) == 3:
            card = _cards(tokens[2], index, action)
            if len(card) != 1 or card[0] is None:
                raise IllegalHistory(index, action, "the common card is one known card (R7.2)")
            common.append(DealCommon(card=card[0]))
        elif len(tokens) in (2, 3) and tokens[1] == "sm":
            seat = _player(tokens[0], count, index, action)
            shown[seat] = _cards(tokens[2], index, action) if len(tokens) == 3 else None
    records: list[DealStud | DealCommon] = []
    for seat, streets in enumerate(dealt):
        cards = [card for street in streets for card in street]
        if seat in shown:
            cards = _with_shown(cards, shown[seat])
        records.extend(_street_records(seat, streets, cards))
    return records + common


def _with_shown(cards: list[Card | None], shown: list[Card | None] | None) -> list[Card | None]:
    """R1.8: a mucked hand is unknown; a shown one names every card in dealing order."""
    if shown is None:  # the up cards were seen all the same
        return [card if k in _UP_POSITIONS else None for k, card in enumerate(cards)]
    if len(shown) != len(cards) or any(
        a is not None and a != b for a, b in zip(cards, shown, strict=True)
    ):
        raise PHHError(f"{cards_name(c for c in shown if c is not None)} is not the hand dealt")
    return shown


def _street_records(
    seat: int, streets: list[list[Card | None]], cards: list[Card | None]
) -> list[DealStud]:
    records, start = [], 0
    for number, street_cards in enumerate(streets):
        size = len(street_cards)
        if number > 4 or size != (3 if number == 0 else 1):
            raise PHHError(f"p{seat + 1} is dealt {size} cards on street {number + 3}")
        street = StudStreet(StudStreet.THIRD + number)
        mine = cards[start : start + size]
        start += size
        if street is StudStreet.THIRD:
            downs, ups = mine[:2], mine[2:]
        elif street is StudStreet.SEVENTH:
            downs, ups = mine, []
        else:
            downs, ups = [], mine
        up = tuple(card for card in ups if card is not None)
        if len(up) != len(ups):
            raise PHHError(f"p{seat + 1}'s up card on {street.name} street must be shown")
        down = tuple(card for card in downs if card is not None)
        known = down if len(down) == len(downs) else None
        records.append(DealStud(seat=seat, street=street, down=known, up=up))
    return records


def _deals(hand: StudHand) -> list[DealStud | DealCommon]:
    return [item for item in hand.records if isinstance(item, DealStud | DealCommon)]


def _check_deal(
    hand: StudHand, tokens: list[str], seen: int, index: int, action: str, count: int
) -> int:
    """A deal action must name what the engine dealt at that point, in its order."""
    deals = _deals(hand)
    if seen >= len(deals):
        turn = "" if hand.actor is None else f": p{hand.actor + 1} is still to act"
        raise IllegalHistory(index, action, f"cards are dealt before the round is over{turn}")
    expected = deals[seen]
    if tokens[1] == "dh" and len(tokens) == 4 and isinstance(expected, DealStud):
        if _player(tokens[2], count, index, action) == expected.seat:
            return seen + 1
    elif tokens[1] == "db" and len(tokens) == 3 and isinstance(expected, DealCommon):
        return seen + 1
    raise IllegalHistory(index, action, f"the deal here is {_deal_action(expected, False)!r}")


def _move(hand: StudHand, history: StudHistory, action: str, seen: int, index: int) -> None:
    tokens = _tokens(action)
    seat = _player(tokens[0], len(history.starting_stacks), index, action)
    verb = tokens[1] if len(tokens) > 1 else ""
    if verb == "sm":
        if hand.actor is not None or hand.folded[seat]:
            raise IllegalHistory(index, action, f"p{seat + 1} cannot show now")
        return
    if len(_deals(hand)) > seen:
        raise IllegalHistory(index, action, f"p{seat + 1} acts before the street is dealt")
    if hand.actor != seat:
        turn = "the betting is over" if hand.actor is None else f"it is p{hand.actor + 1}'s turn"
        raise IllegalHistory(index, action, f"{turn}, not p{seat + 1}'s")
    try:
        made = _make(hand, verb, tokens, history.scale, _comment(action))
    except IllegalAction as exc:
        raise IllegalHistory(index, action, str(exc)) from exc
    if made is None:
        raise IllegalHistory(index, action, f"{verb!r} is not a stud action")


def _make(hand: StudHand, verb: str, tokens: list[str], scale: int, comment: str) -> object:
    cause = _SERVER_CAUSES.get(comment)
    if cause is not None and len(tokens) == 2 and verb in ("f", "cc", "pb"):
        made = hand.absent() if cause is Cause.ABSENT else hand.out_of_time()
        wanted = {"f": Fold, "cc": Check, "pb": BringIn}[verb]
        if not isinstance(made, wanted):
            raise IllegalAction(f"the server's move was {type(made).__name__}, not {verb!r}")
        return made
    if len(tokens) == 2:
        if verb == "pb":
            return hand.bring_in()
        if verb == "f":
            return hand.fold()
        if verb == "cc":
            return hand.check() if hand.can_check() else hand.call()
        if verb == TIME_OUT_ACTION:
            return hand.time_out()  # R3.10, Floorman's extension
    if verb == "cbr" and len(tokens) == 3:
        return hand.raise_to(to_chips(_number(tokens[2]), scale))
    return None


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            raise IllegalAction(f"{text!r} is not an amount") from None


# -- writing ---------------------------------------------------------------------------------


def write_stud(
    hand: StudHand, *, players: Sequence[str] | None = None, public: bool = False
) -> str:
    """The PHH document of a stud hand (any state; a finished hand gets its finishing stacks).

    ``public=True`` writes every down card as ``??`` except in hands shown at the showdown,
    so the file can be given to the players (folded and mucked hands stay hidden).
    """
    rules, n = hand.rules, hand.n
    shown = {item.seat for item in hand.records if isinstance(item, ShowHand) and item.cards}
    lines = [
        f"variant = {_toml(VARIANT)}",
        "ante_trimming_status = true",
        f"antes = {[rules.ante] * n}",
        f"bring_in = {rules.bring_in}",
        f"small_bet = {rules.small_bet}",
        f"big_bet = {rules.big_bet}",
        f"starting_stacks = {list(hand.starting_stacks)}",
    ]
    if rules.cap != 4:
        lines.append(f"{CAP_FIELD} = {rules.cap}")
    if rules.odd_chip is not OddChip.HIGHEST_CARD:
        lines.append(f"{ODD_CHIP_FIELD} = {_toml(rules.odd_chip.value)}")
    lines.append("actions = [")
    mix = ""
    for item in hand.records:
        if isinstance(item, StudReshuffle):  # R7.2: said on the first card dealt after it
            burned = ", one burned" if item.burn else ""
            mix = f" # reshuffle: the last card and {item.mixed - 1} burns{burned}"
            continue
        hide = public and getattr(item, "seat", None) not in shown
        text = _action(item, hide)
        if text:
            lines.append(f"  {_toml(text + mix)},")
            mix = ""
    lines.append("]")
    if players is not None:
        lines.append(f"players = [{', '.join(_toml(name) for name in players)}]")
    if hand.is_over:
        lines.append(f"finishing_stacks = {list(hand.stacks)}")
    return "\n".join(lines) + "\n"


def _toml(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _deal_action(item: DealStud | DealCommon, hide: bool) -> str:
    if isinstance(item, DealCommon):
        return f"d db {cards_name((item.card,))}"
    down = item.down
    if down is None or hide:
        hidden = UNKNOWN * (2 if item.street is StudStreet.THIRD else 1 if not item.up else 0)
        return f"d dh p{item.seat + 1} {hidden}{cards_name(item.up)}"
    return f"d dh p{item.seat + 1} {cards_name(down)}{cards_name(item.up)}"


def _action(item: Any, hide: bool) -> str | None:
    match item:
        case DealStud() | DealCommon():
            return _deal_action(item, hide)
        case BringIn(seat=seat, cause=cause):
            if cause is Cause.TIME_OUT:
                return f"p{seat + 1} {TIME_OUT_ACTION}"  # posts the bring-in, then protected
            return f"p{seat + 1} pb" + cause_comment(cause)
        case Fold(seat=seat, cause=cause):
            if cause is Cause.TIME_OUT:
                return f"p{seat + 1} {TIME_OUT_ACTION}"  # no chips in: the time-out folds
            return f"p{seat + 1} f" + cause_comment(cause)
        case Check(seat=seat, cause=cause):
            return f"p{seat + 1} cc" + cause_comment(cause)
        case Call(seat=seat):
            return f"p{seat + 1} cc"
        case RaiseTo(seat=seat, to=to):
            return f"p{seat + 1} cbr {to}"
        case TimeOut(seat=seat):
            return f"p{seat + 1} {TIME_OUT_ACTION}"  # R3.10: stays in, acts no more
        case ShowHand(seat=seat, cards=cards):
            return f"p{seat + 1} sm" + ("" if cards is None else f" {cards_name(cards)}")
    return None
