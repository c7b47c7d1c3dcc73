"""Magic-tour answers for the independent checker: the tour, its line sums, and refutations.

An answer with ``magic`` (``semi``: every rank and file; ``full``: and both long diagonals;
``files`` or ``ranks``: those lines only) describes a knight's tour of the ``rows x cols``
board numbered ``1 .. N`` along its squares (``N = rows * cols``).  Every line of the kind
must sum to its share of the total: a rank (and a diagonal) ``cols (N + 1) / 2``, a file
``rows (N + 1) / 2``.  The checker re-checks, with its own code:

* ``squares`` (and each of ``tours``): a tour (every square once, knight's moves, closed
  when ``closed``), and every line's sum, recomputed here;
* ``certificate`` (``exists`` answers carry the tour as ``{"kind": "tour", ...}``):

  ``magic-sums``
      the lines named must share the total equally, and the share is not a whole number;
  ``magic-parity``
      both sides odd (``N > 1``): knight's moves alternate colours, so the odd numbers
      lie on the ``(N + 1) / 2`` squares of the colour of ``a1``, and the two lines named (ranks
      1 and 2, or files a and b) hold counts of them of different parity: their sums
      differ in parity;
  ``magic-halves``
      every rank and every file with its sum, both sides 2 more than a multiple of 4:
      the even ranks hold half of the total, and so do the even files; a knight's move
      changes the parity of exactly one of rank and file, so (with ``x_k = +1`` for
      numbers on even ranks, ``-1`` otherwise) the halves ``k / 2`` of the even numbers
      with ``x_k = +1`` and those with ``x_k = -1`` have equal sums, but ``1 + ... + N / 2``
      is odd;
  ``magic-refutation``
      ``solutions`` (each checked to be a magic tour, all distinct) and a DRUP ``proof``
      of the CNF the checker writes itself from the board: the tour's clauses
      (:func:`~knightgraph.certcheck.puzzles.puzzle_cnf`, a puzzle without clues), the
      order encoding of each square's number and a totalizer per line, as
      :mod:`knightgraph.magic.encoding` describes them, and a clause ruling out each
      listed solution.  Then the listed solutions are all there are.

What the answer says (``exists``, ``status``, ``count`` with ``exact``) is checked against
what it carries.  Standard library only.

Examples
--------
>>> check_magic_answer({"rows": 1, "cols": 1, "magic": "full", "squares": ["a1"]})
(True, 'magic: a verified tour of the 1x1 board, every rank and file and both diagonals with its sum')
>>> check_magic_answer({"rows": 2, "cols": 3, "magic": "semi", "exists": False,
...     "certificate": {"kind": "magic-sums", "lines": "ranks"}})
(True, 'magic-sums: the 2 ranks share 21 equally: 21/2 each, not a whole number')
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from .adjacency import Malformed, Rectangle, Rejected, require, square_name
from .puzzles import knight_numbering

__all__ = ["MAX_MAGIC_SQUARES", "check_magic_answer", "check_magic_certificate", "magic_cnf"]

MAX_MAGIC_SQUARES = 144
"""Most squares of a board whose refutation the checker rebuilds (12 x 12)."""

KINDS = ("semi", "full", "files", "ranks")

Square = tuple[int, int]


class _Board:
    """The board of a magic answer: its size, kind, moves and lines."""

    def __init__(self, answer: Mapping[str, Any]) -> None:
        rows, cols, kind = answer.get("rows"), answer.get("cols"), answer.get("magic")
        for key, value in (("rows", rows), ("cols", cols)):
            if not (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
                raise Malformed(f"invalid {key!r}: {value!r}")
        assert isinstance(rows, int) and isinstance(cols, int)
        if kind not in KINDS or (kind == "full" and rows != cols):
            raise Malformed(f"invalid 'magic': {kind!r}")
        closed = answer.get("closed")
        if not isinstance(closed, bool | None):
            raise Malformed(f"invalid 'closed': {closed!r}")
        if rows * cols > 10_000:
            raise Malformed(f"a magic tour of {rows * cols} squares is too large to check here")
        self.m, self.n, self.kind, self.closed = rows, cols, str(kind), bool(closed)
        self.size = rows * cols
        self.clues: dict[Square, int] = {}  # as a puzzle without clues, for puzzle_cnf
        board = Rectangle(rows, cols, (1, 2), ())
        self.moves = {(r, c): board.moves((r, c)) for r in range(rows) for c in range(cols)}

    def lines(self) -> list[tuple[str, list[Square], Fraction]]:
        """(name, squares, the sum it needs) of every line of the kind, in the encoding's order."""
        m, n, total = self.m, self.n, Fraction(self.size * (self.size + 1), 2)
        out: list[tuple[str, list[Square], Fraction]] = []
        if self.kind != "files":
            out += [(f"rank {r + 1}", [(r, c) for c in range(n)], total / m) for r in range(m)]
        if self.kind != "ranks":
            out += [
                (f"file {square_name((0, c))[:-1]}", [(r, c) for r in range(m)], total / n)
                for c in range(n)
            ]
        if self.kind == "full":
            out.append(("diagonal a1", [(i, i) for i in range(n)], total / n))
            far = square_name((0, n - 1))
            out.append((f"diagonal {far}", [(i, n - 1 - i) for i in range(n)], total / n))
        return out

    def words(self) -> str:
        what = {
            "semi": "every rank and file",
            "full": "every rank and file and both diagonals",
            "files": "every file",
            "ranks": "every rank",
        }[self.kind]
        return f"{what} with its sum"

    def tour(self, squares: Any) -> list[Square]:
        """The squares of a numbering, checked to be a magic tour (else Rejected)."""
        path = knight_numbering(squares, self, ("tour", "", "visited"))
        number = {s: k for k, s in enumerate(path, 1)}
        for name, line, want in self.lines():
            got = sum(number[s] for s in line)
            require(got == want, f"{name} sums to {got}, not {want}")
        return path


