"""An independent DRUP proof checker (standard library only).

A DRUP proof of unsatisfiability lists clauses (*lemmas*), each of which must
follow from the formula and the earlier lemmas by *reverse unit propagation*:
assume the negation of every literal of the lemma, propagate unit clauses, and
reach a conflict.  Lines ``d ...`` delete clauses, which keeps propagation
fast; a deleted unit clause, and what it implied, stays (as in ``drat-trim``):
every clause kept is implied by the formula, so the check stays sound.  The
proof succeeds when the empty clause is derived.

This module shares no code with the solvers: it reads the clauses and the
proof as plain integers and checks them with its own two-watched-literal unit
propagation.  It can also be run on files, like the standard checker
``drat-trim``::

    python -m knightgraph.drup formula.cnf proof.drup

Examples
--------
>>> formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
>>> check_drup(formula, ["2 0", "0"])
(True, 'the empty clause was derived (2 lemmas checked)')
>>> check_drup(formula, ["1 0", "0"])[0]
True
>>> check_drup([[1, 2], [-1, 2]], ["2 0", "0"])
(False, 'lemma 2 (the empty clause) does not follow by unit propagation')
"""

from __future__ import annotations

import ctypes
import itertools
import sys
from array import array
from collections.abc import Iterable, Sequence
from typing import Any

from ._native import load_library

__all__ = ["check_drup", "parse_dimacs", "parse_proof"]


def parse_dimacs(text: str) -> list[list[int]]:
    """Clauses of a DIMACS CNF text (comment and ``p`` lines skipped)."""
    clauses: list[list[int]] = []
    current: list[int] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "cp%":
            continue
        for token in line.split():
            literal = int(token)
            if literal == 0:
                clauses.append(current)
                current = []
            else:
                current.append(literal)
    if current:
        raise ValueError("the last clause is not terminated by 0")
    return clauses


def parse_proof(lines: Iterable[str]) -> list[tuple[bool, list[int]]]:
    """``(is_deletion, clause)`` pairs from DRUP proof lines."""
    steps = []
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        deletion = line.startswith("d ")
        try:
            tokens = [int(t) for t in (line[2:] if deletion else line).split()]
        except ValueError:
            tokens = []
        if not tokens or tokens[-1] != 0 or 0 in tokens[:-1]:
            raise ValueError(f"malformed proof line {raw.strip()!r}")
        steps.append((deletion, tokens[:-1]))
    return steps


class _Propagator:
    """Clauses with two watched literals, and a trail of assigned literals."""

    def __init__(self) -> None:
        self.clauses: list[list[int]] = []
        self.deleted: list[bool] = []
        self.index: dict[tuple[int, ...], list[int]] = {}  # sorted literals -> live clauses
        self.watches: dict[int, list[int]] = {}
        self.value: dict[int, bool] = {}  # variable -> value
        self.trail: list[int] = []
        self.conflict = False  # the top level is already contradictory

    def true(self, literal: int) -> bool:
        return self.value.get(abs(literal)) == (literal > 0)

    def false(self, literal: int) -> bool:
        return self.value.get(abs(literal)) == (literal < 0)

    def assign(self, literal: int) -> None:
        self.value[abs(literal)] = literal > 0
        self.trail.append(literal)

    def add(self, clause: Sequence[int]) -> None:
        """Add a clause at the top level, propagating it if it is unit there."""
        literals = list(dict.fromkeys(clause))
        if any(-x in literals for x in literals):
            return  # a tautology never propagates
        # Watch literals that are not false under the top-level assignment, if any.
        literals.sort(key=lambda x: 0 if self.true(x) else 1 if not self.false(x) else 2)
        free = [x for x in literals if not self.false(x)]
        if not free:
            self.conflict = True
            return
        if len(literals) > 1:
            index = len(self.clauses)
            self.clauses.append(literals)
            self.deleted.append(False)
            self.index.setdefault(tuple(sorted(literals)), []).append(index)
            for literal in literals[:2]:
                self.watches.setdefault(literal, []).append(index)
        if len(free) == 1 and not self.true(free[0]) and not self.propagate_from(free[0]):
            self.conflict = True

    def propagate_from(self, literal: int) -> bool:
        """Assign ``literal`` and propagate; False on a conflict (assignments stay)."""
        if self.false(literal):
            return False
        if self.true(literal):
            return True
        self.assign(literal)
        head = len(self.trail) - 1
        while head < len(self.trail):
            falsified = -self.trail[head]
            head += 1
            watching = self.watches.get(falsified, [])
            kept = []
            for position, index in enumerate(watching):
                if self.deleted[index]:
                    continue  # dropped from the watch list for good
                clause = self.clauses[index]
                if clause[0] == falsified:
                    clause[0], clause[1] = clause[1], clause[0]
                if self.true(clause[0]):
                    kept.append(index)
                    continue
                for k in range(2, len(clause)):
                    if not self.false(clause[k]):
                        clause[1], clause[k] = clause[k], clause[1]
                        self.watches.setdefault(clause[1], []).append(index)
                        break
                else:
                    kept.append(index)
                    if self.false(clause[0]):
                        kept.extend(watching[position + 1 :])
                        self.watches[falsified] = kept
                        return False
                    self.assign(clause[0])
            self.watches[falsified] = kept
        return True

    def delete(self, clause: Sequence[int]) -> None:
        """Forget one copy of a clause (unit clauses and what they implied stay)."""
        copies = self.index.get(tuple(sorted(set(clause))))
        if copies:
            self.deleted[copies.pop()] = True

    def rup(self, lemma: Sequence[int]) -> bool:
        """Does unit propagation on the negated lemma reach a conflict?"""
        if self.conflict or any(self.true(x) for x in lemma):
            return True
        mark = len(self.trail)
        conflict = False
        for literal in lemma:
            if not self.propagate_from(-literal):
                conflict = True
                break
        for literal in self.trail[mark:]:
            del self.value[abs(literal)]
        del self.trail[mark:]
        return conflict


