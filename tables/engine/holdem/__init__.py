"""Hold'em and Omaha (R7.1): one hand's moves (``hand``), what the actor may do (``legal``) and
the state between moves (``state``)."""

from tables.engine.holdem.hand import Hand
from tables.engine.holdem.legal import HandQueries
from tables.engine.holdem.state import HandState

__all__ = ["Hand", "HandQueries", "HandState"]
