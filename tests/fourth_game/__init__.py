"""Tally, the fourth game: a score sheet with rounds, registered only in tests.

It proves the core: played through `companion script`, saved and resumed, undone, in the history
and the statistics, on the phones, in the rules lookup and through the table kit's trap matrix,
with nothing outside this folder written for it (docs/adding-a-game.md walks through it).
"""
