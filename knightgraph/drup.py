"""An independent DRUP proof checker (standard library only).

A DRUP proof of unsatisfiability lists clauses (*lemmas*), each of which must
follow from the formula and the earlier lemmas by *reverse unit propagation*:
assume the negation of every literal of the lemma, propagate unit clauses, and
reach a conflict.  Lines ``d ...`` delete clauses (ignored here: keeping every
clause can only make propagation stronger, and every kept clause is implied by
the formula, so the check stays sound).  The proof succeeds when the empty
clause is derived.

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

import sys
from collections.abc import Iterable, Sequence

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
        tokens = [int(t) for t in (line[2:] if deletion else line).split()]
        if not tokens or tokens[-1] != 0 or 0 in tokens[:-1]:
            raise ValueError(f"malformed proof line {raw.strip()!r}")
        steps.append((deletion, tokens[:-1]))
    return steps


class _Propagator:
    """Clauses with two watched literals, and a trail of assigned literals."""

    def __init__(self) -> None:
        self.clauses: list[list[int]] = []
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


def check_drup(formula: Iterable[Sequence[int]], proof: Iterable[str]) -> tuple[bool, str]:
    """Check a DRUP refutation of ``formula``; ``(accepted, explanation)``.

    Accepted only if every lemma follows by reverse unit propagation from the
    formula and the lemmas before it, and the empty clause is among them.
    """
    checker = _Propagator()
    for clause in formula:
        checker.add(clause)
    try:
        steps = parse_proof(proof)
    except ValueError as err:
        return False, str(err)
    lemmas = 0
    for deletion, clause in steps:
        if deletion:
            continue
        lemmas += 1
        if not checker.rup(clause):
            what = " ".join(map(str, clause)) if clause else "the empty clause"
            return False, f"lemma {lemmas} ({what}) does not follow by unit propagation"
        if not clause:
            return True, f"the empty clause was derived ({lemmas} lemmas checked)"
        checker.add(clause)
    return False, "the proof never derives the empty clause"


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
