"""Load the presets, the roles and a demo event, and print where to go and how to log in."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from tournaments.models import BlindStructure, Event, EventKind
from tournaments.presets import load_presets
from tournaments.selectors import ADMIN_GROUP, FLOOR_GROUP

DEMO_USERS = (
    # username, password, group, superuser
    ("admin", "floorman-admin", ADMIN_GROUP, True),
    ("floor", "floorman-floor", FLOOR_GROUP, False),
    ("player", "floorman-player", None, False),
)
DEMO_EVENT_CODE = "demo"


class Command(BaseCommand):
    help = "Load preset structures, the roles, demo logins and a demo event (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000")
        parser.add_argument("--no-demo", action="store_true", help="presets and roles only")

    def handle(self, *args: Any, **options: Any) -> None:
        load_presets()
        for name in (ADMIN_GROUP, FLOOR_GROUP):
            Group.objects.get_or_create(name=name)
        if options["no_demo"]:
            return
        user_model = get_user_model()
        for username, password, group, superuser in DEMO_USERS:
            user, created = user_model.objects.get_or_create(
                username=username, defaults={"is_staff": superuser, "is_superuser": superuser}
            )
            if created:
                user.set_password(password)
                user.save()
                if group:
                    user.groups.add(Group.objects.get(name=group))
        structure = BlindStructure.objects.get(name="Deepstack (R5.4)")
        event, _ = Event.objects.get_or_create(
            code=DEMO_EVENT_CODE,
            defaults={
                "name": "Friday Deepstack",
                "kind": EventKind.DEEPSTACK,
                "structure": structure,
                "starting_stack": structure.starting_stack,
                "scheduled_start": timezone.now() + timedelta(minutes=30),
            },
        )
        url = options["url"].rstrip("/")
        self.stdout.write(
            "\n".join(
                [
                    "",
                    f"Floorman is running at {url}/",
                    f"  demo event clock (phones): {url}{event.get_absolute_url()}",
                    "Logins:",
                    *(f"  {u:<7} password {p}" for u, p, _g, _s in DEMO_USERS),
                    "",
                ]
            )
        )
