"""What a test needs from the machine (a server, a tool), said once."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def missing(reason: str) -> NoReturn:
    """The test's server or tool is not here: a skip with ``reason`` on a laptop, a failure
    under ``CI=true``, where ``.ci/run`` installs everything the tests need."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {reason}", pytrace=False)
    pytest.skip(reason)
