"""The online-tournament benchmark's code paths, small: 12 house bots at two tables of 6 on a
fast virtual clock, to the end, then its cash peer with as many hands."""

from __future__ import annotations

import pytest
from django.conf import settings

from bench import online_mtt
from tables.online import languages
from tables.online.models import OnlineTable
from tests.tables.online_helpers import make_table
from tournaments.models import Entry


@pytest.mark.django_db
def test_a_small_event_runs_to_the_end_with_places_and_chips_in_order():
    before = (settings.FLOORMAN_TABLE_PACE, settings.FLOORMAN_BOTS_PLAY_ALONE)
    # A step of 10 s of virtual clock: the one-minute levels pass in a few hands, so it ends soon.
    args = online_mtt.arguments().parse_args(
        ["--players", "12", "--table-size", "6", "--step", "10", "--max-seconds", "120"]
    )
    report = online_mtt.run(args)
    mtt, cash = report["tournament"], report["cash"]

    assert mtt["finished"] and mtt["left"] == 0
    # R5.6: every player but the winner placed by a bust, each place once; the winner 1st.
    assert mtt["busts"] == 11
    assert mtt["places"] == list(range(1, 13)) and mtt["places_ok"]
    assert Entry.objects.filter(place=1).count() == 1
    # Every chip accounted for; the colour-up of the 25s (R5.11) rounds each stack by < 100.
    assert mtt["chips_seated"] == mtt["chips_brought"]
    assert abs(mtt["chips_brought"] - 12 * online_mtt.STARTING_STACK) < 12 * 100
    assert mtt["tables"] == 2 and mtt["tables_broken"] == 1
    assert mtt["moves"].get("final_table", 0) > 0  # TDA RP-9: the final table's draw
    assert mtt["record_hand_with_busts"]["count"] > 0
    assert mtt["per_bust"]["count"] == 11
    assert mtt["tick_with_busts"]["count"] <= mtt["record_hand_with_busts"]["count"]
    assert 2 <= mtt["dealt_per_hand"] <= 6
    # The peer: the same number of hands at two cash tables of 6, no director.
    assert cash["tables"] == 2 and cash["hands"] >= mtt["hands"] > 0
    assert OnlineTable.objects.filter(event__isnull=True).count() == 2
    assert report["cost_ratio"] > 0 and report["sweeper_ratio"] > 0
    text = online_mtt.render(report, "smoke")
    assert "recorded, each once" in text and "(conserved)" in text
    assert "no table watched" in text and report["watched"] is None
    # The run's settings are put back.
    after = (settings.FLOORMAN_TABLE_PACE, settings.FLOORMAN_BOTS_PLAY_ALONE)
    assert after == before


def test_a_summary_gives_milliseconds_at_the_ranks():
    figures = online_mtt.summary([0.001 * n for n in range(1, 101)])
    assert figures == {"count": 100, "p50": 51.0, "p95": 96.0, "max": 100.0}
    assert online_mtt.summary([])["p50"] is None


@pytest.mark.django_db
def test_watchers_mark_the_tables_in_their_language_once_a_heartbeat():
    """``--watched de``: each table read in German, as a tab's stream marks it, renewed as a
    stream renews it; without it, nobody reads the tables (they are sent as bare nudges)."""
    table = make_table()
    asked: list[int] = []

    def tables() -> list[int]:
        asked.append(table.pk)
        return [table.pk]

    try:
        online_mtt.Watchers("").renew(tables)
        assert languages.listening(table.pk, []) == ((), {}) and not asked
        watchers = online_mtt.Watchers("de")
        watchers.renew(tables)
        watchers.renew(tables)  # within the heartbeat: not again
        assert languages.listening(table.pk, []) == (("de",), {}) and asked == [table.pk]
    finally:
        languages.forget_listening([table.pk], [])
