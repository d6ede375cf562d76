"""Write the rulebook's reference and JSON Schema from the schema and its words:
docs/rulebook-reference.md (every key and option, Chinese and English, with what each does)
and docs/rulebook.schema.json (for a text editor).

    python tools/rulebook_reference.py [--check]

--check: write nothing, exit 1 when a committed file is not what the schema and the words
make (tests/test_rulebook_words.py runs the same comparison).
"""

from __future__ import annotations

import sys
from pathlib import Path

from referee_app.app.rulebook_reference import json_schema_text, reference_markdown

ROOT = Path(__file__).resolve().parents[1]
OUTPUTS = {
    ROOT / "docs" / "rulebook-reference.md": reference_markdown,
    ROOT / "docs" / "rulebook.schema.json": json_schema_text,
}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for path, make in OUTPUTS.items():
        text = make()
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path)
        if not check:
            path.write_text(text, encoding="utf-8", newline="\n")
            print(f"wrote {path.relative_to(ROOT)}")
    if check and stale:
        print("not current: " + ", ".join(str(p.relative_to(ROOT)) for p in stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
