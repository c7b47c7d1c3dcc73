"""The SAT encoding is pure, the solver lives in a ``with`` block (issue 25, build point 4).

:class:`~knightgraph.solvers.cnf.TourCNF` builds variables and clauses without any
solver; :func:`~knightgraph.solvers.incremental.solving` is the one place that makes a
python-sat solver, in a ``with`` block, so no caller frees one by hand and a solver is
released on every path, exceptions included.
"""

from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path

import networkx as nx
import pytest

from knightgraph import Board
from knightgraph.boards.graphboard import GraphBoard
from knightgraph.certcheck.drup import check_drup
from knightgraph.exceptions import SearchAbortedError
from knightgraph.solvers import blockpaths
from knightgraph.solvers.cnf import TourCNF
from knightgraph.solvers.incremental import solving

PACKAGE = Path(__file__).resolve().parent.parent / "knightgraph"
HOLDER = PACKAGE / "solvers" / "incremental.py"

BOARDS = {
    "3x4": lambda: Board(3, 4),
    "4x5": lambda: Board(4, 5),
    "5x5": lambda: Board(5, 5),
    "6x6": lambda: Board(6, 6),
    "9x9": lambda: Board(9, 9),
    "6x6 minus a1, f6": lambda: Board(6, 6, removed=[(0, 0), (5, 5)]),
    "petersen": lambda: GraphBoard.from_networkx(nx.petersen_graph()),
}

# (board, closed, start, end, clauses, top, auxiliary, SHA-256 of the edges, of the clauses):
# the clauses the encoding gave the solver before this split (``HamiltonCNF`` with
# ``keep_clauses=True`` at commit ccd7fdf, its constructor's clauses, before any solve),
# first 16 hex digits of the SHA-256 of their ``json.dumps``.
BEFORE = [
    ("3x4", False, None, None, 296, 26, False, "9859a3eeeed5da3b", "3d8e1e3c0badb2cf"),
    ("3x4", False, 0, 11, 40, 16, False, "49d436aadf8d2c40", "d0cc4d6ff443e195"),
    ("4x5", True, None, None, 140, 34, False, "1f82efd4bcb6a5f7", "543715b97764a1ed"),
    ("6x6", True, 0, 13, 601, 80, False, "3ff55846f1ba1287", "39835fda24c56ecb"),
    ("9x9", False, None, None, 4004, 465, True, "f117ef875a1574c3", "9ec6040d6141595b"),
    ("5x5", False, 12, None, 2787, 73, False, "7f49c39a59d9cda2", "9c5610694dcd65db"),
    (
        "6x6 minus a1, f6",
        False,
        None,
        None,
        6914,
        110,
        False,
        "4e11873f812c4c76",
        "4fcfd4085eec6005",
    ),
    ("petersen", True, None, None, 40, 15, False, "a0da202a5676fdf3", "68a84a34a4264f79"),
]


def digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value).encode()).hexdigest()[:16]


@pytest.fixture
def no_solver(monkeypatch):
    """Any python-sat solver made while this fixture is active fails the test."""
    import pysat.solvers

    def refuse(*args, **kwargs):
        raise AssertionError("a solver was made")

    monkeypatch.setattr(pysat.solvers.Solver, "__init__", refuse)


@pytest.fixture
def deletions(monkeypatch):
    """The python-sat solvers freed while this fixture is active (a list that grows)."""
    import pysat.solvers

    freed: list[object] = []
    delete = pysat.solvers.Solver.delete

    def counted(self):
        if self.solver is not None:
            freed.append(self)
        delete(self)

    monkeypatch.setattr(pysat.solvers.Solver, "delete", counted)
    return freed


# ------------------------------------------------------------------ the encoding
@pytest.mark.parametrize("case", BEFORE, ids=lambda case: f"{case[0]} {case[1:4]}")
def test_the_encoding_builds_the_clauses_of_before_without_a_solver(case, no_solver):
    name, closed, start, end, count, top, auxiliary, edges, clauses = case
    cnf = TourCNF(BOARDS[name](), closed, start, end, keep_clauses=True)
    groups = list(cnf.base_clauses())
    assert [clause for group in groups for clause in group] == cnf.clauses
    assert (len(cnf.clauses), cnf.num_clauses, cnf.top, cnf.auxiliary) == (
        count,
        count,
        top,
        auxiliary,
    )
    assert (digest(cnf.edges), digest(cnf.clauses)) == (edges, clauses)


def test_the_encoding_keeps_clauses_only_when_asked(no_solver):
    kept = TourCNF(Board(5, 6), True, keep_clauses=True)
    counted = TourCNF(Board(5, 6), True)
    assert list(kept.base_clauses()) == list(counted.base_clauses())
    assert counted.clauses == [] and counted.num_clauses == kept.num_clauses == len(kept.clauses)


