"""tavli-pi: a camera referee for backgammon and tavli."""

__version__ = "0.1.0"
