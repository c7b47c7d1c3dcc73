# knightgraph: every target creates or refreshes the local .venv itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-test
DEVSTAMP := $(VENV)/.installed-dev
DOCSTAMP := $(VENV)/.installed-docs

.PHONY: demo test test-all bench lint docs clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
	touch $@

$(DEVSTAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test,dev]"
	touch $@

$(DOCSTAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test,docs]"
	touch $@

demo: $(STAMP)
	$(BIN)/knightgraph tour 8 8 --closed --format board

test: $(STAMP)
	$(BIN)/python -m pytest -m "not slow" -q

test-all: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	@for f in benchmarks/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

lint: $(DEVSTAMP)
	$(BIN)/ruff check knightgraph tests benchmarks examples conftest.py
	$(BIN)/mypy knightgraph

# The documentation site (mkdocs-material + mkdocstrings) into site/; any warning fails.
docs: $(DOCSTAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) build site *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
