"""The per-card deck commitment: a root before the deal, openings of the seen cards after it,
and the unseen cards kept hidden (R1.1)."""

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine import (
    DECK_SIZE,
    Opening,
    card_salt,
    commit,
    new_secret,
    positions_of,
    reshuffle_order,
    shuffled_deck,
)
from tables.engine.commitment import CommitmentError, leaf, open_cards, root_of, verify

SEEN = (0, 1, 2, 3, 5, 6, 7, 9, 11)  # two hands of hole cards, the flop, turn and river


def committed(*, seed=1):
    deck = list(range(DECK_SIZE))
    random.Random(seed).shuffle(deck)
    secret = bytes(range(32))
    return deck, secret, commit(deck, secret)


def test_a_fresh_shuffle_commits_and_its_seen_cards_verify():
    deck, secret = shuffled_deck(), new_secret()
    commitment = commit(deck, secret)
    openings = open_cards(deck, secret, SEEN)
    verify(root=commitment.root, leaves=commitment.leaves, openings=openings)
    assert [o.card for o in openings] == [deck[p] for p in SEEN]
    assert len(commitment.leaves) == DECK_SIZE
    assert len(commitment.root) == 64


def test_every_card_of_the_deck_may_be_opened():
    deck, secret, commitment = committed()
    openings = open_cards(deck, secret, range(DECK_SIZE))
    verify(root=commitment.root, leaves=commitment.leaves, openings=openings)


def test_new_secrets_are_32_fresh_bytes():
    secrets = {new_secret() for _ in range(20)}
    assert len(secrets) == 20
    assert {len(secret) for secret in secrets} == {32}


def test_the_same_deck_under_another_secret_commits_to_another_root():
    deck, secret, commitment = committed()
    assert commit(deck, secret) == commitment
    assert commit(deck, new_secret()).root != commitment.root


def test_leaves_hash_salt_position_and_card():
    salt = card_salt(b"s" * 32, 4)
    base = leaf(position=4, card=17, salt=salt)
    assert len(base) == 64
    assert leaf(position=5, card=17, salt=salt) != base
    assert leaf(position=4, card=18, salt=salt) != base
    assert leaf(position=4, card=17, salt=card_salt(b"s" * 32, 5)) != base


@settings(max_examples=100, deadline=None)
@given(st.integers(0, DECK_SIZE - 1), st.integers(1, DECK_SIZE - 1))
def test_a_changed_card_fails_to_verify(position, shift):
    deck, secret, commitment = committed()
    (opening,) = open_cards(deck, secret, [position])
    forged = dataclasses.replace(opening, card=(opening.card + shift) % DECK_SIZE)
    with pytest.raises(CommitmentError, match="not what position"):
        verify(root=commitment.root, leaves=commitment.leaves, openings=[forged])


@settings(max_examples=100, deadline=None)
@given(st.integers(0, DECK_SIZE - 1), st.integers(0, 31), st.integers(1, 255))
def test_a_changed_salt_fails_to_verify(position, byte, flip):
    deck, secret, commitment = committed()
    (opening,) = open_cards(deck, secret, [position])
    salt = bytearray.fromhex(opening.salt)
    salt[byte] ^= flip
    forged = dataclasses.replace(opening, salt=salt.hex())
    with pytest.raises(CommitmentError, match="not what position"):
        verify(root=commitment.root, leaves=commitment.leaves, openings=[forged])


def test_an_opening_at_another_position_fails_to_verify():
    deck, secret, commitment = committed()
    (opening,) = open_cards(deck, secret, [3])
    moved = dataclasses.replace(opening, position=4)
    with pytest.raises(CommitmentError, match="not what position 4"):
        verify(root=commitment.root, leaves=commitment.leaves, openings=[moved])


@settings(max_examples=100, deadline=None)
@given(st.integers(0, DECK_SIZE - 1), st.integers(0, 63))
def test_a_changed_leaf_breaks_the_root(position, char):
    deck, secret, commitment = committed()
    leaves = list(commitment.leaves)
    text = leaves[position]
    leaves[position] = text[:char] + ("0" if text[char] != "0" else "1") + text[char + 1 :]
    with pytest.raises(CommitmentError, match="do not hash to the root"):
        verify(root=commitment.root, leaves=leaves, openings=[])


def test_a_changed_root_fails_to_verify():
    deck, secret, commitment = committed()
    root = ("f" if commitment.root[0] != "f" else "e") + commitment.root[1:]
    with pytest.raises(CommitmentError, match="do not hash to the root"):
        verify(root=root, leaves=commitment.leaves, openings=open_cards(deck, secret, SEEN))


