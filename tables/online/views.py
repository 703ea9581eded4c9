"""Pages of the online tables: the lobby, a table, its fragment and its stream, the players' and
the floor's actions. Parse with a form, call one service, answer with the viewer's fragment (a
page's fetch or htmx) or the page; a refusal is a 4xx with the reason and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    StreamingHttpResponse,
)
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tables.online import forms as online_forms
from tables.online import live as online_live
from tables.online import play as online_play
from tables.online import services as online_services
from tables.online.models import OnlineTable
from tables.online.selectors import (
    TableTag,
    lobby_tables,
    table_snapshot,
    table_tag,
    table_view,
)
from tables.online.services import TableError
from tournaments.bounds import parse_id
from tournaments.permissions import acting_user, floor_required
from tournaments.selectors import is_floor


def _user(request: HttpRequest) -> User | AnonymousUser:
    user = request.user
    assert isinstance(user, User | AnonymousUser)  # noqa: S101 - the one user model
    return user


def _wants_fragment(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False)) or request.headers.get("X-Floorman") == "table"


def _form_problem(form: Any) -> str:
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


# -- the lobby ---------------------------------------------------------------------------------


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """The open tables: game, stakes, seats free; the player's chips; the floor's controls."""
    user = _user(request)
    balance = None
    if isinstance(user, User):
        account = online_services.ensure_account(user)
        # A new account got its grant by an update in the database: read what it holds now.
        account.refresh_from_db(fields=["balance"])
        balance = account.balance
    staff = isinstance(user, User) and is_floor(user)
    context = {
        "tables": lobby_tables(),
        "balance": balance,
        "staff": staff,
        "open_form": online_forms.OpenTableForm() if staff else None,
        "grant_form": online_forms.GrantForm() if staff else None,
    }
    return render(request, "tables/online_lobby.html", context)


@require_http_methods(["GET", "POST"])
@floor_required
def open_table(request: HttpRequest) -> HttpResponse:
    """Floor staff open a table."""
    form = online_forms.OpenTableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        table = online_services.open_table(actor=acting_user(request), **form.cleaned_data)
        return redirect("tables:online_table", table.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "tables/online_open.html", {"form": form}, status=status)


@require_POST
@floor_required
def grant_chips(request: HttpRequest) -> HttpResponse:
    """Floor staff give a player play chips (audited)."""
    form = online_forms.GrantForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest(_form_problem(form))
    user = User.objects.filter(username=form.cleaned_data["username"]).first()
    if user is None:
        return HttpResponseBadRequest(_("There is no such log-in."))
    online_services.grant_chips(
        user=user, amount=form.cleaned_data["amount"], actor=acting_user(request)
    )
    return redirect("tables:online_lobby")


# -- a table -----------------------------------------------------------------------------------


def _context(
    request: HttpRequest, table: OnlineTable | TableTag, *, page: bool = False
) -> dict[str, Any]:
    """What the page (``table`` a table) or the fragment shows the viewer: the table at
    ``table``'s version, from its snapshot (one for every viewer of that version)."""
    user = _user(request)
    snapshot = table_snapshot(table)
    if snapshot is None:
        raise Http404
    return {
        "view": table_view(snapshot, user),
        # The fragment draws the table as its snapshot holds it; the page's header its own.
        "table": table if page else snapshot.table,
        # The floor's controls are on the page, never in the fragment: its five renders after
        # every move skip the role queries (bench/online_tables.py).
        "staff": page and isinstance(user, User) and is_floor(user),
        "stream_url": reverse("tables:online_stream") + f"?t={table.pk}",
        "state_url": reverse("tables:online_state", args=[table.pk]),
    }


@require_GET
@xframe_options_sameorigin
@csp_override(settings.FRAME_SELF_CSP)
def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A table: anyone with the link watches; a player sits down and plays. ``?embed=1``: a
    frame of "My tables", whose page holds the tab's one stream."""
    table = get_object_or_404(OnlineTable, pk=pk)
    context = _context(request, table, page=True) | {"embedded": request.GET.get("embed") == "1"}
    return render(request, "tables/online_table.html", context)


@require_GET
@login_required
def my_tables(request: HttpRequest) -> HttpResponse:
    """Several tables in one tab on ONE stream (``?t=1&t=2``; by default the player's own):
    browsers allow six HTTP/1.1 connections per host, so a stream per table would hang them."""
    ids = _table_ids(request)
    open_tables = OnlineTable.objects.filter(status="open")
    mine = open_tables.filter(players__user=acting_user(request))
    tables = open_tables.filter(pk__in=ids) if ids else mine
    chosen = list(tables.order_by("pk")[: online_live.MAX_TABLES])
    stream = reverse("tables:online_stream") + "?t=" + ",".join(str(t.pk) for t in chosen)
    return render(request, "tables/online_multi.html", {"tables": chosen, "stream_url": stream})


