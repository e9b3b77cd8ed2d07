"""Quick rules lookup: the own-words corpus in English, German and French, and its search."""
