"""Tests of tables.engine.draw."""
