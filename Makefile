# The README's two commands: `make run` (the main job) and `make test` (every check).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.runtime
STAMP := $(VENV)/.installed

.PHONY: run test play gui bench lint tables image

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

# The container image (Dockerfile), built by podman or docker, whichever is installed, then tried as a
# container: its health check must fail for want of a heartbeat (status 1), and its bot without a token
# must say where to get one (status 2). PYTHON_IMAGE: the base (Python 3.11 on Debian bookworm) to build on.
IMAGE ?= hogbot
PYTHON_IMAGE ?= python:3.11-slim-bookworm
CONTAINER ?= $(firstword $(shell command -v podman docker))

image:
	@test -n "$(CONTAINER)" || { echo "make image: no container builder here (install podman or docker)" >&2; exit 2; }
	$(CONTAINER) build $(if $(findstring podman,$(CONTAINER)),--format docker) --build-arg PYTHON=$(PYTHON_IMAGE) -t $(IMAGE) .
	@out=$$($(CONTAINER) run --rm --network none --no-healthcheck $(IMAGE) python -m bot --health 2>&1); status=$$?; echo "$$out"; \
	  test $$status -eq 1 && echo "$$out" | grep -q "^unhealthy: no heartbeat" \
	  || { echo "make image: --health should say there is no heartbeat yet (status 1), not status $$status" >&2; exit 1; }
	@out=$$($(CONTAINER) run --rm --network none --no-healthcheck $(IMAGE) 2>&1); status=$$?; echo "$$out"; \
	  test $$status -eq 2 && echo "$$out" | grep -q "docker compose up -d" \
	  || { echo "make image: without a token the bot should explain (status 2), not status $$status" >&2; exit 1; }
	@echo "make image: $(IMAGE) built; its health check and its start without a token answer as they should"
