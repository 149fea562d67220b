"""Ray nodes on this machine, on 127.0.0.1 only: for tests, benchmarks and trying ``simulate --ray`` out.

:func:`start_node` runs ``ray start`` for a head node or a node joining one, each with its own free ports on
127.0.0.1, its own temp folder, no dashboard, usage statistics off and a 100 MB object store;
:func:`stop_nodes` ends the processes of those temp folders by their ids (``ray stop`` would stop every Ray
of the machine's user, other people's included). A real cluster is started as ``docs/guide/ray.md`` shows.

Ray 2.52's ``ray start`` replaces ``--node-ip-address 127.0.0.1`` by the machine's own network address (the
one it would use to reach other machines), and its servers listen on every interface: the nodes then talk to
each other at that address of this machine, so their traffic does not leave it, but it does not go through
127.0.0.1 either. Only a separate network namespace holding nothing but the loopback interface would keep it
there. (``ray.init(_node_ip_address="127.0.0.1")``, which ``simulate --ray`` uses for a local instance, keeps
127.0.0.1.)

>>> import tempfile
>>> temps = [tempfile.mkdtemp(prefix="jantaku-ray-") for _ in range(2)]  # doctest: +SKIP
>>> port = start_node(temps[0], cpus=1)                                    # doctest: +SKIP
>>> start_node(temps[1], cpus=1, head_port=port)                           # doctest: +SKIP
>>> stop_nodes(temps)                                                      # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from jantaku.errors import JantakuError

__all__ = ["RAY_ENV", "free_ports", "ray_cli", "start_node", "stop_nodes"]

RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_ACCEL_ENV_VAR_OVERRIDE_ON_ZERO": "0"}
"""Environment for Ray's processes: no usage statistics, and no warning about accelerator variables."""

OBJECT_STORE_BYTES = 100 * 1024 * 1024


def free_ports(n: int) -> list[int]:
    """``n`` distinct TCP ports free on 127.0.0.1 now."""
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def ray_cli() -> str:
    """The ``ray`` command beside this Python (a virtual environment's), else the one on ``PATH``."""
    here = Path(sys.executable).with_name("ray")
    return str(here) if here.exists() else "ray"


def start_node(temp: str, cpus: int, head_port: int | None = None, timeout: float = 180) -> int:
    """Start a Ray node on 127.0.0.1 with ``cpus`` CPUs and its files in ``temp``: the head when ``head_port``
    is None, else a node joining the head at that port. Returns the head's port; raises :class:`JantakuError`
    with Ray's output when ``ray start`` fails."""
    port, nm, om, agent, agent_grpc, metrics, rt_env = free_ports(7)
    cmd = [ray_cli(), "start", "--node-ip-address", "127.0.0.1", "--num-cpus", str(cpus),
           "--object-store-memory", str(OBJECT_STORE_BYTES), "--disable-usage-stats", "--temp-dir", temp,
           "--node-manager-port", str(nm), "--object-manager-port", str(om),
           "--dashboard-agent-listen-port", str(agent), "--dashboard-agent-grpc-port", str(agent_grpc),
           "--metrics-export-port", str(metrics), "--runtime-env-agent-port", str(rt_env)]  # fmt: skip
    if head_port is None:
        cmd += ["--head", "--port", str(port), "--include-dashboard", "false"]
    else:
        cmd += ["--address", f"127.0.0.1:{head_port}"]
    done = subprocess.run(cmd, env={**os.environ, **RAY_ENV}, capture_output=True, text=True, timeout=timeout)
    if done.returncode:
        raise JantakuError(f"ray start failed:\n{done.stdout}\n{done.stderr}")
    return port if head_port is None else head_port


def stop_nodes(temps: list[str], grace: float = 3.0) -> None:
    """End the processes whose command line names one of ``temps`` (the nodes :func:`start_node` started
    there), by their ids: SIGTERM, then SIGKILL for what is left after ``grace`` seconds."""
    marks = [t.encode() for t in temps]
    pids = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit() and int(proc.name) != os.getpid():
            with contextlib.suppress(OSError):
                cmdline = (proc / "cmdline").read_bytes()
                if any(m in cmdline for m in marks):
                    pids.append(int(proc.name))
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace  # Ray's daemons may outlive a SIGTERM
    while pids and time.monotonic() < deadline:
        pids = [pid for pid in pids if Path(f"/proc/{pid}").exists() and not _zombie(pid)]
        time.sleep(0.2)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z")
    except (OSError, IndexError):
        return True
