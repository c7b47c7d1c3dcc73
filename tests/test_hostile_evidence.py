"""Map and table answers carry their evidence (issue 24, point 6, its last gap).

``starts``, ``ends`` and ``table --format json`` carried only tallies of their evidence
(``"evidence": {"sat-refutation": 8}``), so ``python -m knightgraph.certcheck`` had
"nothing to check" in them.  They now carry ``proofs`` (the tour or certificate of every
decided cell) and certcheck checks each against the request it stands for, and the
answer's ``ok`` / ``codes`` against the proofs.  Every test here failed before.
"""

from __future__ import annotations

import copy
import functools
import json
import os
from pathlib import Path
from typing import Any

import pytest
from cli_support import call
from hypothesis import given, settings
from hypothesis import strategies as st

from knightgraph.certcheck import Malformed, check_answer
from knightgraph.certcheck import main as certcheck_main

HOSTILE_CASES = int(os.environ.get("KNIGHTGRAPH_FUZZ_HOSTILE_CASES", "30"))

MASK = "#..\n...\n...\n.#.\n"  # a 4x3 board without a4 and b1 (rank 4 first)

REQUESTS = {
    "rectangle": [["starts", "3", "4"], ["ends", "3", "4", "--start", "a1"]],
    "closed": [["starts", "5", "6", "--closed"], ["ends", "5", "6", "--start", "c3", "--closed"]],
    "remove": [
        ["starts", "4", "4", "--remove", "a1"],
        ["ends", "3", "5", "--remove", "c2", "--start", "a1"],
    ],
    "leaper": [
        ["starts", "4", "4", "--leaper", "1,3"],
        ["ends", "3", "4", "--leaper", "1,1", "--start", "a1"],
    ],
    "both": [
        ["starts", "3", "4", "--wrap", "both"],
        ["ends", "3", "3", "--wrap", "both", "--start", "b2", "--closed"],
    ],
    "cols": [["ends", "3", "4", "--wrap", "cols", "--start", "a1", "--closed"]],
    "rows": [["starts", "4", "3", "--wrap", "rows"]],
    "levels": [
        ["starts", "2", "3", "--levels", "2"],
        ["ends", "3", "3", "--levels", "2", "--start", "a1:2"],
    ],
    "levels-wrap": [["starts", "2", "2", "--levels", "2", "--wrap", "rows"]],
    "mask": [
        ["starts", "4", "3", "--mask", "MASK"],
        ["ends", "4", "3", "--mask", "MASK", "--start", "a1"],
    ],
    "sample": [["starts", "6", "6", "--sample", "3", "--seed", "4"]],
    "table": [["table", "5", "6"]],
}


