"""English and German everywhere (docs/architecture.md, "Languages"): a complete catalogue,
every page in the browser's language, the switch, and no template text outside the translate
tags."""

from __future__ import annotations

import ast
import gettext
import re
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone, translation

from scoring.services import StackInput, record_busts
from tables.models import Seat, Table
from tests.factories import make_entries, make_event, make_structure, make_user
from tests.scoring.season_helpers import finished_event, make_season
from tournaments.models import Denomination, EntryStatus, EventKind
from tournaments.presets import default_chip_set, load_presets

PO_FILE = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.po"
TEMPLATES = Path(settings.BASE_DIR) / "templates"


# --- (a) the catalogue ------------------------------------------------------------------------


def po_entries(text: str) -> list[dict[str, object]]:
    """The entries of a .po file: flags, msgid and every msgstr, with continuation lines joined."""
    entries = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        flags = {
            flag.strip() for line in lines if line.startswith("#,") for flag in line[2:].split(",")
        }
        fields: dict[str, str] = {}
        key = None
        for line in lines:
            if line.startswith("#"):
                continue
            match = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                fields[key] = match.group(2)
            elif line.startswith('"') and key:
                fields[key] += line[1:-1]
        if "msgid" in fields:
            entries.append({"flags": flags, **fields})
    return entries


def placeholders(text: str) -> list[str]:
    return sorted(re.findall(r"%\(\w+\)[sdr]|%[sd]|\{\w*\}", text))


def test_the_german_catalogue_has_no_empty_or_fuzzy_message():
    entries = [e for e in po_entries(PO_FILE.read_text(encoding="utf-8")) if e["msgid"]]
    assert len(entries) > 300
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    empty = [
        e["msgid"]
        for e in entries
        if any(value == "" for key, value in e.items() if key.startswith("msgstr"))
    ]
    assert fuzzy == []
    assert empty == []


def test_the_german_catalogue_keeps_every_placeholder():
    for entry in po_entries(PO_FILE.read_text(encoding="utf-8")):
        if not entry["msgid"]:
            continue
        source = placeholders(str(entry.get("msgid_plural") or entry["msgid"]))
        for key, value in entry.items():
            if key.startswith("msgstr"):
                singular_may_drop_counter = key == "msgstr[0]"
                got = placeholders(str(value))
                if singular_may_drop_counter:
                    got = sorted(set(got) | ({"%(counter)s"} & set(source)))
                assert got == source, (entry["msgid"], value)


def test_the_compiled_catalogue_is_in_step_with_the_source():
    with PO_FILE.with_suffix(".mo").open("rb") as mo_file:
        compiled = gettext.GNUTranslations(mo_file)
    stale = []
    for entry in po_entries(PO_FILE.read_text(encoding="utf-8")):
        if not entry["msgid"] or "msgid_plural" in entry or "msgctxt" in entry:
            continue
        msgid, msgstr = (ast.literal_eval(f'"{entry[key]}"') for key in ("msgid", "msgstr"))
        if compiled.gettext(msgid) != msgstr:
            stale.append(msgid)
    assert stale == [], "run compilemessages"


# --- (b) every page in the browser's language --------------------------------------------------


@pytest.fixture
def night(db):
    """A running event in a season: level 1 (chip-up of the green 25s) is over, four players at
    table 1, one of them out; and a finished satellite of the same season."""
    structure = make_structure(name="Night structure", levels=((25, 50, 0, 12), (50, 100, 0, 12)))
    first = structure.levels.get(position=1)
    first.chip_up = Denomination.objects.get(chip_set=structure.chip_set, value=25)
    first.save()
    structure.smallest_chip = first.chip_up
    structure.save()
    season = make_season(name="Winter")
    finished_event(season=season, names=["Anna", "Bert", "Carl"], name="Satellite 1")
    event = make_event(structure=structure, name="Friday night", code="fri")
    event.season = season
    event.clock_level_index, event.clock_level_started_at = 1, timezone.now()
    event.status = "running"
    event.save()
    table = Table.objects.create(event=event, number=1, seats=10, button_seat=3)
    entries = make_entries(event=event, count=4)
    for seat, entry in zip((1, 3, 5, 8), entries, strict=True):
        entry.status = EntryStatus.PLAYING
        entry.save()
        Seat.objects.create(table=table, number=seat, entry=entry)
    record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=entries[3].pk, stack=3_000)]
    )
    final = make_event(structure=structure, name="Super final", code="final")
    final.kind, final.season = EventKind.FINAL, season
    final.save()
    return {"event": event, "entry": entries[0], "season": season, "final": final}


