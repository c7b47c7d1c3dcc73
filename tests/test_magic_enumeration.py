"""The exhaustive search for magic numberings (issue 27, A328816): its compiled and
Python versions place the same paths and list the same numberings; its lists agree with
brute force written here and with OEIS A328816; each numbering is checked by the tests'
own code; the count by search keeps its budget and never says "no" without a proof."""

from __future__ import annotations

import pytest
from independent import tour_defect
from test_magic import all_paths, brute_force_counts, line_sums

from knightgraph.exceptions import InvalidOptionError
from knightgraph.magic import count_magic_tours
from knightgraph.magic import enumeration as en
from knightgraph.running.budget import Budget

COMPILED = en._compiled() is not None


def listed(m: int, n: int, kind: str, closed: bool, run: object) -> tuple[list, int]:
    """Every numbering from every start with the search function ``run``, and the paths
    it placed."""
    return listed_with(en.MagicSearch(m, n, kind), closed, run, 5000)


def check_numbering(m: int, n: int, kind: str, order: list[int], closed: bool = False) -> None:
    squares = [divmod(s, n) for s in order]
    assert tour_defect(m, n, squares, closed=closed) is None
    sums = line_sums(m, n, squares)
    size = m * n
    if kind in ("ranks", "semi"):
        assert sums["ranks"] == {n * (size + 1) // 2}
    if kind in ("files", "semi"):
        assert sums["files"] == {m * (size + 1) // 2}


@pytest.mark.skipif(not COMPILED, reason="the compiled kernels are not built")
@pytest.mark.parametrize(
    ("m", "n", "kind", "closed"),
    [(3, 4, "ranks", False), (4, 6, "files", False), (4, 6, "semi", False),
     (3, 8, "ranks", False), (3, 8, "ranks", True), (2, 4, "semi", False)],
)  # fmt: skip
def test_the_compiled_search_follows_the_python_one(m, n, kind, closed):
    compiled = en._compiled()
    assert listed(m, n, kind, closed, compiled) == listed(m, n, kind, closed, en.magic_dfs_python)


@pytest.mark.parametrize(("m", "n"), [(3, 4), (2, 4), (3, 6)])
def test_every_kind_agrees_with_brute_force(m, n):
    brute = brute_force_counts(m, n)
    for kind in ("ranks", "files", "semi"):
        found = list(en.magic_numberings(m, n, kind, False, Budget()))
        assert len(found) == len(set(map(tuple, found))) == brute[kind], kind
        for order in found:
            check_numbering(m, n, kind, order)


def test_three_by_eight_ranks_by_search_and_by_brute_force():
    answer = count_magic_tours(3, 8, kind="ranks", method="search")
    assert answer.exact and answer.count == 32 == brute_force_counts(3, 8)["ranks"]
    assert answer.certificate is None and answer.status.name == "FOUND"
    for tour in answer.tours:
        check_numbering(3, 8, "ranks", [r * 8 + c for r, c in tour.squares()])


def test_a_board_with_none_still_gets_its_refutation():
    answer = count_magic_tours(3, 4, kind="ranks", method="search")
    assert answer.exact and answer.count == 0 == brute_force_counts(3, 4)["ranks"]
    assert answer.certificate is not None and answer.certificate.kind == "magic-refutation"


def test_the_certified_count_lists_by_search_first_and_still_proves():
    answer = count_magic_tours(3, 4, kind="ranks")
    assert answer.exact and answer.certificate.kind == "magic-refutation"
    assert answer.stats["search"]["complete"] and answer.stats["rounds"] == 1


@pytest.mark.skipif(not COMPILED, reason="4 x 8 takes minutes in Python")
def test_a328816_four_by_eight_by_search():
    """A328816(4) = 16 tours of 4 x 8 with every file at 66, up to the board's four
    symmetries (none symmetric): 64 numberings."""
    answer = count_magic_tours(4, 8, kind="files", method="search")
    assert answer.exact and answer.count == 64
    for tour in answer.tours:
        check_numbering(4, 8, "files", [r * 8 + c for r, c in tour.squares()])


def test_a_search_stops_at_its_timeout_and_its_limit():
    stopped = count_magic_tours(4, 10, kind="files", method="search", timeout=0.2)
    assert stopped.status.name == "ABORTED" and not stopped.exact and "timeout" in stopped.reason
    assert stopped.seconds < 2
    some = count_magic_tours(3, 8, kind="ranks", method="search", limit=3)
    assert some.status.name == "FOUND" and len(some.tours) == 3 and not some.exact


def test_a_bad_method_is_refused():
    with pytest.raises(InvalidOptionError, match="invalid method 'dfs'"):
        count_magic_tours(4, 8, kind="files", method="dfs")


@pytest.mark.slow
def test_a328816_four_by_ten_by_search():
    """A328816(5) = 104, up to the four symmetries: 416 numberings."""
    answer = count_magic_tours(4, 10, kind="files", method="search")
    assert answer.exact and answer.count == 416
    for tour in answer.tours:
        check_numbering(4, 10, "files", [r * 10 + c for r, c in tour.squares()])


@pytest.mark.parametrize(
    ("m", "n", "kind", "closed"),
    [
        (3, 4, "semi", False),
        (3, 4, "ranks", False),
        (2, 3, "files", False),
        pytest.param(5, 5, "full", False, marks=pytest.mark.slow),  # minutes in Python
        pytest.param(3, 10, "ranks", True, marks=pytest.mark.slow),
    ],
)
def test_the_search_lists_exactly_the_paths_with_given_line_sums(m, n, kind, closed):
    """Magic numberings are rare, so the lines' goals are set to the sums of real paths
    (closed ones too, the diagonals of 5 x 5 too: make test-all): the search must list
    exactly the paths with those sums, found here by brute force, whichever search runs
    (the Python one on the small boards)."""
    from knightgraph.magic.rules import magic_lines

    paths = all_paths(m, n, closed)
    lines = [squares for _, squares in magic_lines(m, n, kind)]

    def sums(order: list[int]) -> tuple[int, ...]:
        number = {s: k for k, s in enumerate(order, 1)}
        return tuple(sum(number[s] for s in line) for line in lines)

    for goal in sorted({sums(p) for p in paths})[:3]:
        want = sorted(p for p in paths if sums(p) == goal)
        runs = [en.magic_dfs_python] if m * n <= 12 or not COMPILED else []
        for run in runs + ([en._compiled()] if COMPILED else []):
            search = en.MagicSearch(m, n, kind)
            search.goal[:] = goal
            got, _ = listed_with(search, closed, run)
            assert sorted(got) == want, (goal, run)


def listed_with(
    search: en.MagicSearch, closed: bool, run: object, chunk: int = 7
) -> tuple[list, int]:
    """The numberings of ``search`` (whose goals a test may have set) from every start, by
    ``run`` in calls of ``chunk`` placements, and the paths placed."""
    out, placed = [], 0
    for first in range(search.total):
        search.start(first)
        if search.open_after(first, 1):
            while True:
                status = run(search, closed, chunk)
                placed += int(search.counters[1])
                search.counters[1] = 0
                if status == en.DFS_FOUND:
                    out.append(search.path.tolist())
                elif status == en.DFS_EXHAUSTED:
                    break
        search.place(first, 1, -1)
    return out, placed


def test_edges_of_the_search(monkeypatch):
    """Review findings: the one-square board has an open tour and no closed one; a limit
    reached ends the count without the solver; a board with none past PROOF_SQUARES is
    "unknown" at once; a bad kind is refused and an impossible sum searches nothing."""
    import knightgraph.magic.solving as solving

    assert count_magic_tours(1, 1, kind="full", closed=True).count == 0
    assert count_magic_tours(1, 1, kind="full", method="search").count == 1
    some = count_magic_tours(3, 8, kind="ranks", limit=2)
    assert len(some.tours) == 2 and some.stats["rounds"] == 0 and not some.exact
    with pytest.raises(InvalidOptionError, match="diagonals need a square board"):
        list(en.magic_numberings(3, 4, "full", False, Budget()))
    stats: dict = {}
    assert list(en.magic_numberings(3, 10, "files", False, Budget(), stats=stats)) == []
    assert stats["placed"] == 0 and stats["complete"]  # 3 x 31 / 2 is not whole
    monkeypatch.setattr(solving, "PROOF_SQUARES", 8)
    unknown = count_magic_tours(3, 4, kind="ranks", method="search")
    assert unknown.status.name == "ABORTED" and "no certificate" in unknown.reason
