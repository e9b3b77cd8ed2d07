"""The touchscreen app: Kivy screens over the game service; nothing outside it imports it."""
