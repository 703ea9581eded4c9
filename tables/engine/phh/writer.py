"""Poker Hand History (PHH) writing: a hand's records as a PHH document."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from tables.engine.cards import cards_name
from tables.engine.holdem.hand import Hand
from tables.engine.phh.document import UNKNOWN, VARIANTS
from tables.engine.records import (
    Blind,
    Call,
    Cause,
    Check,
    DealBoard,
    DealHole,
    Fold,
    PostBlind,
    RaiseTo,
    ShowHand,
    TimeOut,
)
from tables.engine.rules import AnteMode, Betting

# Floorman's namespaced PHH extensions (docs/architecture.md, "Hand histories"): PHH has no
# big blind posted out of turn (R2.6), no disconnect-protection time-out (R3.10) and no dead
# small blind (R2.7: nobody posts it; p1, left of the button, posts the big blind; the
# ``blinds_or_straddles`` still give the stakes, small blind first).
POSTS_FIELD = "_floorman_posted_big_blinds"
TIME_OUT_ACTION = "_floorman_time_out"
DEAD_SMALL_BLIND_FIELD = "_floorman_dead_small_blind"


def dead_small_blind_lines(hand: Hand) -> list[str]:
    """R2.7: the extension's line for a hand dealt with a dead small blind, else none."""
    if hand.small_blind_seat is not None:
        return []
    if hand.big_blind_seat != (hand.button + 1) % hand.n:
        raise ValueError("PHH names the blinds by position: a dead small blind's big blind is p1")
    return [f"{DEAD_SMALL_BLIND_FIELD} = true"]


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
    posts = [
        record.seat
        for record in hand.records
        if isinstance(record, PostBlind)
        and record.blind is Blind.BIG
        and record.seat != hand.big_blind_seat
    ]
    if posts:
        lines.append(f"{POSTS_FIELD} = {[int(p(seat)[1:]) for seat in posts]}")
    lines += dead_small_blind_lines(hand)
    actions = [action_text(record, p) for record in hand.records]
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


def action_text(record: object, p: Callable[[int], str]) -> str | None:
    """A hold'em record as a PHH action (None for records PHH does not list)."""
    match record:
        case DealHole(seat=seat, cards=cards):
            return f"d dh {p(seat)} {UNKNOWN * 2 if cards is None else cards_name(cards)}"
        case DealBoard(cards=cards):
            return f"d db {cards_name(cards)}"
        case Fold(seat=seat, cause=cause):
            return f"{p(seat)} f" + cause_comment(cause)
        case Check(seat=seat, cause=cause):
            return f"{p(seat)} cc" + cause_comment(cause)
        case Call(seat=seat):
            return f"{p(seat)} cc"
        case RaiseTo(seat=seat, to=to):
            return f"{p(seat)} cbr {to}"
        case ShowHand(seat=seat, cards=cards):
            return f"{p(seat)} sm" if cards is None else f"{p(seat)} sm {cards_name(cards)}"
        case TimeOut(seat=seat):
            return f"{p(seat)} {TIME_OUT_ACTION}"  # R3.10: stays in, acts no more
    return None


def cause_comment(cause: Cause) -> str:
    """A server's move is the player's fold or check in PHH; a comment says why."""
    return "" if cause is Cause.PLAYER else f" # {cause.value}"
