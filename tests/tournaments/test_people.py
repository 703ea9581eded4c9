"""Sign-ups (tournaments.people): a player asks, the floor approves; taken names, bursts."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.factories import make_user
from tournaments import people
from tournaments.models import AuditEvent, Player, SignUp

pytestmark = pytest.mark.django_db

FORM = {"display_name": "Anna K.", "username": "anna", "password": "long enough pw"}


def log_in(client, username, password):
    """Log in through the log-in page, as a person does (axes needs the request)."""
    client.post(reverse("login"), {"username": username, "password": password})
    return "_auth_user_id" in client.session


def test_a_sign_up_is_an_inactive_account_until_the_floor_approves_it(client):
    response = client.post(reverse("tournaments:signup"), FORM)
    assert response.status_code == 201
    user = User.objects.get(username="anna")
    assert not user.is_active and not log_in(client, "anna", FORM["password"])
    floor = make_user(username="floor", role="floor")
    client.force_login(floor)
    page = client.get(reverse("tournaments:signup_pending")).content.decode()
    assert "Anna K." in page
    signup = SignUp.objects.get(user=user)
    url = reverse("tournaments:signup_decide", args=[signup.pk])
    for _ in range(2):  # a double click approves once
        assert client.post(url, {"decision": "approve"}).status_code == 303
    user.refresh_from_db()
    assert user.is_active and user.player.name == "Anna K."
    assert Player.objects.filter(name="Anna K.").count() == 1
    assert AuditEvent.objects.filter(action="signup.approved", actor=floor).count() == 1
    page = client.get(reverse("tournaments:signup_pending")).content.decode()
    assert 'data-testid="signup-row"' not in page
    client.logout()
    assert log_in(client, "anna", FORM["password"])


def test_approval_links_the_player_who_played_here_before():
    old = Player.objects.create(name="Bert")
    signup = people.sign_up(username="bert", password="long enough pw", display_name=" bert ")
    people.approve_sign_up(signup_id=signup.pk, actor=make_user(username="a", role="admin"))
    old.refresh_from_db()
    assert old.user == signup.user


def test_taken_names_are_refused_with_a_clear_reason_and_nothing_stored(client):
    make_user(username="Anna")
    response = client.post(reverse("tournaments:signup"), FORM)
    assert response.status_code == 422
    assert "The username “anna” is taken." in response.content.decode()
    people.sign_up(username="other", password="long enough pw", display_name="anna k.")
    response = client.post(reverse("tournaments:signup"), FORM | {"username": "anna2"})
    assert response.status_code == 422
    assert "The display name “Anna K.” is taken" in response.content.decode()
    assert SignUp.objects.count() == 1 and not User.objects.filter(username="anna2").exists()


def test_a_short_password_is_refused(client):
    response = client.post(reverse("tournaments:signup"), FORM | {"password": "short"})
    assert response.status_code == 422 and not User.objects.filter(username="anna").exists()


def test_a_burst_from_one_address_waits_with_429(client):
    for number in range(people.SIGNUPS_PER_CLIENT):
        data = FORM | {"username": f"u{number}", "display_name": f"Name {number}"}
        assert client.post(reverse("tournaments:signup"), data).status_code == 201
    response = client.post(reverse("tournaments:signup"), FORM)
    assert response.status_code == 429 and response["Retry-After"] == "3600"
    assert "Too many sign-ups" in response.content.decode()
    assert not User.objects.filter(username="anna").exists()


def test_a_declined_sign_up_frees_its_names_and_stays_inactive(client):
    signup = people.sign_up(username="anna", password="long enough pw", display_name="Anna K.")
    people.decline_sign_up(signup_id=signup.pk, actor=make_user(username="f", role="floor"))
    signup.user.refresh_from_db()
    assert not signup.user.is_active
    assert client.post(reverse("tournaments:signup"), FORM).status_code == 201
    with pytest.raises(people.SignUpError):
        people.approve_sign_up(signup_id=signup.pk, actor=make_user(username="g", role="floor"))


@pytest.mark.parametrize("role", [None, "player"])
def test_only_floor_staff_and_admins_decide(client, role):
    signup = people.sign_up(username="anna", password="long enough pw", display_name="Anna K.")
    if role:
        client.force_login(make_user(username="p", role=role))
    url = reverse("tournaments:signup_decide", args=[signup.pk])
    response = client.post(url, {"decision": "approve"})
    assert response.status_code == (403 if role else 302)
    assert client.get(reverse("tournaments:signup_pending")).status_code == (403 if role else 302)
    signup.user.refresh_from_db()
    assert not signup.user.is_active


def test_the_home_page_links_the_lobby_and_the_sign_up(client):
    html = client.get("/").content.decode()
    assert f'href="{reverse("tables:online_lobby")}"' in html
    assert f'href="{reverse("tournaments:signup")}"' in html