# Per page: words a German page shows and its English page must not, and the reverse. Names of
# players, events and structures are data and stay as typed.
PAGES = [
    # (name, url pattern, role, German words, English words)
    ("home", "/", None, ["Turniere", "TV-Ansicht", "Laufen gerade", "Demnächst", "Saisons"],
     ["Events", "TV view", "Running now", "Coming up", "Seasons"]),
    ("home as admin", "/", "admin", ["Turniere verwalten", "Protokoll", "Floor-Übersicht"],
     ["Manage events", "Audit log", "Floor dashboard"]),
    ("login", "/accounts/login/", None, ["Einloggen", "Benutzername"], ["Log in", "Username"]),
    ("phone", "/e/{code}/", None, ["Nächstes Level", "Läuft", "Nächste Pause"],
     ["Next level", "Running", "Next break"]),
    ("tv", "/e/{code}/tv/", None, ["Nächstes Level", "Die Uhr auf dem Handy"],
     ["Next level", "The clock on your phone"]),
    ("seat list", "/e/{code}/seats/", None, ["Meinen Platz finden", "Tisch 1"],
     ["Find my seat", "Table 1"]),
    ("my seat", "/e/{code}/seats/{entry}/", None, ["Tisch 1", "Alle Plätze"],
     ["Table 1", "All seats"]),
    ("structure", "/structures/{structure}/", None,
     ["Durchschnittsstack in Big Blinds", "Chip-up: Die 25er gehen aus dem Spiel"],
     ["Average stack in big blinds", "Chip-up: the 25s leave play"]),
    ("preset", "/structures/{preset}/", None,
     ["Sit&Go und Satellites: 3.000 Chips, alle 12 Minuten ein neues Level."],
     ["Sit&Go and satellites: 3,000 chips, a new level every 12 minutes."]),
    ("season", "/seasons/{season}/", None, ["Rangliste", "Rangliste anzeigen nach"],
     ["Standings", "Show the standings by"]),
    ("player", "/players/{player}/", None, ["Siege", "Bester Platz", "Ergebnisse"],
     ["Wins", "Best place", "Results"]),
    ("floor", "/events/{event}/floor/", "floor",
     ["Voriges Level", "Zu Level springen", "Chip-up der 25er"],
     ["Previous level", "Jump to level", "Chip-up of the 25s"]),
    ("seating", "/events/{event}/floor/tables/", "floor",
     ["Ausgeschiedene dieser Hand eintragen", "Spieler umsetzen", "Rangliste"],
     ["Record busts of this hand", "Move a player", "Standings"]),
    ("print", "/events/{event}/floor/tables/print/", "floor", ["Platzliste", "Nach Namen"],
     ["Seat list", "By name"]),
    ("chip-up", "/events/{event}/floor/chip-up/", "floor", ["Die 25er (grün)", "Race austeilen"],
     ["The 25s (green)", "Deal the race"]),
    ("super-final", "/events/{final}/floor/super-final/", "floor",
     ["Stacks im Super-Finale", "Gewonnene Satellites"], ["Super-final stacks", "Satellites won"]),
    ("structures", "/structures/", "admin",
     ["Neue Struktur", "JSON importieren", "der kleinste des Chipsatzes"],
     ["New structure", "Import JSON", "the smallest of the chip set"]),
    ("events", "/events/", "admin", ["Laufen gerade", "Turnier beenden", "Neues Turnier"],
     ["Running now", "Finish event", "New event"]),
    ("new event", "/events/new/", "admin",
     ["Geplanter Beginn", "keine (einzelnes Turnier)", "Ortszeit des Hauses"],
     ["Scheduled start", "none (a one-off event)", "House time"]),
    ("edit event", "/events/{event}/edit/", "admin",
     ["„Friday night“ bearbeiten", "Die Uhr läuft: Struktur und Startstack bleiben"],
     ["Edit “Friday night”", "The clock has started: the structure and the starting stack"]),
    ("editor", "/structures/{structure}/edit/", "admin",
     ["Level hinzufügen", "Chip-up danach", "25 (grün)"],
     ["Add level", "Chip-up after", "25 (green)"]),
]  # fmt: skip

# Small words that give a page in the other language away.
ENGLISH_ONLY = re.compile(r"\b(the|and|of|with|is|are|to|your|yet|not|by|per)\b")
GERMAN_ONLY = re.compile(r"\b(der|die|das|und|nicht|noch|mit|dem|ein|eine|pro)\b")


