"""A behaviour corpus of the command line: record it, then check a change against it.

Before a change that must keep behaviour (a refactoring), record what every command line
of the corpus prints; after it, check that stdout, the first line of stderr, the exit code
and the files written are the same, byte for byte once timings are masked::

    .venv/bin/python benchmarks/corpus.py record      # writes benchmarks/corpus/recorded.jsonl
    .venv/bin/python benchmarks/corpus.py check       # exit 0 when every line behaves the same
    .venv/bin/python benchmarks/corpus.py list        # the command lines, one a line

The command lines are built by :func:`command_lines` (every command, every board kind,
every format, exit codes 0/1/2/3); each runs as a whole process, ``python -m knightgraph``,
in a fresh temporary folder holding a few input files (:data:`INPUTS`), with no terminal.
Timings are masked (:func:`mask`); a line whose output differs between two recordings
(a budget that stops at a different node, a random seed the line does not fix) keeps only
its exit code and its masked first stderr line: ``record`` runs the corpus twice to find them.
Files written with ``-o``/``--proof`` are compared by their SHA-256 (text and .npy) or by
being there and not empty (pictures, whose bytes carry library versions and dates).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORDED = HERE / "corpus" / "recorded.jsonl"
TIMEOUT = 120.0

INPUTS = {
    "tour5.txt": "a1 b3 a5 c4 b2 a4 c5 e4 d2 b1 c3 d1 e3 d5 b4 a2 c1 e2 d4 b5 a3 c2 e1 d3 e5\n",
    "bad5.txt": "a1 b3 a5 c4 b2 a4 c5 e4 d2 b1 c3 d1 e3 d5 b4 a2 c1 e2 d4 b5 a3 c2 e1 e5 d3\n",
    "short.txt": "a1 b3\n",
    "junk.txt": "this is not a tour\n",
    "classic.txt": "5 5\na1\ne5\n",
    "classic_nf.txt": "4 4\na1\nd4\n",
    "mask.txt": "..#..\n.....\n.....\n.....\n..#..\n",
    "ring.txt": "......\n......\n..##..\n..##..\n......\n......\n",
}
"""Input files laid in each line's folder."""

PICTURES = (".png", ".gif", ".pdf", ".svg", ".html")


