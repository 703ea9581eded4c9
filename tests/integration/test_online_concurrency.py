"""Moves racing at one online table on the real PostgreSQL (docs/architecture.md, "Integrity":
every action locks the hand row, is checked by the engine, is stored under a unique (hand,
sequence) and carries an idempotency key).

Two hundred requests in bursts from threads, each burst aimed at the hand as it stands: the
actor's move resent with the same key, his other moves with other keys, stale and future
sequences, players out of turn, people not dealt in, forged amounts; some call the service,
some go through the page's POST. Afterwards the stored moves are exactly the accepted ones,
one per burst, numbered 1..n in each hand, and replaying them gives the stored results; every
chip is where the ledger says.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from dataclasses import dataclass

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse

from tables.engine import Hand, commit
from tables.online import play as online_play
from tables.online.engine import decode_move, start_hand
from tables.online.models import ChipAccount, ChipTransfer, HandAction, TableHand, TransferKind
from tables.online.services import TableError, table_chips
from tests.factories import make_user
from tests.tables.online_helpers import make_table, seat_players

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

REQUESTS = 200
BURST = 20


@dataclass
class Request:
    """One request of a burst: who, what, and how it was answered."""

    kind: str
    username: str
    hand_id: int
    sequence: int
    action: str
    amount: int | None
    key: str
    through_page: bool
    status: int | None = None  # 200 accepted (or a resend), else the refusal's status
    answer: str = ""


def legal_moves(engine: Hand) -> list[tuple[str, int | None]]:
    """The actor's legal moves, as the engine answers (never guessed)."""
    moves: list[tuple[str, int | None]] = []
    moves.append(("check", None) if engine.can_check() else ("call", None))
    if engine.can_fold():
        moves.append(("fold", None))
    if engine.can_raise():
        moves.append(("raise", engine.min_raise_to()))
    return moves


def burst(table, users, rng: random.Random, number: int) -> list[Request]:
    """Twenty requests aimed at the hand as it stands now."""
    hand = TableHand.objects.get(table=table, is_over=False)
    engine = online_play.engine_of(hand)
    actor = users_by_id(users)[hand.user_ids[engine.actor]]
    dealt = [users_by_id(users)[uid] for uid in hand.user_ids]
    others = [user for user in dealt if user != actor]
    outsiders = [user for user in users if user.pk not in hand.user_ids]
    s = hand.sequence
    moves = legal_moves(engine)
    key = f"b{number}"
    plan: list[tuple[str, str, int, str, int | None, str]] = []
    first = moves[0]
    plan += [("resend", actor.username, s, *first, f"{key}-a")] * 6
    for index, (action, amount) in enumerate(moves):
        plan.append(("other key", actor.username, s, action, amount, f"{key}-m{index}"))
    while len(plan) < 10:
        plan.append(("other key", actor.username, s, *first, f"{key}-x{len(plan)}"))
    # Stale and future sequences that no move of this burst can reach: s + 1 would be the
    # actor's legal next move whenever the same player acts again (the big blind checking
    # to a flop he opens when the small blind has folded), and no request answers s + 1.
    for index, stale in enumerate((s - 1 if s else s + 4, s + 2, s + 3)):
        plan.append(("stale", actor.username, stale, *first, f"{key}-s{index}"))
    for index in range(3):
        other = others[index % len(others)]
        plan.append(("out of turn", other.username, s, "call", None, f"{key}-o{index}"))
    for index in range(2):
        outsider = outsiders[index % len(outsiders)]
        plan.append(("not dealt in", outsider.username, s, "call", None, f"{key}-n{index}"))
    plan.append(("forged", actor.username, s, "raise", 1, f"{key}-g1"))
    plan.append(("forged", actor.username, s, "raise", 10**9, f"{key}-g2"))
    assert len(plan) == BURST
    rng.shuffle(plan)
    return [
        Request(kind, name, hand.pk, seq, action, amount, k, through_page=rng.random() < 0.3)
        for kind, name, seq, action, amount, k in plan
    ]


def users_by_id(users) -> dict:
    return {user.pk: user for user in users}


def send(request: Request, table, users, clients, start: threading.Barrier) -> None:
    """Send one request when the whole burst is ready; close this thread's connection."""
    try:
        client = Client()  # one per request: a test client is no thread-safe object
        session = settings.SESSION_COOKIE_NAME
        client.cookies[session] = clients[request.username].cookies[session].value
        start.wait(timeout=30)
        if request.through_page:
            data = {
                "hand": request.hand_id, "sequence": request.sequence, "action": request.action,
                "key": request.key,
            }  # fmt: skip
            if request.amount is not None:
                data["amount"] = request.amount
            url = reverse("tables:online_act", args=[table.pk])
            response = client.post(url, data, headers={"X-Floorman": "table"})
            request.status = response.status_code
            request.answer = response.content.decode()[:200]
            return
        user = next(u for u in users if u.username == request.username)
        try:
            online_play.act(
                table=table, user=user, hand_id=request.hand_id, sequence=request.sequence,
                action=request.action, amount=request.amount, key=request.key,
            )  # fmt: skip
            request.status = 200
        except TableError as error:
            request.status, request.answer = error.status, error.message
    finally:
        connection.close()


