# The README's two commands: `make run` (the main job) and `make test` (every check).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.runtime
STAMP := $(VENV)/.installed

.PHONY: run test play gui bench lint tables

# What the bot and `hog` need, pinned by the lock: `make run` and `make play` install no test tools. The
# install compiles the solver's sweep (C), so an edit of its source installs again.
$(RUNTIME): pyproject.toml requirements.lock hogengine/solver/_kernel.c
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --constraint requirements.lock --editable .
	touch $(RUNTIME)

# Everything the lock pins, test and lint tools too.
$(STAMP): $(RUNTIME)
	$(BIN)/python -m pip install -q -r requirements.lock
	touch $(STAMP)

run: $(RUNTIME)
	$(BIN)/python -m bot

play: $(RUNTIME)
	$(BIN)/hog play

# Hog in the browser (`hog gui`): a server on 127.0.0.1 that opens the page; Ctrl-C stops it.
gui: $(RUNTIME)
	$(BIN)/hog gui

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The suite on a worker per core (at most four, tests/conftest.py), a test file's tests in one worker.
test: lint
	$(BIN)/pytest -n auto --dist loadfile

# Every benchmark runs, under a line naming it, whatever an earlier one found; the exit status says whether
# any missed a target.
bench: $(STAMP)
	status=0; for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || status=1; done; exit $$status

# The best tables shipped in hogengine/solver/tables, made anew where the rules or solver code they came
# from has changed (a test fails until they are).
tables: $(RUNTIME)
	$(BIN)/python -m hogengine.solver.shipped
