"""Draw Hold'em hand histories: Floorman's namespaced PHH extension, a writer, a strict reader.

PHH has no game with paid swaps, so a Draw Hold'em history (R7.3-R7.11) is a PHH document with
its own variant code and a few actions and fields, all namespaced ``_floorman_`` as PHH allows
for user-defined ones. Other PHH tools refuse the variant rather than misread the hand. Players
are numbered as in PHH (p1 left of the button, the button last), amounts are whole chips, and a
history is of a hand dealt from a full deck of 52 (the stub's size decides when R7.11 reshuffles).

Fields:

- ``variant = "_floorman_DH"``: Draw Hold'em (R7.3-R7.11).
- ``_floorman_betting = "no_limit" | "pot_limit" | "limit"``: the betting structure (R7.1);
  the standard fields give the stakes: ``antes``, ``blinds_or_straddles``, ``min_bet`` (no-limit
  and pot-limit: the big blind) or ``small_bet`` and ``big_bet`` (limit).
- ``_floorman_posted_big_blinds = [4]``: as in Floorman's hold'em histories (R2.6).
- ``_floorman_<setting>`` for each other setting of the table's ``Rules`` (``cap``,
  ``odd_chip``, ``pot_limit_small_blind_counts_as_big``, ``any_all_in_reopens``,
  ``smallest_chip``), written only where it is not the default: ``_floorman_odd_chip =
  "highest_card"`` (R4.2 decides how tied hands split the fees kept apart, R7.11).

Actions, in the order they happened:

- ``d dh p3 AhKd``: the hand as dealt, before any swap (``????`` where it is private).
- ``p3 _floorman_swap 7c Ad 50``: p3 gave back the seven of clubs and drew the ace of diamonds,
  for a fee of 50 (R7.4-R7.6: the small blind in the first round, nothing for a blind; after
  the flop the pot when the round opened). ``?? ??`` where the cards are private (R7.11). The
  fee is checked: the reader refuses a history whose fee is not the rules' fee.
- ``p3 _floorman_stand_pat``: p3 declined the swap where it was his only choice (the first
  round, before the pre-flop betting; after the flop with nobody left to bet against, R7.9).
  In a swap-and-bet round a player who does not swap simply acts (R7.7).
- ``d _floorman_reshuffle 7c2d9s``: the stub could not cover the next swap; the swapped-out
  cards and burns were shuffled into a new stub for the swaps, top card first (R7.11; ``??``
  for each card where the order is private). It comes right before that swap.
- ``p3 _floorman_time_out``, and ``# absent``, ``# clock``, ``# time_out`` comments after ``f``,
  ``cc`` or ``_floorman_stand_pat``: a server's move, as in Floorman's hold'em histories; this
  reader takes the comment as the move's cause (R2.9, R3.10).
- ``p3 sm AdKh``: the hand shown at the showdown, as the swaps left it. For a hand dealt
  ``????`` the reader takes these as the cards shown (a history censored for one viewer);
  ``p3 sm`` without cards is a mucked hand, which wins nothing (R1.8).
- Everything else is PHH: ``d db``, ``f``, ``cc``, ``cbr``. Burns are not written; the fees kept
  apart under R7.9 and their award follow from the actions.

The reader never repairs a history: every action goes through :class:`DrawHand`'s moves, and
the first one the engine refuses (or a history that stops before the hand is over, or whose
``finishing_stacks`` differ) raises :class:`IllegalHistory` naming the action and the reason.
"""

from __future__ import annotations

from fractions import Fraction

from tables.engine.betting import IllegalAction
from tables.engine.cards import Card, cards_name, parse_cards
from tables.engine.draw.hand import DrawHand
from tables.engine.draw.records import DrawRecord, Reshuffle, StandPat, Swap
from tables.engine.phh.document import UNKNOWN, HandHistory, IllegalHistory, PHHError, to_chips
from tables.engine.phh.draw_document import (
    RESHUFFLE_ACTION,
    STAND_PAT_ACTION,
    SWAP_ACTION,
    VARIANT,
    load_draw,
    write_draw,
)
from tables.engine.phh.reader import dead_small_blind
from tables.engine.phh.writer import POSTS_FIELD, TIME_OUT_ACTION
from tables.engine.records import Call, Cause, Check, Fold, NextStreet, TimeOut

_CAUSES = {cause.value: cause for cause in Cause if cause is not Cause.PLAYER}

__all__ = ["VARIANT", "load_draw", "read_draw", "replay_draw", "write_draw"]


def read_draw(text: str) -> DrawHand:
    """The Draw Hold'em hand a PHH document records, replayed strictly."""
    return replay_draw(load_draw(text))


def replay_draw(history: HandHistory) -> DrawHand:
    """Play the history through :class:`DrawHand`'s moves; IllegalHistory at the first bad one."""
    return _Replay(history).run()