def _certcheck(data: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``python -m knightgraph.certcheck FILE`` in-process on ``data``: (code, verdict)."""
    path = tmp_path / "answer.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    capsys.readouterr()
    code = certcheck_main([str(path)])
    out, err = capsys.readouterr()
    assert code == 2 or not err, err
    return code, out + err


def _answer(capsys: pytest.CaptureFixture[str], folder: Path, args: list[str]) -> dict[str, Any]:
    mask = folder / "mask.txt"
    mask.write_text(MASK)
    argv = [str(mask) if a == "MASK" else a for a in args]
    code, out, err = call(capsys, *argv, "--format", "json")
    assert code == 0, (argv, code, err)
    data: dict[str, Any] = json.loads(out)
    return data


@pytest.mark.parametrize(
    "args", [a for kind in REQUESTS.values() for a in kind], ids=lambda a: " ".join(a)
)
def test_map_and_table_answers_are_checked_not_summaries(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every map and table answer, on every board kind, is accepted with its proofs
    checked (it was "nothing to check")."""
    data = _answer(capsys, tmp_path, args)
    code, verdict = _certcheck(data, tmp_path, capsys)
    assert code == 0 and verdict.startswith(f"accepted: {args[0]}: "), verdict
    assert "nothing to check" not in verdict
    decided = data["proofs"]
    if args[0] == "table":
        decided = [e for cell in decided for e in cell["evidence"]]
    assert decided and all(("squares" in p) != ("certificate" in p) for p in decided)
    if args[0] != "table":
        assert list(data)[: len(_OLD_KEYS[args[0]])] == _OLD_KEYS[args[0]] or "graph" in data
        assert len(decided) + len(data["unknown"]) == (
            len(data["sampled"]) if "sampled" in data else _candidates(data)
        )


_OLD_KEYS = {  # the fields (and their order) of before: none removed, renamed or moved
    "starts": ["rows", "cols", "ok", "failures", "seconds", "closed", "start", "counts"],
    "ends": ["rows", "cols", "ok", "failures", "seconds", "closed", "start", "counts"],
}


def _candidates(data: dict[str, Any]) -> int:
    if isinstance(data["ok"], dict):
        return len(data["ok"])
    cells = data["rows"] * data["cols"] - len(data.get("removed", []))
    return cells - (data["start"] is not None and cells > 1)


def test_table_json_keeps_its_fields(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = _answer(capsys, tmp_path, ["table", "3", "4"])
    assert list(data) == [
        "rows",
        "cols",
        "codes",
        "disagreements",
        "certificates",
        "seconds",
        "proofs",
    ]
    last = data["proofs"][-1]
    assert (last["rows"], last["cols"], last["code"]) == (3, 4, "o")
    assert [(e["request"], e["found"]) for e in last["evidence"]] == [
        ("closed", False),
        ("closed minus a1", False),
        ("open", True),
    ]


def test_undecided_cells_carry_no_proof_and_need_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Out of time before any search: every cell unknown (``?``), no proof, accepted."""
    from knightgraph.explore import existence_table, start_map

    for made in (start_map(3, 4, total_timeout=0), existence_table(2, 3, total_timeout=0)):
        data = made.to_dict()
        assert data["proofs"] == [] or all(not c["evidence"] for c in data["proofs"])
        code, verdict = _certcheck(data, tmp_path, capsys)
        assert code == 0 and verdict.startswith("accepted: nothing to check: "), verdict
    data = start_map(3, 4, total_timeout=0).to_dict()
    data["unknown"] = data["unknown"][1:]  # a1 said decided (no tour) with no certificate
    code, verdict = _certcheck(data, tmp_path, capsys)
    assert (code, verdict) == (
        1,
        "rejected: starts: a1: ok says no tour, but no certificate is given\n",
    )


# ------------------------------------------------------------------- tampering
@functools.cache
def _fixed(args: tuple[str, ...]) -> str:
    """The JSON of a small answer, made once (through the API's to_dict, as the CLI)."""
    from knightgraph.explore import end_map, existence_table, start_map

    if args[0] == "table":
        return json.dumps(existence_table(int(args[1]), int(args[2])).to_dict())
    m, n = int(args[1]), int(args[2])
    if args[0] == "starts":
        return json.dumps(start_map(m, n, counts=False).to_dict())
    return json.dumps(end_map(m, n, start=args[3], counts=False).to_dict())


def _square_proof(data: dict[str, Any], found: bool) -> dict[str, Any]:
    return next(p for p in data["proofs"] if p["found"] is found)


def _cell(name: str) -> tuple[int, int]:
    return int(name[1:]) - 1, ord(name[0]) - ord("a")


@pytest.mark.parametrize("was", [True, False])
def test_a_flipped_ok_is_rejected(
    was: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(_fixed(("ends", "3", "4", "a1")))
    square = _square_proof(data, was)["square"]
    r, c = _cell(square)
    data["ok"][r][c] = not was
    code, verdict = _certcheck(data, tmp_path, capsys)
    assert code == 1 and verdict.startswith(f"rejected: ends: {square}: ok says"), verdict


def test_an_ok_square_without_its_proof_is_rejected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for found in (True, False):
        data = json.loads(_fixed(("starts", "3", "4")))
        gone = _square_proof(data, found)
        data["proofs"].remove(gone)
        code, verdict = _certcheck(data, tmp_path, capsys)
        assert code == 1 and f"{gone['square']}: ok says" in verdict and "no " in verdict


def test_an_altered_tour_is_rejected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_fixed(("starts", "3", "4")))
    proof = _square_proof(data, True)
    squares = proof["squares"]
    squares[4], squares[5] = squares[5], squares[4]
    code, verdict = _certcheck(data, tmp_path, capsys)
    assert (code, verdict) == (
        1,
        f"rejected: starts: {proof['square']}: tour: has a step that is not a move\n",
    )


def test_a_tour_moved_to_another_square_is_rejected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tour from a1 offered as the proof for d3 (both ok): a tour, but not from d3."""
    data = json.loads(_fixed(("starts", "3", "4")))
    tours = [p for p in data["proofs"] if p["found"]]
    tours[0]["squares"], tours[1]["squares"] = tours[1]["squares"], tours[0]["squares"]
    code, verdict = _certcheck(data, tmp_path, capsys)
    assert code == 1 and "the start is not the one asked for" in verdict, verdict


def test_a_certificate_swapped_between_squares_is_rejected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ends 3 4 from a1: b1 (Schwenk) and c1 (colours) each have a certificate; swapped,
    each proves nothing about the other square."""
    data = json.loads(_fixed(("ends", "3", "4", "a1")))
    by = {p["square"]: p for p in data["proofs"]}
    assert by["b1"]["certificate"]["kind"] != by["c1"]["certificate"]["kind"]
    by["b1"]["certificate"], by["c1"]["certificate"] = (
        by["c1"]["certificate"],
        by["b1"]["certificate"],
    )
    code, verdict = _certcheck(data, tmp_path, capsys)
    assert code == 1 and verdict.startswith("rejected: ends: b1: "), verdict


def test_a_table_code_or_its_evidence_altered_is_rejected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = json.loads(_fixed(("table", "5", "6")))
    cells = {(c["rows"], c["cols"]): c for c in table["proofs"]}
    assert cells[(5, 6)]["code"] == "c" and cells[(3, 4)]["code"] == "o"
    forged = copy.deepcopy(table)  # 3x4 said to have a closed tour
    forged["codes"][2][3] = "c"
    assert _certcheck(forged, tmp_path, capsys)[0] == 1
    forged = copy.deepcopy(table)  # ... with its cell's code changed too
    forged["codes"][2][3] = "x"
    next(c for c in forged["proofs"] if (c["rows"], c["cols"]) == (3, 4))["code"] = "x"
    code, verdict = _certcheck(forged, tmp_path, capsys)
    assert code == 1 and "but the proofs give 'o'" in verdict, verdict
    forged = copy.deepcopy(table)  # 3x4's closed certificate swapped with 5x6's closed tour
    big = {(c["rows"], c["cols"]): c for c in forged["proofs"]}
    a, b = big[(3, 4)]["evidence"][0], big[(5, 6)]["evidence"][0]
    a_found, b_found = a.pop("found"), b.pop("found")
    a_cert, b_tour = a.pop("certificate"), b.pop("squares")
    a.update(found=b_found, squares=b_tour)
    b.update(found=a_found, certificate=a_cert)
    code, verdict = _certcheck(forged, tmp_path, capsys)
    assert code == 1 and verdict.startswith("rejected: table: 3x4 closed: "), verdict
    forged = copy.deepcopy(table)  # a decided board without its proofs
    forged["proofs"] = [c for c in forged["proofs"] if (c["rows"], c["cols"]) != (4, 5)]
    code, verdict = _certcheck(forged, tmp_path, capsys)
    assert code == 1 and "4x5" in verdict and "without its proofs" in verdict, verdict


def test_malformed_proofs_are_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_fixed(("starts", "3", "4")))
    for bad in ({"square": 7, "found": True}, {"square": "z9", "found": False}, "a1", None):
        forged = {**data, "proofs": [*data["proofs"], bad]}
        code, verdict = _certcheck(forged, tmp_path, capsys)
        assert code == 2 and len(verdict.splitlines()) == 1, verdict


def test_graph_maps_of_the_api_are_checked_with_their_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The API's map of a networkx graph: with :func:`knightgraph.io.formats.board_fields`
    its proofs are checked on the graph; without them, one line names what is missing."""
    import networkx as nx

    from knightgraph.explore import end_map, start_map
    from knightgraph.io.formats import board_fields

    for made in (start_map(nx.petersen_graph()), end_map(nx.path_graph(4), start=0)):
        data = {**made.to_dict(), **board_fields(made.board)}
        code, verdict = _certcheck(data, tmp_path, capsys)
        assert code == 0 and verdict.startswith(f"accepted: {made.kind}: "), verdict
        forged = copy.deepcopy(data)
        forged["ok"][next(iter(forged["ok"]))] ^= True
        assert _certcheck(forged, tmp_path, capsys)[0] == 1
        code, verdict = _certcheck(made.to_dict(), tmp_path, capsys)
        assert code == 2 and "board_fields" in verdict and len(verdict.splitlines()) == 1


# ------------------------------------------------------------------------ the fuzz
_FIXED = [
    ("starts", "3", "4"),
    ("ends", "3", "4", "a1"),
    ("ends", "4", "5", "a1"),
    ("table", "4", "5"),
]


@settings(max_examples=HOSTILE_CASES, deadline=None)
@given(
    which=st.sampled_from(_FIXED),
    how=st.sampled_from(["flip", "code", "drop", "step", "swap"]),
    pick=st.integers(min_value=0, max_value=10**6),
)
def test_fuzz_tampered_summaries_are_rejected(which: tuple[str, ...], how: str, pick: int) -> None:
    """Random corruption of a map or table answer (an ok or a code changed, a proof
    dropped, a proof's claim flipped, two squares of a tour exchanged, two squares'
    proofs exchanged) is never accepted: the one exception, two squares whose proofs
    each still hold where they now stand, is left out."""
    data = json.loads(_fixed(which))
    proofs = data["proofs"]
    if which[0] == "table":
        cell = proofs[pick % len(proofs)]
        if how in ("flip", "code"):
            other = "cxoe"[("cxoe".index(cell["code"]) + 1 + pick % 3) % 4]
            data["codes"][cell["rows"] - 1][cell["cols"] - 1] = other
            if how == "code":
                cell["code"] = other
        elif how == "drop":
            proofs.remove(cell)
        else:  # a search's claim flipped, its tour or certificate kept
            ev = cell["evidence"][pick % len(cell["evidence"])]
            ev["found"] = not ev["found"]
    else:
        proof = proofs[pick % len(proofs)]
        if how in ("flip", "code"):
            r, c = _cell(proof["square"])
            data["ok"][r][c] = not data["ok"][r][c]
        elif how == "drop":
            proofs.remove(proof)
        elif how == "step":
            tours = [p for p in proofs if p["found"]]
            squares = tours[pick % len(tours)]["squares"]
            i = (pick // 3) % (len(squares) - 1)
            squares[i], squares[i + 1] = squares[i + 1], squares[i]
        else:
            other = proofs[(pick // 7) % len(proofs)]
            if other["found"] != proof["found"] or other is proof:
                return
            key = "squares" if proof["found"] else "certificate"
            proof[key], other[key] = other[key], proof[key]
            if _holds(data, proof) and _holds(data, other):  # equivalent certificates
                return
    try:
        accepted, why = check_answer(data)
    except Malformed:
        return
    assert not accepted, (how, why)


def _holds(data: dict[str, Any], proof: dict[str, Any]) -> bool:
    """Whether one proof, alone, is accepted for its square (the rest of the map aside)."""
    from knightgraph.certcheck.answers import _board

    found = proof["found"]
    item = {"kind": "tour", "squares": proof["squares"]} if found else proof["certificate"]
    ends = (proof["square"], None) if data["start"] is None else (data["start"], proof["square"])
    return bool(_board(data)(item, bool(data["closed"]), *ends)[0])
