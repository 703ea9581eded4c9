"""A card, a pot and face-down cards as the online table's pages draw them
(tables/templatetags/online_table_tags.py):
drawn once for what it shows, the same markup the table's messages and pages carry."""

from __future__ import annotations

from django.utils import translation

from tables.online.selectors import CardView
from tables.templatetags import online_table_tags


def test_a_card_is_drawn_as_the_page_draws_it_rank_then_suit():
    with translation.override("en"):
        assert online_table_tags.card("Th") == (
            '<span class="pcard suit-h" data-card="Th">10<i>♥</i></span>'
        )
        assert online_table_tags.card(CardView("As", highlight=True)) == (
            '<span class="pcard suit-s win" data-card="As">A<i>♠</i></span>'
        )
        down = online_table_tags.card(CardView("2c", down=True))
    assert down == (
        '<span class="pcard suit-c down" data-card="2c" title="Face down: only you see it">'
        "2<i>♣</i></span>"
    )  # R7.2: one's own stud down card
    with translation.override("de"):
        assert 'title="Verdeckt: nur du siehst sie"' in online_table_tags.card(
            CardView("2c", down=True)
        )


def test_a_pot_is_named_by_its_kind_and_how_many_pots_there_are():
    from tables.online.table_pots import PotView  # noqa: PLC0415

    main, side = PotView("main", 0, 300), PotView("side", 1, 120)
    with translation.override("en"):
        alone = online_table_tags.pot(main, [main])
        assert alone == (
            '<span class="pot pot-main" data-testid="pot-main"><span class="pot-name">Pot</span> '
            '<b class="pot-chips">300</b></span>\n'
        )  # a line's end after it: a space between two pots
        assert ">Main pot<" in online_table_tags.pot(main, [main, side])
        assert 'data-testid="pot-side-1"><span class="pot-name">Side pot 1<' in (
            online_table_tags.pot(side, [main, side])
        )
        fees = online_table_tags.pot(PotView("fees", 0, 20), [main, PotView("fees", 0, 20)])
        assert ">Swap fees for the best hand<" in fees  # R7.9: kept apart
    with translation.override("de"):
        assert ">Nebenpot 1<" in online_table_tags.pot(side, [main, side])
        assert ">Hauptpot<" in online_table_tags.pot(main, [main, side])


def test_a_players_face_down_cards_are_drawn_as_backs():
    assert online_table_tags.card_backs(2) == '<span class="pcard back"></span>' * 2
    assert online_table_tags.card_backs(0) == ""