def _split(action: str) -> tuple[list[str], Cause]:
    """An action's tokens, and the server's cause its comment names (else the player)."""
    text, _, comment = action.partition("#")
    return text.split(), _CAUSES.get(comment.strip(), Cause.PLAYER)


def _card_or_unknown(text: str) -> Card | None:
    return None if text == UNKNOWN else parse_cards(text)[0]


def _cards_or_unknown(text: str) -> tuple[Card, ...] | None:
    return None if UNKNOWN[0] in text else tuple(parse_cards(text))


class _Replay:
    """One strict pass over a history's actions through a :class:`DrawHand`."""

    def __init__(self, history: HandHistory) -> None:
        self.history = history
        self.n = history.player_count
        self.board_seen = 0
        self.primed: int | None = None  # the reshuffle action waiting for its swap

    def run(self) -> DrawHand:
        hand = self._start()
        for index, action in enumerate(self.history.actions):
            tokens, cause = _split(action)
            try:
                if not tokens:
                    raise IllegalAction("an empty action")
                if tokens[0] == "d":
                    self._deal(hand, tokens)
                else:
                    self._move(hand, index, tokens, cause)
            except (IllegalAction, ValueError) as exc:
                if isinstance(exc, IllegalHistory):
                    raise
                raise IllegalHistory(index, action, str(exc)) from exc
        self._finish(hand)
        return hand

    def _start(self) -> DrawHand:
        """The deal, the board and the shown hands, named before the first move is replayed."""
        holes: list[tuple[Card, ...] | None] = [None] * self.n
        board: list[Card] = []
        shown: dict[int, tuple[Card, ...]] = {}
        mucked: set[int] = set()
        for index, action in enumerate(self.history.actions):
            tokens, _ = _split(action)
            try:
                if tokens[:2] == ["d", "dh"] and len(tokens) == 4:
                    holes[self._player(tokens[2])] = _cards_or_unknown(tokens[3])
                elif tokens[:2] == ["d", "db"] and len(tokens) == 3:
                    board.extend(parse_cards(tokens[2]))
                elif len(tokens) >= 2 and tokens[1] == "sm":
                    seat = self._player(tokens[0])
                    if len(tokens) == 3:
                        shown[seat] = tuple(parse_cards(tokens[2]))
                    else:
                        mucked.add(seat)
            except ValueError as exc:
                raise IllegalHistory(index, action, str(exc)) from exc
        for seat in mucked:  # R1.8: a mucked hand wins nothing
            holes[seat] = None
        posts = self.history.extra.get(POSTS_FIELD, [])
        if not isinstance(posts, list) or not all(
            isinstance(number, int) and 1 <= number <= self.n for number in posts
        ):
            raise PHHError(f"{POSTS_FIELD} must list player numbers 1..{self.n}")
        try:
            return DrawHand.start(
                rules=self.history.rules,
                stacks=self.history.starting_stacks,
                button=self.n - 1,  # PHH lists players from left of the button
                hole_cards=holes,
                board=board,
                posts=[number - 1 for number in posts],
                dead_small_blind=dead_small_blind(self.history),  # R2.7
                shown_cards=shown,
            )
        except ValueError as exc:
            raise IllegalHistory(None, None, f"the hand cannot start: {exc}") from exc

    def _player(self, token: str) -> int:
        if len(token) < 2 or token[0] != "p" or not (token[1:].isascii() and token[1:].isdigit()):
            raise IllegalAction(f"{token!r} names no player")
        number = int(token[1:])
        if not 1 <= number <= self.n:
            raise IllegalAction(f"there is no player p{number}")
        return number - 1

    def _deal(self, hand: DrawHand, tokens: list[str]) -> None:
        if len(tokens) == 4 and tokens[1] == "dh":
            if any(isinstance(r, Swap | StandPat | Fold | Check | Call) for r in hand.records):
                raise IllegalAction("hole cards are dealt after the swaps or the betting began")
        elif len(tokens) == 3 and tokens[1] == "db":
            self.board_seen += len(tokens[2]) // 2
            if len(hand.board) < self.board_seen:
                turn = "" if hand.actor is None else f": p{hand.actor + 1} is still to act"
                raise IllegalAction(f"the board is dealt before the round is over{turn}")
        elif len(tokens) == 3 and tokens[1] == RESHUFFLE_ACTION:
            if self.primed is not None:
                raise IllegalAction("two reshuffles for one swap (R7.11)")
            cards = _cards_or_unknown(tokens[2])
            hand.apply(Reshuffle(count=len(tokens[2]) // 2, cards=cards))
            self.primed = len(hand.records)  # any index: only whether one waits matters
        else:
            raise IllegalAction("an unknown dealing action")

    def _move(self, hand: DrawHand, index: int, tokens: list[str], cause: Cause) -> None:
        seat = self._player(tokens[0])
        verb, args = (tokens[1], tokens[2:]) if len(tokens) > 1 else ("", [])
        if verb == "sm":
            self._show(hand, seat, args)
            return
        if len(hand.board) > self.board_seen:
            raise IllegalAction(f"p{seat + 1} acts before the board is dealt")
        if hand.actor != seat:
            turn = "the hand is over" if hand.actor is None else f"it is p{hand.actor + 1}'s turn"
            raise IllegalAction(f"{turn}, not p{seat + 1}'s")
        if verb == SWAP_ACTION and len(args) == 3:
            self._swap(hand, index, seat, args)
            return
        made = self._act(hand, seat, verb, args, cause)
        if made is None:
            raise IllegalAction(f"{verb!r} is not a Draw Hold'em action")
        expected = {"f": Fold, "cc": Check | Call, STAND_PAT_ACTION: StandPat}.get(verb, TimeOut)
        if not isinstance(made, expected) and verb != "cbr":
            raise IllegalAction(f"the engine makes {made!r} of it")

    @staticmethod
    def _act(
        hand: DrawHand, seat: int, verb: str, args: list[str], cause: Cause
    ) -> DrawRecord | NextStreet | None:
        if verb == "f" and not args:
            return hand.apply(Fold(seat=seat, cause=cause))
        if verb == "cc" and not args:
            if cause is not Cause.PLAYER:
                return hand.apply(Check(seat=seat, cause=cause))
            return hand.check(seat=seat) if hand.can_check(seat=seat) else hand.call(seat=seat)
        if verb == "cbr" and len(args) == 1:
            return hand.raise_to(to_chips(_number(args[0]), 1), seat=seat)
        if verb == STAND_PAT_ACTION and not args:
            return hand.apply(StandPat(seat=seat, cause=cause))
        if verb == TIME_OUT_ACTION and not args:
            return hand.time_out(seat=seat)
        return None

    def _swap(self, hand: DrawHand, index: int, seat: int, args: list[str]) -> None:
        """R7.4-R7.6, R7.11: the swap, its fee checked, and the reshuffle it took, if any."""
        old, new = _card_or_unknown(args[0]), _card_or_unknown(args[1])
        fee = to_chips(_number(args[2]), 1)
        before = sum(isinstance(r, Reshuffle) for r in hand.records)
        made = hand.apply(Swap(seat=seat, fee=fee, discarded=old, drawn=new))
        if not isinstance(made, Swap):  # pragma: no cover - apply of a Swap makes a Swap
            raise IllegalAction("the engine made no swap of it")
        reshuffled = sum(isinstance(r, Reshuffle) for r in hand.records) > before
        if reshuffled and self.primed is None:
            raise IllegalAction("the stub is out here: the history must give its reshuffle (R7.11)")
        if self.primed is not None and not reshuffled:
            raise IllegalAction("the stub still covers this swap: no reshuffle before it (R7.11)")
        self.primed = None
        if made.fee != fee:
            raise IllegalAction(f"the fee is {made.fee}, not {fee} (R7.5, R7.6)")
        if new is not None and made.drawn != new:
            got = UNKNOWN if made.drawn is None else cards_name((made.drawn,))
            raise IllegalAction(f"the stub gives {got}, not {args[1]}")

    @staticmethod
    def _show(hand: DrawHand, seat: int, args: list[str]) -> None:
        if hand.actor is not None:
            raise IllegalAction(f"a showdown while p{hand.actor + 1} is to act")
        if hand.folded[seat]:
            raise IllegalAction(f"p{seat + 1} folded and has nothing to show")
        held = hand.hole_cards[seat]
        if args and held is not None and sorted(parse_cards(args[0])) != sorted(held):
            raise IllegalAction(f"p{seat + 1} holds {cards_name(held)}")

    def _finish(self, hand: DrawHand) -> None:
        if self.primed is not None:
            raise IllegalHistory(None, None, "a reshuffle that no swap took (R7.11)")
        if not hand.is_over:
            actor = "nobody" if hand.actor is None else f"p{hand.actor + 1}"
            raise IllegalHistory(None, None, f"it stops before the hand is over ({actor} to act)")
        if self.board_seen < len(hand.board) and sum(not f for f in hand.folded) > 1:
            raise IllegalHistory(None, None, "it stops before the board is dealt out")
        recorded = self.history.finishing_stacks
        if recorded is not None and list(recorded) != [Fraction(s) for s in hand.stacks]:
            raise IllegalHistory(
                None, None, f"the finishing stacks {hand.stacks} are not {list(recorded)}"
            )


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            raise IllegalAction(f"{text!r} is not an amount") from None
