"""Tests that kill mutmut's surviving mutants of store/audit.py (issue 16): the hash chain,
its anchors, the signatures and every check ``verify`` makes. Equivalent mutants are listed
in tools/mutation-equivalents.md.
"""

from __future__ import annotations
