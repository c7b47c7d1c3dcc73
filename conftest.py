"""Shared pytest configuration: hypothesis profiles, the contract-case counter, doctests.

Hypothesis profiles (``HYPOTHESIS_PROFILE``):

``default``
    What ``make test`` runs: derandomized (the same examples on every run and every
    machine) and no example database, so that a run passes or fails by the code
    alone, never by chance.
``thorough``
    More examples, still derandomized.
``fuzz``
    What ``make fuzz`` runs: random exploration, many examples, failures printed
    with a ``@reproduce_failure`` blob and kept in ``.hypothesis/``.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=500,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "fuzz",
    derandomize=False,
    deadline=None,
    max_examples=int(os.environ.get("HYPOTHESIS_MAX_EXAMPLES", "1000")),
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

_CONTRACT_CASES: Counter[str] = Counter()


@pytest.fixture(scope="session")
def contract_counter() -> Counter[str]:
    """Counts the cases the contract suites ran (printed at the end of the session)."""
    return _CONTRACT_CASES


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _CONTRACT_CASES:
        counts = ", ".join(f"{k} {v:,}" for k, v in sorted(_CONTRACT_CASES.items()))
        profile = os.environ.get("HYPOTHESIS_PROFILE", "default")
        terminalreporter.write_line(f"contract cases (profile {profile}): {counts}")


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace: dict[str, object]) -> None:
    import knightgraph

    doctest_namespace["kg"] = knightgraph
