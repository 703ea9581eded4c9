"""A card as the online table's pages draw it (tables/templatetags/online_table_tags.py, card):
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
