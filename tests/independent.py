"""An independent tour checker and brute-force search for the tests.

Deliberately short and written without knightgraph, so that a bug in the
package cannot hide itself: every tour the package returns is checked here too.
"""

from __future__ import annotations


def tour_defect(m, n, squares, closed=False, start=None, end=None, leaper=(1, 2), removed=()):
    """None if ``squares`` ((r, c) pairs) is a tour of the m x n board, else why not."""
    board = {(r, c) for r in range(m) for c in range(n)} - set(removed)
    squares = [tuple(s) for s in squares]
    if set(squares) != board or len(squares) != len(board):
        return "does not visit every square exactly once"
    steps = list(zip(squares, squares[1:]))
    if closed:
        steps.append((squares[-1], squares[0]))
    for (a, b), (c, d) in steps:
        if sorted((abs(a - c), abs(b - d))) != sorted(leaper):
            return f"{(a, b)} -> {(c, d)} is not a leap"
    if start is not None and squares[0] != tuple(start):
        return "wrong start"
    if end is not None and squares[-1] != tuple(end):
        return "wrong end"
    return None


def knight_moves(m, n, r, c, leaper=(1, 2)):
    a, b = leaper
    deltas = {(x, y) for x, y in [(a, b), (b, a)] for x, y in [(x, y), (-x, y), (x, -y), (-x, -y)]}
    return [(r + x, c + y) for x, y in sorted(deltas) if 0 <= r + x < m and 0 <= c + y < n]


def all_tours(m, n, start, closed=False):
    """Every open (or closed) tour from ``start`` by plain recursion (small boards only)."""
    total, path, seen, out = m * n, [start], {start}, []

    def go():
        if len(path) == total:
            if not closed or path[0] in knight_moves(m, n, *path[-1]):
                out.append(list(path))
            return
        for sq in knight_moves(m, n, *path[-1]):
            if sq not in seen:
                seen.add(sq)
                path.append(sq)
                go()
                path.pop()
                seen.discard(sq)

    go()
    return out
