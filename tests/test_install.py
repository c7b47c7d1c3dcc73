"""The package installs anywhere: from its sdist, on a machine without a C compiler.

``CC=false`` stands for a missing compiler: every optional extension then fails to
build, the install goes on, and knightgraph runs on its plain-Python loops, says so
in ``knightgraph --version`` (the engine line and a warning), and gives the same
answers.  The installed copy is run with ``python -S`` and an explicit path, so that
the editable install of the working tree (a finder that a ``.pth`` file adds) cannot
stand in for it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from independent import tour_defect

pytestmark = pytest.mark.engine_free  # installs without a C compiler itself

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_sdist_installs_without_a_c_compiler(tmp_path: Path) -> None:
    dist, target = tmp_path / "dist", tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(dist), str(REPO)],
        check=True,
        capture_output=True,
    )
    (sdist,) = dist.glob("knightgraph-*.tar.gz")
    env = {**os.environ, "CC": "false"}
    env.pop("KNIGHTGRAPH_KERNELS", None)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(target),
            str(sdist),
        ],
        check=True,
        capture_output=True,
        env=env,
    )
    assert (target / "knightgraph" / "_kernels.c").is_file()  # the sources travelled
    # every package of the tree travelled
    packages = {p.parent.relative_to(REPO) for p in (REPO / "knightgraph").rglob("__init__.py")}
    assert {p for p in packages if not (target / p / "__init__.py").is_file()} == set()
    assert not list(target.rglob("*.so*")) and not list(target.rglob("*.pyd"))

    path = os.pathsep.join([str(target), sysconfig.get_paths()["purelib"]])
    run_env = {**env, "PYTHONPATH": path}

    def installed(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-S", "-m", "knightgraph", *args],
            capture_output=True,
            text=True,
            env=run_env,
            cwd=tmp_path,
        )

    where = subprocess.run(
        [sys.executable, "-S", "-c", "import knightgraph; print(knightgraph.__file__)"],
        capture_output=True,
        text=True,
        env=run_env,
        cwd=tmp_path,
        check=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(target)
    version = installed("--version")
    assert version.returncode == 0
    assert version.stdout.splitlines()[1] == "engine: plain Python"
    assert "warning: compiled extensions missing (_kernels, _verify, _drup, _count" in (
        version.stderr
    )
    # The same answers as the compiled engine of the working tree: plain backtracking on
    # 6x6 (the first tour in the fixed move order) and a closed 8x8 tour.
    for args in (["tour", "6", "6", "--method", "backtrack"], ["tour", "8", "8", "--closed"]):
        fallback = installed(*args)
        compiled = subprocess.run(
            [sys.executable, "-m", "knightgraph", *args], capture_output=True, text=True
        )
        assert fallback.returncode == compiled.returncode == 0, fallback.stderr
        assert fallback.stdout == compiled.stdout
        squares = [(int(sq[1:]) - 1, ord(sq[0]) - ord("a")) for sq in fallback.stdout.split()]
        assert tour_defect(int(args[1]), int(args[2]), squares, closed="--closed" in args) is None


def test_every_package_is_listed_in_pyproject() -> None:
    # setuptools still copies an unlisted package's files as data of its parent, with a
    # warning, so the install test above cannot see a missing entry: read the list itself.
    import tomllib

    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(REPO).parts)
        for p in (REPO / "knightgraph").rglob("__init__.py")
    }
    assert found - listed == set()
