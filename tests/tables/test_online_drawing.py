"""The online table's two parts drawn by Jinja2 (tables.online.drawing, issue 17): escaped as
Django's templates escape, every word in German too, the forms' CSRF field on the page only."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.template import Context, Template, TemplateSyntaxError
from django.urls import reverse
from django.utils import translation
from django.utils.translation import trans_real

from tables.online import broadcast, drawing
from tables.online import play as online_play
from tables.online.selectors import build_snapshot
from tests.tables.online_helpers import make_table, seat_players, stacked_deck

pytestmark = pytest.mark.django_db
HOSTILE = "<img src=x onerror=alert(1)>\"'&"
TEMPLATES = settings.BASE_DIR / "templates" / "jinja2" / "tables"
# A word marked for translation: _("...") or _('...'), as makemessages reads it.
MARK = re.compile(r"""_\((?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\)""")


def _hostile_table():
    """A table whose first player calls himself with markup, after a hand he won at showdown."""
    table = make_table()
    users = seat_players(table, ["mallory", "bob"])
    users[0].first_name = HOSTILE
    users[0].save()
    hand = online_play.deal_hand(table=table, deck=stacked_deck(["AsAh", "2c7d"], "AdAc9s4h3d"))
    assert hand is not None
    while not hand.is_over:
        engine = online_play.engine_of(hand)
        user = users[[u.pk for u in users].index(hand.user_ids[engine.actor])]
        action = "check" if engine.can_check() else "call"
        hand = online_play.act(
            table=table, user=user, hand_id=hand.pk, sequence=hand.sequence, action=action
        )
    return table, users


def test_a_players_markup_is_shown_as_text_in_the_seat_and_the_results():
    table, _users = _hostile_table()
    message = broadcast.public_message(build_snapshot(table.pk, keep=False))
    escaped = "&lt;img src=x onerror=alert(1)&gt;&#34;&#39;&amp;"
    for code, html in message["html"].items():
        assert "<img src=x" not in html, code
        assert f'<span class="name">{escaped}</span>' in html, code  # his seat
        assert f"<b>{escaped}</b>" in html, code  # the pot he won


def test_the_page_escapes_it_too(client):
    table, users = _hostile_table()
    client.force_login(users[1])
    page = client.get(reverse("tables:online_table", args=[table.pk])).content.decode()
    assert "<img src=x" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def test_every_word_of_the_two_parts_has_a_german_translation():
    marked = set()
    for path in TEMPLATES.glob("*.html"):
        for double, single in MARK.findall(path.read_text(encoding="utf-8")):
            marked.add(double or single)
    assert len(marked) > 60  # both parts' words, read by the pattern makemessages uses
    catalogue = trans_real.translation("de")._catalog  # type: ignore[attr-defined]
    missing = sorted(word for word in marked if not catalogue.get(word))
    assert missing == []


def test_a_part_is_drawn_in_the_language_active():
    table = make_table()
    seat_players(table, ["ann", "bob"])
    snapshot = build_snapshot(table.pk, keep=False)
    html = broadcast.public_message(snapshot, ["en", "de"])["html"]
    assert "Seat 3" in html["en"]
    assert "Seat 3" not in html["de"]
    with translation.override("de"):
        assert translation.gettext("Seat %(number)s") % {"number": 3} in html["de"]


def test_the_page_puts_its_csrf_field_in_the_private_forms_the_stream_none(client):
    table = make_table()
    users = seat_players(table, ["ann", "bob"])
    client.force_login(users[0])
    page = client.get(reverse("tables:online_table", args=[table.pk])).content.decode()
    mine = page[page.index('<div id="mine"') :]
    assert mine.count('name="csrfmiddlewaretoken"') == mine.count("<form") > 0
    message = broadcast.private_message(build_snapshot(table.pk, keep=False), users[0].pk)
    for html in message["html"].values():
        assert html.count("<form") > 0
        assert "csrfmiddlewaretoken" not in html


def test_the_page_tag_refuses_a_part_it_does_not_know():
    with pytest.raises(TemplateSyntaxError, match="no part 'secret'"):
        Template('{% load online_parts %}{% online_part "secret" %}').render(Context({}))


def test_the_environment_is_built_once_a_process():
    assert drawing.environment() is drawing.environment()
