"""Writes on places: the busts of a hand (R5.6), quits (R5.9), an agreed stop (R5.10).

The order of places is scoring.places' alone; this module checks the floor's input, words its
refusals and records the result. On the satellite bubble, busts of one hand-for-hand hand at
different tables share their place (TDA RP-8, scoring.hand_for_hand_services). Undo and redo:
scoring.undo_services.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from scoring import hand_for_hand_services as hand_for_hand
from scoring import places
from scoring.models import Elimination, EliminationKind
from tables.engine import Card
from tables.models import FloorStep, Seat, StepKind
from tables.services import (
    find_by_key,
    refresh_plan,
    start_step,
)
from tournaments.entry_services import (
    EntryStateError,
    FloorError,
    lock_entries,
    lock_event,
    publish_standings,
    refuse_online_floor,
)
from tournaments.event_services import end_won_event
from tournaments.models import Entry, EntryStatus, Event
from tournaments.money_services import check_busted_by, set_busted_by
from tournaments.services import record_audit


class BadStackError(FloorError):
    """A stack or chip count that is not a positive whole number."""


class TieNeedsCardError(FloorError):
    """Equal stacks without the card that separates them (R5.6: in hand; R5.10: drawn)."""


@dataclass(frozen=True)
class StackInput:
    """One player as the floor reports him: the entry, his stack and, for a tie, his card.

    R5.6 (busts): the higher card in his hand; R5.10 (agreed stop): the card he drew.
    """

    entry_id: int
    stack: int | None
    card: int | None = None
    busted_by: int | None = None  # docs/money.md: the entry that wins his bounty


OUT_STATUS = {
    EliminationKind.BUST: EntryStatus.BUSTED,
    EliminationKind.QUIT: EntryStatus.QUIT,
    EliminationKind.STOP: EntryStatus.FINISHED,
    EliminationKind.WINNER: EntryStatus.FINISHED,
}


def check_stack(value: object, *, name: str) -> int:
    """Raise BadStackError unless the value is a positive whole number of chips."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise BadStackError(
            _("The stack of %(name)s must be a positive whole number of chips.") % {"name": name}
        )
    return value


def _playing(event: Event, ids: Sequence[int]) -> list[Entry]:
    """Lock the entries and raise unless each is still in play (never out twice)."""
    if len(set(ids)) != len(ids):
        raise FloorError(_("A player is listed twice."))
    entries = lock_entries(event=event, entry_ids=ids)
    for entry in entries:
        if entry.is_out:
            raise EntryStateError(
                _("%(name)s is already out (place %(place)s).")
                % {"name": entry.player.name, "place": entry.place}
            )
        if entry.status != EntryStatus.PLAYING:
            raise EntryStateError(_("%(name)s is not playing.") % {"name": entry.player.name})
    return entries


def _tie_cards(
    rows: Sequence[StackInput], entries: Mapping[int, Entry], *, missing: str
) -> dict[int, Card]:
    """The cards the floor entered; every equal stack needs one, no card twice (R5.6, R5.10)."""
    tied: dict[int, list[StackInput]] = {}
    for row in rows:
        tied.setdefault(row.stack or 0, []).append(row)
    for group in tied.values():
        if len(group) > 1 and any(row.card is None for row in group):
            names = ", ".join(entries[row.entry_id].player.name for row in group)
            raise TieNeedsCardError(missing % {"names": names})
    cards = {row.entry_id: row.card for row in rows if row.card is not None}
    if len(set(cards.values())) != len(cards):
        raise TieNeedsCardError(_("Two players cannot have the same card."))
    return cards


def _cards_in_hand(rows: Sequence[StackInput], entries: Mapping[int, Entry]) -> dict[int, Card]:
    """R5.6: for equal starting stacks, the higher card in each one's hand; never drawn here."""
    return _tie_cards(
        rows,
        entries,
        missing=_(
            "%(names)s started the hand with equal stacks: give the higher card in each one's "
            "hand (R5.6)."
        ),
    )


def _cards_drawn(rows: Sequence[StackInput], entries: Mapping[int, Entry]) -> dict[int, Card]:
    """R5.10: for equal chip counts, the card each one drew at the table."""
    return _tie_cards(
        rows,
        entries,
        missing=_("%(names)s have equal chip counts: each draws a card to decide (R5.10)."),
    )


def _stacks(rows: Sequence[StackInput]) -> list[places.Stack]:
    return [places.Stack(player=row.entry_id, chips=row.stack or 0) for row in rows]


