"""The notebook of examples/ runs top to bottom, and is kept without outputs (issue 28, item 3).

``examples/tour_of_knightgraph.ipynb`` is executed with nbclient on an IPython kernel that
runs this interpreter (a kernel spec written for the test, found first on ``JUPYTER_PATH``;
the kernel's ``sys.executable`` is checked in a cell added before the notebook's own), so it
imports the knightgraph under test.  Any cell that raises fails the test.  The file itself
carries no outputs, execution counts or kernel-dependent metadata: what is in git is the
notebook as written, and Jupyter fills in the rest when it is run.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.engine_free  # the notebook of examples/

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "tour_of_knightgraph.ipynb"

SECTIONS = [
    "Open and closed tours on small boards",
    "A proof of absence, checked independently",
    "The existence table",
    "Counting and sampling",
    "A tour of 1000 x 1000",
    "Boards that are not rectangles",
]


def _stored() -> dict:
    return json.loads(NOTEBOOK.read_text(encoding="utf-8"))


def left_in(nb: dict) -> list[str]:
    """What a stored notebook should not carry: outputs, execution counts, cell metadata
    (tags, timings) and notebook metadata beyond the kernel's name and the language."""
    found = [
        f"cell {c.get('id')}: {what}"
        for c in nb["cells"]
        for what, there in [
            ("outputs", c.get("outputs")),
            ("an execution count", c.get("execution_count") is not None),
            ("metadata", c.get("metadata")),
        ]
        if there
    ]
    extra = set(nb["metadata"]) - {"kernelspec", "language_info"}
    return found + ([f"notebook metadata {sorted(extra)}"] if extra else [])


def test_the_notebook_is_stored_without_outputs() -> None:
    nb = _stored()
    assert nb["nbformat"] == 4
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    assert len([c for c in nb["cells"] if c["cell_type"] == "code"]) >= 20
    assert left_in(nb) == []


def test_the_check_sees_outputs() -> None:
    """The check can fail: a run notebook's outputs and counts are seen."""
    nb = _stored()
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code")
    cell.update(outputs=[{"output_type": "stream", "name": "stdout", "text": "1"}])
    cell.update(execution_count=1)
    nb["metadata"]["widgets"] = {}
    assert left_in(nb) == [
        f"cell {cell['id']}: outputs",
        f"cell {cell['id']}: an execution count",
        "notebook metadata ['widgets']",
    ]


def test_the_notebook_has_its_sections() -> None:
    headings = [
        line.partition(" ")[2]
        for cell in _stored()["cells"]
        if cell["cell_type"] == "markdown"
        for line in "".join(cell["source"]).splitlines()
        if line.startswith("## ")
    ]
    assert [h.partition(". ")[2] for h in headings[: len(SECTIONS)]] == SECTIONS


def _kernel_here(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel spec named ``python3`` that runs this interpreter, found before any other;
    the kernel's files (connection, IPython profile) go to ``folder`` too."""
    spec = folder / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": "Python 3 (test)", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel), encoding="utf-8")
    monkeypatch.setenv("JUPYTER_PATH", str(folder / "jupyter"))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(folder / "runtime"))
    monkeypatch.setenv("IPYTHONDIR", str(folder / "ipython"))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")


def test_the_notebook_runs_top_to_bottom(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    nbclient = pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    _kernel_here(tmp_path, monkeypatch)
    nb = nbformat.read(NOTEBOOK, as_version=4)
    check = nbformat.v4.new_code_cell("import sys\nprint(sys.executable)", id="which-python")
    nb.cells.insert(0, check)
    client = nbclient.NotebookClient(
        nb,
        kernel_name="python3",
        timeout=300,
        resources={"metadata": {"path": str(tmp_path)}},  # the notebook's folder
    )
    began = time.perf_counter()
    client.execute()  # CellExecutionError on the first cell that raises
    seconds = time.perf_counter() - began
    with capsys.disabled():
        print(f"\n{NOTEBOOK.name}: {len(nb.cells)} cells executed in {seconds:.1f} s")

    assert nb.cells[0].outputs[0]["text"].strip() == sys.executable
    outputs = {c.id: c.outputs for c in nb.cells if c.cell_type == "code"}
    assert not [o for out in outputs.values() for o in out if o["output_type"] == "error"]
    # the answers show themselves as small tables, the pictures as PNG, never walls of text
    for cell, out in outputs.items():
        for o in out:
            if o["output_type"] == "stream":
                assert len(o["text"]) < 2000, f"cell {cell}: {len(o['text'])} characters"
            html = o.get("data", {}).get("text/html", "")
            if html and not html.startswith("<iframe"):  # a Tour's page to step through
                assert len(html) < 25_000, f"cell {cell}: {len(html)} characters of HTML"

    def shown(cell: str, kind: str) -> str:
        """What ``cell`` shows as ``kind``, its white space made single spaces."""
        text = " ".join(str(o.get("data", {}).get(kind, "")) for o in outputs[cell])
        return " ".join(text.split())

    assert "FOUND" in shown("open-5x5", "text/html")
    assert "colour-count" in shown("closed-5x5", "text/html")
    assert shown("tour-page", "text/html").startswith("<iframe srcdoc=")
    assert "sat-refutation" in shown("no-4x4", "text/html")
    assert "(True, 'sat-refutation: 721 valid clauses" in shown("check", "text/plain")
    assert shown("tamper", "text/plain").count("(False, ") == 2
    assert "accepted: schwenk-4xn" in outputs["cli-check"][0]["text"]
    assert "Existence table 1..20 x 1..20" in shown("table-compute", "text/html")
    assert "(True, 'table: 400 boards, 791 proofs" in shown("table-check", "text/plain")
    assert "9,862" in shown("count-6x6", "text/html")
    assert "1,245" in shown("count-symmetric", "text/html")
    assert "1,000,000 squares" in shown("big-find", "text/html")
    assert "1,344" in shown("q4", "text/html")
    for cell in ("draw-two", "table-draw", "uniform", "big-draw", "torus-draw"):
        assert shown(cell, "image/png"), f"cell {cell} shows no picture"