def readable_text(html: str) -> str:
    """What a person reads: text between tags and the title, placeholder and label attributes."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    attributes = re.findall(r'\b(?:title|placeholder|aria-label|hx-confirm)="([^"]*)"', html)
    text = re.sub(r"<[^>]+>", " ", html)
    return " ".join(unescape(" ".join([text, *attributes])).split())


@pytest.fixture
def urls(night):
    event, entry = night["event"], night["entry"]
    preset = next(s for s in load_presets() if s.name.startswith("Sit&Go"))
    return {
        "code": event.code,
        "entry": entry.pk,
        "event": event.pk,
        "final": night["final"].pk,
        "structure": event.structure_id,
        "preset": preset.pk,
        "season": night["season"].pk,
        "player": entry.player_id,
    }


@pytest.mark.parametrize(
    ("url", "role", "german", "english"),
    [page[1:] for page in PAGES],
    ids=[page[0] for page in PAGES],
)
def test_every_page_speaks_the_browsers_language(client, urls, url, role, german, english):
    if role:
        client.force_login(make_user(username=role, role=role))
    url = url.format(**urls)
    for language, present, absent, giveaway in (
        ("de", german, english, ENGLISH_ONLY),
        ("en-GB,en;q=0.9", english, german, GERMAN_ONLY),
    ):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, (url, language)
        html = response.content.decode()
        assert f'<html lang="{language[:2]}">' in html
        assert 'action="/i18n/setlang/"' in html, "a language switch on every page"
        text = readable_text(html)
        for word in present:
            assert word in text, (url, language, word)
        for word in absent:
            assert word not in text, (url, language, word)
        assert giveaway.findall(text) == [], (url, language)


def test_every_page_names_its_icon_which_is_served(client, db):
    """Without one the browser asked for /favicon.ico on every page: a 404 each time."""
    html = client.get("/").content.decode()
    assert '<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">' in html
    icon = client.get("/static/img/favicon.svg")
    assert icon.status_code == 200
    assert b"<svg" in b"".join(icon.streaming_content)


def test_a_browser_without_a_language_gets_english(client, urls):
    html = client.get(f"/e/{urls['code']}/").content.decode()
    assert '<html lang="en">' in html and "Next level" in html


# --- (c) the switch ---------------------------------------------------------------------------


def test_the_language_switch_changes_the_next_page(client, urls):
    phone = f"/e/{urls['code']}/"
    assert "Next level" in client.get(phone, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    response = client.post("/i18n/setlang/", {"language": "de", "next": phone})
    assert response.status_code == 302 and response["Location"] == phone
    html = client.get(phone, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Nächstes Level" in html and "Next level" not in html

    client.post("/i18n/setlang/", {"language": "en", "next": phone})
    html = client.get(phone, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Next level" in html and "Nächstes Level" not in html


def test_the_switch_shows_the_current_language(client, urls):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert re.search(r'value="de"[^>]*class="lang current"', html)
    assert not re.search(r'value="en"[^>]*class="lang current"', html)


def test_a_german_request_in_one_test(client, db):
    client.get("/", HTTP_ACCEPT_LANGUAGE="de")
    assert translation.get_language() == "de"  # LocaleMiddleware leaves it active in this thread


def test_does_not_leave_the_next_test_speaking_german():
    # The test client serves requests in the test's own thread; tests/conftest.py resets the
    # language after each test, as a server starts each request afresh.
    assert translation.get_language() == settings.LANGUAGE_CODE
    assert str(translation.gettext_lazy("Next level")) == "Next level"


ERROR_PAGES = {  # (status, English heading, German heading)
    "404": (404, "Page not found", "Seite nicht gefunden"),
    "403": (403, "Not allowed", "Nicht erlaubt"),
    "403 csrf": (403, "The page is out of date", "Die Seite ist veraltet"),
    "500": (500, "Server error", "Serverfehler"),
    "400": (400, "Bad request", "Ungültige Anfrage"),
}


@pytest.mark.parametrize("case", ERROR_PAGES)
def test_error_pages_speak_the_browsers_language_and_lead_back(case, db, monkeypatch):
    """Django's own error pages are English only ("Not Found", "Server Error (500)"): a player
    who mistypes a table's address, or hits a failure, reads his language and a way back."""
    from django.test import Client

    status, english, german = ERROR_PAGES[case]
    event = make_event()
    client = Client(raise_request_exception=False, enforce_csrf_checks=case == "403 csrf")
    if case == "403":
        client.force_login(make_user(username="player", role="player"))
    if case == "500":

        def broken(*_args, **_kwargs):
            raise RuntimeError("a failure inside the page")

        monkeypatch.setattr("scoring.home_views.clock_display", broken)
        event.status = "running"
        event.save()
    requests = {
        "404": lambda language: client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language),
        "403": lambda language: client.get(
            f"/events/{event.pk}/floor/", HTTP_ACCEPT_LANGUAGE=language
        ),
        "403 csrf": lambda language: client.post(
            "/accounts/login/", {"username": "x", "password": "y"}, HTTP_ACCEPT_LANGUAGE=language
        ),
        "500": lambda language: client.get("/", HTTP_ACCEPT_LANGUAGE=language),
        "400": lambda language: client.get(
            "/", HTTP_HOST="not-ours.example", HTTP_ACCEPT_LANGUAGE=language
        ),
    }
    for language, heading, other in (("de", german, english), ("en", english, german)):
        response = requests[case](language)
        assert response.status_code == status, (case, language)
        html = response.content.decode()
        assert f'<html lang="{language}">' in html
        assert f"<h1>{heading}</h1>" in html
        assert other not in readable_text(html)
        assert 'href="/"' in html, "a way back to the start page"
        assert 'rel="icon" href="/static/img/favicon.svg"' in html  # no /favicon.ico asked


