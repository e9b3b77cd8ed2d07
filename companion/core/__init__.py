"""The table's game-agnostic core, pure Python: commands, events, refusals, undo, the game protocol.

It knows no game's rules. A game plugs in as a `game.Game`; the registry in `companion.games`
lists them.
"""
