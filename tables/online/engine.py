"""The engine behind an online table: a hand's rules as stored (R2.11), its moves as JSON, and
the engine's hand (hold'em and Omaha, seven-card stud) rebuilt from the rows by replaying them
(no process keeps a table)."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from tables.engine import (
    AnteMode,
    Betting,
    Call,
    Cause,
    Check,
    Fold,
    Hand,
    Move,
    NextStreet,
    RaiseTo,
    Rules,
    Street,
    TimeOut,
    limit_small_blind,
    reshuffle_order,
)
from tables.engine.draw import DrawHand, Reshuffle, StandPat, Swap
from tables.engine.stud import BringIn, StudHand, StudRules
from tables.online.models import Game, OnlineTable, TableHand, open_move

# The engines an online table drives; they share the public shape of ``Hand``.
PlayHand = Hand | StudHand | DrawHand
PlayMove = Move | BringIn | Swap | StandPat | Reshuffle | NextStreet
STUD_MAX_PLAYERS = 8  # R7.2

BETTING = {
    Game.NO_LIMIT_HOLDEM: Betting.NO_LIMIT,
    Game.POT_LIMIT_HOLDEM: Betting.POT_LIMIT,
    Game.LIMIT_HOLDEM: Betting.LIMIT,
    Game.POT_LIMIT_OMAHA: Betting.POT_LIMIT,
    Game.DRAW_HOLDEM: Betting.NO_LIMIT,
}


def table_rules(
    table: OnlineTable, *, small_blind: int, big_blind: int, ante: int = 0
) -> dict[str, Any]:
    """A hand's rules as stored on its row: fixed when the blinds are posted (R2.11)."""
    game = Game(table.game)
    if game is Game.LIMIT_HOLDEM:
        small_blind = limit_small_blind(big_blind)  # R2.4: half the small bet, rounded down
    return {
        "game": game.value,
        "small_blind": small_blind,
        "big_blind": big_blind,
        "ante": ante,
        "small_blind_counts_as_big": table.small_blind_counts_as_big,  # R3.6
        "any_all_in_reopens": table.any_all_in_reopens,  # R3.7
        "smallest_chip": table.smallest_chip,  # R7.1
        # An all-in's board a street at a time (Rules.staged_runout; tables.online.play).
        "staged_runout": not is_stud(game) and float(settings.FLOORMAN_RUNOUT_PACE) > 0,
    }


def is_stud(game: str) -> bool:
    """Whether a game is dealt without a board or blinds (R7.2)."""
    return game == Game.SEVEN_CARD_STUD


def stud_rules_of(stored: dict[str, Any]) -> StudRules:
    """R7.2: a stud hand's rules: the table's ante, bring-in (its small blind), small bet (its
    big blind) and big bet (twice the small bet)."""
    small_bet = int(stored["big_blind"])
    return StudRules(
        bring_in=min(int(stored["small_blind"]) or 1, small_bet),
        small_bet=small_bet,
        big_bet=2 * small_bet,
        ante=int(stored.get("ante", 0)),
    )


def rules_of(stored: dict[str, Any]) -> Rules:
    """The engine's rules of a stored hold'em or Omaha hand."""
    ante = int(stored.get("ante", 0))
    game = Game(stored["game"])
    return Rules(
        betting=BETTING[game],
        small_blind=int(stored["small_blind"]),
        big_blind=int(stored["big_blind"]),
        ante=ante,
        ante_mode=AnteMode.EVERY_PLAYER if ante else AnteMode.NONE,
        omaha=game is Game.POT_LIMIT_OMAHA,  # R7.1
        pot_limit_small_blind_counts_as_big=bool(stored.get("small_blind_counts_as_big")),
        any_all_in_reopens=bool(stored.get("any_all_in_reopens")),
        smallest_chip=int(stored.get("smallest_chip", 1)),
        staged_runout=bool(stored.get("staged_runout")),  # hands before it: run out at once
    )


