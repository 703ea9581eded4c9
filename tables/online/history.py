"""Hand histories of online tables as one viewer may see them: the replayer's steps, the deck
commitment's openings and PHH export. Only finished hands; a player sees his own hole cards and
the cards shown (R1.8), never another's mucked cards."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from tables.engine import (
    UNKNOWN_HAND,
    AwardPot,
    Call,
    Card,
    Cause,
    Check,
    DealBoard,
    DealHole,
    Fold,
    Hand,
    Opening,
    PostAnte,
    PostBlind,
    RaiseTo,
    ReturnUncalled,
    ShowHand,
    TimeOut,
    card_name,
    card_salt,
    positions_of,
)
from tables.engine.draw import AwardSwapFees, DrawHand, Reshuffle, StandPat, Swap, public_view
from tables.engine.phh import write, write_draw, write_stud
from tables.engine.stud import BringIn, DealCommon, DealStud, StudDeal, StudHand, StudReshuffle
from tables.hand_names import hand_name
from tables.online.engine import (
    PlayHand,
    PlayMove,
    blind_seats,
    decode_move,
    rebuild,
    rules_of,
    stud_rules_of,
)
from tables.online.history_equity import chips_in, equity_by_record
from tables.online.kept import stored_moves
from tables.online.models import TableHand
from tables.online.selectors import display_name


@dataclass(frozen=True)
class Step:
    """One step of the replayer: what happened, then the table as it stood."""

    text: str
    board: list[str]
    pot: int
    stacks: list[tuple[str, int]]  # each player's name and chips behind
    equity: list[tuple[str, float, float]]  # all-in: each one's name, win and tie in percent


def visible_positions(hand: TableHand, viewer_id: int | None, *, all_cards: bool) -> set[int]:
    """Whose hole cards the history shows: the viewer's, the shown ones (R1.8), or all."""
    if all_cards:
        return set(range(len(hand.seat_numbers)))
    mine = {p for p, user_id in enumerate(hand.user_ids) if user_id == viewer_id}
    return mine | set(hand.shown)


def viewer_hand(hand: TableHand, viewer_id: int | None, *, all_cards: bool = False) -> PlayHand:
    """The finished hand replayed with only the hole cards the viewer may see."""
    if not hand.is_over:
        raise ValueError("only a finished hand has a history")
    stored = stored_moves(hand.pk)
    full = rebuild(hand, stored)  # the stored moves as they are; decoded once below
    moves = [decode_move(data) for data in stored]
    seen = visible_positions(hand, viewer_id, all_cards=all_cards)
    if isinstance(full, StudHand):
        return _viewer_stud_hand(hand, full, moves, seen)
    if isinstance(full, DrawHand):
        return _viewer_draw_hand(hand, full, seen)
    holes = [full.hole_cards[p] if p in seen else None for p in range(full.n)]
    censored = Hand.start(
        rules=rules_of(hand.rules),
        stacks=[int(s) for s in hand.starting_stacks],
        button=hand.button,
        hole_cards=holes,
        board=full.board,
        **blind_seats(hand),  # as it was dealt: R2.7's dead small blind too
        posts=[int(p) for p in hand.posts],
    )
    for move in moves:
        censored.apply(move)  # type: ignore[arg-type]  # hold'em moves
    return censored


def _viewer_draw_hand(hand: TableHand, full: DrawHand, seen: set[int]) -> DrawHand:
    """R7.11: a Draw Hold'em hand as the viewer saw it: others' hole cards and swaps without
    their cards ("swapped one card, paid N"), no reshuffled stub's order, the shown hands."""
    censored: list[object] = []
    for item in full.records:
        hidden = getattr(item, "seat", None) not in seen
        seen_item: object = item
        if isinstance(item, Reshuffle) or (hidden and isinstance(item, DealHole | Swap)):
            seen_item = public_view(item)
        elif hidden and isinstance(item, ShowHand):
            seen_item = ShowHand(seat=item.seat, cards=None, value=UNKNOWN_HAND)
        censored.append(seen_item)
    return DrawHand.replay(
        rules=rules_of(hand.rules),
        stacks=[int(s) for s in hand.starting_stacks],
        button=hand.button,
        records=censored,  # type: ignore[arg-type]
        **blind_seats(hand),  # as it was dealt: R2.7's dead small blind too
    )


