"""Pieces of the answers that the rectangle and graph routes of ``tour`` and ``exists``
share: the ABORTED result of a command its backstop stopped, the reason ``exists`` gives."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..tours.results import SearchResult


def stopped_result(args: argparse.Namespace, reason: str) -> SearchResult:
    """The ABORTED result of a command stopped by its backstop (see
    :func:`~knightgraph.cli._running._answer_when_time_is_up`)."""
    from ..tours.results import SearchResult, Status

    method = getattr(args, "method", "")
    return SearchResult(Status.ABORTED, method=method, reason=reason)


def exists_reason(result: SearchResult) -> str:
    if result.tour is not None:
        return f"a tour was found by {result.method} and verified"
    if result.certificate is not None:
        return result.certificate.reason
    return f"undecided: {result.reason}"
