"""The deck and its shuffle: 52 distinct cards from the OS CSPRNG, never `random` (R1.1)."""

import ast
import math
import random
import secrets
from pathlib import Path
from statistics import NormalDist

import pytest

from tables.engine import DECK_SIZE, check_deck, new_deck, parse_cards, shuffled_deck
from tables.engine import cards as cards_module

ENGINE_DIR = Path(cards_module.__file__).resolve().parent
SHUFFLES = 20_000
FALSE_ALARM = 1e-6  # per tail


def chi_square_quantile(*, degrees: int, upper_tail: float) -> float:
    """The chi-square value exceeded with probability upper_tail (Wilson–Hilferty)."""
    z = NormalDist().inv_cdf(1 - upper_tail)
    spread = 2 / (9 * degrees)
    return degrees * (1 - spread + z * math.sqrt(spread)) ** 3


def test_chi_square_quantile_matches_known_table_values():
    # Published chi-square quantiles: df 100 at 0.05 upper is 124.342, at 0.95 upper 77.929.
    assert chi_square_quantile(degrees=100, upper_tail=0.05) == pytest.approx(124.342, rel=2e-3)
    assert chi_square_quantile(degrees=100, upper_tail=0.95) == pytest.approx(77.929, rel=2e-3)


def card_position_chi_square(deal, shuffles):
    """The chi-square statistic of card-by-position counts over many decks from deal()."""
    counts = [0] * (DECK_SIZE * DECK_SIZE)
    for _ in range(shuffles):
        for position, card in enumerate(deal()):
            counts[card * DECK_SIZE + position] += 1
    expected = shuffles / DECK_SIZE
    return sum((count - expected) ** 2 for count in counts) / expected


def looks_uniform(statistic):
    """Whether a 52x52 chi-square statistic lies between the p = 1e-6 quantiles of both tails."""
    degrees = (DECK_SIZE - 1) ** 2  # rows and columns each sum to the number of shuffles
    low = chi_square_quantile(degrees=degrees, upper_tail=1 - FALSE_ALARM)
    high = chi_square_quantile(degrees=degrees, upper_tail=FALSE_ALARM)
    return low < statistic < high


def test_r1_1_every_card_is_equally_likely_in_every_position():
    """Chi-square test of the 52x52 card-by-position counts over many shuffles.

    Each row and column of the table sums to the number of shuffles, so the statistic has
    (52 - 1) ** 2 degrees of freedom. scipy is not installed: the bounds are the chi-square
    quantiles for p = 1e-6 in each tail by the Wilson–Hilferty normal approximation, so a fair
    shuffle fails this test about twice in a million runs. The lower bound catches a shuffle
    that is too even to be random (a rotation, say).
    """
    assert looks_uniform(card_position_chi_square(shuffled_deck, SHUFFLES))


def test_the_chi_square_check_rejects_a_naive_swap_shuffle():
    # Swapping each position with any position (not just later ones) is a classic biased shuffle.
    rng = random.Random(1)

    def naive():
        deck = new_deck()
        for i in range(DECK_SIZE):
            j = rng.randrange(DECK_SIZE)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    assert not looks_uniform(card_position_chi_square(naive, SHUFFLES))


def test_the_chi_square_check_rejects_a_too_even_rotation():
    turns = iter(range(SHUFFLES))

    def rotation():
        cut = next(turns) % DECK_SIZE
        deck = new_deck()
        return deck[cut:] + deck[:cut]

    assert not looks_uniform(card_position_chi_square(rotation, SHUFFLES))


def test_r1_1_a_shuffle_gives_the_52_distinct_cards():
    deck = shuffled_deck()
    assert len(deck) == DECK_SIZE
    assert sorted(deck) == list(range(DECK_SIZE))
    check_deck(deck)


def test_r1_1_two_shuffles_differ():
    # The chance that two fair shuffles agree is 1 / 52!, about 1e-68.
    assert shuffled_deck() != shuffled_deck()


def test_r1_1_new_deck_has_no_jokers_and_every_card_once():
    assert new_deck() == list(range(DECK_SIZE))
    assert len(parse_cards("AsKhQdJc2s")) == 5


def test_r1_1_shuffled_deck_uses_the_operating_system_csprng(monkeypatch):
    calls = []
    real_shuffle = secrets.SystemRandom.shuffle

    def recording_shuffle(self, deck):
        calls.append(type(self))
        real_shuffle(self, deck)

    monkeypatch.setattr(secrets.SystemRandom, "shuffle", recording_shuffle)
    deck = shuffled_deck()
    assert calls == [secrets.SystemRandom]
    assert sorted(deck) == list(range(DECK_SIZE))


def imported_modules(source):
    """Module names imported by a piece of Python source, including dynamic __import__."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            names.update(arg.value for arg in node.args if isinstance(arg, ast.Constant))
    return names


def test_imported_modules_finds_every_spelling_of_random():
    for source in (
        "import random",
        "import random as r",
        "from random import shuffle",
        "__import__('random')",
    ):
        assert "random" in imported_modules(source)
    assert "random" not in imported_modules("import secrets\nsecrets.SystemRandom()")


def test_r1_1_no_engine_module_imports_random():
    sources = sorted(ENGINE_DIR.rglob("*.py"))
    assert {ENGINE_DIR / "cards.py", ENGINE_DIR / "stud" / "cards.py"} <= set(sources)
    for path in sources:
        source = path.read_text()
        assert "random" not in imported_modules(source), path.name


def test_check_deck_accepts_a_full_or_partial_deck_of_distinct_cards():
    check_deck(new_deck())
    check_deck(parse_cards("AsKh"))


@pytest.mark.parametrize(
    ("cards", "message"),
    [([0, 1, 1], "appears twice"), ([0, 52], "not a card"), ([-1], "not a card")],
)
def test_check_deck_rejects_duplicates_and_non_cards(cards, message):
    with pytest.raises(ValueError, match=message):
        check_deck(cards)