def encode_move(record: PlayMove) -> dict[str, Any]:
    """A move as the JSON stored under (hand, sequence)."""
    match record:
        case Swap(seat=seat, fee=fee, discarded=discarded, drawn=drawn, kept_apart=apart):
            return {
                "move": "swap",
                "position": seat,
                "fee": fee,
                "discarded": discarded,
                "drawn": drawn,
                "kept_apart": apart,
            }
        case StandPat(seat=seat, cause=cause):
            return {"move": "stand_pat", "position": seat, "cause": cause.value}
        case Reshuffle(count=count, cards=cards):
            # R7.11: the new stub's order, server-side like the deck.
            return {"move": "reshuffle", "count": count, "cards": list(cards or ())}
        case BringIn(seat=seat, amount=amount, all_in=all_in, cause=cause):
            return {
                "move": "bring_in",
                "position": seat,
                "amount": amount,
                "all_in": all_in,
                "cause": cause.value,
            }
        case Fold(seat=seat, cause=cause):
            return {"move": "fold", "position": seat, "cause": cause.value}
        case Check(seat=seat, cause=cause):
            return {"move": "check", "position": seat, "cause": cause.value}
        case Call(seat=seat, amount=amount, all_in=all_in):
            return {"move": "call", "position": seat, "amount": amount, "all_in": all_in}
        case RaiseTo(seat=seat, to=to, amount=amount, bet=bet, all_in=all_in):
            return {
                "move": "raise",
                "position": seat,
                "to": to,
                "amount": amount,
                "bet": bet,
                "all_in": all_in,
            }
        case TimeOut(seat=seat):
            return {"move": "time_out", "position": seat}
        case NextStreet(street=street):
            return {"move": "street", "street": int(street)}  # the server's: no card in it
    raise ValueError(f"{record!r} is not a move")


def decode_move(data: dict[str, Any]) -> PlayMove:
    """The engine record of a stored move."""
    data = open_move(data)  # a running hand's swap or reshuffle keeps its cards sealed
    if data["move"] == "street":
        return NextStreet(street=Street(int(data["street"])))
    if data["move"] == "reshuffle":
        return Reshuffle(count=int(data["count"]), cards=tuple(int(c) for c in data["cards"]))
    position = int(data["position"])
    match data["move"]:
        case "swap":
            return Swap(
                seat=position,
                fee=int(data["fee"]),
                discarded=data["discarded"],
                drawn=data["drawn"],
                kept_apart=bool(data["kept_apart"]),
            )
        case "stand_pat":
            return StandPat(seat=position, cause=Cause(data.get("cause", "player")))
        case "bring_in":
            return BringIn(
                seat=position,
                amount=int(data["amount"]),
                all_in=bool(data["all_in"]),
                cause=Cause(data.get("cause", "player")),
            )
        case "fold":
            return Fold(seat=position, cause=Cause(data.get("cause", "player")))
        case "check":
            return Check(seat=position, cause=Cause(data.get("cause", "player")))
        case "call":
            return Call(seat=position, amount=int(data["amount"]), all_in=bool(data["all_in"]))
        case "raise":
            return RaiseTo(
                seat=position,
                to=int(data["to"]),
                amount=int(data["amount"]),
                bet=bool(data["bet"]),
                all_in=bool(data["all_in"]),
            )
        case "time_out":
            return TimeOut(seat=position)
    raise ValueError(f"{data!r} is not a stored move")


def blind_seats(hand: TableHand) -> dict[str, Any]:
    """Who posted the blinds as the hand was dealt: its blind positions and, at an online
    event, a dead small blind (R2.7). Every replay of the hand starts it so (``start_hand``,
    the viewer's in tables.online.history), or the engine picks the usual seats instead."""
    return {
        "small_blind_seat": hand.rules.get("small_blind_position"),
        "big_blind_seat": hand.rules.get("big_blind_position"),
        "dead_small_blind": bool(hand.rules.get("dead_small_blind")),
    }


def start_hand(hand: TableHand) -> PlayHand:
    """The engine's hand as it stood when the cards were dealt."""
    cards = hand.cards()
    deck = list(cards.deck)
    if is_stud(hand.rules["game"]):
        return StudHand.start(
            rules=stud_rules_of(hand.rules),
            stacks=[int(stack) for stack in hand.starting_stacks],
            deck=deck,
            reshuffle=reshuffle_order(cards.secret),  # R7.2: fixed at the deal
        )
    if hand.rules["game"] == Game.DRAW_HOLDEM:
        return DrawHand.start(
            rules=rules_of(hand.rules),
            stacks=[int(stack) for stack in hand.starting_stacks],
            button=hand.button,
            deck=deck,
            **blind_seats(hand),
        )
    return Hand.start(
        rules=rules_of(hand.rules),
        stacks=[int(stack) for stack in hand.starting_stacks],
        button=hand.button,
        deck=deck,
        **blind_seats(hand),  # R2.7: a dead small blind at online events
        posts=[int(position) for position in hand.posts],
    )


def rebuild(hand: TableHand, moves: list[dict[str, Any]]) -> PlayHand:
    """The engine's hand now: dealt again from its deck, its stored moves replayed in order."""
    engine = start_hand(hand)
    for data in moves:
        move = decode_move(data)
        if isinstance(move, Reshuffle):
            engine.apply(move)  # type: ignore[arg-type]  # held for the swap that needs it
            continue
        if engine.apply(move) != move:  # type: ignore[arg-type]  # each engine's own moves
            raise ValueError(f"the stored move {data!r} is not what the engine makes of it")
    return engine
