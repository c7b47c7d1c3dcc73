"""The architecture, checked: layers without upward arrows or cycles, modules of one size.

Every module of the package is read (not imported) and every import it makes,
at module level or inside a function, is resolved to a module of the package.
Each module belongs to a layer; an import may only point to the same layer or
one below, and no group of modules may import one another in a circle.  The
layers, bottom up, are those of the architecture page (docs/architecture.md).

One order differs from issue 13's list: ``verify`` sits below ``tour``.  A
:class:`~knightgraph.Tour` is a verified tour, so building one runs the
verifier; the verifier reads any sequence of squares and needs no Tour (it
recognises one by its ``order``, and names one by :class:`~knightgraph.tours.verify.TourBase`),
so the arrow can only point from tour down to verify.  ``results`` sits above the tours it
carries.  Imports made for annotations only (``if TYPE_CHECKING:``) count like any other:
a circle of types is a circle of modules to the reader.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "knightgraph"

LAYERS: list[tuple[str, ...]] = [
    ("exceptions", "_version"),
    ("running",),  # budgets, memory, workers, executors, the disk, the compiled libraries
    ("boards",),  # squares, boards of every kind, their knight graphs
    ("tours",),  # the verifier, Tour, stored block tours, results
    ("certcheck",),  # the independent checkers (standard library, the DRUP checker)
    ("proofs",),  # theorems, forced moves, certificates (re-checked by certcheck)
    ("solvers",),
    ("counting",),
    ("explore",),
    ("puzzles",),  # knight's-tour number puzzles: their encoding, solving, making
    ("magic",),  # magic tours: the sums' rules, their encoding, finding and counting
    ("io",),  # the formats of answers, tour files
    ("draw",),
    ("cli", "__main__"),
    ("",),  # the package itself: knightgraph/__init__.py may name anything
]
"""Layers, bottom up, by the first part of the module's name below ``knightgraph``."""

MAX_LINES = 520
"""About 500 lines: past this a module is doing two jobs."""

KNOWN_LONG: dict[str, str] = {
    "boards.board": "the rectangle's side of the one board protocol: one class, one job",
}
"""Modules past :data:`MAX_LINES`, each with its reason: the size is a guide for people, not a
cap that decides where a file splits (issue 25).  The list is exact: a module that gets short
enough must leave it too."""


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _layer(module: str) -> int:
    head = module.split(".")[0]
    for i, names in enumerate(LAYERS):
        if head in names:
            return i
    raise AssertionError(f"module {module!r} has no layer: add it to LAYERS")


def _resolve(name: str) -> str | None:
    """The package module an imported name lives in (the longest known prefix)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in MODULES:
            return candidate
        parts.pop()
    return "" if name == "" else None


def imports(module: str) -> set[str]:
    """Every module of the package that ``module`` imports, anywhere in its text."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):  # ``if TYPE_CHECKING:`` imports included: no circle hides there
        names: list[str] = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[: len(base) - node.level + 1]
                root = ".".join([*base, node.module] if node.module else base)
            elif node.module and node.module.split(".")[0] == "knightgraph":
                root = node.module.removeprefix("knightgraph").lstrip(".")
            else:
                continue
            for alias in node.names:  # ``from .x import y``: the module x.y, or else x
                sub = f"{root}.{alias.name}".lstrip(".")
                names.append(sub if sub in MODULES else root)
        elif isinstance(node, ast.Import):
            names = [
                a.name.removeprefix("knightgraph").lstrip(".")
                for a in node.names
                if a.name.split(".")[0] == "knightgraph"
            ]
        for name in names:
            target = _resolve(name)
            if target is not None and target != module:
                found.add(target)
    return found


def _arrows() -> list[tuple[str, str]]:
    return sorted((m, t) for m in MODULES for t in imports(m))


