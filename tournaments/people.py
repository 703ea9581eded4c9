"""Accounts for players: a sign-up with a display name, approved by floor staff or an admin."""

from __future__ import annotations

import hashlib
import hmac
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Player, SignUp
from tournaments.services import record_audit

# A burst from one address waits; the form answers 429 with a reason, nothing is stored.
SIGNUPS_PER_CLIENT = 5
SIGNUP_WINDOW = timedelta(hours=1)


class SignUpError(Exception):
    """A sign-up or a decision that cannot be made; ``field`` names the form field."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class TooManySignUpsError(SignUpError):
    """Too many sign-ups from one address in the last hour."""


def client_tag(address: str) -> str:
    """A keyed hash of the client's address: counts a burst without storing the address."""
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, address.encode(), hashlib.sha256).hexdigest()[:64]


def _check_names(*, username: str, display_name: str) -> None:
    if username.lower().startswith("bot-"):  # the house bots' names (tables.online.services)
        raise SignUpError(
            _("Usernames starting with “bot-” are the house bots'."), field="username"
        )
    if User.objects.filter(username__iexact=username).exists():
        raise SignUpError(
            _("The username “%(name)s” is taken.") % {"name": username}, field="username"
        )
    linked = Player.objects.filter(name__iexact=display_name, user__isnull=False).exists()
    waiting = SignUp.objects.filter(display_name__iexact=display_name, approved=None).exists()
    if linked or waiting:
        raise SignUpError(
            _("The display name “%(name)s” is taken: add an initial or a nickname.")
            % {"name": display_name},
            field="display_name",
        )


@transaction.atomic
def sign_up(*, username: str, password: str, display_name: str, client: str = "") -> SignUp:
    """A new inactive account with its display name, waiting for the floor's approval."""
    username, display_name = username.strip(), " ".join(display_name.split())
    if not username or not display_name:
        raise SignUpError(_("Give a username and a display name."))
    since = timezone.now() - SIGNUP_WINDOW
    if client and SignUp.objects.filter(client=client, created_at__gte=since).count() >= (
        SIGNUPS_PER_CLIENT
    ):
        raise TooManySignUpsError(_("Too many sign-ups from here in the last hour: try later."))
    _check_names(username=username, display_name=display_name)
    user = User(username=username, is_active=False)
    try:
        validate_password(password, user)
    except ValidationError as error:
        raise SignUpError(" ".join(error.messages), field="password") from error
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as error:  # the same name sent twice at once: one account
        raise SignUpError(
            _("The username “%(name)s” is taken.") % {"name": username}, field="username"
        ) from error
    signup = SignUp.objects.create(user=user, display_name=display_name, client=client)
    record_audit(actor=None, action="signup.requested", user=user.pk, display_name=display_name)
    return signup


def _decide(signup_id: int) -> SignUp:
    signup = SignUp.objects.select_for_update().select_related("user").filter(pk=signup_id).first()
    if signup is None:
        raise SignUpError(_("This sign-up does not exist."))
    return signup


@transaction.atomic
def approve_sign_up(*, signup_id: int, actor: User) -> SignUp:
    """The account is active and linked to its player (an unlinked one of that name, or new)."""
    signup = _decide(signup_id)
    if signup.approved is True:
        return signup  # a double click: approved once
    if signup.approved is False:
        raise SignUpError(_("This sign-up was turned down."))
    player = (
        Player.objects.select_for_update()
        .filter(name__iexact=signup.display_name, user__isnull=True)
        .order_by("pk")
        .first()
    )  # he played at the club before: his results stay his
    if player is None:
        player = Player.objects.create(name=signup.display_name)
    player.user = signup.user
    player.save(update_fields=["user"])
    signup.user.is_active = True
    signup.user.save(update_fields=["is_active"])
    signup.approved, signup.decided_at, signup.decided_by = True, timezone.now(), actor
    signup.save(update_fields=["approved", "decided_at", "decided_by"])
    record_audit(
        actor=actor, action="signup.approved", user=signup.user_id, player=player.pk,
        display_name=signup.display_name,
    )  # fmt: skip
    return signup


@transaction.atomic
def decline_sign_up(*, signup_id: int, actor: User) -> SignUp:
    """The account stays inactive; the names are free again."""
    signup = _decide(signup_id)
    if signup.approved is False:
        return signup
    if signup.approved is True:
        raise SignUpError(_("This sign-up was approved already."))
    signup.approved, signup.decided_at, signup.decided_by = False, timezone.now(), actor
    signup.save(update_fields=["approved", "decided_at", "decided_by"])
    signup.user.username = f"declined-{signup.pk}-{signup.user.username}"[:150]
    signup.user.save(update_fields=["username"])
    record_audit(
        actor=actor, action="signup.declined", user=signup.user_id,
        display_name=signup.display_name,
    )  # fmt: skip
    return signup
