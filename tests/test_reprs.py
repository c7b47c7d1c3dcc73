"""What the answers show in Jupyter (issue 28, item 3): ``_repr_html_`` is a compact table
or a small grid, never a wall of text.

Each answer's HTML is read back with :mod:`html.parser`: its fields (the first table, name
and value) and the cells of its grids, so the tests check what a reader sees (the numbers,
the marks, the colours), that large answers stay short, and that text is escaped.
"""

from __future__ import annotations

from html.parser import HTMLParser

import networkx as nx
import pytest

import knightgraph as kg
from knightgraph.boards.topology import topology_board
from knightgraph.counting.symmetry import count_symmetric
from knightgraph.explore.table import CODE_COLOURS, Cell, ExistenceTable
from knightgraph.explore.tourmap import MAP_COLOURS
from knightgraph.tours.htmlrepr import GRID_LIMIT, grid_table

SHORT = 3000
"""The most characters of an answer without a grid (a million squares included)."""


class _Reader(HTMLParser):
    """The fields of the first table and the cells of every grid, as a reader sees them."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self.grids: list[list[tuple[str, str]]] = []  # per grid: (text, background) per cell
        self.captions: list[str] = []
        self.tags: list[str] = []
        self._tables = 0
        self._in: list[str] = []  # open table kinds: "fields" or "grid"
        self._cell: tuple[str, str] | None = None  # (tag, style)
        self._text: list[str] = []
        self._name = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        a = dict(attrs)
        if tag == "table":
            self._tables += 1
            grid = a.get("class") == "knightgraph-grid"
            self._in.append("grid" if grid else "fields" if self._tables == 1 else "other")
            if grid:
                self.grids.append([])
        elif tag in ("td", "th", "caption"):
            self._cell, self._text = (tag, a.get("style") or ""), []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._in.pop()
        elif tag in ("td", "th", "caption") and self._cell is not None:
            text = "".join(self._text).strip()
            kind, style = self._cell
            self._cell = None
            where = self._in[-1] if self._in else ""
            if kind == "caption":
                self.captions.append(text)
            elif where == "fields" and kind == "th":
                self._name = text
            elif where == "fields":
                self.fields[self._name] = text
            elif where == "grid" and kind == "td":
                colour = style.partition("background-color:")[2]
                self.grids[-1].append((text, colour))

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._text.append(data)


def read(answer: object) -> tuple[str, _Reader]:
    html = answer._repr_html_()  # type: ignore[attr-defined]
    assert isinstance(html, str) and html.startswith('<div class="knightgraph-repr">')
    reader = _Reader()
    reader.feed(html)
    reader.close()
    assert "script" not in reader.tags
    return html, reader


def test_the_reader_reads_fields_and_grids() -> None:
    """The checks can fail: the reader sees every field and every cell, with its colour."""
    reader = _Reader()
    reader.feed(
        '<div class="knightgraph-repr"><table><tr><th>a</th><td>1</td></tr></table>'
        + (grid_table([[("x", "#123456"), ("", None)]], [1], ["a", "b"]) or "")
        + "</div>"
    )
    assert reader.fields == {"a": "1"}
    assert reader.grids == [[("x", "#123456"), ("", "")]]


# ------------------------------------------------------------------ searches


def test_a_found_tour_shows_its_numbered_board() -> None:
    res = kg.find_tour(6, 6, closed=True, start="a1", seed=0)
    html, r = read(res)
    assert r.fields["status"] == "FOUND"
    assert r.fields["method"] == res.method
    assert (
        r.fields["tour"]
        == "closed tour of Board(6, 6), 36 squares: a1 ... " + (res.tour.algebraic()[-1])
    )
    (grid,) = r.grids
    numbers = [int(text) for text, _ in grid]
    assert sorted(numbers) == list(range(1, 37))
    # rank 6 first, a1 (the start, 1) in the bottom left corner, dark
    assert numbers == res.tour.numbered()[::-1].ravel().tolist()
    assert grid[30] == ("1", "#d4b08c")
    assert len(html) < 4000


def test_a_tour_of_a_million_squares_is_one_line() -> None:
    html, r = read(kg.find_tour(1000, 1000, closed=True))
    assert "1,000,000 squares: a1" in r.fields["tour"]
    assert r.grids == []
    assert len(html) < SHORT


def test_a_torus_tour_is_numbered_and_a_graph_tour_listed() -> None:
    res = kg.find_tour(topology_board(3, 4, wrap="both"), closed=True, start="a1")
    _, r = read(res)
    (grid,) = r.grids
    assert sorted(int(t) for t, _ in grid) == list(range(1, 13))
    assert grid[8][0] == "1"  # a1: rank 1 is the last row
    _, r = read(kg.find_tour(nx.path_graph(5), start=0))
    assert r.grids == [] and r.fields["visits"] == "0 1 2 3 4"


def test_a_proof_of_absence_shows_its_certificate_by_size() -> None:
    res = kg.find_tour(3, 8, closed=True)  # a SAT refutation: its CNF and DRUP proof in data
    cert = res.certificate
    html, r = read(res)
    assert r.fields["status"] == "PROVEN_ABSENT"
    assert r.fields["certificate kind"] == "sat-refutation"
    assert r.fields["certificate reason"] == cert.reason
    assert f"cnf: {len(cert.data['cnf']):,} items" in r.fields["certificate data"]
    assert f"proof: {len(cert.data['proof']):,} items" in r.fields["certificate data"]
    assert len(html) < SHORT
    html, r = read(cert)
    assert r.fields["kind"] == "sat-refutation" and len(html) < SHORT
    _, r = read(kg.find_tour(7, 7, closed=True))
    assert r.fields["certificate data"] == "clause='closed-needs-balance', counts=[25, 24]"


def test_an_aborted_search_says_why_and_text_is_escaped() -> None:
    res = kg.SearchResult(kg.Status.ABORTED, reason="<script>alert(1)</script> & more")
    html, r = read(res)
    assert r.fields["status"] == "ABORTED"
    assert r.fields["reason"] == "<script>alert(1)</script> & more"  # shown as text
    assert "<script>" not in html and "&lt;script&gt;" in html
    long = kg.SearchResult(kg.Status.ABORTED, reason="x" * 10_000)
    html, r = read(long)
    assert r.fields["reason"].endswith("...") and len(html) < SHORT


# ------------------------------------------------------------------ the existence table


def test_the_existence_table_is_a_coloured_grid() -> None:
    table = kg.existence_table(5, 6)
    _, r = read(table)
    (grid,) = r.grids
    assert [text for text, _ in grid] == [code for row in table.codes for code in row]
    assert all(colour == CODE_COLOURS[text] for text, colour in grid)
    assert grid[-1] == ("c", CODE_COLOURS["c"])  # 5x6 has a closed tour
    assert grid[4 * 6 + 4][0] == "e"  # 5x5: the board minus a corner
    tally = {code: sum(row.count(code) for row in table.codes) for code in "ceox"}
    assert tally == {"c": 1, "e": 1, "o": 6, "x": 22}
    assert "closed tour: 1," in r.fields["boards"] and "no tour: 22" in r.fields["boards"]
    assert r.fields["disagreements"] == "none"
    kinds = table.to_dict()["certificates"]
    assert r.fields["evidence"] == ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))


def test_a_table_past_the_grid_limit_shows_its_tally() -> None:
    rows = cols = 60  # made by hand: only the codes are read
    cells = {
        (m, n): Cell(m, n, "c" if m * n % 2 == 0 else "x", {}, [])
        for m in range(1, 61)
        for n in range(1, 61)
    }
    html, r = read(ExistenceTable(rows, cols, cells, 1.0))
    assert r.grids == [] and len(html) < SHORT
    assert "closed tour: 2,700" in r.fields["boards"] and "no tour: 900" in r.fields["boards"]
    assert "draw_existence_table" in r.fields["grid"]


def test_the_colours_are_the_pictures_colours() -> None:
    from knightgraph.draw import TABLE_COLOURS

    assert CODE_COLOURS == TABLE_COLOURS


# ------------------------------------------------------------------ maps


def test_a_start_map_shows_counts_on_the_board() -> None:
    m = kg.start_map(5, 5)
    _, r = read(m)
    assert r.fields["answer"] == "13 of 25 start squares admit an open tour, 12 do not"
    assert r.fields["evidence"] == "colour-count 12, tour 13"
    (grid,) = r.grids
    assert [t for t, _ in grid[:5]] == ["304", "0", "56", "0", "304"]  # rank 5
    assert grid[12] == ("64", MAP_COLOURS["."]) and grid[1][1] == MAP_COLOURS["X"]
    assert sum(int(t) for t, _ in grid) == 1728  # every directed open tour of 5x5


def test_an_end_map_marks_its_start_and_removed_squares() -> None:
    _, r = read(kg.end_map(kg.Board(3, 4, removed=["c2"]), start="a1", counts=False))
    (grid,) = r.grids
    assert grid[8] == ("S", MAP_COLOURS["S"])
    assert grid[4 + 2] == ("", MAP_COLOURS[" "])  # c2, removed
    assert {t for t, _ in grid} <= {"S", "", ".", "X"}
    assert "from a1" in r.fields["answer"]


def test_maps_of_graph_boards() -> None:
    _, r = read(kg.start_map(topology_board(2, 3, levels=2)))  # 3-D: the levels side by side
    assert r.captions == ["level 1", "level 2"] and [len(g) for g in r.grids] == [6, 6]
    _, r = read(kg.end_map(nx.path_graph(4), start=0))  # no shape: the cells by name
    assert r.grids == [] and r.fields["ends"] == "3"
    assert r.fields["answer"] == "1 of 3 end vertices admit an open tour from 0, 2 do not"


def test_large_maps_stay_short() -> None:
    html, r = read(kg.start_map(4, 150, closed=True))  # settled by Schwenk's partition
    assert r.grids == [] and len(html) < SHORT
    assert r.fields["answer"] == "0 of 600 start squares admit a closed tour, 600 do not"
    html, r = read(kg.start_map(40, 41, sample=3, seed=1))
    assert r.grids == [] and len(html) < SHORT
    assert r.fields["starts"] == "ad7 r29 g39" and r.fields["sampled"] == "seed 1"


# ------------------------------------------------------------------ counts and samples


def test_a_count_shows_both_counts() -> None:
    html, r = read(kg.count_tours(6, 6, closed=True))
    assert r.fields["directed"] == "19,724" and r.fields["undirected"] == "9,862"
    assert r.fields["board"] == "Board(6, 6)" and r.fields["tours"] == "closed"
    assert r.fields["status"] == "FOUND" and len(html) < SHORT
    _, r = read(kg.count_tours(5, 5, start="a1"))
    assert r.fields["start"] == "a1" and r.fields["directed"] == "304"
    assert "undirected" not in r.fields  # none with a fixed start


def test_a_count_of_nothing_and_a_stopped_count() -> None:
    _, r = read(kg.count_tours(4, 5, closed=True))
    assert r.fields["status"] == "PROVEN_ABSENT"
    assert r.fields["certificate"].startswith("schwenk-4xn: Schwenk (1991)")
    _, r = read(kg.count_tours(5, 6, closed=True, timeout=0))
    assert r.fields["status"] == "ABORTED" and "directed" not in r.fields
    assert r.fields["reason"].startswith("counting stopped at the timeout")


def test_a_count_up_to_symmetry() -> None:
    _, r = read(count_symmetric(3, 10, closed=True))
    assert (r.fields["undirected"], r.fields["classes"]) == ("16", "6")
    assert r.fields["fixed by"] == "identity 16, rot180 4, flip_ranks 0, flip_files 4"


def test_a_sample_shows_its_first_tours() -> None:
    res = kg.sample_tours(5, 6, k=6, closed=True, seed=0)
    html, r = read(res)
    assert r.fields["drawn"] == "6 of 16 directed tours, each equally likely (seed 0)"
    assert r.captions == ["tour 1", "tour 2", "tour 3", "tour 4"]
    for grid, tour in zip(r.grids, res.tours, strict=False):
        assert [int(t) for t, _ in grid] == tour.numbered()[::-1].ravel().tolist()
    assert "first 4" in r.fields["shown"] and len(html) < 8000
    _, r = read(kg.sample_tours(nx.dodecahedral_graph(), k=2, closed=True, seed=3))
    assert r.grids == [] and r.fields["tour 1"].endswith("(20 in all)")
    _, r = read(kg.sample_tours(4, 4, k=1))
    assert r.fields["drawn"] == "none: there is no tour to draw"


@pytest.mark.parametrize("cells", [GRID_LIMIT, GRID_LIMIT + 1])
def test_grids_stop_at_the_limit(cells: int) -> None:
    grid = grid_table([[("1", None)] * cells], [1], range(cells))
    assert (grid is None) == (cells > GRID_LIMIT)
