"""The online table's two parts, the public table and a viewer's private part, drawn by Jinja2
(templates/jinja2/tables/): what a table's and a player's stream messages carry
(tables.online.broadcast) and what the table's page and fragment include.

Issue 17: they are drawn after every change of a watched table, by the process that commits
it, and Django's template language spent about a quarter of a POSTed move drawing them
(resolving each variable through its lookups, escaping each value through a lazy wrapper).
Jinja2 compiles a template to Python once; the same parts cost a fraction of it
(bench/RESULTS.md, "thirteenth pass"). Every other page stays in Django's templates.

The parts are drawn as Django draws them: in the active language (``_`` is Django's gettext,
trusted as ``{% translate %}`` trusts it; makemessages finds the ``_("...")`` marks), escaped
(Django's safe strings stay safe), a missing attribute empty (``ChainableUndefined``, as in
Django's templates), the forms' CSRF field only where a request is given (a stream message has
none: the page puts its own in).
"""

from __future__ import annotations

import functools
import time
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.template.backends.utils import csrf_input_lazy
from django.template.defaultfilters import date
from django.templatetags.static import static
from django.urls import reverse
from django.utils import formats
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from jinja2 import ChainableUndefined, Environment, FileSystemLoader
from markupsafe import Markup

from tables.templatetags.online_equity_tags import all_in_equity_of
from tables.templatetags.online_event_tags import event_seat_elsewhere
from tables.templatetags.online_table_tags import card, card_backs, pot, table_url

PUBLIC = "tables/_online_public.html"
PRIVATE = "tables/_online_private.html"


def _translated(message: str) -> Markup:
    """``message`` in the active language, trusted as Django's ``{% translate %}`` trusts it:
    what ``%`` puts into it is escaped (as ``{% blocktranslate %}`` escapes its values)."""
    return Markup(gettext(message))  # noqa: S704 - the catalogue's text, not a user's


def _url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def _localize(number: float) -> str:
    """A figure in the active language's format (an all-in percentage: 45.3, German 45,3)."""
    return str(formats.localize(number, use_l10n=True))


@functools.cache
def environment() -> Environment:
    """The parts' Jinja2 environment, built once a process (its templates compiled once)."""
    jinja = Environment(  # noqa: S701 - autoescape is on
        loader=FileSystemLoader(settings.BASE_DIR / "templates" / "jinja2"),
        autoescape=True,
        undefined=ChainableUndefined,
        keep_trailing_newline=True,
        auto_reload=settings.DEBUG,
    )
    jinja.globals.update(
        _=_translated, static=static, url=_url, table_url=table_url, draw_card=card,
        card_backs=card_backs, draw_pot=pot, date=date, now_epoch=lambda: int(time.time()),
        localize=_localize, all_in_equity_of=all_in_equity_of,
        event_seat_elsewhere=event_seat_elsewhere,
    )  # fmt: skip
    return jinja


def draw(template: str, context: dict[str, Any], request: HttpRequest | None = None) -> SafeString:
    """``template`` (PUBLIC or PRIVATE) drawn with ``context`` in the active language; with a
    request, its forms carry the CSRF field."""
    if request is not None:
        context = {**context, "request": request, "csrf_input": csrf_input_lazy(request)}
    return SafeString(environment().get_template(template).render(context))
