"""tables.online.sealing: AES-GCM tokens, key rotation, the embedded default's key file, and
production's refusal to start without a key."""

from __future__ import annotations

import base64
import importlib
import logging
import os
import pickle
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.test import override_settings

from tables.engine import card_name, verify_commitment
from tables.online import play as online_play
from tables.online import sealing
from tables.online.history import hand_phh
from tables.online.history import openings as history_openings
from tables.online.models import Game, HandAction, TableHand, open_move
from tables.online.sealing import SealError, key_id_of, new_key, seal, unseal
from tables.online.selectors import _snapshot_key, build_snapshot, table_view
from tests.tables.online_helpers import make_table, seat_players

ROOT = Path(__file__).resolve().parents[2]
KEY_A = new_key()
KEY_B = new_key()


@pytest.fixture(autouse=True)
def _fresh_keys():
    sealing.reset_keys()
    yield
    sealing.reset_keys()


def _id(key: str) -> bytes:
    return key_id_of(base64.b64decode(key))


@override_settings(FLOORMAN_SEAL_KEYS=[KEY_A])
def test_a_token_opens_to_its_data_and_shows_nothing_of_it():
    data = b'{"deck": [41, 7, 12, 50], "secret": "00ff"}'
    token = seal(data)
    assert unseal(token) == data
    assert data not in token
    assert b"deck" not in token and b"secret" not in token
    assert token.startswith(b"fm1." + _id(KEY_A) + b".")
    assert token.decode("ascii")  # stored in a text column as it is
    assert seal(data) != token  # a fresh nonce each time


@override_settings(FLOORMAN_SEAL_KEYS=[KEY_A])
@pytest.mark.parametrize("position", [-1, -20, len(b"fm1.12345678.") + 2])
def test_a_tampered_token_does_not_open(position):
    token = bytearray(seal(b"the deck"))
    token[position] = ord("A") if token[position] != ord("A") else ord("B")
    with pytest.raises(SealError, match="altered|damaged"):
        unseal(bytes(token))


@override_settings(FLOORMAN_SEAL_KEYS=[KEY_A])
def test_a_token_under_another_header_does_not_open():
    token = seal(b"the deck")
    body = token.split(b".", 2)[2]
    with pytest.raises(SealError, match="no longer holds"):
        unseal(b"fm1." + _id(KEY_B) + b"." + body)
    with pytest.raises(SealError, match="not a sealed token"):
        unseal(b"[41, 7, 12]")
    with pytest.raises(SealError, match="too short"):
        unseal(b"fm1." + _id(KEY_A) + b".AAAA")


def test_a_token_sealed_with_another_key_of_the_same_id_does_not_open():
    with override_settings(FLOORMAN_SEAL_KEYS=[KEY_A]):
        token = seal(b"the deck")
    forged_id = b"fm1." + _id(KEY_B) + b"."
    with (
        override_settings(FLOORMAN_SEAL_KEYS=[KEY_B]),
        pytest.raises(SealError, match="altered or sealed with another key"),
    ):
        unseal(forged_id + token.split(b".", 2)[2])


def test_old_tokens_open_after_a_rotation_and_new_ones_use_the_newest_key():
    with override_settings(FLOORMAN_SEAL_KEYS=[KEY_A]):
        old = seal(b"before the rotation")
    with override_settings(FLOORMAN_SEAL_KEYS=[KEY_B, KEY_A]):
        assert unseal(old) == b"before the rotation"
        new = seal(b"after the rotation")
        assert new.startswith(b"fm1." + _id(KEY_B) + b".")
    with override_settings(FLOORMAN_SEAL_KEYS=[KEY_B]):
        assert unseal(new) == b"after the rotation"
        with pytest.raises(SealError, match=_id(KEY_A).decode()):
            unseal(old)


@pytest.mark.parametrize(
    ("key", "reason"),
    [("not base64!", "not base64"), (base64.b64encode(b"short").decode(), "must be 32 bytes")],
)
def test_a_bad_key_is_refused_with_the_reason(key, reason):
    with (
        override_settings(FLOORMAN_SEAL_KEYS=[key]),
        pytest.raises(ImproperlyConfigured, match=reason),
    ):
        seal(b"x")