def _place_out(
    *,
    step: FloorStep,
    entry: Entry,
    kind: EliminationKind,
    place: int,
    actor: User | None,
    stack: int | None = None,
    card: int | None = None,
) -> Elimination:
    """Record one entry's place; a bust or quit leaves the seat open (R5.6: "seat open")."""
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    out = Elimination.objects.create(
        event=step.event, entry=entry, step=step, kind=kind, stack=stack, card=card, place=place,
        table_number=seat.table.number if seat else None, seat_number=seat.number if seat else None,
        recorded_by=actor,
    )  # fmt: skip
    if seat is not None and kind in {EliminationKind.BUST, EliminationKind.QUIT}:
        seat.delete()
    entry.status, entry.place, entry.busted_at = OUT_STATUS[kind], place, out.created_at
    entry.save(update_fields=["status", "place", "busted_at"])
    return out


def _crown_last_player(*, step: FloorStep, actor: User | None) -> None:
    """When one player is left, he has won: place 1, and the event is over (end_event)."""
    in_play = Entry.objects.filter(event=step.event).in_play()
    if in_play.count() != 1:  # counted, not loaded: a field of a thousand is mostly still in
        return
    (winner,) = in_play.select_for_update(no_key=True)  # the caller holds the event's lock
    _place_out(step=step, entry=winner, kind=EliminationKind.WINNER, place=1, actor=actor)
    end_event(step=step, actor=actor)


def end_event(*, step: FloorStep, actor: User | None) -> None:
    """Everyone is placed: the event is over, its clock stops; the step can take it back."""
    if Entry.objects.filter(event=step.event).in_play().exists():
        return
    winner = Entry.objects.filter(event=step.event, place=1).select_related("player").first()
    undo = end_won_event(
        event=step.event, actor=actor, winner=winner.label if winner else None
    )  # undone with the step (scoring.undo_services)
    step.data = {**step.data, "ended_event": undo}
    step.save(update_fields=["data"])


def _finish(*, event: Event, step: FloorStep, actor: User | None, action: str) -> FloorStep:
    record_audit(
        actor=actor,
        action=action,
        event=event,
        step=step.pk,
        places=[
            [e.entry_id, e.place, e.kind, e.stack, e.card] for e in step.eliminations.order_by("pk")
        ],
        hand_for_hand=step.data.get("hand_for_hand"),
        shared=step.data.get("shared", []),
        busted_by=step.data.get("busted_by"),
    )
    hand_for_hand.sync_hand_for_hand(event=event, actor=actor)
    refresh_plan(event=event)
    publish_standings(event.pk)
    return step


def _bust_places(
    *, event: Event, busts: Sequence[StackInput], entries: Mapping[int, Entry], left: int
) -> tuple[dict[int, int], dict[str, object]]:
    """Entry id -> place for a hand's busts, and what the step records for hand-for-hand."""
    placings = places.place_same_hand_busts(
        busts=_stacks(busts), players_left_before=left, cards=_cards_in_hand(busts, entries)
    )  # R5.6: more chips at the start of the hand place higher; equal: the higher card in hand
    placed = {p.player: p.place for p in placings}
    hand = hand_for_hand.open_hand(event)
    if hand is None:
        return placed, {}
    seats = dict(
        Seat.objects.filter(entry_id__in=list(placed)).values_list("entry_id", "table__number")
    )
    shared, earlier = hand_for_hand.shared_places(
        hand=hand, new_busts={k: seats.get(k) for k in placed}, players_left=left
    )
    data: dict[str, object] = {"hand_for_hand": hand.number, "shared": []}
    if shared is None:
        return placed, data
    # TDA RP-8: busts of this hand at different tables tie; earlier ones move up to the tie.
    data["shared"] = [[e.pk, e.entry_id, e.place, shared] for e in earlier if e.place != shared]
    set_shared_places(data["shared"], backwards=False)
    return dict.fromkeys(placed, shared), data


def set_shared_places(changes: object, *, backwards: bool) -> None:
    """Set (or, backwards, restore) the places a shared hand-for-hand place changed."""
    for elimination_id, entry_id, before, after in changes if isinstance(changes, list) else []:
        place = before if backwards else after
        Elimination.objects.filter(pk=elimination_id).update(place=place)
        Entry.objects.filter(pk=entry_id, place__isnull=False).update(place=place)