def check_drup(
    formula: Iterable[Sequence[int]], proof: Iterable[str], *, compiled: bool | None = None
) -> tuple[bool, str]:
    """Check a DRUP refutation of ``formula``; ``(accepted, explanation)``.

    Accepted only if every lemma follows by reverse unit propagation from the
    formula and the lemmas before it, and the empty clause is among them.
    ``compiled`` chooses the C twin of this checker (``knightgraph/_kernels.c``,
    the same method, about a hundred times faster); by default it is used when
    it was built.
    """
    try:
        steps = parse_proof(proof)
    except ValueError as err:
        return False, str(err)
    clauses = [list(clause) for clause in formula]
    library = _library() if compiled is None or compiled else None
    if library is not None:
        return _check_compiled(library, clauses, steps)
    if compiled:
        raise RuntimeError("the compiled checker is not available")
    return _check_python(clauses, steps)


def _check_python(
    formula: list[list[int]], steps: list[tuple[bool, list[int]]]
) -> tuple[bool, str]:
    checker = _Propagator()
    for clause in formula:
        checker.add(clause)
    lemmas = 0
    for deletion, clause in steps:
        if deletion:
            checker.delete(clause)
            continue
        lemmas += 1
        if not checker.rup(clause):
            return _verdict(0, lemmas, clause)
        if not clause:
            return _verdict(1, lemmas, clause)
        checker.add(clause)
    return _verdict(-2, lemmas, [])


def _verdict(status: int, lemmas: int, lemma: list[int]) -> tuple[bool, str]:
    if status == 1:
        return True, f"the empty clause was derived ({lemmas} lemmas checked)"
    if status == 0:
        what = " ".join(map(str, lemma)) if lemma else "the empty clause"
        return False, f"lemma {lemmas} ({what}) does not follow by unit propagation"
    return False, "the proof never derives the empty clause"


def _library() -> ctypes.CDLL | None:
    """The compiled twin in ``knightgraph._kernels``, if it was built."""
    library = load_library("_kernels")
    if library is None or not hasattr(library, "kg_drup"):
        return None
    library.kg_drup.restype = ctypes.c_int64
    return library


def _check_compiled(
    library: ctypes.CDLL, formula: list[list[int]], steps: list[tuple[bool, list[int]]]
) -> tuple[bool, str]:
    flat_formula = array("q", [x for clause in formula for x in (*clause, 0)])
    flat_proof = array("q", [x for _, clause in steps for x in (*clause, 0)])
    kinds = array("b", [1 if deletion else 0 for deletion, _ in steps])
    variables = max((abs(x) for x in itertools.chain(flat_formula, flat_proof)), default=0)
    checked = ctypes.c_int64(0)

    def pointer(data: array[Any]) -> Any:
        """The array's memory as a C array (ctypes passes it as a pointer)."""
        if not data:
            return None
        item = ctypes.c_int64 if data.typecode == "q" else ctypes.c_int8
        return (item * len(data)).from_buffer(data)

    status = library.kg_drup(
        pointer(flat_formula), ctypes.c_int64(len(flat_formula)), pointer(flat_proof),
        ctypes.c_int64(len(flat_proof)), pointer(kinds), ctypes.c_int64(variables),
        ctypes.byref(checked),
    )  # fmt: skip
    if status == -1:
        raise MemoryError("out of memory while checking a proof")
    lemmas = [clause for deletion, clause in steps if not deletion]
    failed = lemmas[checked.value - 1] if status == 0 and checked.value else []
    return _verdict(int(status), checked.value, failed)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m knightgraph.drup FORMULA.cnf PROOF``: exit 0 if the proof checks."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python -m knightgraph.drup FORMULA.cnf PROOF", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="ascii") as f:
            formula = parse_dimacs(f.read())
        with open(args[1], encoding="ascii") as f:
            proof = f.read().splitlines()
    except (OSError, ValueError) as err:
        print(f"cannot read the input: {err}", file=sys.stderr)
        return 2
    accepted, why = check_drup(formula, proof)
    print(("verified: " if accepted else "rejected: ") + why)
    return 0 if accepted else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
