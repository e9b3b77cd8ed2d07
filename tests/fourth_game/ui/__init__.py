"""Tally's table screen (the touchscreen app imports it by name, `Game.table_screen`)."""