def test_cut_clauses_and_counters_are_built_without_a_solver(no_solver):
    cnf = TourCNF(Board(3, 4), closed=True, keep_clauses=True)
    base = [clause for group in cnf.base_clauses() for clause in group]
    cycle = [0, 6, 11, 5]  # a cut clause needs only the vertex set
    (cut,) = cnf.cuts([cycle])
    inside = set(cycle)
    assert cut == sorted(
        k for k, (u, v) in enumerate(cnf.edges, 1) if (u in inside) != (v in inside)
    )
    assert cnf.cut_sets == [cycle] and not cnf.auxiliary
    at_most = cnf.at_most([1, 2, 3], 1)
    assert cnf.auxiliary and cnf.top > len(cnf.edges)
    assert cnf.clauses == [*base, cut, *at_most]


def test_the_encoding_module_imports_no_solver():
    source = (PACKAGE / "solvers" / "cnf.py").read_text()
    assert "pysat" not in source and "Solver" not in source


# ------------------------------------------------------------------- the solver
def test_the_solver_gets_exactly_the_clauses_of_the_encoding():
    """A refutation's CNF is the encoding's clauses and its cut clauses, in order."""
    with solving(Board(3, 8), True, proof=True) as session:
        assert session.solve().status == "unsat"
        proof = session.proof()
    cnf = session.cnf
    fresh = TourCNF(Board(3, 8), True)
    base = [clause for group in fresh.base_clauses() for clause in group]
    assert cnf.cut_sets
    assert cnf.clauses == base + [fresh._cut(cycle) for cycle in cnf.cut_sets]
    assert cnf.num_clauses == len(cnf.clauses)
    assert check_drup(cnf.clauses, proof)[0]


def test_the_solver_is_released_when_the_block_ends(deletions):
    with solving(Board(3, 4)) as session:
        assert session.solve().status == "sat"
        assert deletions == []
    assert len(deletions) == 1


def test_the_solver_is_released_when_the_block_raises(deletions):
    with pytest.raises(RuntimeError, match="inside"), solving(Board(4, 4)) as session:
        session.solve()
        raise RuntimeError("inside")
    assert len(deletions) == 1


class Deadline:
    """A budget whose timeout passes at the ``after``-th look at the clock."""

    timeout = 1.0

    def __init__(self, after: int) -> None:
        self.looks, self.after = 0, after

    def out_of_time(self) -> bool:
        self.looks += 1
        return self.looks >= self.after


def test_the_solver_is_released_when_writing_the_cnf_stops(deletions):
    """The clock is read before the solver is made and every 256 squares after: a timeout
    met at square 256 of 900 stops the writing, and the solver is freed."""
    with (
        pytest.raises(SearchAbortedError, match=r"\(256 of 900 squares written\)"),
        solving(Board(30, 30), budget=Deadline(3)),
    ):
        pytest.fail("the block was entered")
    assert len(deletions) == 1


def test_a_timeout_before_writing_makes_no_solver(deletions, no_solver):
    with (
        pytest.raises(SearchAbortedError, match=r"\(0 of 900 squares written\)"),
        solving(Board(30, 30), budget=Deadline(1)),
    ):
        pytest.fail("the block was entered")
    assert deletions == []


def test_the_kept_block_sessions_are_released_at_exit(deletions):
    """``divide``'s corridor keeps one session per block size for the process; the exit
    hook leaves their ``with`` blocks, and the next call opens a new one."""
    assert blockpaths.solve_path(5, 5, (0, 0), (4, 4), (), None) is not None
    blockpaths._block_instance(5, 7)
    blockpaths._release_instances()
    assert len(deletions) >= 1 and blockpaths._INSTANCES == {}
    assert blockpaths.block_path.__wrapped__(5, 7, (0, 0), (4, 6), ()) is not None
    assert (5, 7) in blockpaths._INSTANCES


# ------------------------------------------------------------------ the one place
def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Attribute) and node.func.attr == name)
            or (isinstance(node.func, ast.Name) and node.func.id == name)
        )
    ]


def test_no_solver_is_freed_by_hand_and_every_solver_lives_in_a_with_block():
    """No ``.delete()`` anywhere in the package (the DRUP checker's ``delete(clause)`` is
    another thing); python-sat's ``Solver`` is made only as the context expression of a
    ``with`` statement; the tour encoding is built only where its solver is held."""
    made, encoded = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        freed = [call for call in _calls(tree, "delete") if not call.args]
        assert freed == [], f"{path}:{freed[0].lineno}: a solver freed by hand"
        held = {
            id(item.context_expr)
            for node in ast.walk(tree)
            if isinstance(node, ast.With)
            for item in node.items
        }
        for call in _calls(tree, "Solver"):
            assert id(call) in held, f"{path}:{call.lineno}: a Solver outside a with block"
            made.append(path.name)
        encoded += [path.name for _ in _calls(tree, "TourCNF")]
    # pathsat.py: the thin boards' own small path encoding (virtual links), with its own block;
    # magic/forms.py: the restricted forms' search (quartets, Beverley's), in its process;
    # magic/solving.py: the magic tours' order encoding and sums, with its own block (the
    # refutation logged for DRUP); puzzles/solving.py: the number puzzles' positional
    # encoding, with its own block.
    assert made == ["forms.py", "solving.py", "solving.py", "incremental.py", "pathsat.py"]
    assert encoded == ["incremental.py"]
