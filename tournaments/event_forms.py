"""Forms of event management: an event's settings and the finish action."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.conf import settings
from django.db.models import Count, Q
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from tournaments.bounds import EARLIEST_YEAR, LATEST_YEAR, MAX_CHIPS, MAX_PLAYERS
from tournaments.models import BlindStructure, Event, EventKind, LevelKind, Season

DATETIME_LOCAL = "%Y-%m-%dT%H:%M"


class StructureSelect(forms.Select):
    """A select whose structures without a playing level are shown but cannot be chosen."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unplayable: set[str] = set()

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option: dict[str, Any] = super().create_option(*args, **kwargs)
        if str(option["value"]) in self.unplayable and not option["selected"]:
            option["attrs"]["disabled"] = True
        return option


class StructureChoiceField(forms.ModelChoiceField[BlindStructure]):
    """Structures labelled with their starting stack, or as having no level yet."""

    def label_from_instance(self, obj: BlindStructure) -> str:
        if not getattr(obj, "play_levels", 1):
            return str(_("%(name)s (no playing level yet)") % {"name": obj.name})
        stack = number_format(obj.starting_stack, force_grouping=True)
        return str(_("%(name)s · %(stack)s chips") % {"name": obj.name, "stack": stack})


class EventForm(forms.Form):
    """An event's name, kind, structure, starting stack, start and season; online: its table
    size and sit&go start rule (docs/online.md, "Online tournaments")."""

    name = forms.CharField(
        label=_("Name"), max_length=120, error_messages={"required": _("Give the event a name.")}
    )
    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=EventKind.choices,
        initial=EventKind.CUSTOM,
        help_text=_(
            "A final's players get 3,000 chips per satellite won (R5.5), added to its starting "
            "stack or as the whole stack, as its season sets: set on its super-final page."
        ),
    )
    structure = StructureChoiceField(
        label=_("Blind structure"),
        queryset=BlindStructure.objects.none(),
        widget=StructureSelect,
        empty_label=_("choose a structure"),
    )
    starting_stack = forms.IntegerField(
        label=_("Starting stack"),
        required=False,
        min_value=1,
        max_value=MAX_CHIPS,
        error_messages={
            "invalid": _("The starting stack must be a positive whole number of chips."),
            "min_value": _("The starting stack must be a positive whole number of chips."),
            "max_value": _("The starting stack is at most %(limit_value)s chips."),
        },
        help_text=_("Empty: the structure's starting stack."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}),
    )
    scheduled_start = forms.DateTimeField(
        label=_("Scheduled start"),
        input_formats=[DATETIME_LOCAL, "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=DATETIME_LOCAL),
        error_messages={
            "required": _("Give the date and time of the start."),
            "invalid": _("Give the date and time of the start."),
        },
    )
    season = forms.ModelChoiceField(
        label=_("Season"),
        queryset=Season.objects.all(),
        required=False,
        empty_label=_("none (a one-off event)"),
        help_text=_("The places earn points in this season's standings (R6)."),
    )
    online = forms.BooleanField(
        label=_("Played online"),
        required=False,
        help_text=_("Dealt by the server on online tables; players register on the play lobby."),
    )
    table_size = forms.IntegerField(
        label=_("Players a table"),
        required=False,
        initial=9,
        min_value=2,
        max_value=10,
        error_messages={
            "min_value": _("Give the players a table: 2 to 10."),
            "max_value": _("Give the players a table: 2 to 10."),
            "invalid": _("Give the players a table: 2 to 10."),
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}),
    )
    start_players = forms.IntegerField(
        label=_("Start when this many have registered"),
        required=False,
        min_value=2,
        max_value=MAX_PLAYERS,
        error_messages={
            "min_value": _("A sit&go needs at least two players."),
            "invalid": _("A sit&go needs at least two players."),
            "max_value": _("A sit&go starts with at most %(limit_value)s players."),
        },
        help_text=_("Online sit&go: starts when this many players have registered; empty: at "
                    "the scheduled start."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}),
    )  # fmt: skip

    def __init__(self, *args: Any, event: Event | None = None, **kwargs: Any) -> None:
        if event is not None and "initial" not in kwargs:
            kwargs["initial"] = {
                "name": event.name,
                "kind": event.kind,
                "structure": event.structure_id,
                "starting_stack": event.starting_stack,
                "scheduled_start": event.scheduled_start,
                "season": event.season_id,
                "online": event.online,
                "table_size": event.table_size,
                "start_players": event.start_players,
            }
        self.event = event
        super().__init__(*args, **kwargs)
        structures = BlindStructure.objects.annotate(
            play_levels=Count("levels", filter=Q(levels__kind=LevelKind.PLAY))
        ).order_by("-is_preset", "name")
        field = self.fields["structure"]
        assert isinstance(field, StructureChoiceField)  # noqa: S101 - declared above
        field.queryset = structures
        assert isinstance(field.widget, StructureSelect)  # noqa: S101 - declared above
        field.widget.unplayable = {str(s.pk) for s in structures if not s.play_levels}
        self.fields["scheduled_start"].help_text = _("House time (%(zone)s).") % {
            "zone": settings.TIME_ZONE
        }

    def clean_scheduled_start(self) -> datetime:
        """A start in a year a tournament is played (year 1 would overflow the time zones)."""
        start: datetime = self.cleaned_data["scheduled_start"]
        if not EARLIEST_YEAR <= start.year <= LATEST_YEAR:
            raise forms.ValidationError(
                _("Give a start between the years %(first)s and %(last)s.")
                % {"first": EARLIEST_YEAR, "last": LATEST_YEAR}
            )
        return start

    def clean_table_size(self) -> int:
        """Empty: the event's table size as it is, a new event's nine."""
        size: int | None = self.cleaned_data.get("table_size")
        if size is None:
            return self.event.table_size if self.event is not None else 9
        return size


class FinishForm(forms.Form):
    """Finish a running event; ``confirm`` accepts that players still in get no place."""

    confirm = forms.BooleanField(required=False)
