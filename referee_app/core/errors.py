"""The errors the core raises: each carries one line a user can act on."""


def one_line(message: object) -> str:
    """``message`` as the single line a referee sees (line breaks and runs of spaces folded)."""
    return " ".join(str(message).split())


class CaseError(ValueError):
    """A case is not valid: the message names the field (``hands[2].seat: …``)."""


class RulebookError(ValueError):
    """A rulebook cannot be loaded: the message names the file and the key path."""
