"""Certificates of absence: SAT refutations, the DRUP checkers, the independent
certificate checker (which must reject every tampered certificate), and the
existence table against seed 000's Figure 3.1."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from knightgraph import Board, Status, find_tour, tour_exists
from knightgraph.certcheck import check_certificate
from knightgraph.certcheck.drup import check_drup, parse_dimacs
from knightgraph.certcheck.drup import main as drup_main
from knightgraph.cli import main
from knightgraph.explore import existence_table
from knightgraph.solvers.incremental import solving

# Seed 000, Figure 3.1 (the corrected printing), rows m = 1..20, columns n = 1..20.
# The seed marks 1x1 "x"; knightgraph counts the single square as an open tour ("o").
FIGURE_3_1 = """\
xxxxxxxxxxxxxxxxxxxx
xxxxxxxxxxxxxxxxxxxx
xxxoxxooecececececec
xxoxoooooooooooooooo
xxxoecececececececec
xxxocccccccccccccccc
xxooecececececececec
xxoocccccccccccccccc
xxeoecececececececec
xxcocccccccccccccccc
xxeoecececececececec
xxcocccccccccccccccc
xxeoecececececececec
xxcocccccccccccccccc
xxeoecececececececec
xxcocccccccccccccccc
xxeoecececececececec
xxcocccccccccccccccc
xxeoecececececececec
xxcocccccccccccccccc"""


def certificate_of(m, n, **request):
    result = tour_exists(m, n, **request)
    assert result.status is Status.PROVEN_ABSENT, result.reason
    return result.certificate.to_dict()


def accepted(cert, m, n, **request):
    names = {k: v for k, v in request.items() if k in ("start", "end")}
    return check_certificate(cert, m, n, closed=request.get("closed", False), **names)[0]


# ------------------------------------------------------------------------ DRUP
def test_drup_checkers_accept_solver_proofs_and_agree():
    for m, n, closed in [(3, 8, True), (4, 4, False), (4, 10, True), (3, 6, False)]:
        with solving(Board(m, n), closed, proof=True) as session:
            assert session.solve().status == "unsat"
            proof = session.proof()
        cnf = session.cnf
        assert check_drup(cnf.clauses, proof, compiled=False)[0]
        if check_drup([[1], [-1]], ["0"])[0]:  # both paths exist
            assert check_drup(cnf.clauses, proof) == check_drup(cnf.clauses, proof, compiled=False)


@st.composite
def tampered(draw):
    with solving(Board(4, draw(st.integers(5, 8))), True, proof=True) as session:
        session.solve()
        clauses, proof = [list(c) for c in session.cnf.clauses], list(session.proof())
    kind = draw(st.sampled_from(["clause", "lemma", "literal", "truncate", "none"]))
    rng = random.Random(draw(st.integers(0, 10**6)))
    if kind == "clause":
        clauses.pop(rng.randrange(len(clauses)))
    elif kind == "lemma":
        lemmas = [i for i, line in enumerate(proof) if not line.startswith("d")]
        proof.pop(rng.choice(lemmas))
    elif kind == "literal":
        clause = clauses[rng.randrange(len(clauses))]
        clause[rng.randrange(len(clause))] *= -1
    elif kind == "truncate":
        proof = proof[: rng.randrange(len(proof))]
    return clauses, proof


@given(tampered())
def test_compiled_and_python_drup_checkers_agree(case):
    clauses, proof = case
    assert check_drup(clauses, proof, compiled=False) == check_drup(clauses, proof)


def test_drup_rejects_a_bogus_proof_and_reads_files(tmp_path):
    assert not check_drup([[1, 2]], ["0"])[0]
    assert not check_drup([[1, 2], [-1, 2]], ["1 0", "0"])[0]
    assert check_drup([[1, 2], [-1, 2]], ["bad line"])[1].startswith("malformed")
    assert parse_dimacs("c x\np cnf 2 2\n1 -2 0\n2 0\n") == [[1, -2], [2]]
    (tmp_path / "f.cnf").write_text("p cnf 1 2\n1 0\n-1 0\n")
    (tmp_path / "p.drup").write_text("0\n")
    assert drup_main([str(tmp_path / "f.cnf"), str(tmp_path / "p.drup")]) == 0
    (tmp_path / "g.cnf").write_text("p cnf 2 1\n1 2 0\n")
    assert drup_main([str(tmp_path / "g.cnf"), str(tmp_path / "p.drup")]) == 1
    assert drup_main([str(tmp_path / "missing.cnf"), str(tmp_path / "p.drup")]) == 2


# ---------------------------------------------------- the certificate checker
@pytest.mark.parametrize(
    ("m", "n", "request_", "kind"),
    [
        (4, 4, {}, "sat-refutation"),
        (3, 8, {"closed": True}, "sat-refutation"),
        (4, 12, {"closed": True}, "schwenk-4xn"),
        (7, 7, {"closed": True}, "colour-count"),
        (5, 5, {"start": "b1"}, "colour-count"),
        (3, 6, {}, "sat-refutation"),
        (5, 5, {"start": "b2", "end": "d4"}, "forced-moves"),  # corner moves forced (issue 14)
        (5, 6, {"start": "b2", "end": "d3"}, "sat-refutation"),
        (2, 5, {}, "degree"),
        (3, 3, {}, "degree"),
        (4, 26, {"start": "f2"}, "schwenk-4xn"),
        (8, 8, {"closed": True, "start": "a1", "end": "h7"}, "degree"),
    ],
)
def test_issue_certificates_are_accepted(m, n, request_, kind):
    cert = certificate_of(m, n, **request_)
    assert cert["kind"] == kind
    assert accepted(cert, m, n, **request_)


def test_certificates_for_huge_boards_are_cheap_to_make_and_check():
    for m, n, closed in [
        (2, 10**10, False),
        (1, 10**9, True),
        (4, 10**9, True),
        (99_999, 99_999, True),
    ]:
        cert = certificate_of(m, n, closed=closed)
        assert accepted(cert, m, n, closed=closed), cert


def tampers(cert):
    """Ways to break a certificate; each must be rejected."""
    kind = cert["kind"]
    if kind == "colour-count":
        yield {**cert, "counts": [cert["counts"][0] + 1, cert["counts"][1]]}
        yield {**cert, "clause": "ends-differ"}
    if kind == "schwenk-4xn":
        yield {**cert, "partition": "files a and d"}
    if kind == "sat-refutation":
        broken = copy.deepcopy(cert)
        broken["cnf"][0] = [-x for x in broken["cnf"][0]]
        yield broken
        broken = copy.deepcopy(cert)
        broken["proof"] = broken["proof"][: len(broken["proof"]) // 2]
        yield broken
        broken = copy.deepcopy(cert)
        broken["edges"] = broken["edges"][:-1]
        yield broken
        broken = copy.deepcopy(cert)
        broken["cnf"].append([1, 2, 3])  # not a degree clause, not a listed cut
        yield broken
        if broken["cuts"]:
            broken = copy.deepcopy(cert)
            broken["cuts"][0] = broken["cuts"][0][:-1]
            yield broken
        broken = copy.deepcopy(cert)
        broken["cnf"].append([len(cert["edges"]) + 5])  # an auxiliary variable
        yield broken
    yield {**cert, "kind": "theorem"}


@pytest.mark.parametrize(
    ("m", "n", "request_"),
    [
        (4, 4, {}),
        (3, 8, {"closed": True}),
        (4, 10, {"closed": True}),
        (7, 7, {"closed": True}),
        (5, 5, {"start": "b1"}),
        (4, 7, {"start": "c2"}),
    ],
)
def test_tampered_certificates_are_rejected(m, n, request_):
    cert = certificate_of(m, n, **request_)
    assert accepted(cert, m, n, **request_)
    for broken in tampers(cert):
        assert not accepted(broken, m, n, **request_), broken.get("kind")
    # ... and a certificate does not carry over to another request.
    assert not accepted(cert, m + 1, n, **request_) or cert["kind"] == "schwenk-4xn"


def test_the_degree_checks_recompute_the_board():
    cert = certificate_of(3, 3)  # b2 is isolated
    assert not accepted({**cert, "square": "a1"}, 3, 3)
    closing = certificate_of(8, 8, closed=True, start="a1", end="h7")
    assert not accepted(closing, 8, 8, closed=True, start="a1", end="b3")
    disconnected = find_tour(Board(8, 8, leaper=(1, 3))).certificate.to_dict()
    assert check_certificate(disconnected, 8, 8, leaper=(1, 3))[0]
    assert not check_certificate(disconnected, 8, 8)[0]  # the knight's graph is connected


def test_tour_certificates():
    result = tour_exists(5, 6, closed=True)
    cert = {"kind": "tour", "squares": [list(s) for s in result.tour.squares()]}
    assert check_certificate(cert, 5, 6, closed=True)[0]
    cert["squares"][3], cert["squares"][4] = cert["squares"][4], cert["squares"][3]
    assert not check_certificate(cert, 5, 6, closed=True)[0]


# ------------------------------------------------------------------ SAT method
def test_sat_method_finds_and_refutes():
    for m, n, request_ in [
        (8, 8, {"closed": True}),
        (5, 6, {"start": "a2", "end": "f2"}),
        (30, 30, {"closed": True, "start": "c3"}),
        (6, 7, {"end": "a1"}),
    ]:
        res = find_tour(m, n, method="sat", **request_)
        assert res.found, res.reason
    res = find_tour(4, 8, closed=True, method="sat")  # no Schwenk shortcut in `sat`
    assert res.certificate.kind == "sat-refutation"
    assert find_tour(7, 7, closed=True, method="sat").certificate.kind == "colour-count"
    aborted = find_tour(40, 40, closed=True, method="sat", shortcuts=False, limit=0)
    assert aborted.status is Status.ABORTED


@pytest.mark.parametrize("n", [5, 6, 9, 16, 20])
def test_sat_refutes_closed_4xn_without_shortcuts(n):
    res = find_tour(4, n, closed=True, method="sat", shortcuts=False)
    assert res.certificate.kind == "sat-refutation"


@pytest.mark.slow
def test_sat_refutes_closed_4xn_up_to_100():
    for n in range(5, 101, 5):
        assert find_tour(4, n, closed=True, method="sat").certificate.kind == "sat-refutation"


# ---------------------------------------------------------- exists and table
def test_exists_json_carries_a_checkable_certificate(capsys):
    assert main(["exists", "4", "4", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["exists"] is False and data["theorem"]["agrees"] is True
    assert check_certificate(data["certificate"], 4, 4)[0]
    assert main(["exists", "8", "8", "--start", "a1", "--end", "h1", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert check_certificate(data["certificate"], 8, 8, start="a1", end="h1")[0]


def test_proof_files_check_with_the_standalone_checker(tmp_path, capsys):
    path = str(tmp_path / "p.txt")
    assert main(["tour", "4", "6", "--closed", "--method", "sat", "--proof", path]) == 1
    assert drup_main([path + ".cnf", path]) == 0
    assert "verified" in capsys.readouterr().out
    assert main(["tour", "8", "8", "--proof", str(tmp_path / "q.txt")]) == 0
    assert "no proof written" in capsys.readouterr().err
    assert not (tmp_path / "q.txt").exists()


def test_table_reproduces_figure_3_1():
    table = existence_table(20)
    expected = [list(row) for row in FIGURE_3_1.splitlines()]
    expected[0][0] = "o"  # the 1x1 convention
    assert table.codes == expected
    assert table.disagreements == []
    kinds = table.to_dict()["certificates"]
    assert set(kinds) <= {"tour", "colour-count", "degree", "schwenk-4xn", "sat-refutation"}


def test_table_command(capsys):
    assert main(["table", "6", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["codes"][2][3] == "o" and data["codes"][4][4] == "e" and data["codes"][5][5] == "c"
    assert main(["table", "4", "7"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["n", "1", "2", "3", "4", "5", "6", "7"]
    assert out.splitlines()[4].split() == ["3", "x", "x", "x", "o", "x", "x", "o"]
    assert main(["table", "0"]) == 2
