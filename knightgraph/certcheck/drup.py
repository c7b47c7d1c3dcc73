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

    python -m knightgraph.certcheck.drup formula.cnf proof.drup

A C twin of the checker (``knightgraph/_drup.c``) is used when it was
built, unless ``KNIGHTGRAPH_KERNELS=python`` asks for this plain-Python one,
as for every compiled part of knightgraph.  Malformed input is never a crash:
:func:`check_drup` rejects it with the reason, and :func:`parse_dimacs` /
:func:`parse_proof` raise :class:`~knightgraph.exceptions.ProofFormatError`
naming the line.

Examples
--------
>>> formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
>>> check_drup(formula, ["2 0", "0"])
(True, 'the empty clause was derived (2 lemmas checked)')
>>> check_drup(formula, ["1 0", "0"])[0]
True
>>> check_drup([[1, 2], [-1, 2]], ["2 0", "0"])
(False, 'lemma 2 (the empty clause) does not follow by unit propagation')
>>> check_drup([[1, 0]], ["0"])
(False, 'malformed formula: clause 1 [1, 0] holds the literal 0')
"""

from __future__ import annotations

import ctypes
import itertools
import sys
from array import array
from collections.abc import Iterable, Sequence
from typing import Any

from ..exceptions import InvalidOptionError, OutOfMemoryError, ProofFormatError
from ..running.native import load_library, python_only

__all__ = ["check_drup", "parse_dimacs", "parse_proof"]


def parse_dimacs(text: str) -> list[list[int]]:
    """Clauses of a DIMACS CNF text (comment and ``p`` lines skipped).

    Raises
    ------
    ProofFormatError
        For text that is not DIMACS CNF, naming the line or token.

    Examples
    --------
    >>> parse_dimacs("p cnf 2 2\\n1 -2 0\\n2 0")
    [[1, -2], [2]]
    >>> parse_dimacs("1 x 0")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.ProofFormatError: malformed DIMACS line 1 '1 x 0': 'x' is not a literal
    """
    if not isinstance(text, str):
        raise ProofFormatError(f"not DIMACS text: {_describe(text)}")
    clauses: list[list[int]] = []
    current: list[int] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "cp%":
            continue
        literals = _integers(line)
        if literals is None:
            bad = next(t for t in line.split() if _integers(t) is None)
            raise ProofFormatError(
                f"malformed DIMACS line {number} {_shorten(line)!r}: {_shorten(bad)!r} "
                "is not a literal"
            )
        for literal in literals:
            if literal == 0:
                clauses.append(current)
                current = []
            else:
                current.append(literal)
    if current:
        raise ProofFormatError(
            f"malformed DIMACS text: the last clause {_shorten(str(current))} is not terminated by 0"
        )
    return clauses


def _integers(text: str) -> list[int] | None:
    """The integers of a line of ASCII decimal numbers (optional minus signs), else None."""
    if not text.isascii() or "_" in text or "+" in text:
        return None  # int() would take "1_0", "+1" and non-ASCII digits
    try:
        return [int(token) for token in text.split()]
    except ValueError:
        return None


def _shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _describe(value: object) -> str:
    """A short one-line repr for messages (kept here: the checker shares no code with the solvers)."""
    import reprlib

    return " ".join(reprlib.repr(value).split())


def parse_proof(lines: Iterable[str] | str) -> list[tuple[bool, list[int]]]:
    """``(is_deletion, clause)`` pairs from DRUP proof lines (or the proof as one text).

    Raises
    ------
    ProofFormatError
        For a line that is not a DRUP step, naming it.

    Examples
    --------
    >>> parse_proof(["1 -2 0", "d 1 -2 0", "0"])
    [(False, [1, -2]), (True, [1, -2]), (False, [])]
    >>> parse_proof("1 2")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.ProofFormatError: malformed proof line '1 2'
    """
    source: object = lines.splitlines() if isinstance(lines, str) else lines
    if isinstance(source, bytes | bytearray | memoryview) or not isinstance(source, Iterable):
        raise ProofFormatError(f"not DRUP proof lines: {_describe(source)}")
    steps = []
    for raw in source:
        if not isinstance(raw, str):
            raise ProofFormatError(f"malformed proof line {_describe(raw)}: expected text")
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        deletion = line.startswith("d ")
        tokens = _integers(line[2:] if deletion else line)
        if not tokens or tokens[-1] != 0 or 0 in tokens[:-1]:
            raise ProofFormatError(f"malformed proof line {_shorten(line)!r}")
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
    formula and the lemmas before it, and the empty clause is among them.  A
    malformed formula or proof (a literal that is not a whole number, a 0
    inside a clause, a bad proof line) is rejected with the reason.

    ``compiled`` chooses the C twin of this checker (``knightgraph/_drup.c``,
    the same method, about a hundred times faster); by default it is used when
    it was built and not switched off with ``KNIGHTGRAPH_KERNELS=python``.

    Raises
    ------
    InvalidOptionError
        For ``compiled=True`` when the C checker is not built or switched off,
        or ``compiled`` not a bool or None.
    OutOfMemoryError
        When the C checker cannot allocate its tables.

    Examples
    --------
    The four clauses over ``x1, x2`` rule out every assignment, but unit
    propagation alone finds no conflict: the proof needs the lemma ``x2``.

    >>> formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    >>> check_drup(formula, ["0"])
    (False, 'lemma 1 (the empty clause) does not follow by unit propagation')
    >>> check_drup(formula, ["2 0", "0"], compiled=False)  # the plain-Python checker
    (True, 'the empty clause was derived (2 lemmas checked)')
    >>> check_drup(formula, ["2 x 0"])  # malformed: rejected, never raised
    (False, "malformed proof line '2 x 0'")
    """
    if compiled is not None and not isinstance(compiled, bool):
        raise InvalidOptionError(
            f"invalid compiled {_describe(compiled)}: expected True, False or None"
        )
    library = _library() if compiled is None or compiled else None
    if compiled and library is None:
        why = "switched off by KNIGHTGRAPH_KERNELS=python" if python_only() else "not built"
        raise InvalidOptionError(f"compiled=True: the compiled DRUP checker is {why}")
    try:
        steps = parse_proof(proof)
    except ProofFormatError as err:
        return False, str(err)
    clauses = _clauses(formula)
    if isinstance(clauses, str):
        return False, clauses
    if library is not None:
        return _check_compiled(library, clauses, steps)
    return _check_python(clauses, steps)


