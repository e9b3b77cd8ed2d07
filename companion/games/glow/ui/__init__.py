"""Glow on the touchscreen: its new-game form and its table screen (with the end scoring)."""
