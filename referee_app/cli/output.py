"""Standard output and error that survive a Chinese Windows console (issue 28 item 6).

Python writes a console window in UTF-8 itself; but redirected to a file or a pipe
(``referee-app standings > 名次.txt``), or with ``PYTHONIOENCODING`` set, it writes in the
system's code page — cp936 (GBK) on a Chinese Windows — which has no 𠮷 (U+20BB7) nor
many other characters of players' names. Such a character ended the command in "internal
error" after half its lines. Now the text keeps the code page the referee's tools read, and
a character the code page cannot hold is written as ``[U+20BB7]`` — visible, and telling
exactly which character it was. JSON is written with ``\\u`` escapes there instead, so it
stays exact (a JSON reader gives back 𠮷).
"""

from __future__ import annotations

import codecs
import json
import sys
from typing import Any, TextIO

#: The codec error handler of this module: ``[U+XXXX]`` for each character not encodable.
REPLACE = "referee-app-codepoint"


def _codepoints(err: UnicodeError) -> tuple[str, int]:
    if not isinstance(err, UnicodeEncodeError):
        raise err
    shown = "".join(f"[U+{ord(c):04X}]" for c in err.object[err.start : err.end])
    return shown, err.end


codecs.register_error(REPLACE, _codepoints)


def _is_unicode(stream: TextIO | None) -> bool:
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return True  # an in-memory stream (a test's): it holds any text
    try:
        return codecs.lookup(encoding).name in ("utf-8", "utf-8-sig", "utf-16", "utf-32")
    except LookupError:
        return False


def survivable_output() -> None:
    """Make standard output and error write what their encoding cannot hold as
    ``[U+XXXX]`` instead of raising (a UTF-8 stream is left as it is)."""
    for stream in (sys.stdout, sys.stderr):
        if stream is None or _is_unicode(stream):
            continue
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=REPLACE)


def stdout_json(value: Any, **options: Any) -> str:
    """``value`` as JSON for standard output: its characters as they are where the stream
    holds them (UTF-8), ``\\u`` escapes where it may not (a code page), exact either way."""
    return json.dumps(value, ensure_ascii=not _is_unicode(sys.stdout), **options)
