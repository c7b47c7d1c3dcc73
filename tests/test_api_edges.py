"""The edges of the Python API: junk in, one clear KnightGraphError out, naming the value.

Covers ``validate_tour`` on junk, the immutability of ``Tour`` (and its
pickling), ``Tour.transformed`` with bad symmetries, the errors of ``divide``
(including an end it cannot honour) and of the DRUP checker, and
``KNIGHTGRAPH_KERNELS=python`` for the DRUP checker and the verifier's fast path.
Every case is fixed (no random generation), so a failure reproduces.
"""

from __future__ import annotations

import copy
import importlib
import pickle

import numpy as np
import pytest
from independent import tour_defect

import knightgraph as kg
from knightgraph.certcheck import drup
from knightgraph.exceptions import (
    ImmutableError,
    InvalidResultError,
    MissingBoardError,
    ProofFormatError,
)
from knightgraph.io.formats import atomic_output, parse_tour_text, read_npy, write_text
from knightgraph.solvers import divide as dv
from knightgraph.tours.verifyfast import compiled_pass as _compiled_pass


def raises_naming(error, fragment, call, *args, **kwargs):
    """``call`` raises ``error`` (a KnightGraphError) with ``fragment`` in a one-line message."""
    with pytest.raises(error) as info:
        call(*args, **kwargs)
    assert isinstance(info.value, kg.KnightGraphError), type(info.value)
    message = str(info.value)
    assert fragment in message, message
    assert "\n" not in message, message
    return info.value


@pytest.fixture(scope="module")
def tour55():
    return kg.find_tour(5, 5, start="a1", seed=0).tour


# ------------------------------------------------------------ validate_tour
JUNK_TOURS = [
    (None, "None"),
    ("a1 c2", "'a1 c2'"),
    ("", "''"),
    (b"a1", "b'a1'"),
    (3.5, "3.5"),
    (7, "7"),
    (True, "True"),
    ({"a1": 1}, "{'a1': 1}"),
    ({"a1"}, "{'a1'}"),
    ([None, None], "None"),
    ([[[1, 2]]], "[[1, 2]]"),
    ([(0.0, 1.0)], "(0.0, 1.0)"),
    ([(True, False)], "(True, False)"),
    ([0, 7, 14], "0"),
    ([10**30], str(10**30)),
    ([(-1, 0)], "(-1, 0)"),
    ([(10**30, 0)], str(10**30 + 1)),
    (np.array([0.0, 1.0]), "float64 array of shape (2,)"),
    (np.array([True, False]), "bool array of shape (2,)"),
    (np.array([1j]), "complex128 array of shape (1,)"),
    (np.zeros((3, 3), dtype=np.int64), "int64 array of shape (3, 3)"),
    (np.zeros((2, 2, 2), dtype=np.int64), "int64 array of shape (2, 2, 2)"),
    (np.array(5), "int64 array of shape ()"),
    (np.zeros((3, 2)), "float64 array of shape (3, 2)"),
    (np.array([-1, 3]), "(index -1)"),
    (np.array([2**62, 0]), f"(index {2**62})"),
    (np.array([2**64 - 1], dtype=np.uint64), f"(index {2**64 - 1})"),
    (np.array([[0, 0], [-5, 2]]), "(-5, 2)"),
    (np.array(["a1", "zz9"]), "zz9"),
    ([], "0 squares"),
    (np.array([]), "0 squares"),
]


@pytest.mark.parametrize(("junk", "named"), JUNK_TOURS)
def test_validate_tour_refuses_junk_naming_it(junk, named):
    raises_naming(kg.InvalidTourError, named, kg.validate_tour, junk, 5, 5)
    assert kg.is_knight_tour(junk, 5, 5) is False


def test_validate_tour_of_none_is_an_invalid_tour_error():
    err = raises_naming(kg.InvalidTourError, "None", kg.validate_tour, None, 8, 8)
    assert err.defect == "malformed"


def test_validate_tour_without_a_board():
    err = raises_naming(MissingBoardError, "['a1']", kg.validate_tour, ["a1"])
    assert isinstance(err, TypeError | kg.InvalidBoardError)
    raises_naming(kg.InvalidTourError, "None", kg.validate_tour, None)


