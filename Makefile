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
# Anki without numpy (end-to-end test of the package) and the oldest supported Anki (engine, command-line and
# dialog tests, the dialog's in its real window).
ANKI_VENV := .venv-anki
ANKI_STAMP := $(ANKI_VENV)/.installed
OLD_VENV := .venv-oldest
OLD_STAMP := $(OLD_VENV)/.installed
# The oldest supported Anki runs every test but the package's (which installs the .ankiaddon into the pinned Anki),
# those that touch no part of Anki (marked anki_free: the same code either way) and the language matrix's repetitions
# (marked pinned_only: Hebrew at 150% and the pseudo-language run there; every language on the pinned Anki).
OLDEST_TESTS := tests/engine tests/cli tests/ui

# The message catalogs (metrics/explain/locale/<language>.po), compiled for Python's gettext.
CATALOGS := metrics/explain/locale/.compiled
PO_FILES := $(wildcard metrics/explain/locale/*.po)

export QT_QPA_PLATFORM ?= offscreen
export PYTHONDONTWRITEBYTECODE := 1

# Tool output (pip's warnings and progress) goes to build/setup.log; its tail is shown if a step fails.
SETUP_LOG := build/setup.log
QUIET = >>$(SETUP_LOG) 2>&1 || { echo "failed; the end of $(SETUP_LOG):"; tail -25 $(SETUP_LOG); exit 1; }

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "No Python 3.11+ found (install Python 3.13)"; exit 1; }
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), sys.version' \
		|| { echo "$(PYTHON) is older than 3.11"; exit 1; }
	@mkdir -p build
	@echo "Setting up $(VENV) with $(PYTHON) (Anki, numpy, test tools; a few minutes the first time; log: $(SETUP_LOG))"
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV) $(QUIET)
	@$(VPY) -m pip install --upgrade pip $(QUIET)
	@$(VPY) -m pip install -e '.[dev]' $(QUIET)
	@touch $(STAMP)

$(ANKI_STAMP): tests/requirements/anki-no-numpy.txt
	@mkdir -p build
	@echo "Setting up $(ANKI_VENV) (Anki without numpy, for the package test; log: $(SETUP_LOG))"
	@test -x $(ANKI_VENV)/bin/python || $(PYTHON) -m venv $(ANKI_VENV) $(QUIET)
	@$(ANKI_VENV)/bin/python -m pip install -r tests/requirements/anki-no-numpy.txt $(QUIET)
	@! $(ANKI_VENV)/bin/python -c 'import numpy' 2>/dev/null
	@touch $(ANKI_STAMP)

$(OLD_STAMP): tests/requirements/oldest.txt pyproject.toml
	@mkdir -p build
	@echo "Setting up $(OLD_VENV) (Anki 25.07, the oldest supported; log: $(SETUP_LOG))"
	@test -x $(OLD_VENV)/bin/python || $(PYTHON) -m venv $(OLD_VENV) $(QUIET)
	@$(OLD_VENV)/bin/python -m pip install -r tests/requirements/oldest.txt $(QUIET)
	@$(OLD_VENV)/bin/python -m pip install --no-deps -e . $(QUIET)
	@touch $(OLD_STAMP)

.PHONY: catalogs venv check test test-current test-oldest lint run run-cli bench bench-dialog sample package clean
venv: $(STAMP)

# Everything: lint, every test on the pinned Anki, and again on the oldest supported Anki (but the package's).
test: lint test-current test-oldest

# The inner loop: lint and the fast tests on the pinned Anki (those not marked slow: no simulated learners, no real
# Anki window, no package build), in under 3 minutes.
check: lint $(STAMP) $(ANKI_STAMP) $(CATALOGS)
	E2E_PYTHON=$(CURDIR)/$(ANKI_VENV)/bin/python $(VPY) -m pytest $(WORKERS) -m "not slow" $(PYTEST_ARGS)

# Both cores: whole test files to each worker (a module's fixtures are built once), but the files of real-Anki-window
# runs, test by test (tests/conftest.py SPREAD).
WORKERS ?= -n 2

# Fonts for the screenshots of the dialog in Japanese, Chinese and Korean (Arabic and Hebrew: DejaVu, already
# there): Debian's Noto CJK, installed when missing and apt-get can (else the screenshots show empty boxes).
FONTS := build/.fonts

$(FONTS):
	@mkdir -p build
	@fc-list :lang=ja family 2>/dev/null | grep -q . || { command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] \
		&& { echo "Installing fonts-noto-cjk (screenshots in Japanese, Chinese, Korean; log: $(SETUP_LOG))"; \
		     (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		      fonts-noto-cjk) $(QUIET); } \
		|| echo "No CJK font and no apt-get as root: screenshots in Japanese, Chinese and Korean show boxes"; }
	@touch $(FONTS)

$(CATALOGS): $(PO_FILES) scripts/catalogs.py
	@$(PYTHON) scripts/catalogs.py compile
	@touch $(CATALOGS)

catalogs: $(CATALOGS)

test-current: $(STAMP) $(ANKI_STAMP) $(CATALOGS) $(FONTS)
	E2E_PYTHON=$(CURDIR)/$(ANKI_VENV)/bin/python $(VPY) -m pytest $(WORKERS) $(PYTEST_ARGS)

test-oldest: $(OLD_STAMP) $(CATALOGS)
	$(OLD_VENV)/bin/python -m pytest -p no:cacheprovider $(WORKERS) -m "not anki_free and not pinned_only" $(PYTEST_ARGS) $(OLDEST_TESTS)

package: $(STAMP) $(CATALOGS)
	$(VPY) scripts/package.py

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VPY) scripts/check_sizes.py .
	$(VENV)/bin/mypy .

$(SAMPLE): $(STAMP) scripts/make_sample.py tests/support/builder.py
	@echo "Building the sample collection $(SAMPLE)"
	@$(VPY) scripts/make_sample.py $(SAMPLE)

sample: $(SAMPLE)

# Real Anki with the sample collection and this add-on (offscreen with screenshots when there is no display).
run: $(SAMPLE) $(CATALOGS)
	@$(VPY) scripts/run_anki.py --sample $(SAMPLE)

# The command-line report of the sample collection.
run-cli: $(SAMPLE)
	$(VENV)/bin/fsrs-calibration evaluate $(SAMPLE)

bench: $(STAMP)
	$(VPY) bench/bench_evaluate.py $(BENCH_ARGS)

bench-dialog: $(STAMP)
	$(VPY) bench/bench_dialog.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) $(ANKI_VENV) $(OLD_VENV) build dist .pytest_cache