@transaction.atomic
def record_busts(
    *, event_id: int, actor: User | None, busts: Sequence[StackInput], key: str = ""
) -> FloorStep:
    """Record the players out in one hand, placed by their stacks at its start (R5.6).

    On the satellite bubble (hand-for-hand) they share the place with the busts of the same
    hand at other tables (TDA RP-8).
    """
    event = lock_event(event_id)
    refuse_online_floor(event, actor)  # docs/online.md: the engine reports online
    done = find_by_key(event, key)
    if done is not None:
        return done  # the same form sent twice: recorded once
    if not busts:
        raise FloorError(_("Choose the players who are out."))
    entries = {e.pk: e for e in _playing(event, [b.entry_id for b in busts])}
    for bust in busts:
        if len(busts) > 1 or bust.stack is not None:  # R5.6: stacks order same-hand busts only
            check_stack(bust.stack, name=entries[bust.entry_id].player.name)
    left = Entry.objects.filter(event=event).in_play().count()
    if len(busts) >= left:
        raise FloorError(_("Somebody wins the hand: at least one player stays in."))
    busted_by = {b.entry_id: b.busted_by for b in busts if b.busted_by is not None}
    check_busted_by(event=event, busted_by=busted_by)  # docs/money.md: bounties
    placed, data = _bust_places(event=event, busts=busts, entries=entries, left=left)
    if busted_by:
        data = data | {"busted_by": {str(k): v for k, v in busted_by.items()}}
    step = start_step(event=event, kind=StepKind.BUSTS, actor=actor, key=key)
    if data:
        step.data = data
        step.save(update_fields=["data"])
    for bust in busts:
        _place_out(
            step=step, entry=entries[bust.entry_id], kind=EliminationKind.BUST,
            place=placed[bust.entry_id], actor=actor, stack=bust.stack, card=bust.card,
        )  # fmt: skip
    set_busted_by(entries=entries, busted_by=busted_by)
    _crown_last_player(step=step, actor=actor)
    return _finish(event=event, step=step, actor=actor, action="busts.recorded")


@transaction.atomic
def record_quit(
    *, event_id: int, entry_id: int, actor: User | None, stack: int | None = None, key: str = ""
) -> FloorStep:
    """R5.9: a player quits; his chips leave play and he places where he left."""
    event = lock_event(event_id)
    refuse_online_floor(event, actor)  # docs/online.md: the engine reports online
    done = find_by_key(event, key)
    if done is not None:
        return done
    (entry,) = _playing(event, [entry_id])
    if stack is not None:
        check_stack(stack, name=entry.player.name)
    left = Entry.objects.filter(event=event).in_play().count()
    place = places.place_of_quitter(players_left=left)  # R5.9: where he left
    step = start_step(event=event, kind=StepKind.QUIT, actor=actor, key=key)
    _place_out(
        step=step, entry=entry, kind=EliminationKind.QUIT, place=place, actor=actor, stack=stack
    )
    _crown_last_player(step=step, actor=actor)
    return _finish(event=event, step=step, actor=actor, action="entry.quit")


@transaction.atomic
def record_agreed_stop(
    *, event_id: int, actor: User | None, counts: Sequence[StackInput], key: str = ""
) -> FloorStep:
    """R5.10: all remaining players agree to stop; places follow the chip counts."""
    event = lock_event(event_id)
    refuse_online_floor(event, actor)  # docs/online.md: the engine reports online
    done = find_by_key(event, key)
    if done is not None:
        return done
    entries = {e.pk: e for e in _playing(event, [c.entry_id for c in counts])}
    left = set(Entry.objects.filter(event=event).in_play().values_list("pk", flat=True))
    if set(entries) != left or len(left) < 2:
        raise FloorError(_("An agreed stop needs the chip count of every player still in."))
    for count in counts:
        check_stack(count.stack, name=entries[count.entry_id].player.name)
    placings = places.places_by_chip_count(
        stacks=_stacks(counts), cards=_cards_drawn(counts, entries)
    )  # R5.10: chip counts decide, equal counts by the card drawn (rank, then suit)
    placed = {p.player: p.place for p in placings}
    step = start_step(event=event, kind=StepKind.STOP, actor=actor, key=key)
    for count in counts:
        _place_out(
            step=step, entry=entries[count.entry_id], kind=EliminationKind.STOP,
            place=placed[count.entry_id], actor=actor, stack=count.stack, card=count.card,
        )  # fmt: skip
    end_event(step=step, actor=actor)
    return _finish(event=event, step=step, actor=actor, action="event.agreed_stop")
