"""Tests of tables.engine.phh."""
