"""Draw Hold'em (R7.3-R7.11): the hand (``hand``), its swap rounds and fees (``state``), the
stub and its reshuffles (``stub``) and the records it adds (``records``)."""

from tables.engine.draw.hand import DrawHand
from tables.engine.draw.records import (
    AwardSwapFees,
    DrawRecord,
    Reshuffle,
    StandPat,
    Swap,
    public_view,
)
from tables.engine.draw.stub import Stub, system_reshuffle

__all__ = [
    "AwardSwapFees",
    "DrawHand",
    "DrawRecord",
    "Reshuffle",
    "StandPat",
    "Stub",
    "Swap",
    "public_view",
    "system_reshuffle",
]