@pytest.mark.parametrize(
    ("kwargs", "error", "named"),
    [
        ({"closed": "yes"}, kg.InvalidOptionError, "'yes'"),
        ({"closed": None}, kg.InvalidOptionError, "None"),
        ({"closed": 1}, kg.InvalidOptionError, "1"),
        ({"start": 3.5}, kg.InvalidSquareError, "3.5"),
        ({"end": "z99"}, kg.InvalidSquareError, "z99"),
        ({"leaper": "x"}, kg.InvalidBoardError, "'x'"),
    ],
)
def test_validate_tour_refuses_bad_options(tour55, kwargs, error, named):
    raises_naming(error, named, kg.validate_tour, tour55.squares(), 5, 5, **kwargs)


@pytest.mark.parametrize(
    ("m", "n", "named"),
    [
        ("x", 5, "'x'"),
        (5.0, 5, "5.0"),
        (0, 5, "0"),
        (5, -1, "-1"),
        (True, 5, "True"),
        (5, "5", "'5'"),
        (10**30, None, str(10**30)),
    ],
)
def test_validate_tour_refuses_bad_sizes(tour55, m, n, named):
    error = kg.InvalidBoardError if named != str(10**30) else kg.BoardTooLargeError
    raises_naming(error, named, kg.validate_tour, tour55.squares(), m, n)


def test_validate_tour_of_a_short_sequence_on_a_huge_board_allocates_nothing_board_sized():
    # 10^12 squares: any board-sized scratch array would fail; the defect is found first
    raises_naming(
        kg.InvalidTourError, "not a knight's move", kg.validate_tour, np.arange(5000), 10**6, 10**6
    )


def test_validate_tour_still_accepts_every_form(tour55):
    for form in (
        tour55,
        tour55.squares(),
        tour55.algebraic(),
        tour55.order,
        np.array(tour55.squares()),
        np.array(tour55.algebraic(), dtype=object),
        iter(tour55.squares()),
        tuple(tour55.algebraic()),
    ):
        kg.validate_tour(form, 5, 5, start="a1")
    kg.validate_tour(tour55)


# -------------------------------------------------------------- Tour: immutable
@pytest.mark.parametrize("name", ["order", "board", "closed", "extra"])
def test_tour_attributes_cannot_be_set_or_deleted(tour55, name):
    before = tour55.squares()
    err = raises_naming(ImmutableError, f"Tour.{name}", setattr, tour55, name, [0, 1, 2])
    assert isinstance(err, AttributeError)
    raises_naming(ImmutableError, f"Tour.{name}", delattr, tour55, name)
    assert tour55.squares() == before


def test_tour_order_is_read_only_for_good(tour55):
    before = tour55.order.copy()
    with pytest.raises(ValueError, match="read-only"):
        tour55.order[0] = 3
    with pytest.raises(ValueError, match="WRITEABLE"):
        tour55.order.flags.writeable = True
    with pytest.raises(ValueError):
        tour55.order.sort()
    assert np.array_equal(tour55.order, before)


@pytest.mark.parametrize(
    ("method", "m", "closed"),
    [
        ("divide", 6, True),
        ("divide", 40, True),
        ("warnsdorff", 8, False),
        ("sat", 6, True),
        ("backtrack", 5, False),
    ],
)
def test_tour_order_from_every_solver_stays_read_only(method, m, closed):
    res = kg.find_tour(m, m, closed=closed, start="a1", method=method, seed=0)
    assert res.status is kg.Status.FOUND, res.reason
    with pytest.raises(ValueError, match="WRITEABLE"):
        res.tour.order.flags.writeable = True


def test_tour_copies_a_read_only_view_of_a_writeable_array(tour55):
    owner = np.array(tour55.order)
    view = owner[:]
    view.flags.writeable = False
    t = kg.Tour(kg.Board(5, 5), view)
    owner[:] = owner[::-1]  # the caller still writes through the array it owns
    assert t == tour55
    frozen = np.frombuffer(np.asarray(tour55.order).tobytes(), dtype=tour55.order.dtype)
    assert np.shares_memory(kg.Tour(kg.Board(5, 5), frozen).order, frozen)  # adopted, no copy


def test_tour_cannot_be_initialised_again(tour55):
    other = kg.find_tour(5, 5, start="c3", seed=0).tour
    raises_naming(ImmutableError, "immutable", kg.Tour.__init__, tour55, other.board, other.order)
    assert tour55.start == (0, 0)