PACKAGE_LAYERS: dict[str, list[tuple[str, ...]]] = {
    "running": [
        ("native", "resources", "workers", "budget", "disk", "collector"),  # one job each
        ("parallel",),  # the executors, over the workers
        ("child",),  # one piece of work in a process of its own, killed at the timeout
    ],
    "boards": [
        ("squares", "arrays", "csr", "graphboard"),  # names, arrays, CSR adjacency, graph boards
        ("board",),  # the rectangle with removed squares
        ("coercion",),  # the board of an entry point's arguments, any kind
        ("topology",),  # tori, cylinders, 3-D boards (graph boards built from a Board)
        ("masks", "nxgraph"),  # boards from pictures; the networkx knight graph
    ],
    "tours": [
        ("presenters", "verifyfast", "blocktour"),
        ("verify",),  # below tour: a Tour is verified when it is built (see the docstring)
        ("tour",),
        ("htmlrepr",),  # the compact HTML of every answer in a notebook (of tours, too)
        ("results",),  # above the tours it carries
    ],
    "certcheck": [
        ("drup", "adjacency"),
        ("checker",),
        ("summaries", "digraphs", "puzzles", "symmetric"),  # maps, tables; directed; puzzles; sym.
        ("magic",),  # magic tours (their refutations rebuild the puzzles' tour clauses)
        ("answers",),
        ("__main__",),
    ],
    "proofs": [("theorems", "forcing", "symmetric"), ("certificates",)],
    "io": [
        ("tourfiles", "graphtext"),  # tour files; graph files' line formats (HCP, DIMACS, ...)
        ("formats", "graphfiles"),  # answers' formats; every graph file format
        ("puzzlefiles",),  # puzzle files and answers (their grids are numbered boards)
    ],
    "cli": [
        ("_watchdog",),  # the signal watchdog
        ("_shared",),  # the shared flags, checks and the search
        ("_replies", "_graphs"),  # pieces of answers; graph boards of --graph, --wrap, --levels
        ("_kinds", "_running", "_symmetric"),  # the board the flags name; running; --symmetric
        ("magic",),  # --magic of tour and exists (search hands those commands to it)
        ("surveys", "random_tours", "search", "pictures", "puzzles"),  # the commands
        ("__main__",),
    ],
    "counting": [
        ("limits", "checkpoint", "zeros", "residues"),  # results, checkpoints, zeros, moduli
        ("enumeration", "estimate", "plan"),  # the plan of a count and its estimate
        ("compiled", "python_engine"),  # the engines
        ("vertexorder", "split", "transitions", "halves"),  # graphs, parts, sampling, halves
        ("middleparts",),  # the parts of a count in the middle
        ("middle",),  # counts that meet in the middle
        ("count", "sample", "symmetry"),  # what users call
        ("symclasses",),  # classes by symmetry type; tours one symmetry fixes
    ],
    "draw": [
        ("_style",),
        ("graphplot", "output", "scaling", "shapeplot", "tableplot", "puzzleplot"),
        ("tourplot", "page"),  # draw_tour hands a graph board's tour to shapeplot
        ("animation", "play"),  # the play page fills the tour page's template
    ],
    "explore": [("_chunks",), ("tourmap",), ("sweeps", "table", "maps")],
    "puzzles": [("model",), ("encoding",), ("solving",), ("making",)],
    "magic": [("rules",), ("encoding", "quartets", "enumeration"), ("forms",), ("solving",)],
    "solvers": [
        ("options", "moves", "clauses", "follow", "gate", "problem", "automorphisms", "patching"),
        ("base", "cnf", "kernels"),  # the registry and the one gate; the encoding; C loops
        ("_dfs", "_walk", "codes", "incremental"),  # what strategies are built of
        ("symsat",),  # tours fixed by a symmetry, by SAT
        ("_oracle", "blockpaths", "blocks", "pathsat", "sat", "warnsdorff"),
        ("backtracking", "joins", "corridor", "fourranks", "strips", "divide"),
        ("symbuild",),  # symmetric closed tours of large squares (a pinwheel of blocks)
        ("auto", "methods", "classic"),  # the orchestrators; the seed exercise
        ("directed",),  # directed graphs, through their split graph, over find_tour
        ("symmetric",),  # symmetric tours: theorems, the pinwheel, SAT; over auto
        ("hamiltonian",),  # the networkx-style entry points, over find_tour
    ],
}
"""The order of the modules inside each package, bottom up: a module imports only from its
own row or the rows below (no circle inside a row: :func:`test_no_cycles`)."""


def test_modules_inside_each_package_keep_their_order() -> None:
    rows = {
        f"{package}.{name}": i
        for package, layers in PACKAGE_LAYERS.items()
        for i, names in enumerate(layers)
        for name in names
    }
    missing = [
        m for m in MODULES if "." in m and m.split(".")[0] in PACKAGE_LAYERS and m not in rows
    ]
    assert not missing, f"modules without a row in PACKAGE_LAYERS: {missing}"
    upward = [
        f"{m} (row {rows[m]}) imports {t} (row {rows[t]})"
        for m, t in _arrows()
        if m in rows and t in rows and m.split(".")[0] == t.split(".")[0] and rows[t] > rows[m]
    ]
    assert not upward, "imports pointing up inside a package:\n" + "\n".join(upward)