def _clauses(formula: object) -> list[list[int]] | str:
    """The formula as lists of non-zero integers, or why it is malformed."""
    if isinstance(formula, str | bytes | bytearray) or not isinstance(formula, Iterable):
        return f"malformed formula {_describe(formula)}: expected a list of clauses"
    clauses = []
    for number, clause in enumerate(formula, 1):
        if isinstance(clause, str | bytes | bytearray) or not isinstance(clause, Iterable):
            return (
                f"malformed formula: clause {number} {_describe(clause)} is not a list of literals"
            )
        literals = list(clause)
        for literal in literals:
            if isinstance(literal, bool) or not isinstance(literal, int):
                return (
                    f"malformed formula: clause {number} {_describe(literals)} holds "
                    f"{_describe(literal)}, not a whole number"
                )
            if literal == 0:
                return (
                    f"malformed formula: clause {number} {_describe(literals)} holds the literal 0"
                )
        clauses.append([int(x) for x in literals])
    return clauses


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
    """The compiled twin in ``knightgraph._drup`` (``_drup.c``), if it was built and not
    switched off."""
    if python_only():
        return None
    library = load_library("_drup")
    if library is None or not hasattr(library, "kg_drup"):
        return None
    library.kg_drup.restype = ctypes.c_int64
    return library


def _check_compiled(
    library: ctypes.CDLL, formula: list[list[int]], steps: list[tuple[bool, list[int]]]
) -> tuple[bool, str]:
    literals = itertools.chain.from_iterable(
        itertools.chain(formula, (clause for _, clause in steps))
    )
    count, variables = 0, 0
    for literal in literals:
        count += 1
        variables = max(variables, abs(literal))
    original = steps  # for naming a failed lemma
    if variables > count:  # sparse or huge variable numbers: number them 1, 2, ... first
        formula, steps, variables = _renumbered(formula, steps)
    flat_formula = array("q", [x for clause in formula for x in (*clause, 0)])
    flat_proof = array("q", [x for _, clause in steps for x in (*clause, 0)])
    kinds = array("b", [1 if deletion else 0 for deletion, _ in steps])
    checked = ctypes.c_int64(0)

    def pointer(data: array[Any]) -> Any:
        """The array's memory as a C array (ctypes passes it as a pointer)."""
        if not data:
            return None
        item = ctypes.c_int64 if data.typecode == "q" else ctypes.c_int8
        return (item * len(data)).from_buffer(data)

    status = library.kg_drup(
        pointer(flat_formula),
        ctypes.c_int64(len(flat_formula)),
        pointer(flat_proof),
        ctypes.c_int64(len(flat_proof)),
        pointer(kinds),
        ctypes.c_int64(variables),
        ctypes.byref(checked),
    )
    if status == -1:
        raise OutOfMemoryError(
            f"out of memory while checking a proof of {len(flat_proof):,} literals over "
            f"{variables:,} variables"
        )
    lemmas = [clause for deletion, clause in original if not deletion]
    failed = lemmas[checked.value - 1] if status == 0 and checked.value else []
    return _verdict(int(status), checked.value, failed)


def _renumbered(
    formula: list[list[int]], steps: list[tuple[bool, list[int]]]
) -> tuple[list[list[int]], list[tuple[bool, list[int]]], int]:
    """The same formula and proof with the variables numbered 1, 2, ... in order of use
    (the C checker's tables grow with the largest variable number)."""
    names: dict[int, int] = {}

    def rename(clause: list[int]) -> list[int]:
        out = []
        for literal in clause:
            number = names.setdefault(abs(literal), len(names) + 1)
            out.append(number if literal > 0 else -number)
        return out

    new_formula = [rename(clause) for clause in formula]
    new_steps = [(deletion, rename(clause)) for deletion, clause in steps]
    return new_formula, new_steps, len(names)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m knightgraph.certcheck.drup FORMULA.cnf PROOF``: exit 0 if the proof checks."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python -m knightgraph.certcheck.drup FORMULA.cnf PROOF", file=sys.stderr)
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
