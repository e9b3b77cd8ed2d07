"""Leviathan Wilds: a pure game model (`api`), its `Game` record (`definition`) and its screens
(`ui`).

This package imports nothing itself, so that the registry lists the game (`about`) without
making its commands and events; the model's API is `companion.games.leviathan_wilds.api`.
"""
