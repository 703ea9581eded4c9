"""Poker Hand History (PHH) files: a strict reader that replays every action, and a writer.

The reader never repairs a history: each action goes through the engine's public moves, and
the first action the engine refuses (or a history that stops before the hand is over) raises
:class:`IllegalHistory` naming the action's index and the reason.
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from pathlib import Path

from tables.engine.betting import IllegalAction
from tables.engine.cards import Card, cards_name, parse_cards
from tables.engine.hand import Hand
from tables.engine.records import (
    Call,
    Check,
    DealBoard,
    DealHole,
    Fold,
    RaiseTo,
    ShowHand,
    TimeOut,
)
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
        starting_stacks=tuple(_chips(value, scale) for value in data["starting_stacks"]),
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


def _chips(value: object, scale: int) -> int:
    amount = _fraction(value) * scale
    if amount.denominator != 1:
        raise PHHError(f"{value!r} is not a whole number of chips")
    return int(amount)


def _rules(data: dict[str, object], *, betting: Betting, omaha: bool, scale: int) -> Rules:
    blinds = [_chips(v, scale) for v in data["blinds_or_straddles"]]  # type: ignore[attr-defined]
    antes = [_chips(v, scale) for v in data["antes"]]  # type: ignore[attr-defined]
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
        small_bet, big_bet = _chips(data["small_bet"], scale), _chips(data["big_bet"], scale)
    elif "min_bet" in data and _chips(data["min_bet"], scale) != big_blind:
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


@dataclass
class _Cards:
    """The cards a history names: hole cards by player (None if unknown) and the board."""

    holes: list[tuple[Card, ...] | None]
    board: list[Card]


def _tokens(action: str) -> list[str]:
    return action.split("#", 1)[0].split()


def _player(token: str, count: int, index: int, action: str) -> int:
    if len(token) < 2 or token[0] != "p" or not token[1:].isdigit():
        raise IllegalHistory(index, action, f"{token!r} names no player")
    number = int(token[1:])
    if not 1 <= number <= count:
        raise IllegalHistory(index, action, f"there is no player p{number}")
    return number - 1


def _known(text: str, index: int, action: str) -> tuple[Card, ...] | None:
    if UNKNOWN[0] in text:
        return None
    try:
        return tuple(parse_cards(text))
    except ValueError as exc:
        raise IllegalHistory(index, action, str(exc)) from exc


def _collect_cards(history: HandHistory) -> _Cards:
    """First pass: every card the history names, so a deck can be stacked for the replay."""
    count = history.player_count
    cards = _Cards(holes=[None] * count, board=[])
    for index, action in enumerate(history.actions):
        tokens = _tokens(action)
        if tokens[:2] == ["d", "dh"] and len(tokens) == 4:
            seat = _player(tokens[2], count, index, action)
            cards.holes[seat] = _known(tokens[3], index, action)
        elif tokens[:2] == ["d", "db"] and len(tokens) == 3:
            board = _known(tokens[2], index, action)
            if board is None:
                raise IllegalHistory(index, action, "board cards must be known")
            cards.board.extend(board)
        elif len(tokens) == 3 and tokens[1] == "sm":
            seat = _player(tokens[0], count, index, action)
            if cards.holes[seat] is None:
                cards.holes[seat] = _known(tokens[2], index, action)
    named = [c for hole in cards.holes if hole for c in hole] + cards.board
    if len(set(named)) != len(named):
        raise PHHError("a card is dealt twice")
    return cards


def _start(history: HandHistory, cards: _Cards, mucked: set[int]) -> Hand:
    # R1.8: a hand mucked at the showdown is replayed as unknown, so it wins nothing.
    holes = [None if seat in mucked else hole for seat, hole in enumerate(cards.holes)]
    try:
        return Hand.start(
            rules=history.rules,
            stacks=history.starting_stacks,
            button=history.player_count - 1,  # PHH lists players from left of the button
            hole_cards=holes,
            board=cards.board,
        )
    except ValueError as exc:
        raise IllegalHistory(None, None, f"the hand cannot start: {exc}") from exc


def _mucked(history: HandHistory) -> set[int]:
    count = history.player_count
    return {
        _player(tokens[0], count, index, action)
        for index, action in enumerate(history.actions)
        if len(tokens := _tokens(action)) == 2 and tokens[1] == "sm"
    }


def replay(history: HandHistory) -> Hand:
    """Play the history through the engine's moves; IllegalHistory at the first bad action."""
    cards = _collect_cards(history)
    hand = _start(history, cards, _mucked(history))
    board_seen = 0
    for index, action in enumerate(history.actions):
        tokens = _tokens(action)
        if not tokens:
            raise IllegalHistory(index, action, "an empty action")
        if tokens[0] == "d":
            board_seen = _deal(hand, history, tokens, index, action, board_seen)
        else:
            _move(hand, history, tokens, index, action, board_seen)
    if not hand.is_over:
        actor = "nobody" if hand.actor is None else f"p{hand.actor + 1}"
        raise IllegalHistory(None, None, f"it stops before the hand is over ({actor} to act)")
    if board_seen < len(hand.board) and _contested(hand):
        raise IllegalHistory(None, None, "it stops before the board is dealt out")
    return hand


