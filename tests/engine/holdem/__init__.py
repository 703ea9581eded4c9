"""Tests of tables.engine.holdem."""
