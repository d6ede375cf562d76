"""referee-app: a referee and penalty assistant for 双升 (Shengji / Tractor) tournaments."""

__version__ = "0.1.0"
