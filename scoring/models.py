"""Eliminations and places, seasons and points, standings."""
