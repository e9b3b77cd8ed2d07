"""Card readers on a serial line: byte codecs, the reader thread, the tag registry, an emulator.

Nothing here imports Kivy or the game model's internals: the reader reports what it saw
(a tag laid on it, a tag lifted, the line lost or back) through one callback, and the app
decides what a card means for the game.
"""