def magic_cnf(board: Any, solutions: Sequence[Sequence[Square]] = ()) -> list[list[int]]:
    """The magic tour's clauses, written here from the board alone, and one clause per
    listed solution ruling it out (see the module's text).

    Examples
    --------
    >>> len(magic_cnf(_Board({"rows": 1, "cols": 1, "magic": "semi"})))
    3
    """
    from .puzzles import puzzle_cnf

    size: int = board.size
    n: int = board.n
    clauses = puzzle_cnf(board, solutions)

    def number_at_least(s: Square, t: int) -> int | bool:  # g(s, t), or a constant
        if t <= 1 or t > size:
            return t <= 1
        return size * size + (s[0] * n + s[1]) * (size - 1) + t - 1

    def add(*literals: int | bool) -> None:  # a clause, constants simplified
        if not any(x is True for x in literals):  # identity: the variable 1 equals True
            clauses.append([int(x) for x in literals if x is not False])

    def no(x: int | bool) -> int | bool:
        return (not x) if isinstance(x, bool) else -x

    for r, c in itertools.product(range(board.m), range(n)):
        for k in range(1, size + 1):
            x = (r * n + c) * size + k
            now, above = number_at_least((r, c), k), number_at_least((r, c), k + 1)
            add(-x, now)
            add(-x, no(above))
            add(no(above), now)
            add(no(now), above, x)
    fresh = [size * size + size * (size - 1) + 1]

    def tree(line: list[Square], target: int) -> None:
        length = len(line)

        def least(j: int) -> int:
            return j * (j + 1) // 2

        def most(j: int) -> int:
            return j * (2 * size - j + 1) // 2

        def part(lo: int, hi: int) -> Callable[[int], int | bool]:
            if hi - lo == 1:
                return lambda v: number_at_least(line[lo], v)
            mid = (lo + hi) // 2
            a, b = part(lo, mid), part(mid, hi)
            (la, ha), (lb, hb) = span[(lo, mid)], span[(mid, hi)]
            if hi - lo == length:
                for i in range(la, ha + 2):
                    add(no(a(i)), no(b(target - i + 1)))
                    add(a(i), b(target - i + 1))
                return a
            j = hi - lo
            low = max(least(j), target - most(length - j))
            high = min(most(j), target - least(length - j))
            span[(lo, hi)] = (low, high)
            if low > high:
                clauses.append([])
            first = fresh[0]
            fresh[0] += max(high - low, 0)

            def c(v: int) -> int | bool:
                return v <= low if v <= low or v > high else first + v - low - 1

            for v in range(low + 1, high):
                add(no(c(v + 1)), c(v))
            for i, k in itertools.product(range(la, ha + 1), range(lb, hb + 1)):
                add(no(a(i)), no(b(k)), c(i + k))
                add(a(i + 1), b(k + 1), no(c(i + k + 1)))
            return c

        span = {(i, i + 1): (1, size) for i in range(length)}
        part(0, length)

    for _, line, want in board.lines():
        tree(line, int(want))
    return clauses


