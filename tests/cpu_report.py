"""The processor time of a test run by module, most first, from the file ``JANTAKU_TEST_CPU`` named (see
tests/conftest.py): ``python tests/cpu_report.py FILE [N]``. Processes a test started but did not wait for (a
server it stopped by a signal, Ray's workers) are not counted."""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path


def main(argv: list[str]) -> int:
    rows = [line.split("\t") for line in Path(argv[0]).read_text(encoding="utf-8").splitlines() if line]
    top = int(argv[1]) if len(argv) > 1 else 30
    by_module: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for nodeid, wall, cpu in rows:
        m = by_module[nodeid.split("::", 1)[0]]
        m[0] += float(wall)
        m[1] += float(cpu)
        m[2] += 1
    total_wall = sum(m[0] for m in by_module.values())
    total_cpu = sum(m[1] for m in by_module.values())
    print(f"{len(rows)} tests: {total_wall:.0f} s of test time, {total_cpu:.0f} processor seconds")
    print(f"{'module':<55} {'tests':>5} {'wall s':>8} {'cpu s':>8}")
    for name, (wall, cpu, n) in sorted(by_module.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"{name:<55} {n:>5} {wall:>8.1f} {cpu:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
