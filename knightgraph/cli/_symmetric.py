"""``--symmetric rot180|rot90|mirror`` (``tour``, ``exists``, ``count``) and ``count
--by-symmetry``: the flags, their checks before any work, and their answers.

A symmetric request is for a whole rectangle (no ``--start``, ``--end``, ``--wrap``,
``--levels``, ``--graph``); ``tour`` takes ``--method auto|sat|divide`` and no strategy
options; ``count`` counts the undirected tours the symmetry maps onto themselves.  JSON
answers carry ``"symmetric"``, so that ``python -m knightgraph.certcheck`` checks the
tour's symmetry, or each case of a "no" (:mod:`knightgraph.certcheck.symmetric`).
"""

from __future__ import annotations

import argparse
from typing import Any

from ._shared import METHOD_FLAGS, UsageError

KINDS = ("rot180", "rot90", "mirror")
_STRATEGY_FLAGS = {**METHOD_FLAGS, "seed": "--seed"}


def add_symmetric(p: argparse.ArgumentParser, *, classes: bool = False) -> None:
    """``--symmetric KIND``; with ``classes``, ``--by-symmetry`` too (``count``)."""
    p.add_argument(
        "--symmetric",
        choices=KINDS,
        help="a tour the half turn, the quarter turn or a reflection maps onto itself",
    )
    if classes:
        p.add_argument(
            "--by-symmetry",
            action="store_true",
            help="also count the classes of tours by symmetry type (quaternary, binary, ...)",
        )


def check_symmetric(args: argparse.Namespace, board: Any) -> None:
    """UsageError, before any work, for what a symmetric request cannot take."""
    from ..exceptions import InvalidOptionError
    from ..proofs.symmetric import symmetry_elements

    wanted = [f for f in ("symmetric", "by_symmetry") if getattr(args, f, None)]
    if not wanted:
        return
    flag = "--" + wanted[0].replace("_", "-")
    if len(wanted) == 2:
        raise UsageError("--symmetric and --by-symmetry are two counts: give one")
    shaped = [getattr(args, k, None) is not None for k in ("wrap", "levels", "graph")]
    if any(shaped):
        raise UsageError(f"{flag} is for rectangular boards, not --wrap, --levels or --graph")
    start = getattr(args, "start", None) is not None
    if getattr(args, "end", None) is not None or (start and not (args.closed and args.symmetric)):
        raise UsageError(
            f"{flag} asks for whole tours: no --end, and --start for closed tours only"
        )
    if start and args.command == "count":
        raise UsageError(f"{flag} counts whole tours: leave out --start")
    if args.command == "count":
        for key, name in (("list", "--list"), ("parts", "--parts"), ("checkpoint", "--checkpoint")):
            if getattr(args, key, None) is not None:
                raise UsageError(f"{name} does not apply to {flag}")
        if args.symmetry or args.convention != "oeis" or args.workers or args.dask:
            raise UsageError(
                f"--symmetry, --convention knuth, --workers and --dask do not apply to {flag}"
            )
    if args.command == "tour":
        if args.method not in ("auto", "sat", "divide"):
            raise UsageError(
                f"--symmetric works with --method auto, sat or divide, not {args.method}"
            )
        for key, name in _STRATEGY_FLAGS.items():
            if getattr(args, key, None) not in (None, False):
                raise UsageError(f"{name} does not apply to --symmetric")
    if args.symmetric and board is not None:
        try:
            symmetry_elements(board, args.symmetric)
        except InvalidOptionError as err:
            raise UsageError(
                str(err).replace("invalid symmetric '", "invalid --symmetric '")
            ) from None


def symmetric_search(args: argparse.Namespace, board: Any, seconds: float | None) -> Any:
    """The symmetric tour of ``tour`` and ``exists`` (methods auto for ``exists``)."""
    from ..solvers.symmetric import find_symmetric

    return find_symmetric(
        board,
        args.symmetric,
        closed=args.closed,
        method=getattr(args, "method", "auto"),
        timeout=seconds,
        limit=getattr(args, "limit", None),
        start=args.start,
    )


def symmetric_exists_answer(
    args: argparse.Namespace, board: Any, result: Any, found: Any
) -> dict[str, Any]:
    """``exists --symmetric``'s JSON: the request, the verdict and its evidence."""
    from ._replies import exists_reason, exists_verdict

    reason = exists_reason(result)
    out: dict[str, Any] = {
        "rows": board.m,
        "cols": board.n,
        "closed": args.closed,
        "symmetric": args.symmetric,
        "start": None if args.start is None else board.name(board.parse_square(args.start)),
        "end": None,
        "exists": exists_verdict(result),
        "reason": reason,
        "certificate": None,
    }
    if result.tour is not None:
        out["certificate"] = {"kind": "tour", "reason": reason, **found(result.method, result.tour)}
        out["symmetry"] = result.stats.get("symmetry")
    elif result.certificate is not None:
        out["certificate"] = result.certificate.to_dict()
    return {**out, **board.checker_fields()}


def symmetric_exists_text(args: argparse.Namespace, board: Any, result: Any) -> str:
    """``exists --symmetric``'s line."""
    from ._replies import exists_reason, exists_verdict

    verdict = {True: "exists", False: "does not exist", None: "unknown"}[exists_verdict(result)]
    kind = "closed" if args.closed else "open"
    what = f"{kind} tour of {board.m}x{board.n} fixed by {args.symmetric}"
    if result.tour is not None and args.symmetric == "mirror":
        what += f" ({result.stats.get('symmetry')})"
    return f"{what}: {verdict} ({exists_reason(result)})"


def symmetric_count(args: argparse.Namespace, board: Any, seconds: float | None) -> tuple[Any, str]:
    """``count --symmetric`` or ``--by-symmetry``: the result and its text."""
    kind = "closed" if args.closed else "open"
    if args.symmetric:
        from ..counting.symclasses import count_fixed

        fixed = count_fixed(board, symmetric=args.symmetric, closed=args.closed, timeout=seconds)
        if fixed.undirected is None:
            return fixed, ""
        text = (
            f"{kind} tours on {board.m}x{board.n} fixed by {args.symmetric}: "
            f"{fixed.directed:,} directed, {fixed.undirected:,} undirected ({fixed.seconds:.2f} s)"
        )
        if args.symmetric == "mirror":
            text += " (" + ", ".join(f"{k} {v:,}" for k, v in (fixed.fixed or {}).items()) + ")"
        return fixed, text
    from ..counting.symclasses import symmetry_classes

    classes = symmetry_classes(board, closed=args.closed, timeout=seconds)
    if classes.types is None or classes.total is None:
        return classes, ""
    types = ", ".join(f"{v:,} {k}" for k, v in classes.types.items()) or "none"
    directed = classes.total * (2 if args.closed or board.num_squares > 1 else 1)
    text = (
        f"{kind} tours on {board.m}x{board.n}: {directed:,} directed, "
        f"{classes.total:,} undirected ({classes.seconds:.2f} s)\n"
        f"classes by symmetry: {types}; {classes.classes:,} in all"
    )
    return classes, text
