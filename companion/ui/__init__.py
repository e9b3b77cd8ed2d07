"""The touchscreen app: Kivy screens over the game service. Nothing below this package imports it."""
