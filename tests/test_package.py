"""The package as a whole: public API, light imports, `python -m knightgraph`."""

from __future__ import annotations

import subprocess
import sys

import knightgraph as kg


def test_public_api_is_exported():
    for name in kg.__all__:
        assert hasattr(kg, name), name
    assert kg.__version__.count(".") == 2
    assert issubclass(kg.InvalidSquareError, ValueError) and issubclass(
        kg.InvalidBoardError, ValueError
    )
    for error in (kg.InvalidTourError, kg.NoTourError, kg.SearchAbortedError, kg.TourFormatError):
        assert issubclass(error, kg.KnightGraphError)


def test_import_is_light():
    code = (
        "import sys, knightgraph, knightgraph.cli, knightgraph.solvers\n"
        "heavy = [m for m in ('matplotlib', 'pysat', 'networkx', 'tqdm') if m in sys.modules]\n"
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_python_dash_m():
    out = subprocess.run(
        [sys.executable, "-m", "knightgraph", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.splitlines()[0] == f"knightgraph {kg.__version__}"
