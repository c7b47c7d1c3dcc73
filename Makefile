# knightgraph: every target creates or refreshes the local .venv itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-test
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: demo test test-all bench lint clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
	touch $@

$(DEVSTAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test,dev]"
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

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
