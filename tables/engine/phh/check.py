"""Checking PHH files from the command line (``python -m tables.engine.phh FILE...``): each
file replayed by its game's reader, computed against recorded finishing stacks."""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from tables.engine.phh.document import load
from tables.engine.phh.draw import VARIANT as DRAW_VARIANT
from tables.engine.phh.draw import read_draw
from tables.engine.phh.reader import replay
from tables.engine.phh.stud import VARIANT as STUD_VARIANT
from tables.engine.phh.stud import read_stud


def check_file(path: Path) -> dict[str, object]:
    """Replay one file: computed vs recorded finishing stacks, or the error."""
    try:
        text = path.read_text(encoding="utf-8")
        other = _other_game(text)
        if other is not None:
            return _check_other(path, text, other)
        history = load(text)
        hand = replay(history)
    except (OSError, ValueError) as exc:  # PHHError is a ValueError; so is a stud/draw refusal
        return {"file": str(path), "error": str(exc)}
    computed = [_number_out(Fraction(stack, history.scale)) for stack in hand.stacks]
    recorded = history.finishing_stacks
    result: dict[str, object] = {"file": str(path), "computed": computed, "recorded": None}
    if recorded is None:
        result["match"] = True
        return result
    result["recorded"] = [_number_out(value) for value in recorded]
    result["match"] = stacks_match(
        [Fraction(stack, history.scale) for stack in hand.stacks], list(recorded)
    )
    return result


def _other_game(text: str) -> Callable[[str], Any] | None:
    """The reader of a game the hold'em reader does not play: stud (R7.2), Draw Hold'em."""
    try:
        variant = tomllib.loads(text).get("variant")
    except tomllib.TOMLDecodeError:
        return None
    return {STUD_VARIANT: read_stud, DRAW_VARIANT: read_draw}.get(str(variant))


def _check_other(path: Path, text: str, read: Callable[[str], Any]) -> dict[str, object]:
    hand = read(text)
    recorded = tomllib.loads(text).get("finishing_stacks")
    computed = list(hand.stacks)  # the readers number players as PHH does
    return {
        "file": str(path),
        "computed": computed,
        "recorded": recorded,
        "match": recorded is None or list(recorded) == computed,
    }


def stacks_match(computed: Sequence[Fraction], recorded: Sequence[Fraction]) -> bool:
    """Equal stacks; within one chip where the history records a half chip (an odd chip
    of a split pot left unawarded, as some Pluribus files do)."""
    if len(computed) != len(recorded):
        return False
    tolerance = 1 if any(value.denominator != 1 for value in recorded) else 0
    return all(abs(a - b) <= tolerance for a, b in zip(computed, recorded, strict=True))


def _number_out(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tables.engine.phh FILE...``: one JSON line per file; 1 if any fails."""
    paths = list(sys.argv[1:] if argv is None else argv)
    if not paths:
        print("usage: python -m tables.engine.phh FILE...", file=sys.stderr)
        return 2
    failed = False
    for name in paths:
        result = check_file(Path(name))
        failed = failed or "error" in result or not result.get("match")
        print(json.dumps(result))
    return 1 if failed else 0