def _tag(request: HttpRequest, pk: int) -> TableTag | None:
    user = _user(request)
    return table_tag(pk, user.pk if user.is_authenticated else None, get_language())


@require_GET
@cache_control(no_cache=True, private=True)
def table_state(request: HttpRequest, pk: int) -> HttpResponse:
    """The viewer's fragment of a table; 304 while its version has not moved. Drawn from the
    version's snapshot: after a move, every player's page asks (bench/online_tables.py)."""
    tag = _tag(request, pk)
    if tag is None:
        raise Http404
    quoted = f'"{tag.etag}"'
    if request.headers.get("If-None-Match") == quoted:
        response = HttpResponse(status=304)
    else:
        response = render(request, "tables/online_table.html#state", _context(request, tag))
    response["ETag"] = quoted
    response["Vary"] = "Cookie, Accept-Language"
    return response


def _streamed(request: HttpRequest) -> bool:
    """The page's stream is open (it says so on every post): the change's own messages carry
    the table and the player's part to it, so the answer need not draw them a second time."""
    return _wants_fragment(request) and request.headers.get("X-Floorman-Stream") == "1"


def _run(
    request: HttpRequest,
    pk: int,
    form_class: type[Any],
    action: Callable[..., object],
    *,
    streamed_answer: bool = False,
) -> HttpResponse:
    """Validate, call the service, answer: the fragment or the page; a 4xx with the reason.
    ``streamed_answer``: to a page whose stream is open, a 204 (issue 17: the answer drew the
    whole fragment again, a third render of the table for each move). Only for the player's
    own changes at a seat he keeps (a move, sitting out, coming back, adding chips): each one
    bumps the table's version, and its messages carry the public table and, as it changed,
    his private part (tables.online.broadcast). Taking a seat, leaving it, showing cards and
    the floor's controls still answer the fragment: after them the page's viewer is not, or
    not only, a player whose part his stream carries.

    The table is not read here: every service locks its row first and reads it there (one
    query a move less, issue 17); a table that is not there is a 404."""
    table = OnlineTable(pk=pk)
    form = form_class(request.POST)
    try:
        if not form.is_valid():
            raise TableError(_form_problem(form))
        action(table=table, user=acting_user(request), data=form.cleaned_data)
    except OnlineTable.DoesNotExist:
        raise Http404 from None
    except TableError as error:
        if _wants_fragment(request):
            return HttpResponse(
                error.message, status=error.status, content_type="text/plain; charset=utf-8"
            )
        table = get_object_or_404(OnlineTable, pk=pk)
        context = _context(request, table, page=True) | {"error": error.message}
        return render(request, "tables/online_table.html", context, status=error.status)
    if streamed_answer and _streamed(request):
        return HttpResponse(status=204)
    table.refresh_from_db()
    if _wants_fragment(request):
        return render(request, "tables/online_table.html#state", _context(request, table))
    return redirect("tables:online_table", table.pk)


class _Empty(forms.Form):
    """A POST with nothing to say but the CSRF token."""


@require_POST
@login_required
def sit(request: HttpRequest, pk: int) -> HttpResponse:
    """Take a seat with a buy-in (R2.6: wait for the big blind or post one)."""

    def run(*, table: OnlineTable, user: User, data: dict[str, Any]) -> object:
        return online_services.take_seat(
            table=table, user=user, buy_in=data["buy_in"], number=data["seat"], post=data["post"]
        )

    return _run(request, pk, online_forms.SitForm, run)


@require_POST
@login_required
def act(request: HttpRequest, pk: int) -> HttpResponse:
    """A move on the hand the page showed: (hand, sequence) and an idempotency key."""

    def run(*, table: OnlineTable, user: User, data: dict[str, Any]) -> object:
        return online_play.act(
            table=table,
            user=user,
            hand_id=data["hand"],
            sequence=data["sequence"],
            action=data["action"],
            amount=data["amount"],
            key=data["key"],
            card=data["card"],
        )

    return _run(request, pk, online_forms.ActForm, run, streamed_answer=True)


@require_POST
@login_required
def sit_out(request: HttpRequest, pk: int) -> HttpResponse:
    """Sit out from the next hand."""
    return _run(
        request,
        pk,
        _Empty,
        lambda *, table, user, data: online_play.sit_out(table=table, user=user),
        streamed_answer=True,
    )