def _viewer_stud_hand(
    hand: TableHand, full: StudHand, moves: list[PlayMove], seen: set[int]
) -> StudHand:
    """R7.2: a stud hand with the down cards of the hands the viewer may not see unknown; the
    up cards were everyone's."""
    deals = [
        replace(r, down=None) if isinstance(r, DealStud) and r.seat not in seen else r
        for r in full.records
        if isinstance(r, DealStud | DealCommon)
    ]
    censored = StudHand.from_deal(
        rules=stud_rules_of(hand.rules),
        stacks=[int(s) for s in hand.starting_stacks],
        deal=StudDeal.from_records(deals),
    )
    for move in moves:
        censored.apply(move)  # type: ignore[arg-type]  # stud's own moves
    return censored


def names(hand: TableHand) -> list[str]:
    """The players' names by position."""
    users = {u.pk: u for u in User.objects.filter(pk__in=hand.user_ids).select_related("player")}
    return [display_name(users[uid]) if uid in users else "?" for uid in hand.user_ids]


def steps(hand: TableHand, viewer_id: int | None) -> list[Step]:
    """The replayer's steps: the deal, then every move and deal, the showdown and the pots."""
    engine = viewer_hand(hand, viewer_id)
    who = names(hand)
    out: list[Step] = []
    board: list[str] = []
    pot = 0
    stacks = list(engine.starting_stacks)
    equities = equity_by_record(engine, hand.table.game, seed=hand.pk)
    for index, record in enumerate(engine.records):
        text = _describe(record, who)
        if text is None:
            continue
        if isinstance(record, DealBoard):
            board = board + [card_name(c) for c in record.cards]
        amount = chips_in(record)
        if amount and isinstance(
            record, Call | RaiseTo | PostAnte | PostBlind | ReturnUncalled | BringIn | Swap
        ):
            stacks[record.seat] -= amount
            pot += amount
        if isinstance(record, AwardPot | AwardSwapFees):
            for seat, share in record.shares:
                stacks[seat] += share
            pot -= record.amount
        chips = list(zip(who, stacks, strict=True))
        equity = [(who[e.position], e.win, e.tie) for e in equities.get(index, [])]
        out.append(Step(text=text, board=board, pot=max(pot, 0), stacks=chips, equity=equity))
    return out


