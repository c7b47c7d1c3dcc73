"""An independent tour checker and brute-force search for the tests.

Deliberately short and written without knightgraph, so that a bug in the
package cannot hide itself: every tour the package returns is checked here too.
"""

from __future__ import annotations

import itertools


def tour_defect(m, n, squares, closed=False, start=None, end=None, leaper=(1, 2), removed=()):
    """None if ``squares`` ((r, c) pairs) is a tour of the m x n board, else why not."""
    board = {(r, c) for r in range(m) for c in range(n)} - set(removed)
    squares = [tuple(s) for s in squares]
    if set(squares) != board or len(squares) != len(board):
        return "does not visit every square exactly once"
    steps = list(itertools.pairwise(squares))
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


def tour_ends(m, n, start, closed=False, leaper=(1, 2), removed=()):
    """How many tours start at ``start``, by end square: {(r, c): count}.

    Plain depth-first enumeration over bit sets, no pruning: open tours are
    directed paths from ``start``; closed ones must end a leap from it.
    """
    gone = sum(1 << (r * n + c) for r, c in removed)
    nbr = [
        sum(1 << (r * n + c) for r, c in knight_moves(m, n, i // n, i % n, leaper)) & ~gone
        for i in range(m * n)
    ]
    first = start[0] * n + start[1]
    counts = {}
    if closed and m * n - len(set(removed)) < 3:  # a cycle of a simple graph has 3 vertices
        return counts

    def go(here, free):
        if not free:
            if not closed or nbr[here] >> first & 1:
                counts[divmod(here, n)] = counts.get(divmod(here, n), 0) + 1
            return
        options = nbr[here] & free
        while options:
            low = options & -options
            options ^= low
            go(low.bit_length() - 1, free ^ low)

    go(first, ((1 << (m * n)) - 1) & ~gone ^ (1 << first))
    return counts


def reaches_all(nbr, head, free):
    """Are all the vertices of the bit set ``free`` reachable from ``head`` through free
    vertices?  (``nbr[v]``: the bit set of the neighbours of ``v``.)  Else no path from
    ``head`` covers them: the sound cut of the searches below."""
    seen, frontier = 0, nbr[head] & free
    while frontier:
        seen |= frontier
        nxt, f = 0, frontier
        while f:
            low = f & -f
            f ^= low
            nxt |= nbr[low.bit_length() - 1]
        frontier = nxt & free & ~seen
    return seen == free


def first_tour(m, n, start, moves, end=None, closed=False, stats=None):
    """The first tour a textbook recursive DFS finds, trying ``moves`` (d_rank, d_file) in order.

    ``stats``, if given, receives the textbook counters: ``placed`` squares put on
    the path after the start and ``tried`` moves examined (on the board or not).
    """
    path, seen = [start], {start}
    counts = stats if stats is not None else {}
    counts.update(placed=0, tried=0)

    def go():
        r, c = path[-1]
        if len(path) == m * n:
            last_ok = end is None or path[-1] == end
            return last_ok and (not closed or path[0] in knight_moves(m, n, r, c))
        for dr, dc in moves:
            counts["tried"] += 1
            sq = (r + dr, c + dc)
            if 0 <= sq[0] < m and 0 <= sq[1] < n and sq not in seen:
                counts["placed"] += 1
                seen.add(sq)
                path.append(sq)
                if go():
                    return True
                path.pop()
                seen.discard(sq)
        return False

    return list(path) if go() else None


def tour_exists_by_search(m, n, closed=False, start=None, end=None, leaper=(1, 2)):
    """Does the requested tour exist?  Depth-first search over bit sets, stopping at the first.

    Sound pruning only: the squares not yet visited must all be reachable from
    the head through unvisited squares (else no path covers them), and states
    (head, unvisited) that failed once are remembered.
    """
    size = m * n
    nbr = [
        sum(1 << (r * n + c) for r, c in knight_moves(m, n, i // n, i % n, leaper))
        for i in range(size)
    ]
    goal = None if end is None else end[0] * n + end[1]
    failed = set()

    def go(first, here, free):
        if not free:
            return (goal is None or here == goal) and (not closed or nbr[here] >> first & 1)
        if (here, free) in failed or not reaches_all(nbr, here, free):
            return False
        if goal is not None and not free >> goal & 1:
            return False
        options = nbr[here] & free
        while options:
            low = options & -options
            options ^= low
            if go(first, low.bit_length() - 1, free ^ low):
                return True
        failed.add((here, free))
        return False

    if closed and size < 3:
        return False
    firsts = [start[0] * n + start[1]] if start is not None else range(size)
    full = (1 << size) - 1
    for first in firsts:
        failed.clear()
        if go(first, first, full ^ (1 << first)):
            return True
    return False


def hamiltonian_exists(adj, closed=False):
    """Has the graph ``adj`` ({vertex: set of neighbours}) a Hamiltonian path (cycle)?

    Depth-first search over bit sets, onward vertices with the fewest free neighbours
    first (the order never changes the answer).  Sound cuts only: the free vertices must
    all be reachable from the head through free vertices; each free vertex needs two
    possible neighbours on the rest of the tour (the free vertices, the head, and for a
    cycle the first vertex), except that an open path may end on one vertex with a
    single one; states (head, free) that failed once are remembered.  A cycle passes
    through every vertex, so it is looked for from the first vertex only.
    """
    cells = list(adj)
    n = len(cells)
    index = {v: i for i, v in enumerate(cells)}
    nbr = [sum(1 << index[w] for w in adj[v] if w != v) for v in cells]
    if closed and n < 3:
        return False
    failed = set()

    def links_ok(first, head, free):
        around = free | 1 << head | (1 << first if closed else 0)
        ends, f = 0, free
        while f:
            low = f & -f
            f ^= low
            links = bin(nbr[low.bit_length() - 1] & around).count("1")
            if links < 2:
                ends += 1
                if closed or links == 0 or ends > 1:
                    return False
        return True

    def go(first, here, free):
        if not free:
            return not closed or bool(nbr[here] >> first & 1)
        if (here, free) in failed:
            return False
        if not reaches_all(nbr, here, free) or not links_ok(first, here, free):
            failed.add((here, free))
            return False
        onward, f = [], nbr[here] & free
        while f:
            low = f & -f
            f ^= low
            onward.append(low.bit_length() - 1)
        onward.sort(key=lambda v: bin(nbr[v] & free).count("1"))
        for v in onward:
            if go(first, v, free ^ (1 << v)):
                return True
        failed.add((here, free))
        return False

    full = (1 << n) - 1
    for first in [0] if closed else range(n):
        failed.clear()
        if go(first, first, full ^ (1 << first)):
            return True
    return False


def count_hamiltonian_from(adj, start, closed=False):
    """Directed Hamiltonian paths (closed: cycles, each direction once) of the graph ``adj``
    that start at ``start``: the counts of (head, free vertices) are memoised, so tails
    shared by many paths are counted once (a depth-first sum otherwise)."""
    cells = list(adj)
    index = {v: i for i, v in enumerate(cells)}
    nbr = [sum(1 << index[w] for w in adj[v] if w != v) for v in cells]
    first = index[start]
    memo = {}

    def go(here, free):
        if not free:
            return int(not closed or (len(cells) >= 3 and bool(nbr[here] >> first & 1)))
        if (here, free) not in memo:
            total, f = 0, nbr[here] & free
            while f:
                low = f & -f
                f ^= low
                total += go(low.bit_length() - 1, free ^ low)
            memo[here, free] = total
        return memo[here, free]

    return go(first, ((1 << len(cells)) - 1) ^ (1 << first))


def leaper_adjacency(shape, wrap=None, leaper=(1, 2)):
    """Adjacency ({cell: set of cells}) of a board of any dimension: every signed
    permutation of the leaper's steps (padded with zeros to the dimension), modulo the
    sizes of the wrapped axes (``wrap``: "rows" axis 0, "cols" axis 1, "both", None); a
    move onto its own square is dropped."""
    dims = len(shape)
    steps = tuple(leaper) + (0,) * (dims - len(leaper))
    offsets = {
        tuple(s * x for s, x in zip(signs, perm, strict=True))
        for perm in itertools.permutations(steps)
        for signs in itertools.product((1, -1), repeat=dims)
    }
    wrapped = {"rows": {0}, "cols": {1}, "both": {0, 1}, None: set()}[wrap]
    cells = list(itertools.product(*(range(s) for s in shape)))
    adj = {v: set() for v in cells}
    for v in cells:
        for d in offsets:
            w = tuple(
                (x + dx) % shape[a] if a in wrapped else x + dx
                for a, (x, dx) in enumerate(zip(v, d, strict=True))
            )
            if w in adj and w != v:
                adj[v].add(w)
                adj[w].add(v)
    return adj


def hamiltonian_sequences(adj, closed=False, start=None, end=None):
    """Every Hamiltonian path of the graph ``adj`` ({vertex: set of neighbours}) as a tuple
    of vertices, generated by plain depth-first search (no pruning), from ``start`` or,
    without one, from every vertex; closed: every Hamiltonian cycle (the closing edge
    too, three vertices at least) from ``start`` or the first vertex, once per direction.
    With ``end``, only those ending there."""
    n = len(adj)
    firsts = [start] if start is not None else ([next(iter(adj))] if closed else list(adj))
    done = object()
    for first in firsts:
        path, seen, onward = [first], {first}, [iter(adj[first])]
        while onward:  # onward[i]: the neighbours of path[i] not tried yet
            step = done
            if len(path) < n:
                for w in onward[-1]:
                    if w not in seen:
                        step = w
                        break
            elif (not closed or (n >= 3 and path[0] in adj[path[-1]])) and (
                end is None or path[-1] == end
            ):
                yield tuple(path)
            if step is done:
                onward.pop()
                seen.discard(path.pop())
            else:
                seen.add(step)
                path.append(step)
                onward.append(iter(adj[step]))