def test_tour_does_not_share_a_writeable_array_with_the_caller(tour55):
    order = np.array(tour55.order, dtype=np.int64)
    t = kg.Tour(kg.Board(5, 5), order)
    order[:] = order[::-1]
    assert t == tour55
    same_dtype = np.array(tour55.order, dtype=np.int32)
    t = kg.Tour(kg.Board(5, 5), same_dtype)
    same_dtype[0] = 99
    assert t == tour55


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_tour_pickles_and_stays_read_only(tour55, protocol):
    back = pickle.loads(pickle.dumps(tour55, protocol=protocol))
    assert back == tour55 and hash(back) == hash(tour55)
    assert not back.order.flags.writeable
    with pytest.raises(ValueError):
        back.order.flags.writeable = True
    raises_naming(ImmutableError, "Tour.order", setattr, back, "order", back.order[:3])


def test_unpickling_verifies_the_tour_again(tour55):
    rebuild, (board, order, closed) = tour55.__reduce__()
    tampered = np.array(order)
    tampered[[1, 2]] = tampered[[2, 1]]
    raises_naming(kg.InvalidTourError, "is not a knight's move", rebuild, board, tampered, closed)


def test_tour_copies_are_the_same_tour(tour55):
    assert copy.copy(tour55) is tour55
    assert copy.deepcopy(tour55) is tour55
    assert copy.deepcopy({"t": tour55})["t"] is tour55


@pytest.mark.parametrize(
    ("args", "error", "named"),
    [
        ((None, [0]), kg.InvalidBoardError, "None"),
        (("5x5", [0]), kg.InvalidBoardError, "'5x5'"),
        ((kg.Board(1, 1), None), kg.InvalidTourError, "None"),
        ((kg.Board(1, 1), "a1"), kg.InvalidTourError, "'a1'"),
        ((kg.Board(1, 1), [0.0]), kg.InvalidTourError, "[0.0]"),
        ((kg.Board(1, 1), [[0]]), kg.InvalidTourError, "[[0]]"),
        ((kg.Board(1, 1), {0}), kg.InvalidTourError, "{0}"),
        ((kg.Board(1, 1), [0], "yes"), kg.InvalidOptionError, "'yes'"),
        ((kg.Board(2, 3), [0, 5, 6]), kg.InvalidTourError, "(index 6)"),
    ],
)
def test_tour_constructor_refuses_junk(args, error, named):
    raises_naming(error, named, kg.Tour, *args)


def test_tour_methods_refuse_junk(tour55):
    raises_naming(kg.InvalidTourError, "None", kg.Tour.from_squares, None, kg.Board(5, 5))
    raises_naming(kg.InvalidBoardError, "'x'", kg.Tour.from_squares, ["a1"], "x")
    raises_naming(kg.TourFormatError, "None", kg.Tour.from_json, None)
    raises_naming(kg.TourFormatError, "123", kg.Tour.from_json, 123)
    raises_naming(kg.TourFormatError, "[1]", kg.Tour.from_dict, [1])
    raises_naming(kg.InvalidOptionError, "'a'", tour55.algebraic_slice, "a", 3)
    raises_naming(kg.InvalidSquareError, "None", tour55.rerooted, None)


def test_search_result_invariants_are_in_the_tree():
    err = raises_naming(InvalidResultError, "FOUND", kg.SearchResult, kg.Status.FOUND)
    assert isinstance(err, ValueError)
    raises_naming(InvalidResultError, "PROVEN_ABSENT", kg.SearchResult, kg.Status.PROVEN_ABSENT)
    raises_naming(InvalidResultError, "'found'", kg.SearchResult, "found")


# ------------------------------------------------------------ Tour.transformed
def test_transformed_rot90_on_a_rectangle():
    t = kg.find_tour(3, 4, seed=0).tour
    err = raises_naming(kg.InvalidOptionError, "'rot90'", t.transformed, "rot90")
    assert isinstance(err, ValueError)
    assert "square board" in str(err)
    assert (
        t.transformed("rot180").squares()[0] == (2, 3)
        or tour_defect(3, 4, t.transformed("rot180").squares()) is None
    )


@pytest.mark.parametrize(
    ("symmetry", "named"),
    [("bogus", "'bogus'"), ("", "''"), (None, "None"), (["x"], "['x']"), (90, "90")],
)
def test_transformed_refuses_bad_names(tour55, symmetry, named):
    raises_naming(kg.InvalidOptionError, named, tour55.transformed, symmetry)


