"""The demo online table of `make run` (floorman_tables), and the players' guide's check of a
hand's deck commitment (docs/online.md) run on a hand played at it against its house bots."""

import re
import subprocess
import sys
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from tables.online import play as online_play
from tables.online import services as online_services
from tables.online.models import OnlineTable, TableHand
from tables.online.services import table_chips
from tests.factories import make_user
from tournaments.models import AuditEvent

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
GUIDES = (ROOT / "docs" / "online.md", ROOT / "docs" / "de" / "online.md")


def run_demo(*args):
    out = StringIO()
    call_command("floorman_tables", "--url", "http://poker.test:8000/", *args, stdout=out)
    return out.getvalue()


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def demo_logins():
    call_command("floorman_setup", stdout=StringIO())


def test_the_demo_table_is_opened_once_with_two_bots_and_its_url_printed(demo_logins):
    first = run_demo()
    second = run_demo()
    table = OnlineTable.objects.get()
    assert (table.name, table.game, table.seats) == ("Demo table", "nl_holdem", 6)
    assert (table.small_blind, table.big_blind) == (5, 10)
    assert table.created_by.username == "floor"
    assert list(table.players.values_list("is_bot", flat=True)) == [True, True]
    url = "http://poker.test:8000" + reverse("tables:online_table", args=[table.pk])
    assert url in first
    assert url in second
    assert AuditEvent.objects.filter(action="online.seat_bot").count() == 2
    seated, ledger = table_chips(table)
    assert seated == ledger == 2 * table.max_buy_in


def test_no_demo_opens_nothing(demo_logins):
    assert run_demo("--no-demo") == ""
    assert not OnlineTable.objects.exists()


def test_the_demo_needs_the_demo_logins():
    with pytest.raises(CommandError, match="floorman_setup"):
        run_demo()


def test_the_bots_wait_for_a_player_and_deal_him_in_when_he_sits(demo_logins):
    run_demo()
    table = OnlineTable.objects.get()
    later = timezone.now() + timedelta(minutes=5)
    assert online_play.sweep(now=later) == {"turns": 0, "deals": 0, "failed": 0}
    player = make_user(username="guest")
    online_services.take_seat(table=table, user=player, buy_in=500)
    online_play.sweep(now=later)
    hand = TableHand.objects.get(table=table)
    assert player.pk in hand.user_ids
    assert len(hand.user_ids) == 3


def guide_script(path):
    """The standalone checker printed in a players' guide."""
    blocks = re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)
    scripts = [block for block in blocks if "_floorman_openings" in block]
    assert len(scripts) == 1, f"{path} has no one commitment checker"
    return scripts[0]


def play_a_hand_against_the_bots(table, player):
    """The player calls or checks to the end; the sweeper moves the bots."""
    online_services.take_seat(table=table, user=player, buy_in=1_000)
    now = timezone.now() + timedelta(seconds=3)
    online_play.sweep(now=now)
    hand = TableHand.objects.get(table=table)
    for _step in range(200):
        hand.refresh_from_db()
        if hand.is_over:
            return hand
        if hand.user_ids[hand.actor] == player.pk:
            engine = online_play.engine_of(hand)
            move = "check" if engine.can_check() else "call"
            online_play.act(
                table=table, user=player, hand_id=hand.pk, sequence=hand.sequence, action=move
            )
        else:
            now += timedelta(seconds=2)
            online_play.expire_turn(hand_id=hand.pk, sequence=hand.sequence, now=now)
    raise AssertionError("the hand did not end")


def check(script, phh, tmp_path):
    checker = tmp_path / "check.py"
    checker.write_text(script, encoding="utf-8")
    return subprocess.run(  # noqa: S603 - our own script on our own file
        [sys.executable, str(checker), str(phh)], capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize("guide", GUIDES, ids=["en", "de"])
def test_the_guides_checker_passes_a_downloaded_hand_and_fails_a_forged_one(
    demo_logins, client, tmp_path, guide
):
    run_demo()
    table = OnlineTable.objects.get()
    player = make_user(username="guest")
    hand = play_a_hand_against_the_bots(table, player)
    client.force_login(player)
    text = client.get(reverse("tables:online_hand_phh", args=[hand.pk])).content.decode()
    assert "_floorman_openings" in text
    script = guide_script(guide)
    phh = tmp_path / "hand.phh"
    phh.write_text(text, encoding="utf-8")
    result = check(script, phh, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Demo table, hand {hand.number}:" in result.stdout
    # A forged opening: the first card the player saw claimed to be another card.
    first = re.search(r'_floorman_openings = \["(\d+):(\w\w):', text)
    other = "2c" if first[2] != "2c" else "3c"
    forged = text.replace(f'["{first[1]}:{first[2]}:', f'["{first[1]}:{other}:', 1)
    phh.write_text(forged, encoding="utf-8")
    assert check(script, phh, tmp_path).returncode != 0
    # A forged commitment: the leaves no longer hash to it.
    commitment = re.search(r'_floorman_commitment = "(\w+)"', text)[1]
    forged = text.replace(commitment, commitment[::-1])
    phh.write_text(forged, encoding="utf-8")
    assert check(script, phh, tmp_path).returncode != 0
