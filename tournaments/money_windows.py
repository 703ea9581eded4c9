"""The purchase windows for the TV and the phones: "Rebuys open until the end of level 6".

Drawn from the rules the floor checks (tournaments.money.window_statuses, Window.refusal) at the
clock's play level; a freeroll offers none, a finished event shows none.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, pgettext

from tournaments import money
from tournaments.models import Event, EventStatus
from tournaments.money_selectors import money_rules, play_level


def _what(kind: money.WindowKind) -> str:
    names = {
        money.WindowKind.LATE_REGISTRATION: pgettext("purchase window", "Late registration"),
        money.WindowKind.REBUY: pgettext("purchase window", "Rebuys"),
        money.WindowKind.ADD_ON: pgettext("purchase window", "Add-on"),
        money.WindowKind.RE_ENTRY: pgettext("purchase window", "Re-entry"),
    }
    return names[kind]


@dataclass(frozen=True, kw_only=True, slots=True)
class PublicWindow:
    """One window as the public pages word it."""

    status: money.WindowStatus

    @property
    def kind(self) -> str:
        return self.status.kind.value

    @property
    def state(self) -> str:
        return self.status.state.value

    @property
    def text(self) -> str:
        what, window = _what(self.status.kind), self.status.window
        first, last = window.first, window.last
        if self.status.state is money.WindowState.CLOSED:
            return gettext("%(what)s closed") % {"what": what}
        if self.status.state is money.WindowState.NOT_YET:
            if last is None:
                return gettext("%(what)s from level %(first)s") % {"what": what, "first": first}
            return gettext("%(what)s from level %(first)s until the end of level %(last)s") % {
                "what": what, "first": first, "last": last,
            }  # fmt: skip
        if last is None:
            return gettext("%(what)s open") % {"what": what}
        return gettext("%(what)s open until the end of level %(last)s") % {
            "what": what, "last": last,
        }  # fmt: skip


def public_windows(event: Event) -> list[PublicWindow]:
    """The event's purchase windows now; empty for a freeroll and once the event is over."""
    rules = money_rules(event)
    if rules == money.MoneyRules() or event.status == EventStatus.FINISHED:
        return []
    return [PublicWindow(status=s) for s in money.window_statuses(rules, play_level(event))]