# --- (d) no template text outside the translate tags --------------------------------------------

# Text a person may read that is the same in both languages: the brand, poker abbreviations,
# a card shown as an example.
ALLOWED = {"Floorman", "BB", "As"}
DJANGO_TAG = re.compile(r"{%.*?%}|{{.*?}}|{#.*?#}", re.S)


def untranslated_text(source: str) -> list[str]:
    """English-looking words of a template outside {% translate %} and {% blocktranslate %}."""
    source = re.sub(r"{%\s*blocktranslate\b.*?%}.*?{%\s*endblocktranslate\s*%}", " ", source,
                    flags=re.S)  # fmt: skip
    source = re.sub(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", " ", source, flags=re.S)
    source = re.sub(r"{%\s*block body_class\s*%}.*?{%\s*endblock\s*%}", " ", source)
    source = re.sub(r"<(script|style)\b.*?</\1>|<!--.*?-->", " ", source, flags=re.S)
    # a literal a filter prints ({{ x|default:"none" }}) is text too
    literals = re.findall(r"\|(?:default|default_if_none):[\"']([^\"']*)", source)
    source = DJANGO_TAG.sub(" ", source)  # what a tag prints is translated where it is made
    pieces = re.findall(r">([^<>]*)<", f">{source}<")  # text between tags (and file ends)
    pieces += literals
    pieces += re.findall(r'\b(?:title|placeholder|alt|aria-label|hx-confirm)="([^"]*)"', source)
    words = []
    for piece in pieces:
        words += re.findall(r"[A-Za-z][A-Za-z'’-]+", piece)
    return [word for word in words if word not in ALLOWED]


def test_the_scanner_finds_plain_template_text():
    assert untranslated_text("<main><p>Hello world</p></main>") == ["Hello", "world"]
    assert untranslated_text('<input placeholder="Your name">') == ["Your", "name"]
    assert untranslated_text("{% block title %}Seat list{% endblock %}") == ["Seat", "list"]
    assert untranslated_text('<td>{{ ante|default:"none" }}</td>') == ["none"]
    assert untranslated_text("<p>{{ name }}: {% translate 'Hello' %}</p>") == []
    assert untranslated_text("<p>{% blocktranslate %}Hi {{ n }}{% endblocktranslate %}</p>") == []


def test_no_template_has_text_outside_the_translate_tags():
    found = {
        str(path.relative_to(TEMPLATES)): words
        for path in sorted(TEMPLATES.rglob("*.html"))
        if (words := untranslated_text(path.read_text(encoding="utf-8")))
    }
    assert found == {}


# --- strings stored in English in the database -------------------------------------------------


def test_chip_colours_and_preset_descriptions_show_in_the_page_language(db):
    chip = Denomination.objects.get(chip_set=default_chip_set(), value=25)
    preset = next(s for s in load_presets() if s.name.startswith("Deepstack"))
    with translation.override("de"):
        assert str(chip) == "25 (grün)"
        assert preset.description_text.startswith("Deepstack: 10.000 Chips")
    with translation.override("en"):
        assert str(chip) == "25 (green)"
        assert preset.description_text == preset.description
    chip.colour = "Magenta"  # typed by the admin: shown as typed
    assert chip.colour_name == "Magenta"
