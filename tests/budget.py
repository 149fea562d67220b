"""How much the randomised tests try: the CI budget, or five times as much for a thorough run.

The suite has to finish within minutes on two busy cores, so the property tests, the harness and the
brute-force comparisons try a CI-sized sample by default. ``JANTAKU_THOROUGH=1`` multiplies every such count by
five (a nightly or a pre-release run); the seeds stay fixed, so a thorough run tries the CI cases and more.
"""

import os

SCALE = 5 if os.environ.get("JANTAKU_THOROUGH", "") not in ("", "0") else 1


def tries(n: int) -> int:
    """The number of cases to try where CI tries ``n``."""
    return n * SCALE