def command_lines() -> list[list[str]]:
    """The corpus: argument vectors for ``python -m knightgraph`` (deterministic)."""
    lines: list[list[str]] = []

    def add(*words: str) -> None:
        lines.append(list(words))

    boards = [
        [],
        ["--remove", "a1"],
        ["--remove", "c3", "--remove", "b1"],
        ["--leaper", "1,3"],
        ["--leaper", "2,3"],
        ["--wrap", "rows"],
        ["--wrap", "cols"],
        ["--wrap", "both"],
        ["--levels", "2"],
        ["--levels", "3"],
    ]
    sizes = [("1", "1"), ("3", "4"), ("4", "4"), ("5", "5"), ("3", "8"), ("6", "6"), ("4", "5")]
    for board in boards:
        for m, n in sizes:
            for kind in ([], ["--closed"]):
                add("tour", m, n, *board, *kind, "--format", "json", "--timeout", "20")
    for fmt in ("squares", "board", "json"):
        for m, n in (("5", "5"), ("8", "8"), ("7", "9"), ("4", "4")):
            add("tour", m, n, "--format", fmt)
            add("tour", m, n, "--closed", "--format", fmt)
    for method in ("backtrack", "warnsdorff", "sat", "divide", "auto"):
        for m, n in (("5", "5"), ("6", "6"), ("8", "8"), ("3", "4")):
            add("tour", m, n, "--method", method, "--seed", "1", "--format", "json",
                "--timeout", "20")
    for start, end in (("a1", None), ("c3", None), ("a1", "e5"), ("b1", "e5"), ("c3", "a1")):
        extra = ["--end", end] if end else []
        add("tour", "5", "5", "--start", start, *extra)
        add("tour", "6", "6", "--start", start, *extra, "--format", "json")
    add("tour", "8", "8", "--closed", "--start", "d4", "--format", "board")
    add("tour", "31", "29", "--start", "a1", "--format", "json")
    add("tour", "100", "100", "--closed", "--format", "npy", "-o", "big.npy")
    add("tour", "60", "60", "--format", "squares", "-o", "t.txt")
    add("tour", "6", "6", "--method", "backtrack", "--moves",
        "-2,1;-1,2;1,2;2,1;2,-1;1,-2;-1,-2;-2,-1")
    add("tour", "6", "6", "--method", "backtrack", "--prune")
    add("tour", "8", "8", "--method", "warnsdorff", "--rule", "squirrel")
    add("tour", "12", "12", "--method", "backtrack", "--limit", "50")
    add("tour", "30", "30", "--closed", "--method", "backtrack", "--timeout", "0.2")
    add("tour", "5", "5", "--mask", "mask.txt", "--format", "json")
    add("tour", "6", "6", "--mask", "ring.txt", "--closed", "--format", "json")
    add("tour", "4", "26", "--start", "f2", "--format", "json")
    add("tour", "3", "8", "--closed")
    add("tour", "3", "8", "--closed", "--proof", "p.drup", "--method", "sat")
    # bad input (exit 2)
    for words in (
        ["tour", "0", "8"], ["tour", "8", "-1"], ["tour", "x", "8"], ["tour", "8", "8", "--start", "z9"],
        ["tour", "8", "8", "--start", "a1", "--end", "a1"], ["tour", "8", "8", "--moves", "1,1"],
        ["tour", "8", "8", "--leaper", "0,0"], ["tour", "8", "8", "--remove", "q99"],
        ["tour", "8", "8", "--timeout", "-1"], ["tour", "8", "8", "--method", "nope"],
        ["tour", "8", "8", "--format", "xml"], ["tour", "8", "8", "-o", "no/such/folder/x"],
        ["tour", "8", "8", "--wrap", "torus"], ["tour", "8", "8", "--levels", "0"],
        ["tour", "8", "8", "--mask", "missing.txt"], ["exists", "8"], ["count", "8", "8", "--parts", "0"],
        ["table", "0"], ["verify", "5", "5", "missing.txt"], ["sweep", "5", "5", "--method", "x"],
        ["starts", "5", "5", "--workers", "0"], ["count", "5", "5", "--dask", "nowhere"],
        ["sample", "5", "5", "-k", "0"], ["sample", "9", "9", "-k", "1"], ["draw"], ["frobnicate"],
        [], ["--version", "extra"], ["tour", "8", "8", "--closed", "--open"],
    ):
        add(*words)
    # exists
    for board in boards[:8]:
        for m, n in (("3", "4"), ("4", "4"), ("5", "5"), ("7", "7"), ("4", "6"), ("3", "3")):
            for kind in ([], ["--closed"]):
                add("exists", m, n, *board, *kind, "--format", "json")
    for m, n in (("3", "4"), ("4", "4"), ("5", "5"), ("7", "7"), ("4", "6"), ("1", "1")):
        add("exists", m, n, "--closed")
        add("exists", m, n)
    add("exists", "5", "5", "--start", "b1")
    add("exists", "5", "5", "--start", "a1", "--end", "e5", "--format", "json")
    add("exists", "3", "8", "--closed", "--proof", "q.drup")
    # table
    for words in (["4"], ["5", "6"], ["6", "--format", "json"], ["3", "7"]):
        add("table", *words)
    # verify
    for words in (
        ["5", "5", "tour5.txt"], ["5", "5", "bad5.txt"], ["5", "5", "short.txt"],
        ["5", "5", "junk.txt"], ["5", "5", "tour5.txt", "--closed"],
        ["5", "5", "tour5.txt", "--start", "a1"], ["5", "5", "tour5.txt", "--end", "a1"],
        ["6", "6", "tour5.txt"],
    ):
        add("verify", *words)
    # sweep
    for words in (
        ["5", "5"], ["5", "5", "--method", "warnsdorff", "--format", "json"],
        ["6", "6", "--closed", "--method", "warnsdorff"], ["4", "4", "--format", "json"],
        ["5", "5", "--method", "warnsdorff", "--rule", "squirrel"],
    ):
        add("sweep", *words)
    # classic
    add("classic", "classic.txt")
    add("classic", "classic_nf.txt")
    add("classic", "junk.txt")
    # count
    for words in (
        ["5", "5"], ["5", "5", "--closed"], ["6", "6", "--closed"], ["5", "6", "--closed"],
        ["5", "5", "--start", "a1"], ["5", "5", "--start", "a1", "--end", "e5"],
        ["6", "6", "--closed", "--symmetry"], ["5", "5", "--symmetry"],
        ["5", "5", "--list", "3", "--format", "json"], ["5", "5", "--convention", "knuth"],
        ["6", "6", "--closed", "--parts", "4"], ["6", "6", "--closed", "--format", "json"],
        ["4", "5"], ["3", "4", "--format", "json"], ["1", "1"], ["1", "1", "--closed"],
        ["3", "4", "--wrap", "both"], ["3", "3", "--levels", "2", "--closed"],
        ["5", "5", "--remove", "c3"], ["5", "5", "--leaper", "1,3"], ["4", "4", "--wrap", "rows"],
        ["6", "6", "--closed", "--workers", "2", "--parts", "4"],
    ):
        add("count", *words)
    # starts / ends
    for words in (
        ["starts", "5", "5"], ["starts", "5", "5", "--format", "json"], ["starts", "6", "6", "--closed"],
        ["starts", "4", "4"], ["starts", "5", "5", "--remove", "c3"], ["starts", "4", "4", "--wrap", "both"],
        ["starts", "3", "3", "--levels", "2"], ["ends", "5", "5", "--start", "a1"],
        ["ends", "5", "5", "--start", "c3", "--format", "json"], ["ends", "6", "6", "--start", "a1"],
        ["ends", "5", "5", "--start", "b1"], ["starts", "5", "5", "--workers", "2"],
    ):
        add(*words)
    # sample
    for words in (
        ["5", "5", "-k", "3", "--seed", "1"], ["5", "5", "-k", "2", "--seed", "2", "--format", "json"],
        ["6", "6", "--closed", "-k", "2", "--seed", "3"], ["5", "5", "--start", "a1", "-k", "2", "--seed", "4"],
        ["4", "4", "-k", "1", "--seed", "1"], ["4", "4", "--wrap", "both", "-k", "1", "--seed", "1"],
    ):
        add("sample", *words)
    # draw
    for words in (
        ["tour", "6", "6", "-o", "t.svg"], ["tour", "5", "5", "-o", "t.html"],
        ["graph", "5", "5", "-o", "g.svg"], ["table", "4", "-o", "tb.svg"],
        ["file", "5", "5", "tour5.txt", "-o", "f.svg"], ["tour", "6", "6", "-o", "t.xyz"],
    ):
        add("draw", *words)
    add("--version")
    return lines


