"""Sign-up for players and the floor's page of sign-ups to approve (tournaments.people)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import people
from tournaments.models import SignUp
from tournaments.permissions import acting_user, floor_required

UNPROCESSABLE = 422
TOO_MANY = 429


class SignUpForm(forms.Form):
    """The name people see at the table and in the standings, a username and a password."""

    display_name = forms.CharField(
        label=gettext_lazy("Display name"),
        max_length=120,
        help_text=gettext_lazy("Shown in the standings and at the tables."),
    )
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150)
    password = forms.CharField(
        label=gettext_lazy("Password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )


def _client(request: HttpRequest) -> str:
    return people.client_tag(request.META.get("REMOTE_ADDR", ""))


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """A player asks for an account; it works once the floor approves it."""
    form = SignUpForm(request.POST or None)
    if request.method == "GET" or not form.is_valid():
        status = 200 if request.method == "GET" else UNPROCESSABLE
        return render(request, "tournaments/signup.html", {"form": form}, status=status)
    try:
        done = people.sign_up(client=_client(request), **form.cleaned_data)
    except people.SignUpError as error:
        form.add_error(error.field, str(error))
        status = TOO_MANY if isinstance(error, people.TooManySignUpsError) else UNPROCESSABLE
        response = render(request, "tournaments/signup.html", {"form": form}, status=status)
        if status == TOO_MANY:
            response["Retry-After"] = str(int(people.SIGNUP_WINDOW.total_seconds()))
        return response
    return render(request, "tournaments/signup.html", {"sent": done}, status=201)


@require_GET
@floor_required
def signup_pending(request: HttpRequest) -> HttpResponse:
    """The sign-ups waiting for approval, oldest first."""
    pending = SignUp.objects.filter(approved=None).select_related("user")
    return render(request, "tournaments/signup_pending.html", {"pending": pending})


@require_POST
@floor_required
def signup_decide(request: HttpRequest, pk: int) -> HttpResponse:
    """Approve or decline one sign-up (a double click decides once)."""
    approve = request.POST.get("decision") == "approve"
    service = people.approve_sign_up if approve else people.decline_sign_up
    try:
        done = service(signup_id=pk, actor=acting_user(request))
    except people.SignUpError as error:
        messages.error(request, str(error))
    else:
        text = _("%(name)s can log in now.") if approve else _("%(name)s was declined.")
        messages.success(request, text % {"name": done.display_name})
    return HttpResponseRedirect(reverse("tournaments:signup_pending"), status=303)
