"""The Spirit Island game model: pure Python, no screen, no serial port, no database.

Commands go in (`commands`), events and a new immutable state come out (`game.decide`); the
`GameSession` keeps the history that undo and redo walk.
"""
