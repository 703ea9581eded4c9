"""A late entry or a re-entry joins the field: the places already given move down one.

Each entry gets a place (docs/money.md). A player out before a new entry took its seat finished
behind it: with 10 in and one out in 10th, a re-entry makes 11 entries, so he is 11th, and the
10 still in share places 1 to 10 as before.
"""

from __future__ import annotations

from django.db.models import F

from tournaments.models import Entry, Event


def enter_the_field(*, event: Event, entry: Entry) -> int:
    """Move every place given so far down one for the entry now seated; how many moved.

    The caller holds the event lock (tournaments.entry_services.lock_event) and seats the entry.
    """
    placed = Entry.objects.filter(event=event, place__isnull=False).exclude(pk=entry.pk)
    return placed.update(place=F("place") + 1)