def mask(text: str) -> str:
    """``text`` with its timings and the engine's name replaced by placeholders."""
    text = re.sub(r'"seconds": -?[0-9.e+-]+', '"seconds": T', text)
    text = re.sub(r"\b\d+(\.\d+)? ?(ms|s)\b", "T s", text)
    text = re.sub(r'"(elapsed|time|wall)": -?[0-9.e+-]+', r'"\1": T', text)
    return text


def run_line(words: list[str], python: str) -> dict[str, object]:
    """Run one command line in a fresh folder: what it printed and wrote."""
    with tempfile.TemporaryDirectory() as folder:
        for name, content in INPUTS.items():
            Path(folder, name).write_text(content, encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if not k.startswith("KNIGHTGRAPH_")}
        env["COLUMNS"] = "80"
        try:
            done = subprocess.run(
                [python, "-m", "knightgraph", *words], cwd=folder, env=env,
                capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL,
            )
            code, out, err = done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired:
            code, out, err = -1, b"", b"corpus: timed out"
        files = {}
        for path in sorted(Path(folder).iterdir()):
            if path.name in INPUTS:
                continue
            data = path.read_bytes()
            files[path.name] = (
                bool(data) if path.suffix in PICTURES else hashlib.sha256(data).hexdigest()
            )
    first = err.decode("utf-8", "replace").splitlines()[:1]
    return {
        "argv": words,
        "exit": code,
        "stdout": mask(out.decode("utf-8", "replace")),
        "stderr1": mask(first[0]) if first else "",
        "files": files,
    }


def run_all(python: str, jobs: int, lines: list[list[str]] | None = None) -> list[dict[str, object]]:
    lines = command_lines() if lines is None else lines
    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(lambda w: run_line(w, os.path.abspath(python)), lines))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("record", "check", "list"))
    parser.add_argument("--python", default=sys.executable, help="the interpreter to run")
    parser.add_argument("--jobs", type=int, default=2, help="lines run at once")
    parser.add_argument(
        "--only", metavar="TEXT", default=None,
        help="check only the lines whose words contain TEXT (a quick check of one area)",
    )
    args = parser.parse_args(argv)
    if args.action == "list":
        for words in command_lines():
            print(" ".join(words))
        return 0
    if args.action == "record":
        first = run_all(args.python, args.jobs)
        second = run_all(args.python, args.jobs)
        RECORDED.parent.mkdir(exist_ok=True)
        unstable = 0
        with open(RECORDED, "w", encoding="utf-8") as f:
            for a, b in zip(first, second, strict=True):
                a["stable"] = a == b
                unstable += not a["stable"]
                f.write(json.dumps(a, sort_keys=True) + "\n")
        codes = sorted({int(str(a["exit"])) for a in first})
        print(f"recorded {len(first)} lines ({unstable} unstable: exit code and stderr only); "
              f"exit codes seen: {codes}")
        return 0
    recorded = [json.loads(line) for line in RECORDED.read_text(encoding="utf-8").splitlines()]
    if [r["argv"] for r in recorded] != command_lines():
        print("the corpus's command lines changed since it was recorded: record it again")
        return 2
    if args.only is not None:
        recorded = [r for r in recorded if args.only in " ".join(r["argv"])]
    now = run_all(args.python, args.jobs, [r["argv"] for r in recorded])
    differ = 0
    for old, new in zip(recorded, now, strict=True):
        keys = ("exit", "stderr1") if not old["stable"] else ("exit", "stdout", "stderr1", "files")
        bad = [k for k in keys if old[k] != new[k]]
        if bad:
            differ += 1
            print(f"DIFFERS ({', '.join(bad)}): knightgraph {' '.join(old['argv'])}")
            for k in bad:
                print(f"  was: {str(old[k])[:300]!r}\n  now: {str(new[k])[:300]!r}")
    print(f"{len(now) - differ} of {len(now)} lines behave as recorded")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
