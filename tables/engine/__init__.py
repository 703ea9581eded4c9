"""Floorman poker engine: pure Python, standard library only, deterministic given a deck."""
