"""The command line run in-process, and the one-line error every bad input must give.

Shared by the CLI, drawing and bounds tests: :func:`call` runs ``knightgraph.cli.main``
and returns its exit code and output; :func:`one_line` asserts the project's rule for
errors (exactly one line, no traceback) and returns that line.
"""

from __future__ import annotations

import pytest

from knightgraph.cli import main


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
