"""Suite-wide hooks.

``JANTAKU_TEST_TRACE=FILE`` names a file that gets each test's id as the test starts, written through at once:
when the test process is ended from outside pytest (a library that exits the process, the kernel), pytest prints
no summary, and this file still says which test was running. ``.ci/run`` sets it and prints the last line when
pytest ends without its summary.
"""

from __future__ import annotations

import os

_TRACE = os.environ.get("JANTAKU_TEST_TRACE")


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    if _TRACE:
        with open(_TRACE, "a", encoding="utf-8") as f:
            f.write(nodeid + "\n")
