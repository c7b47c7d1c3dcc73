"""mkdocs hook: replace ``<!-- knightgraph-help: WORDS -->`` by ``knightgraph WORDS --help``.

The command-line reference is thus always the parser's own text.
"""

from __future__ import annotations

import contextlib
import io
import re
from typing import Any

PATTERN = re.compile(r"<!-- knightgraph-help:\s*([a-z ]*?)\s*-->")


def _help(words: str) -> str:
    from knightgraph.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main([*words.split(), "--help"])
    text = out.getvalue()
    if not text.startswith("usage:"):  # a misspelt command must fail the build, not vanish
        raise ValueError(f"knightgraph {words} --help printed no help")
    return f"```text\n$ knightgraph {words + ' ' if words else ''}--help\n{text.rstrip()}\n```"


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return PATTERN.sub(lambda m: _help(m.group(1)), markdown)
