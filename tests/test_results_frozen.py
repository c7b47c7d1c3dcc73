"""Every result type is frozen (issue 25, build point 3): built complete, never changed
after it is made (``dataclasses.replace`` makes a changed copy), and still pickled
whole (results cross to worker processes and back)."""

from __future__ import annotations

import dataclasses
import pickle

import networkx as nx
import pytest

import knightgraph as kg
from knightgraph.boards.graphboard import GraphBoard
from knightgraph.counting.symmetry import count_symmetric
from knightgraph.explore.sweeps import sweep


def _graph():
    return GraphBoard.from_networkx(nx.cycle_graph(5))


# (name, how to make one, an attribute the type has)
RESULTS = [
    ("SearchResult", lambda: kg.find_tour(5, 5), "seconds"),
    ("SearchResult aborted", lambda: kg.SearchResult(kg.Status.ABORTED, reason="x"), "reason"),
    ("SearchResult graph", lambda: kg.find_tour(_graph(), closed=True), "method"),
    ("Certificate", lambda: kg.find_tour(3, 3).certificate, "reason"),
    ("CountResult", lambda: kg.count_tours(3, 4), "directed"),
    ("CountResult graph", lambda: kg.count_tours(_graph(), closed=True), "undirected"),
    ("SymmetryCount", lambda: count_symmetric(3, 4), "total"),
    ("SampleResult", lambda: kg.sample_tours(3, 4, k=2, seed=1), "tours"),
    ("SampleResult graph", lambda: kg.sample_tours(_graph(), k=1, closed=True), "directed"),
    ("TourMap", lambda: kg.start_map(3, 4, counts=False), "ok"),
    ("TourMap graph", lambda: kg.start_map(_graph(), closed=True), "evidence"),
    ("SweepResult", lambda: sweep(3, 4), "seconds"),
    ("ExistenceTable", lambda: kg.existence_table(2, 3), "cells"),
    ("Cell", lambda: kg.existence_table(2, 3).cells[(1, 1)], "code"),
    ("Verdict", lambda: kg.closed_tour_exists(8, 8), "reason"),
]


@pytest.mark.parametrize(("what", "make", "attribute"), RESULTS, ids=[r[0] for r in RESULTS])
def test_a_result_refuses_attribute_assignment(what, make, attribute):
    result = make()
    assert dataclasses.is_dataclass(result), what
    assert hasattr(result, attribute)
    before = repr(result)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(result, attribute, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(result, attribute)
    assert repr(result) == before


@pytest.mark.parametrize(("what", "make", "attribute"), RESULTS, ids=[r[0] for r in RESULTS])
def test_a_result_pickles_whole(what, make, attribute):
    result = make()
    again = pickle.loads(pickle.dumps(result))
    assert type(again) is type(result)
    assert repr(again) == repr(result)
    if hasattr(result, "to_dict"):
        seconds = {"seconds": None}
        assert {**again.to_dict(), **seconds} == {**result.to_dict(), **seconds}
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(again, attribute, None)


def test_a_changed_copy_is_made_with_replace():
    result = kg.find_tour(5, 5, method="backtrack", start="a1")
    copy = dataclasses.replace(result, method="other", seconds=1.5)
    assert (copy.method, copy.seconds, copy.tour) == ("other", 1.5, result.tour)
    assert result.method == "backtrack"
    absent = kg.find_tour(3, 3)
    assert dataclasses.replace(absent, seconds=2.0).reason == absent.reason


def test_a_certificate_gives_its_reason_to_a_result_built_without_one():
    cert = kg.find_tour(3, 3).certificate
    result = kg.SearchResult(kg.Status.PROVEN_ABSENT, certificate=cert)
    assert result.reason == cert.reason
    told = kg.SearchResult(kg.Status.PROVEN_ABSENT, certificate=cert, reason="mine")
    assert told.reason == "mine"