def check_magic_answer(answer: Mapping[str, Any]) -> tuple[bool, str]:
    """The verdict on a magic answer (``magic`` in it): every tour it carries, its
    certificate, and what it says (``exists``, ``status``, ``count``) against them.

    Examples
    --------
    >>> check_magic_answer({"rows": 2, "cols": 2, "magic": "semi", "squares": ["a1"]})
    (False, 'magic: 1 squares for 4')
    """
    board = _Board(answer)
    tours: list[Any] = []
    if answer.get("squares") is not None:
        tours.append(answer["squares"])
    if isinstance(answer.get("tours"), list):
        tours += answer["tours"]
    certificate = answer.get("certificate")
    if certificate is not None and not isinstance(certificate, Mapping):
        raise Malformed("invalid 'certificate': not an object")
    try:
        paths = [board.tour(t) for t in tours]
    except Rejected as err:
        return False, f"magic: {err}"
    status = {"found": True, "proven_absent": False}.get(str(answer.get("status")))
    says = answer.get("exists", status)
    if certificate is None:
        if says is False or answer.get("exact") is True:
            return False, "the answer claims no tour or a count, but carries no certificate"
        if not paths:
            return True, "nothing to check: the answer carries no tour and no certificate"
        more = f" ({len(paths)} tours, each accepted)" if len(paths) > 1 else ""
        return (
            True,
            f"magic: a verified tour of the {board.m}x{board.n} board, {board.words()}{more}",
        )
    kind = certificate.get("kind")
    try:
        why = _check(board, certificate)
    except Rejected as err:
        return False, f"{kind}: {err}"
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        return False, f"{kind}: malformed certificate ({err!r})"
    listed = certificate.get("solutions", []) if kind == "magic-refutation" else None
    if kind == "tour" and says is False:
        return False, "the answer says there is no tour, but carries one"
    if kind != "tour" and says is True and not listed:
        return False, "the answer says a tour exists, but carries a proof that none does"
    if answer.get("exact") is True and answer.get("count") != len(listed or []):
        return (
            False,
            f"the answer counts {answer.get('count')!r}, its certificate {len(listed or [])}",
        )
    if listed is not None and paths:
        known = {tuple(board.tour(s)) for s in listed}
        if any(tuple(p) not in known for p in paths):
            return False, "a tour the answer carries is not among those its certificate lists"
    return True, f"{kind}: {why}"


def check_magic_certificate(
    request: Mapping[str, Any], certificate: Mapping[str, Any]
) -> tuple[bool, str]:
    """Re-check a certificate about the magic tours of a board (``rows``, ``cols``,
    ``magic``, ``closed``); ``(accepted, why)``.

    Examples
    --------
    >>> check_magic_certificate({"rows": 5, "cols": 5, "magic": "semi"},
    ...                         {"kind": "magic-parity", "lines": ["rank 1", "rank 2"]})[0]
    True
    >>> check_magic_certificate({"rows": 4, "cols": 4, "magic": "semi"},
    ...                         {"kind": "magic-sums", "lines": "files"})
    (False, 'magic-sums: 136 / 4 = 34, a whole number')
    """
    kind = certificate.get("kind")
    try:
        return True, f"{kind}: {_check(_Board(request), certificate)}"
    except Rejected as err:
        return False, f"{kind}: {err}"
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        return False, f"{kind}: malformed certificate ({err!r})"


