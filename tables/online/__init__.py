"""Online tables: seats, moves, the sweeper, streams, hand histories and house bots."""
