"""Leviathan Wilds on the touchscreen: its screens (Kivy), apart from the pure model."""