def _check(board: _Board, certificate: Mapping[str, Any]) -> str:
    kind = certificate.get("kind")
    if kind == "tour":
        board.tour(certificate["squares"])
        return f"a verified tour of the {board.m}x{board.n} board, {board.words()}"
    if kind == "magic-sums":
        key = certificate["lines"]
        require(key in ("ranks", "files"), f"no such lines: {key!r}")
        require(board.kind in ("semi", "full", key), f"the {board.kind} kind asks nothing of {key}")
        count = board.m if key == "ranks" else board.n
        total = board.size * (board.size + 1) // 2
        share = Fraction(total, count)
        require(share.denominator != 1, f"{total} / {count} = {share}, a whole number")
        return f"the {count} {key} share {total} equally: {share} each, not a whole number"
    if kind == "magic-parity":
        return _parity(board, certificate)
    if kind == "magic-halves":
        return _halves(board)
    require(kind == "magic-refutation", f"certificates of kind {kind!r} prove nothing here")
    listed, proof = certificate["solutions"], certificate["proof"]
    require(isinstance(listed, list) and isinstance(proof, list), "solutions and proof: lists")
    require(all(isinstance(line, str) for line in proof), "the proof holds non-text lines")
    if board.size > MAX_MAGIC_SQUARES:
        raise Malformed(f"a refutation on {board.size} squares is too large to check here")
    paths = [board.tour(s) for s in listed]
    require(len({tuple(p) for p in paths}) == len(paths), "a tour is listed twice")
    from .drup import check_drup

    accepted, why = check_drup(magic_cnf(board, paths), proof)
    require(accepted, f"the proof: {why}")
    k = len(paths)
    counted = "no such tour" if not k else f"exactly {k} tour{'s' if k > 1 else ''}"
    return f"{counted} ({board.words()}; {k} blocked, the CNF refuted; DRUP: {why})"


def _parity(board: _Board, certificate: Mapping[str, Any]) -> str:
    m, n, size = board.m, board.n, board.size
    require(m % 2 == 1 and n % 2 == 1 and size > 1, f"the {m}x{n} board has an even side")
    names = certificate["lines"]
    require(isinstance(names, list) and len(names) == 2, "two lines are named")
    lines = {name: squares for name, squares, _ in board.lines()}
    require(all(name in lines for name in names), f"the {board.kind} kind has no line {names!r}")
    majority = [sum(1 for r, c in lines[name] if (r + c) % 2 == 0) for name in names]
    require(majority[0] % 2 != majority[1] % 2, f"both lines hold {majority} such squares")
    return (
        f"a tour of the {m}x{n} board alternates colours and has {size} squares, so its odd "
        f"numbers are the {(size + 1) // 2} squares of the colour of a1; {names[0]} holds "
        f"{majority[0]}, {names[1]} {majority[1]}: their sums differ in parity"
    )


def _halves(board: _Board) -> str:
    m, n = board.m, board.n
    require(board.kind in ("semi", "full"), f"the {board.kind} kind fixes one direction only")
    require(m % 4 == 2 and n % 4 == 2, f"{m} and {n} are not both 2 more than a multiple of 4")
    half = m * n // 2
    total = half * (half + 1) // 2
    require(total % 2 == 1, f"1 + ... + {half} = {total} is even")  # cannot happen: a guard
    return (
        f"the even ranks and the even files of the {m}x{n} board would each hold half of the "
        f"total, and a knight's move changes the parity of exactly one of rank and file, so "
        f"the numbers 1 .. {half} (the even numbers halved) would split into two sets of "
        f"equal sum; their total {total} is odd"
    )