def test_every_module_has_a_layer() -> None:
    for module in MODULES:
        _layer(module)


def test_no_import_points_up() -> None:
    upward = [
        f"{m} (layer {_layer(m)}) imports {t} (layer {_layer(t)})"
        for m, t in _arrows()
        if _layer(t) > _layer(m)
    ]
    assert not upward, "imports pointing up the layers:\n" + "\n".join(upward)


def test_no_cycles() -> None:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for m, t in _arrows():
        if t and m:  # the package's own __init__ is the top: it may name anything
            graph[m].add(t)
    cycles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                cycles.append(" -> ".join([*stack[stack.index(t) :], t]))
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_modules_hold_one_job() -> None:
    lines = {m: len(p.read_text(encoding="utf-8").splitlines()) for m, p in MODULES.items()}
    long = {m for m, k in lines.items() if k > MAX_LINES}
    new = [f"{MODULES[m]}: {lines[m]} lines" for m in sorted(long - set(KNOWN_LONG))]
    assert not new, f"modules past {MAX_LINES} lines:\n" + "\n".join(new)
    short = set(KNOWN_LONG) - long
    assert not short, f"now short enough, remove from KNOWN_LONG: {short}"


STRATEGIES = {
    "solvers.auto",
    "solvers.backtracking",
    "solvers.divide",
    "solvers.methods",
    "solvers.sat",
    "solvers.warnsdorff",
}
ORCHESTRATORS = {"solvers.auto", "solvers.methods"}
"""``auto`` runs the strategies; ``methods`` composes a public method of strategies (``divide``:
the construction, then ``auto``).  Only these may import strategies."""
KNOWN_STRATEGY_ARROWS: set[tuple[str, str]] = set()
"""Strategies that still import another strategy (issue 13); exact, it only shrinks."""


def test_strategies_never_import_one_another() -> None:
    """Only the orchestrators do; the others share what they need through lower modules."""
    arrows = {(m, t) for m, t in _arrows() if m in STRATEGIES - ORCHESTRATORS and t in STRATEGIES}
    new = sorted(arrows - KNOWN_STRATEGY_ARROWS)
    assert not new, f"strategies importing strategies: {new}"
    assert not KNOWN_STRATEGY_ARROWS - arrows, (
        f"fixed, remove from KNOWN_STRATEGY_ARROWS: {KNOWN_STRATEGY_ARROWS - arrows}"
    )
    assert ("solvers.auto", "solvers.methods") not in arrows | set(_arrows())  # no way back


REGISTRY_LOOKUPS = {"get_solver", "solver_info", "available_methods", "_LOADED", "_BUILTIN"}
"""What reaches a strategy by its name (the registry) or by a module string (importlib)."""


def registry_lookups(module: str) -> set[str]:
    """The registry look-ups and module-string imports in ``module``'s text: names used,
    attributes read and names imported."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.ImportFrom):
            found.update(a.name for a in node.names)
            found.add(node.module or "")
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found & (REGISTRY_LOOKUPS | {"importlib", "import_module", "__import__"})


def test_no_strategy_reaches_another_by_name() -> None:
    """The registry maps public names to functions for callers (``find_tour``, the command
    line); inside the solvers package only the registry itself (``base``) and the front
    door (``solvers/__init__``) look a method up by name.  A strategy that reached ``auto``
    through the registry (``divide`` handing its leftovers on) would be an import circle
    that :func:`test_no_cycles` cannot see."""
    lookups = [
        f"{m} uses {', '.join(sorted(names))}"
        for m in MODULES
        if m.startswith("solvers.") and m != "solvers.base"
        for names in [registry_lookups(m)]
        if names
    ]
    assert not lookups, "strategies reaching strategies by name:\n" + "\n".join(lookups)


def test_the_lookup_check_sees_lookups() -> None:
    """The check can fail: the registry's own look-ups are seen."""
    assert {"get_solver", "importlib", "_BUILTIN"} <= registry_lookups("solvers.base")
    assert "get_solver" in registry_lookups("solvers")


def test_the_walker_sees_lazy_imports() -> None:
    """The check can fail: a function-level import is an arrow like any other."""
    assert any(t.split(".")[0] == "draw" for t in imports("cli.pictures"))


