"""The mirror: a read-only live view of the game for phones on the local network."""

DEFAULT_PORT = 8765
"""Where the mirror listens unless told otherwise (the next free one above it in the app)."""
