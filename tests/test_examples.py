"""The scripts in examples/ run cleanly (they double as smoke tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.py"))

# Scripts that write pictures take where to write them, so that a test run never
# rewrites the pictures of docs/images/ (the gallery's default folder).
PICTURE_ARGS = {"gallery.py": ["{tmp}"], "scaling.py": ["{tmp}/scaling.png"]}


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(script, tmp_path):
    args = [a.format(tmp=tmp_path) for a in PICTURE_ARGS.get(script.name, [])]
    proc = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()
    if args:
        assert any(tmp_path.iterdir()), "no picture written"