def run_burst(requests: list[Request], table, users, clients) -> None:
    """All the burst's requests at once, each from its own thread."""
    start = threading.Barrier(len(requests))
    threads = [
        threading.Thread(target=send, args=(request, table, users, clients, start))
        for request in requests
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a request hung"


def replayed(hand: TableHand) -> Hand:
    """The hand replayed from its deck and stored moves by the engine alone."""
    engine = start_hand(hand)
    for action in hand.actions.order_by("sequence"):
        engine.apply(decode_move(action.record))
    return engine


def test_two_hundred_racing_moves_apply_each_accepted_move_once_and_lose_none(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    table = make_table(seats=6)
    users = seat_players(table, ["alice", "bob", "carol", "dan", "eve", "fay"], buy_in=1_000)
    users += [make_user(username="sam"), make_user(username="flo", role="floor")]
    clients = {}
    for user in users:
        clients[user.username] = Client()
        clients[user.username].force_login(user)
    rng = random.Random(20_240_601)  # the bursts' shuffle, never cards
    requests: list[Request] = []
    bursts: list[tuple[int, int, int, list[Request]]] = []
    for number in range(REQUESTS // BURST):
        if not TableHand.objects.filter(table=table, is_over=False).exists():
            assert online_play.deal_hand(table=table) is not None
        hand = TableHand.objects.get(table=table, is_over=False)
        batch = burst(table, users, rng, number)
        before = hand.actions.count()
        run_burst(batch, table, users, clients)
        bursts.append((hand.pk, before, hand.actions.count(), batch))
        requests += batch

    assert len(requests) == REQUESTS and all(r.status is not None for r in requests)
    assert {r.through_page for r in requests} == {True, False}
    for hand_id, before, after, batch in bursts:
        hand = TableHand.objects.get(pk=hand_id)
        new = list(hand.actions.filter(sequence__gt=before, sequence__lte=after))
        # Every burst had the actor's legal moves at the hand's sequence: exactly one applied.
        assert len(new) == 1, f"burst on hand {hand_id}: {[a.key for a in new]}"
        assert new[0].key in {r.key for r in batch}
        check_answers(batch, new[0].key)

    stored_keys = Counter(HandAction.objects.exclude(key="").values_list("key", flat=True))
    assert all(count == 1 for count in stored_keys.values())
    accepted_keys = {r.key for r in requests if r.status == 200}
    assert set(stored_keys) == accepted_keys  # no move lost, none made by a refused request
    for hand in TableHand.objects.filter(table=table):
        check_hand(hand)
    check_chips(table, users)


def check_answers(batch: list[Request], applied_key: str) -> None:
    """The applied key's requests all got 200 (one move, then resends); every other request
    was refused with the reason's status, and only the actor's moves at the hand's sequence
    could have been applied."""
    for request in batch:
        if request.key == applied_key:
            assert request.status == 200, request
            assert request.kind in ("resend", "other key"), request
            continue
        expected = {
            "resend": {409}, "other key": {409}, "stale": {409}, "out of turn": {409},
            "not dealt in": {403, 409}, "forged": {400, 409},
        }[request.kind]  # fmt: skip
        assert request.status in expected, request


def check_hand(hand: TableHand) -> None:
    """Moves numbered 1..n, the hand's own count n, a deck that opens its commitment, and a
    replay by the engine alone that gives what the table stored."""
    sequences = list(hand.actions.order_by("sequence").values_list("sequence", flat=True))
    assert sequences == list(range(1, len(sequences) + 1)) and hand.sequence == len(sequences)
    dealt = hand.cards()  # sealed while the hand runs, opened after it
    assert commit(list(dealt.deck), dealt.secret).root == hand.commitment
    engine = replayed(hand)
    assert engine.is_over == hand.is_over and engine.actor == hand.actor
    if hand.is_over:
        assert engine.stacks == hand.final_stacks
        assert sum(hand.final_stacks) == sum(hand.starting_stacks)
    assert online_play.engine_of(hand).records == engine.records


def check_chips(table, users) -> None:
    """Chips conserved: seated = the ledger; balances plus seated chips = the grants."""
    seated, ledger = table_chips(table)
    assert seated == ledger
    grants = sum(
        ChipTransfer.objects.filter(kind=TransferKind.GRANT).values_list("amount", flat=True)
    )
    balances = sum(ChipAccount.objects.values_list("balance", flat=True))
    assert balances + seated == grants
