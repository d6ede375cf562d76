"""Tests that kill mutmut's surviving mutants of core/pairing.py and core/knockout.py (issue 16).

Each test names the rule it pins: Gansu 2018 六、三 (积分编排), HBUE 2018 通知四、(一) (knockout
draws), or the reading written in the module's docstring. Equivalent mutants are listed in
tools/mutation-equivalents.md.
"""

from __future__ import annotations