@require_POST
@login_required
def come_back(request: HttpRequest, pk: int) -> HttpResponse:
    """R2.6: back in, posting a big blind or waiting for it."""
    return _run(
        request,
        pk,
        online_forms.ComeBackForm,
        lambda *, table, user, data: online_services.come_back(
            table=table, user=user, post=data["post"]
        ),
        streamed_answer=True,
    )


@require_POST
@login_required
def add_chips(request: HttpRequest, pk: int) -> HttpResponse:
    """Top up between hands."""
    return _run(
        request,
        pk,
        online_forms.ChipsForm,
        lambda *, table, user, data: online_services.add_chips(
            table=table, user=user, amount=data["amount"]
        ),
        streamed_answer=True,
    )


@require_POST
@login_required
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    """Leave the table: chips back to the balance (after the hand one is in)."""
    return _run(
        request, pk, _Empty, lambda *, table, user, data: online_play.leave(table=table, user=user)
    )


@require_POST
@login_required
def show(request: HttpRequest, pk: int) -> HttpResponse:
    """Show one's cards to the table after the hand."""
    return _run(
        request,
        pk,
        online_forms.ShowForm,
        lambda *, table, user, data: online_play.show_cards(
            table=table, user=user, hand_id=data["hand"]
        ),
    )


# -- the floor's table controls ----------------------------------------------------------------


@require_POST
@floor_required
def close(request: HttpRequest, pk: int) -> HttpResponse:
    """Close the table (audited)."""
    return _run(
        request,
        pk,
        _Empty,
        lambda *, table, user, data: online_services.close_table(table=table, actor=user),
    )


@require_POST
@floor_required
def add_bot(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat a house bot (audited)."""
    return _run(
        request,
        pk,
        online_forms.BotForm,
        lambda *, table, user, data: online_services.seat_bot(
            table=table, actor=user, number=data["seat"]
        ),
    )


@require_POST
@floor_required
def unseat(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Take a player or a house bot off the table (audited)."""
    return _run(
        request,
        pk,
        _Empty,
        lambda *, table, user, data: online_play.unseat(table=table, actor=user, number=number),
    )


# -- the stream --------------------------------------------------------------------------------


def _table_ids(request: HttpRequest) -> list[int]:
    """The tables a stream names (``?t=1&t=2`` or ``?t=1,2``), the first MAX_TABLES of them;
    what is not an id is left out."""
    ids: list[int] = []
    for value in request.GET.getlist("t")[: online_live.MAX_TABLES]:
        for part in value.split(",")[: online_live.MAX_TABLES]:
            number = parse_id(part)
            if number is not None and number not in ids:
                ids.append(number)
    return sorted(ids[: online_live.MAX_TABLES])


def _existing(ids: list[int]) -> list[int]:
    try:
        return list(OnlineTable.objects.filter(pk__in=ids).values_list("pk", flat=True))
    finally:
        if not connection.in_atomic_block:
            connection.close()


def _user_id(request: HttpRequest) -> int | None:
    try:
        user = request.user
        return user.pk if user.is_authenticated else None
    finally:
        if not connection.in_atomic_block:
            connection.close()  # the session's: online_live.in_database


@require_GET
async def stream(request: HttpRequest) -> HttpResponseBase:
    """ONE server-sent-event stream per tab for all its tables (``?t=1&t=2``). A tab that
    reconnects says what it has (``Last-Event-ID``, which the browser sends, or ``?last=`` when
    the page opens a new stream itself) and gets what it missed."""
    ids = await online_live.in_database(_existing, _table_ids(request))
    if not ids:
        return HttpResponseBadRequest(_("Name the tables to follow: ?t=1&t=2."))
    user_id = await online_live.in_database(_user_id, request)
    last = request.headers.get("Last-Event-ID") or request.GET.get("last")
    if isinstance(request, ASGIRequest):
        response = StreamingHttpResponse(
            online_live.stream_tables(
                ids, user_id=user_id, last_event_id=last, language=get_language()
            ),
            content_type="text/event-stream",
        )
    else:
        seconds = settings.LIVE_WSGI_STREAM_SECONDS
        if seconds <= 0:
            return HttpResponse(status=204)  # a WSGI worker is not held: the page polls
        response = StreamingHttpResponse(
            online_live.stream_tables_sync(
                ids,
                user_id=user_id,
                seconds=seconds,
                last_event_id=last,
                language=get_language(),
            ),  # fmt: skip
            content_type="text/event-stream",
        )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
