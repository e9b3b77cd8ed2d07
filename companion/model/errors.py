"""The one way the game says no."""


class Refused(Exception):
    """A command the game will not carry out; the message says why in a player's words.

    A refused command changes nothing.
    """