def test_transformed_on_a_board_whose_removed_squares_break_the_symmetry():
    t = kg.find_tour(kg.Board(5, 5, removed=["a1"]), seed=0).tour
    err = raises_naming(kg.InvalidOptionError, "'rot90'", t.transformed, "rot90")
    assert "removed" in str(err)
    assert tour_defect(5, 5, t.transformed("transpose").squares(), removed=[(0, 0)]) is None


def test_transformed_still_works(tour55):
    for name in importlib.import_module("knightgraph.tours.tour").SYMMETRIES:
        image = tour55.transformed(name)
        assert tour_defect(5, 5, image.squares()) is None


# -------------------------------------------------------------------- divide
@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"closed": True, "start": "a1", "end": "c2"}, "a closed tour with a start"),
        ({"closed": True, "start": "d4", "end": "f5"}, "a closed tour with a start"),
    ],
)
def test_divide_refuses_an_end_it_cannot_honour(kwargs, named):
    err = raises_naming(
        kg.InvalidOptionError, "--end/end", kg.find_tour, 8, 8, method="divide", **kwargs
    )
    assert named in str(err)
    assert kg.Board(8, 8).name(kwargs["end"]) in str(err)


@pytest.mark.parametrize(
    ("board", "end"),
    [
        (kg.Board(8, 8), "h8"),
        (kg.Board(12, 10), "a1"),
        (kg.Board(3, 10), "b2"),
        (kg.Board(40, 31), "z17"),
        (kg.Board(9, 9, removed=["a1"]), "e5"),
    ],
)
def test_divide_honours_the_end_of_a_closed_tour(board, end):
    res = kg.find_tour(board, closed=True, end=end, method="divide")
    assert res.status is kg.Status.FOUND, res.reason
    assert res.tour.algebraic()[-1] == end and res.tour.closed
    removed = sorted(board.removed)
    assert tour_defect(board.m, board.n, res.tour.squares(), closed=True, removed=removed) is None


def test_divide_with_an_end_where_no_closed_tour_exists():
    res = kg.find_tour(4, 8, closed=True, end="h4", method="divide")
    assert res.status is kg.Status.PROVEN_ABSENT


