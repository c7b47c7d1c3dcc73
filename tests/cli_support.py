"""The command line run in-process or in a subprocess, and the one-line error every bad
input must give.

Shared by the CLI, drawing and bounds tests: :func:`call` runs ``knightgraph.cli.main``
and returns its exit code and output; :func:`run_cli` runs ``python -m knightgraph`` in
a subprocess whose environment (:func:`subprocess_env`) puts this checkout first on the
import path; :func:`one_line` asserts the project's rule for errors (exactly one line,
no traceback) and returns that line.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from knightgraph.cli import main

REPO = Path(__file__).resolve().parent.parent


def subprocess_env() -> dict[str, str]:
    """The environment of a subprocess: this checkout first on the import path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    return env


def run_cli(
    *args: str, stdin: str | bytes | None = None, cwd: Path | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``python -m knightgraph ARGS`` in a subprocess (text stdout/stderr)."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    proc = subprocess.run(
        [sys.executable, "-m", "knightgraph", *args],
        input=data if data is not None else b"",
        capture_output=True,
        cwd=cwd,
        env=subprocess_env(),
        timeout=timeout,
        check=False,
    )
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()
    )


def call(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``knightgraph.cli.main(args)`` in-process: (exit code, stdout, stderr)."""
    try:
        code = main(list(args))
    except SystemExit as stop:  # argparse errors, --help, --version
        code = stop.code if isinstance(stop.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    """The error message, asserting it is exactly one line and no traceback."""
    assert err.endswith("\n") and err.count("\n") == 1, f"not exactly one line: {err!r}"
    assert "Traceback" not in err
    return err[:-1]
