"""mqtui: Munchkin Quest-style dungeon crawling in the terminal."""

__version__ = "0.2.0"