def test_cli_divide_with_an_end_is_a_usage_error(capsys):
    from knightgraph.cli import main

    argv = ["tour", "8", "8", "--method", "divide", "--closed", "--start", "a1", "--end", "c2"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "--end" in err and "c2" in err and len(err.splitlines()) == 1


def test_auto_with_an_end_does_not_go_through_divide():
    res = kg.find_tour(10, 10, closed=True, end="h8")
    assert res.status is kg.Status.FOUND and res.method != "divide"
    assert res.tour.algebraic()[-1] == "h8"
    res = kg.find_tour(60, 61, closed=True)
    assert res.method == "divide"


def test_divide_refuses_bad_options():
    """``delegate`` was an internal flag (``auto`` no longer goes through ``divide``'s
    hand-over): it is refused as an unknown option, named, like any other."""
    raises_naming(
        kg.InvalidOptionError, "'delegate'", kg.find_tour, 8, 8, method="divide", delegate="x"
    )
    raises_naming(kg.InvalidOptionError, "'x'", kg.find_tour, 8, 8, method="divide", x=True)


@pytest.mark.parametrize(
    ("method", "option", "value"),
    [
        ("backtrack", "prune", "yes"),
        ("backtrack", "memo", "no"),
        ("backtrack", "oracle", "yes"),
        ("backtrack", "restarts", "3"),
        ("warnsdorff", "attempts", "x"),
        ("warnsdorff", "attempts", True),
        ("warnsdorff", "repair", "no"),
        ("sat", "solver", 5),
        ("sat", "shortcuts", "no"),
    ],
)
def test_strategy_options_of_the_wrong_type_are_refused(method, option, value):
    """``find_tour(..., oracle="yes")`` ran as if True, ``attempts="x"`` ended in a
    TypeError and ``solver=5`` in an AttributeError: every option annotated as a flag, a
    whole number or a string is checked before any work, naming the value."""
    raises_naming(
        kg.InvalidOptionError, repr(value), kg.find_tour, 5, 5, method=method, **{option: value}
    )


CODES_3X4 = dv.codes_from_order(3, 4, [8, 6, 0, 9, 7, 1, 10, 3, 5, 11, 2, 4], False)


@pytest.mark.parametrize(
    ("args", "error", "named"),
    [
        ((3, 4, [0, 1], False), kg.InvalidTourError, "a1 to b1"),
        ((3, 4, [0, 99], False), kg.InvalidTourError, "(index 99)"),
        ((3, 4, [0, 6, 0], False), kg.InvalidTourError, "twice"),
        ((3, 4, None, False), kg.InvalidTourError, "None"),
        ((3, 4, [[0]], False), kg.InvalidTourError, "[[0]]"),
        ((3, 4, [0, 6], "no"), kg.InvalidOptionError, "'no'"),
        ((-3, 4, [0], False), kg.InvalidBoardError, "-3"),
        ((10**6, 10**6, [0], False), kg.BoardTooLargeError, "1000000x1000000"),
    ],
)
def test_codes_from_order_refuses_junk(args, error, named):
    raises_naming(error, named, dv.codes_from_order, *args)


def test_follow_codes_refuses_what_the_compiled_walk_would_follow_off_the_array():
    raises_naming(kg.InvalidOptionError, "400", dv.follow_codes, CODES_3X4, 400)
    raises_naming(kg.InvalidOptionError, "-1", dv.follow_codes, CODES_3X4, -1)
    raises_naming(kg.InvalidOptionError, "None", dv.follow_codes, None, 0)
    raises_naming(
        kg.InvalidOptionError, "int64 array", dv.follow_codes, CODES_3X4.astype(np.int64), 0
    )
    raises_naming(kg.InvalidOptionError, "first 2", dv.follow_codes, CODES_3X4, 0, first=2)
    corrupt = CODES_3X4.copy()
    corrupt[0, 0] = 0x44  # two moves (-1, -2) from a1: off the board
    raises_naming(kg.InvalidOptionError, "0x44", dv.follow_codes, corrupt, 0)
    raises_naming(
        kg.InvalidOptionError,
        "int16",
        dv.follow_codes,
        CODES_3X4,
        4,
        out=np.empty(12, dtype=np.int16),
    )
    raises_naming(
        kg.InvalidOptionError,
        "out",
        dv.follow_codes,
        CODES_3X4,
        4,
        out=np.empty(24, dtype=np.int32)[::2],
    )
    assert dv.follow_codes(CODES_3X4, 4).tolist() == [4, 2, 11, 5, 3, 10, 1, 7, 9, 0, 6, 8]


def test_structure_moves_refuses_unknown_corners():
    raises_naming(kg.InvalidOptionError, "'xx'", dv.structure_moves, 6, 6, "xx")


# ---------------------------------------------------------------------- drup
def test_drup_honours_knightgraph_kernels(monkeypatch):
    formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    monkeypatch.setenv("KNIGHTGRAPH_KERNELS", "python")
    assert drup._library() is None
    monkeypatch.setattr(drup, "_check_compiled", None)  # would fail if it were called
    assert drup.check_drup(formula, ["2 0", "0"])[0]
    raises_naming(
        kg.InvalidOptionError,
        "KNIGHTGRAPH_KERNELS=python",
        drup.check_drup,
        formula,
        ["0"],
        compiled=True,
    )


def test_drup_uses_the_compiled_checker_when_built(monkeypatch):
    monkeypatch.delenv("KNIGHTGRAPH_KERNELS", raising=False)
    if drup.load_library("_drup") is None:
        pytest.skip("the C checker was not built (no compiler at install)")
    assert drup._library() is not None


@pytest.mark.parametrize("compiled", [None, False])
@pytest.mark.parametrize(
    ("formula", "named"),
    [
        (None, "None"),
        ("1 -1 0", "'1 -1 0'"),
        ([[1.5]], "1.5"),
        ([["a"]], "'a'"),
        ([[True]], "True"),
        ([[1, 0]], "literal 0"),
        ([[1], 5], "5"),
    ],
)
def test_drup_rejects_a_malformed_formula(formula, named, compiled):
    accepted, why = drup.check_drup(formula, ["0"], compiled=compiled)
    assert not accepted and named in why and "malformed" in why


@pytest.mark.parametrize(
    ("proof", "named"),
    [
        (None, "None"),
        ([0], "0"),
        (["1 x 0"], "'1 x 0'"),
        (["1 2"], "'1 2'"),
        (["1_0 0"], "1_0"),
        (b"0", "b'0'"),
    ],
)
def test_drup_rejects_a_malformed_proof(proof, named):
    accepted, why = drup.check_drup([[1], [-1]], proof)
    assert not accepted and named in why


def test_drup_takes_a_proof_as_one_text():
    assert drup.check_drup([[1, 2], [-1, 2], [1, -2], [-1, -2]], "2 0\n0\n")[0]


@pytest.mark.parametrize("big", [2**40, 2**62, 2**70])
def test_drup_with_huge_variable_numbers(big):
    formula = [[5, big], [-5, big], [-big]]
    expected = drup.check_drup(formula, [f"{big} 0", "0"], compiled=False)
    assert expected[0]
    assert drup.check_drup(formula, [f"{big} 0", "0"]) == expected
    satisfiable = formula[:2]
    wrong = drup.check_drup(satisfiable, [f"{-big} 0", "0"])
    assert wrong == drup.check_drup(satisfiable, [f"{-big} 0", "0"], compiled=False)
    assert not wrong[0] and str(-big) in wrong[1]


def test_drup_refuses_a_bad_compiled_flag():
    raises_naming(kg.InvalidOptionError, "'yes'", drup.check_drup, [[1]], ["0"], compiled="yes")


@pytest.mark.parametrize(
    ("text", "named"),
    [("1 x 0", "'x'"), ("1 2", "[1, 2]"), (None, "None"), ("1 ٣ 0", "'٣'")],
)
def test_parse_dimacs_names_the_bad_token(text, named):
    err = raises_naming(ProofFormatError, named, drup.parse_dimacs, text)
    assert isinstance(err, ValueError)


def test_parse_proof_names_the_bad_line():
    raises_naming(ProofFormatError, "'d 1 2'", drup.parse_proof, ["d 1 2"])
    raises_naming(ProofFormatError, "3", drup.parse_proof, [3])


def test_drup_command_line_reads_bad_files(tmp_path, capsys):
    cnf, proof = tmp_path / "f.cnf", tmp_path / "p.drup"
    cnf.write_text("p cnf 1 2\n1 0\n-1 x 0\n")
    proof.write_text("0\n")
    assert drup.main([str(cnf), str(proof)]) == 2
    assert "'x'" in capsys.readouterr().err


# ------------------------------------------------------ the compiled switch
def test_verify_fast_path_is_off_under_the_fallback(monkeypatch):
    order = np.asarray(kg.find_tour(64, 80, closed=True, method="divide").tour.order)
    monkeypatch.setenv("KNIGHTGRAPH_KERNELS", "python")
    assert not _compiled_pass(order, kg.Board(64, 80))
    kg.validate_tour(order, 64, 80, closed=True)
    broken = order.copy()
    broken[[10, 11]] = broken[[11, 10]]
    raises_naming(kg.InvalidTourError, "#11", kg.validate_tour, broken, 64, 80)


# ------------------------------------------------------------------- formats
def test_formats_refuse_junk_paths_and_values(tmp_path):
    raises_naming(kg.InvalidOptionError, "None", read_npy, None)
    raises_naming(kg.InvalidOptionError, "''", read_npy, "")
    target = tmp_path / "out.txt"
    raises_naming(kg.InvalidOptionError, "3", write_text, 3, target)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(kg.InvalidOptionError, match="''"), atomic_output(""):
        pass
    raises_naming(kg.TourFormatError, "None", parse_tour_text, None, kg.Board(3, 3))


@pytest.mark.parametrize(
    "call",
    [kg.find_tour, kg.count_tours, lambda g, **kw: kg.sample_tours(g, k=1, **kw), kg.start_map],
    ids=["find_tour", "count_tours", "sample_tours", "start_map"],
)
@pytest.mark.parametrize(
    "extra", [{"n": 4}, {"leaper": (1, 3)}, {"removed": ["a1"]}], ids=["n", "leaper", "removed"]
)
def test_every_entry_refuses_what_only_boards_have_for_a_graph(call, extra):
    """One entry (``boards.coercion.as_any_board``) for every board kind: a graph given
    with ``n``, a leaper or removed squares is refused the same way everywhere
    (``count_tours`` ignored a leaper and removed squares before)."""
    import networkx as nx

    with pytest.raises(kg.InvalidOptionError, match="a graph takes no n, leaper or removed"):
        call(nx.cycle_graph(5), **extra)
