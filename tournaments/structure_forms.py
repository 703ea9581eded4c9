"""Forms of the structure editor: a structure, one level, a copy, an import, the shape."""

from __future__ import annotations

import dataclasses
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments import structures
from tournaments.bounds import MAX_CHIPS, MAX_JSON_BYTES, MAX_LEVELS, MAX_MINUTES, MAX_PLAYERS
from tournaments.models import BlindStructure, Denomination, Level, LevelKind


class StructureForm(forms.ModelForm[BlindStructure]):
    """A new structure: name, game, chips and starting stack."""

    starting_stack = forms.IntegerField(
        label=_("starting stack"), min_value=1, max_value=MAX_CHIPS, initial=10_000
    )

    class Meta:
        model = BlindStructure
        fields = ["name", "game", "starting_stack", "chip_set", "smallest_chip", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        chip_set, smallest_chip = self.fields["chip_set"], self.fields["smallest_chip"]
        assert isinstance(chip_set, forms.ModelChoiceField)  # noqa: S101 - a foreign key
        assert isinstance(smallest_chip, forms.ModelChoiceField)  # noqa: S101 - a foreign key
        chip_set.empty_label = None  # required: the default set is preselected
        smallest_chip.empty_label = _("the smallest of the chip set")


class LevelForm(forms.Form):
    """One level's values; `form_id` ties the inputs in a table row to their <form>."""

    kind = forms.ChoiceField(label=_("kind"), choices=LevelKind.choices, initial=LevelKind.PLAY)
    small_blind = forms.IntegerField(
        label=_("small blind"), min_value=0, max_value=MAX_CHIPS, required=False
    )
    big_blind = forms.IntegerField(
        label=_("big blind"), min_value=0, max_value=MAX_CHIPS, required=False
    )
    ante = forms.IntegerField(label=_("ante"), min_value=0, max_value=MAX_CHIPS, required=False)
    minutes = forms.IntegerField(label=_("minutes"), min_value=1, max_value=MAX_MINUTES)
    chip_up = forms.ModelChoiceField(
        label=_("chip-up after this level"),
        queryset=Denomination.objects.none(),
        required=False,
        to_field_name="value",
    )
    position = forms.IntegerField(
        min_value=1, max_value=MAX_LEVELS, required=False, widget=forms.HiddenInput
    )

    def __init__(self, *args: Any, structure: BlindStructure, form_id: str, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", f"{form_id}-%s")
        super().__init__(*args, **kwargs)
        self.form_id = form_id
        self.structure = structure
        chip_up = self.fields["chip_up"]
        assert isinstance(chip_up, forms.ModelChoiceField)  # noqa: S101 - declared above
        chip_up.queryset = structure.chip_set.denominations.all()
        chip_up.empty_label = "—"
        for name, field in self.fields.items():
            field.widget.attrs["form"] = form_id
            field.widget.attrs["aria-label"] = str(field.label or name)
            if isinstance(field, forms.IntegerField) and name != "position":
                field.widget.attrs |= {"inputmode": "numeric", "class": "num"}
        if structure.game == "limit":
            self.fields["small_blind"].widget.attrs["placeholder"] = _("auto")

    @classmethod
    def for_level(cls, level: Level, *, form_id: str) -> LevelForm:
        initial = {
            "kind": level.kind,
            "small_blind": level.small_blind,
            "big_blind": level.big_blind,
            "ante": level.ante,
            "minutes": level.minutes,
            "chip_up": level.chip_up.value if level.chip_up else None,
        }
        return cls(initial=initial, structure=level.structure, form_id=form_id)

    def clean(self) -> dict[str, Any]:
        """R2.4 is filled in by the service; here only the checks of one level on its own."""
        data = super().clean() or {}
        if self.errors:
            return data
        spec = self.spec()
        if self.structure.game == "limit" and not spec.small_blind and not spec.is_break:
            # R2.4: the service fills in the small blind; check the rest with a stand-in.
            spec = dataclasses.replace(spec, small_blind=max(1, spec.big_blind // 2))
        for message in structures.check_level(spec):
            self.add_error(None, message[:1].upper() + message[1:])
        return data

    def spec(self) -> structures.LevelSpec:
        data = self.cleaned_data
        chip: Denomination | None = data.get("chip_up")
        return structures.LevelSpec(
            kind=data["kind"],
            small_blind=data.get("small_blind") or 0,
            big_blind=data.get("big_blind") or 0,
            ante=data.get("ante") or 0,
            minutes=data["minutes"],
            chip_up=chip.value if chip else None,
        )


class DuplicateForm(forms.Form):
    name = forms.CharField(label=_("name of the copy"), max_length=120)

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        if BlindStructure.objects.filter(name=name).exists():
            raise forms.ValidationError(_("A structure with this name exists."))
        return name


class ImportForm(forms.Form):
    """A JSON document, as a file or pasted."""

    file = forms.FileField(label=_("JSON file"), required=False)
    text = forms.CharField(
        label=_("or paste JSON"),
        required=False,
        max_length=MAX_JSON_BYTES,
        widget=forms.Textarea(attrs={"rows": 4}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_JSON_BYTES:
                raise forms.ValidationError(_("The file is too big (1 MB at most)."))
            data["document"] = upload.read()
        elif data.get("text", "").strip():
            data["document"] = data["text"]
        else:
            raise forms.ValidationError(_("Choose a file or paste a JSON document."))
        return data


class ShapeForm(forms.Form):
    """The field size and starting stack the structure page draws its shape for."""

    players = forms.IntegerField(label=_("players"), min_value=2, max_value=MAX_PLAYERS, initial=10)
    stack = forms.IntegerField(label=_("starting stack"), min_value=1, max_value=10_000_000)
