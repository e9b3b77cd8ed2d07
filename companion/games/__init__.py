"""The games the table companion knows, one folder each; `registry` lists them.

The core (session, store, service, driver, reader, rules search, shared screens) reaches a game
only through `companion.games.registry` and the `companion.core.game.Game` it returns.
"""
