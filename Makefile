# knightgraph: every target creates or refreshes the local .venv itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-test
DEVSTAMP := $(VENV)/.installed-dev
DOCSTAMP := $(VENV)/.installed-docs

# make fuzz: random command lines and API calls against the contract (FUZZ_CASES of each),
# then the hostile generators (FUZZ_CASES in-process cases each, FUZZ_CASES/50 + 1 with processes).
FUZZ_CASES ?= 5000
CONTRACT_TESTS := tests/test_contract_cli.py tests/test_contract_api.py
# Hostile conditions (files, special files, signals, checkpoint corruption, malformed
# certificates): their generated cases are the tests named test_fuzz_*.
HOSTILE_TESTS := $(wildcard tests/test_hostile_*.py)

.PHONY: demo build test test-all test-fallback fuzz check-compiled ci bench lint docs clean

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
	@echo
	@echo "knightgraph is installed in $(VENV): run $(BIN)/knightgraph --help,"
	@echo "or put it on your PATH for this shell with: . $(BIN)/activate"

# The sdist and the wheel, into dist/ (the C kernels are optional: without a C
# compiler the install uses the plain-Python loops; tests/test_install.py checks it).
build: $(STAMP)
	$(BIN)/python -m build --outdir dist .

test: $(STAMP)
	$(BIN)/python -m pytest -m "not slow" -q

test-all: $(STAMP)
	$(BIN)/python -m pytest -q

# The same suite with the compiled code switched off: the plain-Python twins must agree.
# Tests marked engine_free (the examples and pages, the notebook, the install without a C
# compiler, the browser pages) ask nothing of the engine: they run once, in make test.
test-fallback: $(STAMP)
	KNIGHTGRAPH_KERNELS=python $(BIN)/python -m pytest -m "not slow and not engine_free" -q

# Hostile-input contract suites, exploring freely (hypothesis profile "fuzz", not
# derandomized): FUZZ_CASES command lines and FUZZ_CASES API calls; the counts are
# printed at the end ("contract cases: ...").  make fuzz FUZZ_CASES=20000 for more.
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz KNIGHTGRAPH_FUZZ_CLI_CASES=$(FUZZ_CASES) \
	KNIGHTGRAPH_FUZZ_API_CASES=$(FUZZ_CASES) \
	$(BIN)/python -m pytest -q -p no:cacheprovider -k "cli_contract or api_contract" $(CONTRACT_TESTS)
	HYPOTHESIS_PROFILE=fuzz KNIGHTGRAPH_FUZZ_HOSTILE_CASES=$(FUZZ_CASES) \
	KNIGHTGRAPH_FUZZ_PROCESS_CASES=$$(( $(FUZZ_CASES) / 50 + 1 )) \
	$(BIN)/python -m pytest -q -p no:cacheprovider -k fuzz $(HOSTILE_TESTS)

# Fails when a C compiler works here but the compiled extensions are missing or stale.
check-compiled: $(STAMP)
	$(BIN)/python scripts/check_compiled.py

# What CI runs (.ci/run).
ci:
	sh .ci/run

bench: $(STAMP)
	@for f in benchmarks/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

lint: $(DEVSTAMP)
	$(BIN)/ruff check knightgraph tests benchmarks examples conftest.py
	$(BIN)/mypy knightgraph

# The documentation site (mkdocs-material + mkdocstrings) into site/; any warning fails.
docs: $(DOCSTAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) build dist site *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
