"""The purchase windows the TV and the phones show, from the rules the floor checks."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments import money
from tournaments.money_windows import PublicWindow

W, S = money.WindowKind, money.WindowState


def states(rules: money.MoneyRules, level: int) -> list[tuple[str, str]]:
    return [(s.kind.value, s.state.value) for s in money.window_statuses(rules, level)]


RULES = money.MoneyRules(
    buy_in=money.Price(amount=2000),
    rebuy=money.Price(amount=2000, chips=3000),
    rebuy_window=money.Window(last=6),
    add_on=money.Price(amount=1000, chips=5000),
    add_on_window=money.Window(first=6, last=7),
    re_entry=True,
    re_entry_window=money.Window(last=4),
    late_registration=money.Window(last=4),
)


def test_a_freeroll_offers_no_window():
    """R5.1: no rebuy, no add-on, no re-entry; no late registration level set."""
    assert money.window_statuses(money.MoneyRules(), 1) == []
    assert money.window_statuses(money.MoneyRules(), 9) == []


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        (1, ["open", "open", "not_yet", "open"]),
        (4, ["open", "open", "not_yet", "open"]),
        (5, ["closed", "open", "not_yet", "closed"]),
        (6, ["closed", "open", "open", "closed"]),
        (7, ["closed", "closed", "open", "closed"]),
        (8, ["closed", "closed", "closed", "closed"]),
    ],
)
def test_each_window_follows_the_play_level_like_the_floors_refusal(level, expected):
    got = states(RULES, level)
    assert [kind for kind, _ in got] == ["late_registration", "rebuy", "add_on", "re_entry"]
    assert [state for _, state in got] == expected
    windows = [RULES.late_registration, RULES.rebuy_window, RULES.add_on_window]
    for window, state in zip(windows, expected, strict=False):
        assert (window.refusal(level) is None) == (state == "open")


def test_only_the_windows_offered_are_listed():
    rules = money.MoneyRules(buy_in=money.Price(amount=2000), rebuy=money.Price(chips=3000))
    assert states(rules, 3) == [("rebuy", "open")]  # no end: never closes


def text(kind: money.WindowKind, state: money.WindowState, first: int, last: int | None) -> str:
    status = money.WindowStatus(kind=kind, state=state, window=money.Window(first=first, last=last))
    return PublicWindow(status=status).text


def test_the_words_in_english_and_german():
    with translation.override("en"):
        assert text(W.LATE_REGISTRATION, S.OPEN, 1, 4) == (
            "Late registration open until the end of level 4"
        )
        assert text(W.LATE_REGISTRATION, S.CLOSED, 1, 4) == "Late registration closed"
        assert text(W.REBUY, S.OPEN, 1, None) == "Rebuys open"
        assert text(W.ADD_ON, S.NOT_YET, 6, 7) == "Add-on from level 6 until the end of level 7"
        assert text(W.ADD_ON, S.NOT_YET, 6, None) == "Add-on from level 6"
        assert text(W.RE_ENTRY, S.OPEN, 1, 4) == "Re-entry open until the end of level 4"
    with translation.override("de"):
        assert text(W.LATE_REGISTRATION, S.OPEN, 1, 4) == (
            "Nachmeldung offen bis zum Ende von Level 4"
        )
        assert text(W.REBUY, S.CLOSED, 1, 6) == "Rebuys geschlossen"
        assert text(W.ADD_ON, S.NOT_YET, 6, 7) == "Add-on ab Level 6 bis zum Ende von Level 7"
        assert text(W.RE_ENTRY, S.OPEN, 1, None) == "Re-Entry offen"