def _contested(hand: Hand) -> bool:
    return sum(not folded for folded in hand.folded) > 1


def _deal(
    hand: Hand, history: HandHistory, tokens: list[str], index: int, action: str, seen: int
) -> int:
    if tokens[1] == "dh" and len(tokens) == 4:
        seat = _player(tokens[2], history.player_count, index, action)
        if len(tokens[3]) != 2 * history.rules.hole_card_count:
            raise IllegalHistory(
                index, action, f"p{seat + 1} needs {history.rules.hole_card_count} cards"
            )
        if any(isinstance(r, Fold | Check | Call | RaiseTo) for r in hand.records):
            raise IllegalHistory(index, action, "hole cards are dealt after the betting began")
        return seen
    if tokens[1] == "db" and len(tokens) == 3:
        seen += len(tokens[2]) // 2
        if len(hand.board) < seen:
            turn = "" if hand.actor is None else f": p{hand.actor + 1} is still to act"
            raise IllegalHistory(
                index, action, f"the board is dealt before the round is over{turn}"
            )
        return seen
    raise IllegalHistory(index, action, "an unknown dealing action (draw games are not played)")


def _move(
    hand: Hand, history: HandHistory, tokens: list[str], index: int, action: str, seen: int
) -> None:
    seat = _player(tokens[0], history.player_count, index, action)
    verb = tokens[1] if len(tokens) > 1 else ""
    if verb == "sm":
        _show(hand, seat, tokens, index, action)
        return
    if len(hand.board) > seen:
        raise IllegalHistory(
            index, action, f"p{seat + 1} acts before the board {_board(hand, seen)} is dealt"
        )
    if hand.actor != seat:
        turn = "the betting is over" if hand.actor is None else f"it is p{hand.actor + 1}'s turn"
        raise IllegalHistory(index, action, f"{turn}, not p{seat + 1}'s")
    try:
        if verb == "f" and len(tokens) == 2:
            hand.fold(seat=seat)
        elif verb == "cc" and len(tokens) == 2:
            if hand.can_check(seat=seat):
                hand.check(seat=seat)
            else:
                hand.call(seat=seat)
        elif verb == "cbr" and len(tokens) == 3:
            hand.raise_to(_chips(_number(tokens[2], index, action), history.scale), seat=seat)
        else:
            raise IllegalHistory(index, action, f"{verb!r} is not a hold'em action")
    except IllegalAction as exc:
        raise IllegalHistory(index, action, str(exc) + _rule(hand, verb)) from exc


def _rule(hand: Hand, verb: str) -> str:
    """The rule behind a refused bet or raise, for the error message."""
    if verb != "cbr" or not hand.can_raise():
        return ""
    if hand.rules.betting is Betting.LIMIT:
        return " (R3.4: a limit bet or raise is one fixed bet; less only all-in, TDA)"
    if hand.rules.betting is Betting.POT_LIMIT:
        return " (R3.5, R3.6: at least a full raise, at most the pot; less only all-in, TDA)"
    return " (R3.5: a raise is at least the previous bet or raise; less only all-in, TDA)"
    return " (R3.5: a raise is at least the previous bet or raise; less only all-in, TDA)"


def _board(hand: Hand, seen: int) -> str:
    return cards_name(hand.board[seen:])


def _number(text: str, index: int, action: str) -> float | int:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            raise IllegalHistory(index, action, f"{text!r} is not an amount") from None


def _show(hand: Hand, seat: int, tokens: list[str], index: int, action: str) -> None:
    if hand.actor is not None:
        raise IllegalHistory(index, action, f"a showdown while p{hand.actor + 1} is to act")
    if hand.folded[seat]:
        raise IllegalHistory(index, action, f"p{seat + 1} folded and has nothing to show")
    if len(tokens) == 3:
        shown = _known(tokens[2], index, action)
        dealt = hand.hole_cards[seat]
        if shown is not None and dealt is not None and sorted(shown) != sorted(dealt):
            raise IllegalHistory(index, action, f"p{seat + 1} was dealt {cards_name(dealt)}")


