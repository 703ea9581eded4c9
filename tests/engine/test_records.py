"""records.maker: the engine's hot paths make records without the class call."""

import dataclasses

import pytest

from tables.engine.records import AwardPot, Call, Cause, Check, RaiseTo, maker


def test_record_maker_gives_the_same_frozen_records():
    # The record must be the class's own, equal, hashing alike, with __init__'s defaults,
    # and frozen, so a replay's records compare equal to the live hand's.
    made = maker(Call)(seat=2, amount=50)
    assert type(made) is Call
    assert made == Call(seat=2, amount=50, all_in=False)
    assert hash(made) == hash(Call(seat=2, amount=50))
    assert maker(Check)(seat=1) == Check(seat=1, cause=Cause.PLAYER)
    award = maker(AwardPot)(pot=0, amount=30, shares=((1, 15), (2, 15)))
    assert award.winners == (1, 2)
    assert dataclasses.replace(made, all_in=True) == Call(seat=2, amount=50, all_in=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.amount = 60  # type: ignore[misc]
    with pytest.raises(TypeError):
        maker(RaiseTo)(seat=1, to=100)  # the same required keywords as the class
    with pytest.raises(TypeError):
        maker(Check)(1)  # keywords only, as the class
