"""How the command-line process ends: at once when nothing is left to run, else normally.

:func:`knightgraph.cli._running.leave_if_nothing_left` skips the interpreter's
finalization (about a bare Python start once numpy is imported) only when no exit
hook, no other thread and no hook of :mod:`threading` would run; each case runs in a
subprocess, where a wrong early exit shows as a missing line or a wrong code.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from cli_support import run_cli, subprocess_env

from tests.independent import tour_defect


def _python(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=120,
        check=False,
    )


def test_nothing_left_leaves_at_once_with_the_code_and_the_output() -> None:
    proc = _python(
        """
        import sys
        from knightgraph.cli._running import leave_if_nothing_left
        print("printed before", end="")
        print("to stderr", file=sys.stderr, end="")
        leave_if_nothing_left(7)
        print("returned")
        """
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (7, "printed before", "to stderr")


@pytest.mark.parametrize(
    "setup, after",
    [
        ("import atexit; atexit.register(lambda: print('hook ran'))", "hook ran\n"),
        (
            "import threading; go = threading.Event()\n"
            "threading.Thread(target=lambda: (go.wait(), print('thread ran'))).start()",
            "thread ran\n",
        ),
        (
            "from concurrent.futures import ThreadPoolExecutor\n"
            "with ThreadPoolExecutor(1) as pool: pool.submit(int).result()",
            "",
        ),
    ],
    ids=["atexit-hook", "live-thread", "thread-pool-hook"],
)
def test_something_left_returns_and_the_normal_exit_runs(setup: str, after: str) -> None:
    proc = _python(
        setup
        + "\nfrom knightgraph.cli._running import leave_if_nothing_left\n"
        + "leave_if_nothing_left(7)\n"
        + "print('returned')\n"
        + ("go.set()\n" if "go =" in setup else "")
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "returned\n" + after


def test_main_returns_to_the_program_that_calls_it() -> None:
    """Only the entry point leaves early: a program calling ``main()`` goes on."""
    proc = _python(
        """
        import sys
        from knightgraph.cli import main
        sys.argv = ["knightgraph", "tour", "6", "6", "--method", "divide", "--format", "json"]
        code = main()
        print("returned", code)
        """
    )
    assert proc.returncode == 0 and proc.stdout.splitlines()[-1] == "returned 0", proc.stderr


def test_the_command_writes_everything_before_it_leaves(tmp_path: Path) -> None:
    """Standard output through a pipe, the .npy file and the exit codes are whole."""
    out = tmp_path / "big.npy"
    proc = run_cli("tour", "300", "300", "--closed", "--format", "npy", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    order = np.load(out)
    squares = [divmod(int(i), 300) for i in order]
    assert tour_defect(300, 300, squares, closed=True) is None
    proc = run_cli("tour", "120", "120")
    words = proc.stdout.split()
    assert proc.returncode == 0 and len(words) == 120 * 120 and proc.stdout.endswith("\n")
    for argv, code in ((["exists", "4", "4", "--closed"], 1), (["tour", "0", "4"], 2)):
        proc = run_cli(*argv)
        assert proc.returncode == code, (argv, proc.stderr)
