"""Poker Hand History (PHH) replay: a strict reader that plays every action through the engine.

The reader never repairs a history: each action goes through the engine's public moves, and
the first action the engine refuses (or a history that stops before the hand is over) raises
:class:`IllegalHistory` naming the action's index and the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine.betting import IllegalAction
from tables.engine.cards import Card, cards_name, parse_cards
from tables.engine.holdem.hand import Hand
from tables.engine.phh.document import (
    UNKNOWN,
    HandHistory,
    IllegalHistory,
    PHHError,
    load,
    to_chips,
)
from tables.engine.phh.writer import DEAD_SMALL_BLIND_FIELD, POSTS_FIELD, TIME_OUT_ACTION
from tables.engine.records import Call, Check, Fold, RaiseTo
from tables.engine.rules import Betting


@dataclass
class _Cards:
    """The cards a history names: hole cards by player (None if unknown) and the board."""

    holes: list[tuple[Card, ...] | None]
    board: list[Card]


def _tokens(action: str) -> list[str]:
    return action.split("#", 1)[0].split()


def _player(token: str, count: int, index: int, action: str) -> int:
    if len(token) < 2 or token[0] != "p" or not (token[1:].isascii() and token[1:].isdigit()):
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
            posts=_posts(history),
            dead_small_blind=dead_small_blind(history),
        )
    except ValueError as exc:
        raise IllegalHistory(None, None, f"the hand cannot start: {exc}") from exc


def dead_small_blind(history: HandHistory) -> bool:
    """R2.7: whether the hand was dealt with a dead small blind (Floorman's PHH extension)."""
    dead = history.extra.get(DEAD_SMALL_BLIND_FIELD, False)
    if not isinstance(dead, bool):
        raise PHHError(f"{DEAD_SMALL_BLIND_FIELD} must be true or false")
    return dead


def _posts(history: HandHistory) -> list[int]:
    """R2.6: the positions that posted a big blind out of turn (Floorman's PHH extension)."""
    listed = history.extra.get(POSTS_FIELD, [])
    if not isinstance(listed, list) or not all(
        isinstance(number, int) and 1 <= number <= history.player_count for number in listed
    ):
        raise PHHError(f"{POSTS_FIELD} must list player numbers 1..{history.player_count}")
    return [number - 1 for number in listed]


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
            hand.raise_to(to_chips(_number(tokens[2], index, action), history.scale), seat=seat)
        elif verb == TIME_OUT_ACTION and len(tokens) == 2:
            hand.time_out(seat=seat)  # R3.10, Floorman's PHH extension
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