def test_swapping_two_leaves_breaks_the_root():
    deck, secret, commitment = committed()
    leaves = list(commitment.leaves)
    leaves[0], leaves[1] = leaves[1], leaves[0]
    with pytest.raises(CommitmentError, match="do not hash to the root"):
        verify(root=commitment.root, leaves=leaves, openings=[])


def test_a_commitment_needs_52_leaves():
    deck, secret, commitment = committed()
    for leaves in (commitment.leaves[:51], (*commitment.leaves, commitment.leaves[0]), ()):
        with pytest.raises(CommitmentError, match="52 leaves"):
            verify(root=commitment.root, leaves=leaves, openings=[])


def test_only_a_whole_deck_of_distinct_cards_can_be_committed():
    with pytest.raises(ValueError, match="a committed deck is all 52 cards, not 51"):
        commit(list(range(51)), new_secret())
    with pytest.raises(ValueError, match="the card 2c appears twice"):
        commit([0, *range(51)], new_secret())


def test_a_deck_with_a_card_twice_is_caught_when_both_are_opened():
    # A dishonest table builds its leaves by hand; they make the root, the deck is not real.
    secret = new_secret()
    deck = [0, *range(51)]
    leaves = tuple(
        leaf(position=p, card=card, salt=card_salt(secret, p)) for p, card in enumerate(deck)
    )
    openings = [Opening(position=p, card=0, salt=card_salt(secret, p).hex()) for p in (0, 1)]
    with pytest.raises(CommitmentError, match="opened at positions 0 and 1"):
        verify(root=root_of(leaves), leaves=leaves, openings=openings)


def test_malformed_openings_are_refused_with_a_reason():
    deck, secret, commitment = committed()
    (opening,) = open_cards(deck, secret, [0])
    for forged, reason in (
        (dataclasses.replace(opening, position=52), "not on the deck"),
        (dataclasses.replace(opening, card=52), "not a card"),
        (dataclasses.replace(opening, salt="zz"), "not hex"),
        (dataclasses.replace(opening, salt=opening.salt[:-2]), "not 32 bytes"),
    ):
        with pytest.raises(CommitmentError, match=reason):
            verify(root=commitment.root, leaves=commitment.leaves, openings=[forged])


def test_openings_reveal_nothing_of_the_unopened_cards():
    deck, secret, commitment = committed()
    openings = open_cards(deck, secret, SEEN)
    published = repr(openings) + "".join(o.salt for o in openings)
    hidden = [p for p in range(DECK_SIZE) if p not in SEEN]
    for position in hidden:
        assert card_salt(secret, position).hex() not in published
    assert secret.hex() not in published
    assert {o.position for o in openings} == set(SEEN)
    # Without its salt an unopened leaf is not reproduced by any card, even with a seen salt.
    for position in hidden:
        for opening in openings:
            salt = bytes.fromhex(opening.salt)
            tries = {leaf(position=position, card=card, salt=salt) for card in range(DECK_SIZE)}
            assert commitment.leaves[position] not in tries


def test_salts_are_distinct_per_position_and_secret():
    secret = new_secret()
    salts = {card_salt(secret, p) for p in range(DECK_SIZE)}
    assert len(salts) == DECK_SIZE
    assert card_salt(new_secret(), 0) != card_salt(secret, 0)
    with pytest.raises(ValueError, match=r"position 52 is not on the deck \(0\.\.51\)"):
        card_salt(secret, 52)


def test_positions_of_finds_the_seen_cards_in_the_deck():
    deck, _, _ = committed()
    cards = [deck[9], deck[2], deck[40]]
    assert positions_of(deck, cards) == (2, 9, 40)
    with pytest.raises(ValueError, match="not in the deck: 12"):
        positions_of(deck[:10], [deck[20]])


def test_open_cards_gives_each_position_once_in_order():
    deck, secret, _ = committed()
    assert [o.position for o in open_cards(deck, secret, [9, 2, 9, 0])] == [0, 2, 9]
    with pytest.raises(ValueError, match=r"position 52 is not on the deck \(0\.\.51\)"):
        open_cards(deck, secret, [52])


def test_r7_2_the_reshuffle_order_is_a_permutation_fixed_by_the_secret():
    secret = new_secret()
    order = reshuffle_order(secret)
    assert sorted(order) == list(range(DECK_SIZE))
    assert reshuffle_order(secret) == order
    assert reshuffle_order(new_secret()) != order  # 1 in 52! to fail by chance
    # Not the deck order, nor one a salt of the same secret gives away.
    salts = sorted(range(DECK_SIZE), key=lambda card: card_salt(secret, card))
    assert order != list(range(DECK_SIZE)) and order != salts
