"""A player's own hand histories (list, replayer, PHH export) and an admin's export of a whole
table session after the table closed."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tables.engine import card_name
from tables.online.history import hand_phh as history_text
from tables.online.history import names, openings, steps
from tables.online.models import OnlineTable, TableHand
from tournaments.permissions import acting_user, admin_required
from tournaments.services import record_audit

HANDS_PER_PAGE = 50


def _my_hands(user_id: int) -> list[TableHand]:
    """The finished hands a player was dealt in, newest first."""
    hands = TableHand.objects.filter(is_over=True).select_related("table").order_by("-ended_at")
    # Few hands a club plays; JSON containment is not portable to SQLite, so filter here.
    return [hand for hand in hands.only(*_LIST_FIELDS) if user_id in hand.user_ids]


_LIST_FIELDS = (
    "table__name", "number", "user_ids", "seat_numbers", "starting_stacks", "final_stacks",
    "ended_at", "is_over",
)  # fmt: skip


@require_GET
@login_required
def history(request: HttpRequest) -> HttpResponse:
    """The player's hands: table, hand, result; each opens the replayer."""
    user = acting_user(request)
    rows = []
    for hand in _my_hands(user.pk):
        position = hand.position_of(user.pk)
        assert position is not None  # noqa: S101 - filtered on it
        start = int(hand.starting_stacks[position])
        end = int((hand.final_stacks or hand.starting_stacks)[position])
        rows.append({"hand": hand, "result": end - start})
    page = Paginator(rows, HANDS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "tables/online_history.html", {"page": page})


def _own_hand(request: HttpRequest, pk: int) -> TableHand:
    hand = get_object_or_404(TableHand.objects.select_related("table"), pk=pk, is_over=True)
    if hand.position_of(acting_user(request).pk) is None:
        raise PermissionDenied
    return hand


@require_GET
@login_required
def hand_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The replayer of one of the player's hands, with the deck commitment's check data."""
    hand = _own_hand(request, pk)
    user_id = acting_user(request).pk
    context = {
        "hand": hand,
        "steps": steps(hand, user_id),
        "names": names(hand),
        "openings": [
            {
                "position": o.position,
                "card": card_name(o.card),
                "byte": int(o.card),  # rank x 4 + suit: the byte the leaf hashes
                "salt": o.salt,
                "leaf": hand.leaves[o.position],
            }
            for o in openings(hand, user_id)
        ],
        # static/js/verify.js checks them in the browser: the 52 leaves are public after the
        # hand (a leaf without its salt tells nothing, docs/online.md).
        "verify_data": {"leaves": list(hand.leaves)},
    }
    return render(request, "tables/online_hand.html", context)


def _phh_response(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
@login_required
def hand_phh(request: HttpRequest, pk: int) -> HttpResponse:
    """One of the player's hands as PHH."""
    hand = _own_hand(request, pk)
    text = history_text(hand, acting_user(request).pk)
    return _phh_response(text, f"floorman-hand-{hand.pk}.phh")


@require_GET
@login_required
def history_phh(request: HttpRequest) -> HttpResponse:
    """All the player's hands as PHH documents, one after another (a .phhs file)."""
    user_id = acting_user(request).pk
    hands = [TableHand.objects.get(pk=hand.pk) for hand in _my_hands(user_id)]
    text = "".join(
        f"[{index + 1}]\n" + history_text(hand, user_id) + "\n" for index, hand in enumerate(hands)
    )
    return _phh_response(text, "floorman-hands.phhs")


@require_GET
@admin_required
def session_phh(request: HttpRequest, pk: int) -> HttpResponse:
    """An admin's export of a closed table's whole session, every card (no live card: the table
    is closed); audited."""
    table = get_object_or_404(OnlineTable, pk=pk)
    if table.is_open:
        return HttpResponse(
            _("The session can be exported after the table closed."),
            status=409,
            content_type="text/plain; charset=utf-8",
        )
    hands = TableHand.objects.filter(table=table, is_over=True).order_by("number")
    text = "".join(
        f"[{hand.number}]\n" + history_text(hand, None, all_cards=True) + "\n" for hand in hands
    )
    record_audit(actor=acting_user(request), action="online.export_session", table=table.pk)
    return _phh_response(text, f"floorman-table-{table.pk}.phhs")