def _private_imports(module: str, source: str | None = None) -> list[tuple[str, str]]:
    """The ``(module, name)`` pairs of private names (a leading underscore) that
    ``module`` imports from other modules of the package (relative imports and
    ``knightgraph.*`` ones), read from ``source`` (default: the module's file)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    text = path.read_text(encoding="utf-8") if source is None else source
    found = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package.split(".") if package else []
            base = base[: len(base) - node.level + 1]
            root = ".".join([*base, node.module] if node.module else base)
        elif (node.module or "").split(".")[0] == "knightgraph":
            root = (node.module or "").partition(".")[2]
        else:
            continue
        found += [(root, a.name) for a in node.names if a.name.startswith("_")]
    return found


def _package(module: str) -> str:
    """The package a module belongs to: ``solvers`` for ``solvers.sat`` and for
    ``solvers`` itself, ``""`` for the modules at the top (``board``, ``tour``)."""
    inside = "." in module or (module != "" and MODULES[module].name == "__init__.py")
    return module.split(".")[0] if inside else ""


def test_private_names_stay_in_their_package() -> None:
    """A name with a leading underscore is private to its package (``solvers/``,
    ``counting/``, ...): its sibling modules may share it, no other package may use it.
    (A private *module*, such as ``solvers/_dfs.py``, is private to its package too.)"""
    crossing = []
    for module in MODULES:
        home = _package(module)
        for root, name in _private_imports(module):
            target = _resolve(f"{root}.{name}") or _resolve(root) or root
            where = _package(target) if target in MODULES else ""
            dunder = name.startswith("__") and name.endswith("__")
            if where != home and not dunder and target != "_version":
                crossing.append(f"{module} imports {name} from {target}")
    assert not crossing, "private names used outside their package:\n" + "\n".join(crossing)


def test_the_private_check_sees_private_names() -> None:
    """The check can fail: private names shared inside a package are seen (and allowed)."""
    seen = _private_imports("solvers.backtracking", "from ._dfs import _Search, Abort\n")
    assert seen == [("solvers._dfs", "_Search")]
    seen = _private_imports("explore.maps", "from knightgraph.explore._chunks import _map\n")
    assert seen == [("explore._chunks", "_map")]
    assert _package("solvers.sat") == _package("solvers") == "solvers" != _package("exceptions")


ALLOWED_PRIVATE_IMPORTS: dict[tuple[str, str, str], str] = {}
"""The private names (a leading underscore, not a dunder) still imported from another
module of the package, as ``(importer, module, name)``, each with its one-line reason:
at most 10 (issue 25).  Exact: an entry whose import is gone must leave the list.  A
shared name is made public in its module instead (a private *module*, such as
``solvers/_dfs.py``, keeps its names public inside it)."""

MAX_PRIVATE_IMPORTS = 10


def _private_imports_across_modules() -> list[tuple[str, str, str]]:
    """Every import of a private name from another module, once per ``import`` line."""
    return [
        (module, root, name)
        for module in MODULES
        for root, name in _private_imports(module)
        if not (name.startswith("__") and name.endswith("__"))
    ]


def test_no_private_names_imported_across_modules() -> None:
    """Modules share public names (issue 25): no ``from .x import _y`` beyond the
    listed exceptions, each with its reason."""
    assert len(ALLOWED_PRIVATE_IMPORTS) <= MAX_PRIVATE_IMPORTS
    found = _private_imports_across_modules()
    unlisted = [entry for entry in found if entry not in ALLOWED_PRIVATE_IMPORTS]
    listed = "\n".join(
        f"{importer} imports {name} from {module}: {reason}"
        for (importer, module, name), reason in sorted(ALLOWED_PRIVATE_IMPORTS.items())
    )
    assert not unlisted, (
        f"{len(found)} imports of private names across modules (allowed: at most "
        f"{len(ALLOWED_PRIVATE_IMPORTS)}, each with a reason); not allowed:\n"
        + "\n".join(f"{i} imports {n} from {m}" for i, m, n in unlisted)
        + f"\nallowed:\n{listed or '(none)'}"
    )
    stale = set(ALLOWED_PRIVATE_IMPORTS) - set(found)
    assert not stale, f"no longer imported, remove from ALLOWED_PRIVATE_IMPORTS: {sorted(stale)}"


def test_c_sources_hold_one_job() -> None:
    """The compiled code follows the same rule: one job a file, about 500 lines."""
    sources = sorted([*PACKAGE.glob("*.c"), *PACKAGE.glob("*.h")])
    assert {p.name for p in sources} >= {"_kernels.c", "_verify.c", "_drup.c", "_count.c"}
    long = [
        f"{p.name}: {n} lines"
        for p in sources
        if (n := len(p.read_text().splitlines())) > MAX_LINES
    ]
    assert not long, f"C files past {MAX_LINES} lines:\n" + "\n".join(long)