def test_the_embedded_default_makes_its_key_file_once_and_says_so(tmp_path, caplog):
    key_file = tmp_path / "var" / "seal.key"
    with override_settings(FLOORMAN_SEAL_KEYS=[], FLOORMAN_SEAL_KEY_FILE=key_file):
        with caplog.at_level(logging.WARNING, logger="tables.online.sealing"):
            token = seal(b"the deck")
        assert "made a new key" in caplog.text and str(key_file) in caplog.text
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        assert list(key_file.parent.iterdir()) == [key_file]  # no draft left behind
        sealing.reset_keys()
        caplog.clear()
        assert unseal(token) == b"the deck"  # the same key, read back
        assert "made a new key" not in caplog.text
    with override_settings(FLOORMAN_SEAL_KEYS=[key_file.read_text().strip()]):
        assert unseal(token) == b"the deck"


def _settings_with(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"FLOORMAN_SEAL_KEYS", "DEBUG"}}
    clean.pop("DATABASE_URL", None)
    clean.pop("REDIS_URL", None)
    return subprocess.run(
        [sys.executable, "-c", "import config.settings"],
        cwd=ROOT,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_production_without_a_key_refuses_to_start(tmp_path):
    var = {"FLOORMAN_VAR_DIR": str(tmp_path)}
    refused = _settings_with(var | {"REDIS_URL": "redis://127.0.0.1:6379/0"})
    assert refused.returncode != 0
    assert "FLOORMAN_SEAL_KEYS is not set" in refused.stderr
    postgres = {"DATABASE_URL": "postgres://u@127.0.0.1:5432/x"}
    assert "FLOORMAN_SEAL_KEYS is not set" in _settings_with(var | postgres).stderr
    keyed = _settings_with(var | postgres | {"FLOORMAN_SEAL_KEYS": KEY_A})
    assert keyed.returncode == 0, keyed.stderr
    embedded = _settings_with(var)  # no environment: the key file, made on first use
    assert embedded.returncode == 0, embedded.stderr
    debug = _settings_with(var | postgres | {"DEBUG": "1"})
    assert debug.returncode == 0, debug.stderr


# -- a running hand at rest: the database row, its moves and the cache hold no card ------------


def _raw_row(table: str, pk: int) -> str:
    """The row as a dump or a replica holds it: every column as text."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {table} WHERE id = %s", [pk])  # noqa: S608
        return " ".join(str(value) for value in cursor.fetchone())


def _deck_in(text: str, deck: tuple[int, ...]) -> bool:
    """Whether ``text`` holds the deck's first cards in order (numbers or names), however
    they are separated."""
    numbers = r"\D{1,8}".join(str(card) for card in deck[:8])
    names = r"\W{0,8}".join(card_name(card) for card in deck[:8])
    return bool(re.search(r"(?<!\d)" + numbers + r"(?!\d)", text) or re.search(names, text))


def _swap_hand():
    """A running Draw Hold'em hand (R7.5) where the first player swapped a card."""
    table = make_table(game=Game.DRAW_HOLDEM)
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    hand = online_play.deal_hand(table=table)
    given = table_view(table, alice).controls.swap_cards[0].code
    online_play.act(table=table, user=alice, hand_id=hand.pk, sequence=0, action="swap", card=given)
    hand.refresh_from_db()
    return table, (alice, bob, carol), hand


@pytest.mark.django_db
def test_a_running_hands_row_and_moves_hold_no_card():
    table, _users, hand = _swap_hand()
    cards = hand.cards()  # the server opens them
    swap = HandAction.objects.get(hand=hand, sequence=1)
    row = _raw_row("tables_tablehand", hand.pk)
    assert hand.sealed_cards.startswith("fm1.") and hand.sealed_cards in row
    assert cards.secret.hex() not in row and not _deck_in(row, cards.deck)
    assert TableHand.objects.filter(pk=hand.pk, deck__isnull=True, secret="").exists()
    moves = _raw_row("tables_handaction", swap.pk)
    token = swap.record["sealed"]
    assert token.startswith("fm1.") and token in moves
    # Outside its token (whose base64 may spell "Ah" by chance) the row names no card.
    moves = moves.replace(token, "")
    assert "drawn" not in moves and "discarded" not in moves
    engine = online_play.engine_of(hand)  # the server still replays the swap
    drawn = [card_name(card) for card in engine.hole_cards[0]]
    assert drawn and not [name for name in drawn if name in moves]


@pytest.mark.django_db
def test_the_snapshot_in_the_cache_holds_no_card():
    table, _users, hand = _swap_hand()
    table.refresh_from_db()
    snapshot = build_snapshot(table.pk)
    assert snapshot is not None and snapshot.hand.pk == hand.pk
    key = cache.make_and_validate_key(_snapshot_key(table.pk, table.created_at, table.version))
    raw = cache._cache.get_client(key, write=False).get(key)  # the bytes Redis keeps
    assert raw, "the snapshot was cached"
    cards = hand.cards()
    assert cards.secret.hex().encode() not in raw
    assert pickle.dumps(list(cards.deck)) not in raw and pickle.dumps(cards.deck) not in raw
    kept = pickle.loads(raw)  # noqa: S301 - our own cache entry
    assert kept.hand.deck is None and kept.hand.secret == ""
    assert all("drawn" not in move and "cards" not in move for move in kept.moves)
    assert not [value for value in vars(kept.hand).values() if value == list(cards.deck)]


@pytest.mark.django_db
def test_a_finished_hand_is_opened_for_its_history_and_proof():
    table, (alice, bob, carol), hand = _swap_hand()
    dealt = hand.cards()
    for user in (bob, carol):  # the others stand pat, then everyone folds to one player
        hand.refresh_from_db()
        online_play.act(table=table, user=user, hand_id=hand.pk, sequence=hand.sequence,
                        action="stand_pat")  # fmt: skip
    hand.refresh_from_db()
    while not hand.is_over:
        engine = online_play.engine_of(hand)
        actor = {alice.pk: alice, bob.pk: bob, carol.pk: carol}[hand.user_ids[engine.actor]]
        online_play.act(table=table, user=actor, hand_id=hand.pk, sequence=hand.sequence,
                        action="fold")  # fmt: skip
        hand.refresh_from_db()
    assert hand.sealed_cards == "" and hand.deck == list(dealt.deck)
    assert hand.secret == dealt.secret.hex() and hand.cards() == dealt
    swap = HandAction.objects.get(hand=hand, sequence=1).record
    # The cards in the clear: a card is a number from 0, so the first card is falsy.
    assert "sealed" not in swap
    assert isinstance(swap["drawn"], int) and isinstance(swap["discarded"], int)
    openings = history_openings(hand, alice.pk, all_cards=True)
    assert len(openings) >= 2 and all(o.card == dealt.deck[o.position] for o in openings)
    verify_commitment(
        root=hand.commitment, leaves=hand.leaves, openings=openings
    )  # the proof still holds
    assert "_floorman_openings" in hand_phh(hand, alice.pk)


@pytest.mark.django_db
def test_a_tampered_seal_refuses_to_open():
    _table, _users, hand = _swap_hand()
    token = hand.sealed_cards
    hand.sealed_cards = token[:-6] + ("AAAAAA" if not token.endswith("AAAAAA") else "BBBBBB")
    with pytest.raises(SealError):
        hand.cards()


@pytest.mark.django_db
def test_the_upgrade_seals_the_hands_running_with_opened_cards_and_a_downgrade_opens_them():
    migration = importlib.import_module("tables.migrations.0007_seal_running_hands")
    _table, _users, hand = _swap_hand()
    dealt = hand.cards()
    swap = HandAction.objects.get(hand=hand, sequence=1)
    opened_swap = open_move(swap.record)
    # The rows as an older Floorman wrote them: cards opened (update() skips save()).
    TableHand.objects.filter(pk=hand.pk).update(
        deck=list(dealt.deck), secret=dealt.secret.hex(), sealed_cards=""
    )
    HandAction.objects.filter(pk=swap.pk).update(record=opened_swap)
    state = MigrationLoader(connection).project_state(("tables", "0007_seal_running_hands"))
    migration.seal_running_hands(state.apps, None)  # the historical models, as migrate runs it
    hand.refresh_from_db()
    assert hand.deck is None and hand.secret == "" and hand.cards() == dealt
    assert "drawn" not in _raw_row("tables_handaction", swap.pk)
    migration.open_running_hands(state.apps, None)
    hand.refresh_from_db()
    assert hand.sealed_cards == "" and hand.deck == list(dealt.deck)
    assert HandAction.objects.get(pk=swap.pk).record == opened_swap
