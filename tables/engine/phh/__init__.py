"""Poker Hand History (PHH) files: strict readers that replay every action through the engine,
and writers, for hold'em and Omaha (``reader``, ``writer``, fields in ``document``), stud
(``stud``) and Draw Hold'em (``draw``, ``draw_document``); ``python -m tables.engine.phh FILE...``
checks files (``check``).

A reader never repairs a history: each action goes through the engine's public moves, and the
first action the engine refuses (or a history that stops before the hand is over) raises
:class:`IllegalHistory` naming the action's index and the reason."""

from tables.engine.phh.check import check_file, main, stacks_match
from tables.engine.phh.document import (
    UNKNOWN,
    VARIANTS,
    HandHistory,
    IllegalHistory,
    PHHError,
    UnsupportedVariant,
    load,
)
from tables.engine.phh.draw import load_draw, read_draw, replay_draw, write_draw
from tables.engine.phh.reader import read, replay
from tables.engine.phh.stud import StudHistory, load_stud, read_stud, replay_stud, write_stud
from tables.engine.phh.writer import write

__all__ = [
    "UNKNOWN",
    "VARIANTS",
    "HandHistory",
    "IllegalHistory",
    "PHHError",
    "StudHistory",
    "UnsupportedVariant",
    "check_file",
    "load",
    "load_draw",
    "load_stud",
    "main",
    "read",
    "read_draw",
    "read_stud",
    "replay",
    "replay_draw",
    "replay_stud",
    "stacks_match",
    "write",
    "write_draw",
    "write_stud",
]
