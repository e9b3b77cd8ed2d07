"""Spirit Island's screens: its table, its new-game form and its scoring (Kivy; the model
beside them knows nothing of them)."""
