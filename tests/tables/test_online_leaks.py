"""Hole cards and the deck never leave the server except to their owner (docs/architecture.md,
"Integrity"; R1.8 for what a showdown shows).

Scripted hands (six and three players) are played move by move; after EVERY move every role
(anonymous, a logged-in spectator, each seated player, a player of another table, floor staff,
admin) reads: the lobby, the table page, the fragment, the hand histories and their PHH, the
session PHH, the Django admin of the online models and the audit log, refused moves (their 4xx
answers and pages), its own event stream across the move, and every message put on the bus.
Each answer may name only the cards its reader may see at that moment (his own; after the hand,
the cards in ``TableHand.shown``; an admin's session export of a closed table, all); never the
deck, the hand's secret, the salt of a card he may not see or the name of a mucked hand; and
his stream carries no other player's private news. The answers that cannot depend on the
running hand (the Django admin's and the log-in's refusals, the other table's finished hand,
error pages), and the table page's other renderings (the page answering a bad form, the page in
its frame, "My tables", a page of such frames) are read at the deal and once the hand is over.
The logs (DEBUG and up) name no hole card.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from tables.engine import ShowHand, card_name, card_salt, parse_cards
from tables.hand_names import hand_name
from tables.online import live as online_live
from tables.online import play as online_play
from tables.online import publish as online_publish
from tables.online import selectors as online_selectors
from tables.online.models import OnlineSeat, OnlineTable, Presence, TableHand
from tests.factories import make_user
from tests.tables.online_helpers import make_table, seat_players, stacked_deck
from tournaments.models import LiveMessage

# The tables are watched: their messages carry the public table (tests/tables/conftest.py).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("watched")]

# Card codes as pages and PHH write them: 'Ah' in data-card="Ah" or text, 'AhKd' in PHH.
CARD_RUN = re.compile(r"(?<![A-Za-z0-9])((?:[2-9TJQKA][cdhs])+)(?![A-Za-z0-9])")
# A card as the page draws it: rank, then the suit's symbol (online_table_tags.card).
DRAWN = re.compile(r"(10|[2-9JQKA])<i>([♠♥♦♣])</i>")
SUIT_LETTERS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
# An SVG icon's path ('M10 7a7 7 0 0 0 12 4.9v.1c0 ... 2h.1') reads like cards; it is drawing.
SVG_PATH = re.compile(r'\sd="[^"]*"')
NONCE = re.compile(r'\snonce="[^"]*"')  # a page's CSP nonce: random base64, no card


def cards_in(text: str) -> set[str]:
    """Every card a text names, by code or drawn."""
    found: set[str] = set()
    for run in CARD_RUN.findall(NONCE.sub("", SVG_PATH.sub("", text))):
        found.update(run[i : i + 2] for i in range(0, len(run), 2))
    for rank, suit in DRAWN.findall(text):
        found.add(("T" if rank == "10" else rank) + SUIT_LETTERS[suit])
    return found


@dataclass(frozen=True)
class Sight:
    """What a reader may see of one hand now: cards; and hand names he may not (mucked)."""

    cards: frozenset[str]
    hidden_names: frozenset[str] = frozenset()


def sight(hand: TableHand, viewer_id: int | None, *, all_cards: bool = False) -> Sight:
    """The board dealt so far, the viewer's own hole cards, after the hand the shown ones (R1.8),
    in an all-in runout the live hands (TDA 16); an admin's export of a closed table: every hole
    card."""
    engine = online_play.engine_of(hand)
    seen = {card_name(card) for card in engine.board}
    visible = set()
    tabled = not hand.is_over and getattr(engine, "tabled", False)
    for position, hole in enumerate(engine.hole_cards):
        mine = viewer_id is not None and hand.user_ids[position] == viewer_id
        face_up = tabled and not engine.folded[position]
        if all_cards or mine or face_up or (hand.is_over and position in hand.shown):
            seen.update(card_name(card) for card in hole or ())
            visible.add(position)
    names = {r.seat: hand_name(r.value) for r in engine.records if isinstance(r, ShowHand)}
    shown_names = {names[p] for p in visible if p in names}
    hidden = {name for p, name in names.items() if p not in visible} - shown_names
    return Sight(frozenset(seen), frozenset(hidden))


def hole_cards(hand: TableHand) -> set[str]:
    engine = online_play.engine_of(hand)
    return {card_name(card) for hole in engine.hole_cards for card in hole or ()}


def deck_pattern(hand: TableHand) -> re.Pattern[str]:
    """The first ten cards of the deck in order, however they are separated (JSON, a list)."""
    numbers = [str(card) for card in hand.cards().deck[:10]]
    return re.compile(r"(?<!\d)" + r"\D{1,8}".join(numbers) + r"(?!\d)")


def leaks(text: str, sights: dict[TableHand, Sight]) -> list[str]:
    """What ``text`` shows that its reader may not see; ``sights``: per hand, what he may."""
    allowed = set().union(*(s.cards for s in sights.values()))
    problems = [f"card {card}" for card in sorted(cards_in(text) - allowed)]
    for hand, seen in sights.items():
        dealt = hand.cards()  # the deck and secret, opened here to look for them
        if dealt.secret.hex() in text:
            problems.append(f"the secret of hand {hand.pk}")
        if json.dumps(list(dealt.deck)) in text or deck_pattern(hand).search(text):
            problems.append(f"the deck of hand {hand.pk}")
        secret = dealt.secret
        for position, card in enumerate(dealt.deck):
            hidden = card_name(int(card)) not in seen.cards
            if hidden and card_salt(secret, position).hex() in text:
                problems.append(f"the salt of hand {hand.pk}'s deck position {position}")
        problems += [f"the mucked hand {name!r}" for name in seen.hidden_names if name in text]
    return problems


def carried_html(text: str) -> list[str]:
    """The HTML that stream frames or bus messages in ``text`` carry, decoded from their JSON
    (escaped there, a card's suit would not be read)."""
    found = []
    for line in text.splitlines():
        body = line[6:] if line.startswith("data: ") else line.split(" ", 1)[-1]
        if not body.startswith("{"):
            continue
        try:
            told = json.loads(body)
        except ValueError:
            continue
        if isinstance(told, dict) and isinstance(told.get("html"), dict):
            found += [str(html) for html in told["html"].values()]
    return found


def _tells(frame: str, table_id: int, version: int) -> bool:
    """Whether a stream frame tells the table at ``version`` (a nudge, or the public table)."""
    for line in frame.splitlines():
        if line.startswith("data: "):
            told = json.loads(line[6:])
            if told.get("table") == table_id and told.get("version") == version:
                return "user" not in told
    return False


def private_news(frames: list[str]) -> list[dict]:
    """The private events (a player's turn, his chips) among a stream's frames."""
    told = [json.loads(line[6:]) for f in frames for line in f.splitlines() if line[:6] == "data: "]
    return [news for news in told if "user" in news]


# -- the table, its players and the roles who read it -------------------------------------------


@pytest.fixture(autouse=True)
def quick_logins_and_the_database_bus(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LIVE_BUS = "db"  # every nudge is also a LiveMessage row, read back below
    settings.LANGUAGE_CODE = "en"


@dataclass
class Role:
    name: str
    client: Client
    user_id: int | None = None
    is_admin: bool = False


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@dataclass
class Watch:
    """A table watched by every role after every move."""

    table: OnlineTable
    other: OnlineTable  # another table, where ``dave`` played a hand
    other_hand: TableHand
    roles: list[Role]
    capture: Callable[..., object]
    caplog: pytest.LogCaptureFixture
    published: list[str] = field(default_factory=list)
    hand: TableHand | None = None
    answers: int = 0
    steps: int = 0
    private_news: int = 0
    public_messages: int = 0
    _sights: dict[tuple[str, bool], dict[TableHand, Sight]] = field(default_factory=dict)

    def role(self, name: str) -> Role:
        return next(role for role in self.roles if role.name == name)

    def hands(self) -> list[TableHand]:
        return [self.other_hand] + ([self.hand] if self.hand is not None else [])

    def sights(self, role: Role, *, session: bool = False) -> dict[TableHand, Sight]:
        """Per hand, what ``role`` may see now (memoised until the next move)."""
        key = (role.name, session)
        if key not in self._sights:
            for hand in self.hands():
                hand.refresh_from_db()
            self._sights[key] = {
                hand: sight(hand, role.user_id, all_cards=session and hand == self.hand)
                for hand in self.hands()
            }
        return self._sights[key]

    def check_message(self, where: str, channel: str, payload: str) -> None:
        """A message on the bus: a player's own channel may show his cards, nobody else's; a
        table's channel carries the public table (every tab's: a spectator's sight)."""
        if channel.split(":")[-2] == "user":  # a player's own channel: his news only
            owner = int(channel.split(":")[-1])
            assert json.loads(payload)["user"] == owner, f"{where}: {channel} {payload}"
            allowed = {hand: sight(hand, owner) for hand in self.hands()}  # his own cards
            self.check(f"{where} to user {owner}", f"{channel} {payload}", allowed)
        else:
            spectator = self.role("spectator")
            self.check(f"{where} of the table", f"{channel} {payload}", self.sights(spectator))
            self.public_messages += "html" in json.loads(payload)

    def check(self, where: str, text: str, sights: dict[TableHand, Sight]) -> None:
        self.answers += 1
        text += "".join(carried_html(text))  # a message's table, read as the page reads it
        found = leaks(text, sights)
        # The bots' seed (never the deck's) is no page's business either.
        found += [f"{t.name}'s bot seed" for t in (self.table, self.other) if t.bot_seed in text]
        assert not found, f"{where} shows {found}"

    def step(self, label: str, move: Callable[[], object], *, offline: Iterable[str] = ()):
        """Open every role's stream (but ``offline``'s), make the move, read the streams across
        it, the bus, every endpoint by every role and the logs."""
        streams = {
            role.name: self._open_stream(role) for role in self.roles if role.name not in offline
        }
        self._sights.clear()
        with self.capture(execute=True):
            result = move()
        self._sights.clear()
        version = OnlineTable.objects.get(pk=self.table.pk).version
        for role in self.roles:
            if role.name in streams:
                frames = self._read_stream(streams[role.name], version, f"{label}: {role.name}")
                self.check(f"{label}: {role.name}'s stream", "".join(frames), self.sights(role))
                for news in private_news(frames):
                    self.private_news += 1
                    assert news["user"] == role.user_id, f"{label}: {role.name} is told {news}"
        assert self.published, "no message was published"
        for message in self.published:
            channel, payload = message.split(" ", 1)
            self.check_message(f"{label}: a bus message", channel, payload)
        for channel, payload in LiveMessage.objects.values_list("channel", "payload"):
            self.check_message(f"{label}: a LiveMessage row", channel, payload)
        self.published.clear()
        full = (
            self.steps == 0 or self.hand is None or TableHand.objects.get(pk=self.hand.pk).is_over
        )
        for role in self.roles:
            self.read_everything(role, label, full=full)
        self.check_logs(label)
        self.steps += 1
        return result

    def _open_stream(self, role: Role) -> Iterator[str]:
        stream = online_live.stream_tables_sync(
            [self.table.pk, self.other.pk], user_id=role.user_id, seconds=10, heartbeat=60
        )
        for _frame in range(3):  # 'connected', then each table's version
            next(stream)
        return stream

    def _read_stream(self, stream: Iterator[str], version: int, where: str) -> list[str]:
        """The stream's frames until it tells the table's new version."""
        frames: list[str] = []
        try:
            while not any(_tells(frame, self.table.pk, version) for frame in frames):
                frames.append(next(stream))
        except StopIteration:
            pytest.fail(f"{where}'s stream never told version {version}: {frames}")
        finally:
            stream.close()  # type: ignore[attr-defined]
        return frames

    def urls(self, role: Role, *, full: bool) -> list[tuple[str, str]]:
        table = self.table.pk
        urls = [
            ("lobby", reverse("tables:online_lobby")),
            ("table", reverse("tables:online_table", args=[table])),
            ("fragment", reverse("tables:online_state", args=[table])),
        ]
        if role.user_id is not None or full:
            urls += [
                ("history", reverse("tables:online_history")),
                ("history PHH", reverse("tables:online_history_phh")),
                ("session PHH", reverse("tables:online_session_phh", args=[table])),
            ]
        hands = [self.hand] if self.hand is not None else []
        if full:
            hands.append(self.other_hand)
            mine = reverse("tables:online_mine")
            urls += [
                ("table in a frame", reverse("tables:online_table", args=[table]) + "?embed=1"),
                ("my tables", mine),
                ("my tables, named", f"{mine}?t={table}&t={self.other.pk}"),
                ("no such hand", reverse("tables:online_hand", args=[999_999])),
                ("no such table", reverse("tables:online_state", args=[999_999])),
            ]
        if role.user_id is not None or full:
            for hand in hands:
                urls += [
                    (f"hand {hand.pk}", reverse("tables:online_hand", args=[hand.pk])),
                    (f"hand {hand.pk} PHH", reverse("tables:online_hand_phh", args=[hand.pk])),
                ]
        if role.is_admin or full:
            urls += [
                ("admin", "/admin/"),
                ("admin hands", "/admin/tables/tablehand/"),
                ("admin tables", "/admin/tables/onlinetable/"),
                ("admin table", f"/admin/tables/onlinetable/{table}/change/"),
                ("admin accounts", "/admin/tables/chipaccount/"),
                ("admin transfers", "/admin/tables/chiptransfer/"),
                ("admin audit log", "/admin/tournaments/auditevent/"),
            ]
            for hand in hands:
                admin_hand = f"/admin/tables/tablehand/{hand.pk}"
                urls += [
                    (f"admin hand {hand.pk}", f"{admin_hand}/change/"),
                    (f"admin hand {hand.pk} history", f"{admin_hand}/history/"),
                    (f"admin hand {hand.pk} delete", f"{admin_hand}/delete/"),
                ]
        return urls

    def read_everything(self, role: Role, label: str, *, full: bool) -> None:
        """Every endpoint by ``role``, and his refused moves (their 4xx answers)."""
        statuses = {}
        for name, url in self.urls(role, full=full):
            response = role.client.get(url)
            statuses[name] = response.status_code
            session = name == "session PHH" and response.status_code == 200
            sights = self.sights(role, session=session)
            self.check(f"{label}: {role.name} reads {name}", response.content.decode(), sights)
        expect_statuses(self, role, statuses, f"{label}: {role.name}")
        self.refused_moves(role, label, full=full)

    def refused_moves(self, role: Role, label: str, *, full: bool) -> None:
        """A stale move answered as text (409, or 403 for one not dealt in); at the deal and
        after the hand also a bad form answered with the page (400): no card, nothing changed."""
        act = reverse("tables:online_act", args=[self.table.pk])
        hand = self.hand.pk if self.hand is not None else 999_999
        tries = [({"hand": hand, "sequence": 10_000, "action": "fold"}, {"X-Floorman": "table"})]
        if full:
            tries.append(({"hand": "x", "action": "shove"}, {}))
        before = OnlineTable.objects.get(pk=self.table.pk).version
        for data, headers in tries:
            response = role.client.post(act, data, headers=headers)
            expected = {302} if role.user_id is None else {400, 403, 404, 409}
            assert response.status_code in expected, (label, role.name, data)
            where = f"{label}: {role.name}'s refused move {data}"
            self.check(where, response.content.decode(), self.sights(role))
        assert OnlineTable.objects.get(pk=self.table.pk).version == before

    def check_logs(self, label: str) -> None:
        secrets_ = {hand.cards().secret.hex() for hand in self.hands()}
        holes = set().union(*(hole_cards(hand) for hand in self.hands()))
        for record in self.caplog.records:
            text = record.getMessage() + (record.exc_text or "")
            named = cards_in(text) & holes
            assert not named, f"{label}: a log line names {named}: {text!r}"
            assert not any(secret in text for secret in secrets_), f"{label}: {text!r}"


def expect_statuses(watch: Watch, role: Role, statuses: dict[str, int], where: str) -> None:
    """Each role reads what it may (200) and is refused the rest: the checks read real answers."""
    for name in ("lobby", "table", "fragment", "table in a frame"):
        assert statuses.get(name, 200) == 200, (where, name)
    for name, status in statuses.items():
        if name.startswith("admin"):
            # The admin reads hands but deletes none (tables/admin.py): that page is a 403.
            expected = (403 if name.endswith("delete") else 200) if role.is_admin else 302
            assert status == expected, (where, name)
    if "no such hand" in statuses:
        assert statuses["no such hand"] == (302 if role.user_id is None else 404), where
        assert statuses["no such table"] == 404, where
    if role.user_id is None:
        assert all(s in (200, 302, 404) for s in statuses.values()), where
        return
    assert statuses["history"] == statuses["history PHH"] == 200, where
    assert statuses.get("my tables", 200) == statuses.get("my tables, named", 200) == 200, where
    table_open = OnlineTable.objects.get(pk=watch.table.pk).is_open
    expected = 403 if not role.is_admin else 409 if table_open else 200
    assert statuses["session PHH"] == expected, where
    for hand in watch.hands():
        if f"hand {hand.pk}" in statuses:
            dealt = role.user_id in hand.user_ids
            expected = 404 if not hand.is_over else 200 if dealt else 403
            assert statuses[f"hand {hand.pk}"] == expected, (where, hand.pk)
            assert statuses[f"hand {hand.pk} PHH"] == expected, (where, hand.pk)


# -- moves ---------------------------------------------------------------------------------------

DAVES_CARDS = {"6s", "6c"}  # his hand at the other table, folded before the flop
OTHER_DECK = stacked_deck(["6s6c", "2d3d"])


@pytest.fixture
def watch_table(django_capture_on_commit_callbacks, caplog, monkeypatch):
    """``watch_table(names)``: a table with ``names`` seated, another table where dave played a
    hand, and every role ready to read."""
    caplog.set_level(logging.DEBUG)

    def build(names: list[str]) -> Watch:
        floor = make_user(username="flo", role="floor")
        admin = make_user(username="ada", role="admin")
        table = make_table(seats=6, actor=floor)
        players = seat_players(table, names)
        other = make_table(seats=2, name="Table 2", actor=floor)
        dave, _erin = seat_players(other, ["dave", "erin"])
        other_hand = online_play.deal_hand(table=other, deck=OTHER_DECK)
        with django_capture_on_commit_callbacks(execute=True):
            # R2.8: heads-up dave has the button and the small blind, and acts first.
            online_play.act(
                table=other, user=dave, hand_id=other_hand.pk, sequence=0, action="fold"
            )
        other_hand.refresh_from_db()
        assert other_hand.is_over
        assert sight(other_hand, dave.pk).cards == DAVES_CARDS
        spectator = make_user(username="sam")
        roles = [
            Role("anonymous", client_for()),
            Role("spectator", client_for(spectator), spectator.pk),
            *[Role(p.username, client_for(p), p.pk) for p in players],
            Role("another table's player", client_for(dave), dave.pk),
            Role("floor", client_for(floor), floor.pk),
            Role("admin", client_for(admin), admin.pk, is_admin=True),
        ]
        watch = Watch(
            table=table,
            other=other,
            other_hand=other_hand,
            roles=roles,
            capture=django_capture_on_commit_callbacks,
            caplog=caplog,
        )
        real_publish = online_publish.publish

        def publish(channel: str, payload: str) -> None:
            watch.published.append(f"{channel} {payload}")
            real_publish(channel, payload)

        def publish_many(messages: list[tuple[str, str]]) -> None:
            for channel, payload in messages:
                publish(channel, payload)

        monkeypatch.setattr(online_publish, "publish", publish)
        monkeypatch.setattr(online_publish, "publish_many", publish_many)
        return watch

    return build


def deal(watch: Watch, holes: list[str], board: str):
    """The next hand from a stacked deck: ``holes`` in dealing order from the small blind."""
    assert not set(parse_cards("".join(holes))) & set(parse_cards("".join(DAVES_CARDS)))

    def move():
        watch.hand = online_play.deal_hand(table=watch.table, deck=stacked_deck(holes, board))
        assert watch.hand is not None

    return move


def play(watch: Watch, name: str, action: str, amount: int | None = None):
    """A player's move through the page (X-Floorman: table); his fragment is read too."""

    def move():
        hand = TableHand.objects.get(pk=watch.hand.pk)
        data = {"hand": hand.pk, "sequence": hand.sequence, "action": action, "key": ""}
        if amount is not None:
            data["amount"] = amount
        answer(watch, name, "online_act", data)

    return move


def answer(watch: Watch, name: str, route: str, data: dict) -> None:
    role = watch.role(name)
    url = reverse(f"tables:{route}", args=[watch.table.pk])
    response = role.client.post(url, data, headers={"X-Floorman": "table"})
    assert response.status_code == 200, (name, route, response.content)
    watch.check(f"{name} {route}: the answer", response.content.decode(), watch.sights(role))


def post(watch: Watch, name: str, route: str, *, hand: bool = False):
    """A POST through the page (X-Floorman: table), naming the hand if ``hand``."""
    return lambda: answer(watch, name, route, {"hand": watch.hand.pk} if hand else {})


def time_out(watch: Watch, *, move: str, cause: str | None = None):
    """The sweeper's time-out of the actor just after his deadline (R3.10). The open streams'
    heartbeats (every 15 s) have come in meanwhile: their players are connected."""

    def run():
        hand = TableHand.objects.get(pk=watch.hand.pk)
        later = hand.deadline + timedelta(seconds=1)
        Presence.objects.filter(streams__gt=0).update(last_seen=later)
        assert online_play.expire_turn(hand_id=hand.pk, sequence=hand.sequence, now=later)
        record = hand.actions.order_by("sequence").last().record
        assert record["move"] == move and record.get("cause") == cause, record

    return run


def play_script(watch: Watch, script) -> None:
    for name, action, *amount in script:
        watch.step(f"{name} {action} {amount}", play(watch, name, action, *amount))


def close_and_export(watch: Watch) -> None:
    """The floor closes the table (the admin's export of the session is then read by every
    role: 403 but for the admin, who sees every hole card, and nobody sees the deck)."""
    watch.step("the floor closes the table", post(watch, "floor", "online_close"))
    response = watch.role("admin").client.get(
        reverse("tables:online_session_phh", args=[watch.table.pk])
    )
    assert response.status_code == 200
    assert hole_cards(watch.hand) <= cards_in(response.content.decode())
    assert watch.answers > 0 and watch.private_news > 0  # the checks read real answers
    assert watch.public_messages > 0  # the table messages carried the table and were read


# -- the hands -----------------------------------------------------------------------------------


def test_r1_8_six_handed_showdown_shows_the_winner_never_the_mucked_losers(watch_table):
    watch = watch_table(["alice", "bob", "carol", "dan", "eve", "fay"])
    # Alice sat first: the button (R2.2). Dealing order from the small blind: bob, carol, dan,
    # eve, fay, alice.
    holes = ["QsJs", "9c8c", "TdTh", "AdAh", "5h4h", "KhKd"]
    watch.step("the deal", deal(watch, holes, "Ac7h2s9d3c"))
    play_script(watch, [
        ("dan", "fold"), ("eve", "call"), ("fay", "fold"), ("alice", "call"), ("bob", "fold"),
        ("carol", "check"),
        ("carol", "check"), ("eve", "check"), ("alice", "check"),
        ("carol", "check"), ("eve", "check"), ("alice", "check"),
        ("carol", "check"), ("eve", "raise", 40), ("alice", "call"), ("carol", "call"),
    ])  # fmt: skip
    hand = TableHand.objects.get(pk=watch.hand.pk)
    assert hand.is_over
    # R1.8: eve bet the river and shows first (trip aces); alice's kings and carol's nines are
    # beaten and muck: nobody but their owners sees them, nor their hands' names.
    assert hand.shown == [4]
    assert sight(hand, None).hidden_names == {"Pair of kings", "Pair of nines"}
    fragment = watch.role("spectator").client.get(
        reverse("tables:online_state", args=[watch.table.pk])
    )
    assert 'data-card="Ad"' in fragment.content.decode()
    assert "Three of a kind, aces" in fragment.content.decode()
    # A loser may show his mucked cards after the hand: then everybody sees them.
    watch.step("alice shows her cards", post(watch, "alice", "online_show", hand=True))
    assert TableHand.objects.get(pk=hand.pk).shown == [4, 0]
    close_and_export(watch)


def test_a_hand_won_without_showdown_shows_no_card_and_no_unseen_street(watch_table):
    watch = watch_table(["alice", "bob", "carol"])
    # Dealing order from the small blind: bob, carol, alice (the button).
    watch.step("the deal", deal(watch, ["KhKd", "7c2d", "AsAh"], "Ac7h2s9d3c"))
    play_script(watch, [
        ("alice", "raise", 30), ("bob", "call"), ("carol", "fold"),
        ("bob", "check"), ("alice", "raise", 40), ("bob", "fold"),
    ])  # fmt: skip
    hand = TableHand.objects.get(pk=watch.hand.pk)
    assert hand.is_over and hand.shown == []
    assert sight(hand, None).cards == {"Ac", "7h", "2s"}  # the turn and river stay in the deck
    watch.step("the fold's next hand is not dealt yet", post(watch, "carol", "online_sit_out"))
    close_and_export(watch)


def test_r3_10_time_outs_connected_folds_dropped_is_protected_and_nothing_leaks(watch_table):
    watch = watch_table(["alice", "bob", "carol"])
    watch.step("the deal", deal(watch, ["KhKd", "7c2d", "AsAh"], "Ac7h2s9d3c"))
    play_script(watch, [("alice", "raise", 30), ("bob", "call")])
    # Carol's stream is open while her time runs out (connected): she folds (R3.10).
    watch.step("carol times out", time_out(watch, move="fold", cause="clock"))
    # Bob's stream is gone (the server saw it drop) and he has chips in: all-in for the pot.
    bob = watch.role("bob")
    assert Presence.objects.get(user_id=bob.user_id).dropped_at is not None
    watch.step("bob drops and times out", time_out(watch, move="time_out"), offline=["bob"])
    hand = TableHand.objects.get(pk=watch.hand.pk)
    while not hand.is_over:
        watch.step("alice checks it down", play(watch, "alice", "check"), offline=["bob"])
        hand.refresh_from_db()
    assert set(hand.shown) == {0, 1} and hand.final_stacks == [1_040, 970, 990]
    close_and_export(watch)


def test_r2_9_a_player_who_leaves_mid_hand_folds_and_his_cards_stay_hidden(watch_table):
    watch = watch_table(["alice", "bob", "carol"])
    watch.step("the deal", deal(watch, ["KhKd", "7c2d", "AsAh"], "Ac7h2s9d3c"))
    watch.step("bob leaves", post(watch, "bob", "online_leave"))
    play_script(watch, [("alice", "raise", 30)])  # bob's turn: his hand folds at once (R2.9)
    hand = TableHand.objects.get(pk=watch.hand.pk)
    assert hand.actions.get(sequence=2).record == {"move": "fold", "position": 1, "cause": "absent"}
    play_script(watch, [("carol", "call"), ("carol", "check"), ("alice", "raise", 30)])
    play_script(watch, [("carol", "fold")])
    assert not OnlineSeat.objects.filter(table=watch.table, user_id=watch.role("bob").user_id)
    close_and_export(watch)


def next_street(watch: Watch):
    """The sweeper deals a staged runout's next street once its pause is over."""

    def run():
        hand = TableHand.objects.get(pk=watch.hand.pk)
        later = hand.deadline + timedelta(milliseconds=1)
        assert online_play.expire_turn(hand_id=hand.pk, sequence=hand.sequence, now=later)
        assert hand.actions.order_by("sequence").last().record["move"] == "street"

    return run


def test_tda_16_an_all_in_runout_tables_the_hands_and_no_street_comes_early(watch_table, settings):
    settings.FLOORMAN_RUNOUT_PACE = 0.05  # staged: each street a version of its own
    watch = watch_table(["alice", "bob", "carol"])
    watch.step("the deal", deal(watch, ["7c2d", "AsAd", "KsKh"], "Qh9c5h3s8d"))
    play_script(watch, [("alice", "raise", 1000), ("bob", "fold"), ("carol", "call")])
    hand = TableHand.objects.get(pk=watch.hand.pk)
    assert not hand.is_over and sight(hand, None).cards == {"As", "Ad", "Ks", "Kh"}
    for board in (3, 4, 5):
        watch.step(f"the sweeper deals {board} cards", next_street(watch))
        hand.refresh_from_db()
        assert len(online_play.engine_of(hand).board) == board
    assert hand.is_over and set(hand.shown) == {0, 2}
    assert "7c" not in sight(hand, None).cards  # bob's folded hand stays his
    close_and_export(watch)


# -- the checks can fail -------------------------------------------------------------------------


def test_the_checker_reports_every_kind_of_planted_leak():
    table = make_table()
    seat_players(table, ["alice", "bob"])
    hand = online_play.deal_hand(table=table, deck=stacked_deck(["AhKd", "QsJs"], "2c3c4c5c6c"))
    nothing = {hand: Sight(frozenset())}
    assert leaks('<span class="pcard" data-card="Ah">', nothing) == ["card Ah"]
    assert leaks("d dh p1 AhKd", nothing) == ["card Ah", "card Kd"]
    assert leaks("<span>A<i>♥</i></span>", nothing) == ["card Ah"]
    dealt = hand.cards()
    assert leaks(f"<code>{dealt.secret.hex()}</code>", nothing) == [f"the secret of hand {hand.pk}"]
    assert leaks(f"deck: {json.dumps(list(dealt.deck))}", nothing) == [
        f"the deck of hand {hand.pk}"
    ]
    assert leaks(str(dealt.deck), nothing) == [f"the deck of hand {hand.pk}"]
    salt = card_salt(dealt.secret, 0).hex()
    assert leaks(salt, nothing) == [f"the salt of hand {hand.pk}'s deck position 0"]
    assert leaks("Pair of kings", {hand: Sight(frozenset(), frozenset({"Pair of kings"}))})
    # What the reader may see is no leak; nor is a page's icon drawing.
    mine = {hand: Sight(frozenset({"Ah", "Kd"}))}
    assert leaks('<b data-card="Ah">A<i>♥</i></b> AhKd <path d="M0 2h.1 2c"/>', mine) == []
    # A stream message carries its table as JSON: the checker reads the HTML in it.
    message = json.dumps({"table": 1, "version": 2, "html": {"en": "<span>A<i>♥</i></span>"}})
    assert leaks("".join(carried_html(f"data: {message}")), nothing) == ["card Ah"]
    assert leaks("".join(carried_html(f"fm:table:1 {message}")), nothing) == ["card Ah"]


def test_a_selector_that_showed_every_card_would_be_caught(watch_table, monkeypatch):
    watch = watch_table(["alice", "bob", "carol"])
    monkeypatch.setattr(online_selectors, "visible_cards", lambda *args: True)
    # The stream now carries the table, so the first reader to catch it is a stream.
    with pytest.raises(AssertionError, match=r"(reads table|stream) shows \[.card "):
        watch.step("the deal", deal(watch, ["KhKd", "7c2d", "AsAh"], "Ac7h2s9d3c"))
