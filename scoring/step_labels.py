"""What an undo or a redo will take back or do again, in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import EliminationKind
from tables.models import FloorStep, StepKind, StepStatus


def _names(step: FloorStep) -> str:
    outs = step.eliminations.exclude(kind=EliminationKind.WINNER).select_related("entry__player")
    outs = outs.order_by("place", "pk")
    return ", ".join(f"{out.entry.label} ({out.place})" for out in outs)


def step_label(step: FloorStep | None) -> str:
    """One line naming the step: whose bust or quit, which moves; empty without a step."""
    if step is None:
        return ""
    if step.kind in {StepKind.BUSTS, StepKind.QUIT, StepKind.STOP}:
        text = {
            StepKind.BUSTS: _("the bust of %(names)s"),
            StepKind.QUIT: _("the quit of %(names)s"),
            StepKind.STOP: _("the agreed stop: %(names)s"),
        }[StepKind(step.kind)] % {"names": _names(step)}
        if "ended_event" in step.data and step.status == StepStatus.DONE:
            text = _("%(step)s (the event runs on)") % {"step": text}
        return text
    moves = list(step.moves.select_related("entry__player"))
    if step.kind == StepKind.MOVE and moves:
        return _("the move of %(name)s") % {"name": moves[0].entry.label}
    return ngettext(
        "the balancing plan: %(count)s move, the same seats",
        "the balancing plan: %(count)s moves, the same seats",
        len(moves),
    ) % {"count": len(moves)}