def read(text: str) -> Hand:
    """The hand a PHH document records, replayed strictly."""
    return replay(load(text))


# -- writing ---------------------------------------------------------------------------------


def write(hand: Hand, *, players: Sequence[str] | None = None) -> str:
    """The PHH document of a hand (any state; a finished hand gets its finishing stacks)."""
    rules, n, button = hand.rules, hand.n, hand.button
    variant = next(code for code, game in VARIANTS.items() if game == (rules.betting, rules.omaha))

    def p(seat: int) -> str:  # PHH numbers players from left of the button
        return f"p{(seat - button - 1) % n + 1}"

    antes = [0] * n
    if rules.ante_mode is AnteMode.EVERY_PLAYER:
        antes = [rules.ante] * n
    elif rules.ante_mode is AnteMode.BIG_BLIND:
        antes[1] = rules.ante
    lines = [
        f"variant = {_toml(variant)}",
        "ante_trimming_status = true",
        f"antes = {antes}",
        f"blinds_or_straddles = {[rules.small_blind, rules.big_blind] + [0] * (n - 2)}",
    ]
    if rules.betting is Betting.LIMIT:
        lines.append(f"small_bet = {rules.limit_small_bet}")
        lines.append(f"big_bet = {rules.limit_big_bet}")
    else:
        lines.append(f"min_bet = {rules.big_blind}")
    order = [(button + 1 + k) % n for k in range(n)]
    lines.append(f"starting_stacks = {[hand.starting_stacks[seat] for seat in order]}")
    actions = [_action(record, p) for record in hand.records]
    lines.append("actions = [")
    lines.extend(f"  {_toml(action)}," for action in actions if action)
    lines.append("]")
    if players is not None:
        lines.append(f"players = [{', '.join(_toml(players[seat]) for seat in order)}]")
    if hand.is_over:
        lines.append(f"finishing_stacks = {[hand.stacks[seat] for seat in order]}")
    return "\n".join(lines) + "\n"


def _toml(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _action(record: object, p: Callable[[int], str]) -> str | None:
    match record:
        case DealHole(seat=seat, cards=cards):
            return f"d dh {p(seat)} {UNKNOWN * 2 if cards is None else cards_name(cards)}"
        case DealBoard(cards=cards):
            return f"d db {cards_name(cards)}"
        case Fold(seat=seat):
            return f"{p(seat)} f"
        case Check(seat=seat) | Call(seat=seat):
            return f"{p(seat)} cc"
        case RaiseTo(seat=seat, to=to):
            return f"{p(seat)} cbr {to}"
        case ShowHand(seat=seat, cards=cards):
            return f"{p(seat)} sm" if cards is None else f"{p(seat)} sm {cards_name(cards)}"
        case TimeOut():
            raise PHHError("R3.10 time-outs have no PHH action")
    return None


# -- command line ----------------------------------------------------------------------------


def check_file(path: Path) -> dict[str, object]:
    """Replay one file: computed vs recorded finishing stacks, or the error."""
    try:
        history = load(path.read_text(encoding="utf-8"))
        hand = replay(history)
    except (OSError, PHHError) as exc:
        return {"file": str(path), "error": str(exc)}
    computed = [_number_out(Fraction(stack, history.scale)) for stack in hand.stacks]
    recorded = history.finishing_stacks
    result: dict[str, object] = {"file": str(path), "computed": computed, "recorded": None}
    if recorded is None:
        result["match"] = True
        return result
    result["recorded"] = [_number_out(value) for value in recorded]
    result["match"] = stacks_match(
        [Fraction(stack, history.scale) for stack in hand.stacks], list(recorded)
    )
    return result


def stacks_match(computed: Sequence[Fraction], recorded: Sequence[Fraction]) -> bool:
    """Equal stacks; within one chip where the history records a half chip (an odd chip
    of a split pot left unawarded, as some Pluribus files do)."""
    if len(computed) != len(recorded):
        return False
    tolerance = 1 if any(value.denominator != 1 for value in recorded) else 0
    return all(abs(a - b) <= tolerance for a, b in zip(computed, recorded, strict=True))


def _number_out(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tables.engine.phh FILE...``: one JSON line per file; 1 if any fails."""
    paths = list(sys.argv[1:] if argv is None else argv)
    if not paths:
        print("usage: python -m tables.engine.phh FILE...", file=sys.stderr)
        return 2
    failed = False
    for name in paths:
        result = check_file(Path(name))
        failed = failed or "error" in result or not result.get("match")
        print(json.dumps(result))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
