# FSRS Calibration: every set-up step lives here, so a fresh clone needs only `make test` / `make run`.
SHELL := /bin/bash
.DEFAULT_GOAL := test

# Python 3.13 (Anki's own) from pyenv when present, else the newest python3 >= 3.11 on PATH.
PYENV_ROOT ?= $(shell pyenv root 2>/dev/null || echo $(HOME)/.pyenv)
PYTHON ?= $(firstword $(wildcard $(PYENV_ROOT)/versions/3.13*/bin/python3.13) \
                      $(shell command -v python3.13 python3.12 python3.11 python3 2>/dev/null))
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SAMPLE := build/sample/collection.anki2

export QT_QPA_PLATFORM ?= offscreen
export PYTHONDONTWRITEBYTECODE := 1

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "No Python 3.11+ found (install Python 3.13)"; exit 1; }
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), sys.version' \
		|| { echo "$(PYTHON) is older than 3.11"; exit 1; }
	test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --upgrade pip
	$(VPY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

.PHONY: venv test lint run bench sample clean
venv: $(STAMP)

test: $(STAMP) lint
	$(VPY) -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy .

$(SAMPLE): $(STAMP) scripts/make_sample.py tests/builder.py
	$(VPY) scripts/make_sample.py $(SAMPLE)

sample: $(SAMPLE)

run: $(SAMPLE)
	$(VENV)/bin/fsrs-calibration evaluate $(SAMPLE)

bench: $(STAMP)
	$(VPY) bench/bench_evaluate.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) build dist .pytest_cache