def _describe(record: object, who: list[str]) -> str | None:
    match record:
        case PostAnte(seat=seat, amount=amount):
            return _("%(name)s posts an ante of %(amount)s") % {"name": who[seat], "amount": amount}
        case PostBlind(seat=seat, amount=amount):
            return _("%(name)s posts a blind of %(amount)s") % {"name": who[seat], "amount": amount}
        case DealHole(seat=seat, cards=cards) if cards is not None:
            return _("%(name)s is dealt %(cards)s") % {
                "name": who[seat],
                "cards": " ".join(card_name(c) for c in cards),
            }
        case DealStud(seat=seat, down=down, up=up):
            shown = [*(card_name(c) for c in down or ()), *(card_name(c) for c in up)]
            return _("%(name)s is dealt %(cards)s") % {"name": who[seat], "cards": " ".join(shown)}
        case Swap(seat=seat, fee=fee, drawn=drawn):
            if drawn is None:
                return _("%(name)s swapped one card, paid %(fee)s") % {
                    "name": who[seat],
                    "fee": fee,
                }
            return _("%(name)s swapped for %(card)s, paid %(fee)s") % {
                "name": who[seat],
                "card": card_name(drawn),
                "fee": fee,
            }
        case StandPat(seat=seat):
            return _("%(name)s keeps his cards") % {"name": who[seat]}
        case AwardSwapFees(shares=shares):
            return "; ".join(
                _("%(name)s wins %(amount)s in swap fees") % {"name": who[seat], "amount": share}
                for seat, share in shares
            )
        case StudReshuffle(mixed=mixed):
            # R7.2: counts only; the mixed cards stay hidden until they are dealt.
            return _(
                "The deck runs short: its last card and the burns (%(count)s cards) are mixed, "
                "cut and dealt on"
            ) % {"count": mixed}
        case DealCommon(card=card):
            return _("Common card: %(card)s") % {"card": card_name(card)}
        case BringIn(seat=seat, amount=amount):
            return _("%(name)s brings in for %(amount)s") % {"name": who[seat], "amount": amount}
        case DealBoard(cards=cards):
            return _("Board: %(cards)s") % {"cards": " ".join(card_name(c) for c in cards)}
        case Fold(seat=seat, cause=cause):
            return _("%(name)s folds") % {"name": who[seat]} + _cause(cause)
        case Check(seat=seat, cause=cause):
            return _("%(name)s checks") % {"name": who[seat]} + _cause(cause)
        case Call(seat=seat, amount=amount):
            return _("%(name)s calls %(amount)s") % {"name": who[seat], "amount": amount}
        case RaiseTo(seat=seat, to=to, bet=bet):
            text = _("%(name)s bets %(amount)s") if bet else _("%(name)s raises to %(amount)s")
            return text % {"name": who[seat], "amount": to}
        case TimeOut(seat=seat):
            return _(
                "%(name)s timed out after his connection dropped: all-in for the pot so far"
            ) % {"name": who[seat]}
        case ReturnUncalled(seat=seat, amount=amount):
            return _("%(amount)s uncalled returned to %(name)s") % {
                "name": who[seat],
                "amount": amount,
            }
        case ShowHand(seat=seat, cards=cards, value=value):
            if cards is None:
                return _("%(name)s mucks") % {"name": who[seat]}
            return _("%(name)s shows %(cards)s: %(hand)s") % {
                "name": who[seat],
                "cards": " ".join(card_name(c) for c in cards),
                "hand": hand_name(value),
            }
        case AwardPot(shares=shares):
            return "; ".join(
                _("%(name)s wins %(amount)s") % {"name": who[seat], "amount": share}
                for seat, share in shares
            )
    return None


def _cause(cause: Cause) -> str:
    if cause is Cause.PLAYER:
        return ""
    if cause is Cause.ABSENT:
        return " " + _("(absent)")
    return " " + _("(time ran out)")


def openings(hand: TableHand, viewer_id: int | None, *, all_cards: bool = False) -> list[Opening]:
    """The deck positions the viewer may check against the commitment: the board, the hole
    cards he may see; never a burn card or a hidden hand."""
    engine = viewer_hand(hand, viewer_id, all_cards=all_cards)
    cards: list[Card] = list(engine.board)
    if isinstance(engine, StudHand):
        for up, down in zip(engine.up_cards, engine.down_cards, strict=True):
            cards.extend((*up, *(down or ())))  # R7.2: up cards were everyone's
    else:
        for hole in engine.hole_cards:
            cards.extend(hole or ())
    dealt = hand.cards()
    deck, secret = list(dealt.deck), dealt.secret
    return [
        Opening(position=p, card=deck[p], salt=card_salt(secret, p).hex())
        for p in sorted(positions_of(deck, cards))
    ]


def hand_phh(hand: TableHand, viewer_id: int | None, *, all_cards: bool = False) -> str:
    """The hand as a PHH document for the viewer, with the deck commitment and its openings
    (Floorman's namespaced fields, docs/architecture.md)."""
    engine = viewer_hand(hand, viewer_id, all_cards=all_cards)
    if isinstance(engine, StudHand):
        text = write_stud(engine, players=names(hand))  # R7.2: unknown down cards as ??
    elif isinstance(engine, DrawHand):
        text = write_draw(engine, players=names(hand))  # R7.11: others' swaps without cards
    else:
        text = write(engine, players=names(hand))
    extra: dict[str, Any] = {
        "_floorman_table": hand.table.name,
        "_floorman_hand": hand.number,
        "_floorman_commitment": hand.commitment,
        "_floorman_leaves": list(hand.leaves),
        "_floorman_openings": [
            f"{o.position}:{card_name(o.card)}:{o.salt}"
            for o in openings(hand, viewer_id, all_cards=all_cards)
        ],
    }
    return text + "".join(f"{key} = {json.dumps(value)}\n" for key, value in extra.items())
