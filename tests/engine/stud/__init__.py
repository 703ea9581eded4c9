"""Tests of tables.engine.stud."""
