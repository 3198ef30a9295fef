# scratchgrad — the two commands a newcomer needs are `make serve` and `make test`.
# Every target sets up what it needs first, so both work on a fresh clone.

PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
# The extras of pyproject.toml each set-up installs (pyproject.toml owns what is in each): the site's
# build needs docs, graph and torch (two chapters' blocks import it); `make test` adds test (pytest,
# Playwright, Selenium, Hypothesis, ruff), which `make serve`, `make docs` and `make site` never import.
SITE_EXTRAS := docs,graph,torch
EXTRAS := $(SITE_EXTRAS),test

.PHONY: help needs setup setup-site setup-web mutants test python-lane site-lane stage-times-reset lint js-format unit js-test pyodide-test docs site docs-test browser-test browser-shared browser-timing engine-test serve bench bench-browser bench-playground clean

# What each stage of `make test` costs: every stage prints its wall time when it ends and adds it
# to $(STAGE_TIMES), which `make test` prints at the end with the total; the pytest stages also
# print their 25 slowest tests. A stage run on its own (`make browser-test`) prints its time too.
# Each stage has its own clock file: `make test` runs two lanes of stages at once.
STAGE_TIMES := build/stage-times.txt
STAGE_CLOCK := build/.stage-started
DURATIONS := --durations=25
TEST_CLOCK := build/.test-started
stage_start = @mkdir -p build && date +%s > $(STAGE_CLOCK).$(1)
stage_end = @$(call time_since,$(STAGE_CLOCK).$(1),$(1)) | tee -a $(STAGE_TIMES)
time_since = seconds=$$(( $$(date +%s) - $$(cat $(1)) )); \
	printf '%-14s %5d s  (%d min %02d s)\n' $(2) $$seconds $$((seconds / 60)) $$((seconds % 60))

help:
	@echo "make serve   set up .venv and node_modules, then serve the tutorial at http://127.0.0.1:8000 (SERVE_ADDR=…)"
	@echo "make test    set up .venv and run every check (lint, unit, JS unit, Pyodide, docs, browser, engines)"
	@echo "             one stage alone: make lint | unit | js-test | pyodide-test | docs-test | browser-test | engine-test"
	@echo "make js-format   format the JavaScript and CSS with Prettier (make lint checks it)"
	@echo "make mutants     mutation testing of the exercises' checks (part of make test)"
	@echo "make docs    build the site into site/ (strict: any warning or failing block is an error)"
	@echo "make site SITE_URL=https://…/   build site/ to publish at that address (docs/publish.md)"
	@echo "make bench   speed benchmarks against micrograd (see benchmarks/README.md)"
	@echo "make bench-browser   the in-browser runtime's start-up, first output and size"
	@echo "make bench-playground   the training playground's steps and redraws per second in Chromium"
	@echo "make clean   remove environments and build output"

# The main environment: Python 3.11 (the torch==2.13.0 CPU wheel is cp311 only). The site's set-up
# first (what the build imports), then the tests' on top of it; `setup` is both.
$(BIN)/.site-installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip  # 1.7 s of CPU; today's pip then saves 10 s
	$(BIN)/python -m pip install --quiet -e ".[$(SITE_EXTRAS)]"
	! git rev-parse --git-dir >/dev/null 2>&1 || git config core.hooksPath .githooks
	touch $@

$(BIN)/.installed: $(BIN)/.site-installed
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	touch $@

setup: $(BIN)/.installed

# npm packages exactly as package-lock.json pins them (pyodide 314.0.7 for tests and benchmarks).
NODE_MODULES := node_modules/.package-lock.json
$(NODE_MODULES): package.json package-lock.json
	PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund
	touch $@

# npm pyodide ships no wheels: pytest and its dependencies, pure-Python wheels for CPython 3.14.
DOWNLOAD_PY314_WHEELS := -m pip download --quiet --no-deps --only-binary=:all: --implementation py \
	--abi none --platform any --python-version 3.14
PYODIDE_WHEELS := build/pyodide-wheels
$(PYODIDE_WHEELS)/.downloaded: tests/pyodide/requirements.txt | $(BIN)/.installed
	rm -rf $(PYODIDE_WHEELS)
	$(BIN)/python $(DOWNLOAD_PY314_WHEELS) --dest $(PYODIDE_WHEELS) --requirement $<
	touch $@

# The browser runtime's tools (hooks/pyodide_runtime.py builds the wheel and the lock file that
# let Pyodide load scratchgrad). pyodide-build >= 0.39 needs Python >= 3.12 while the main .venv
# stays on 3.11 (torch), so it gets an environment of its own. pyenv's shims only answer for a
# selected version, hence the look into ~/.pyenv/versions too.
PYODIDE_TOOLS := .venv-pyodide
PYODIDE_TOOLS_PYTHON ?= $(firstword $(foreach python,python3.13 python3.12 \
	$(wildcard $(HOME)/.pyenv/versions/3.1[2-9]*/bin/python3), \
	$(if $(shell $(python) -c 'import sys; print(sys.version_info >= (3, 12))' 2>/dev/null | grep True),$(python))))
$(PYODIDE_TOOLS)/.installed: Makefile
	@test -n "$(PYODIDE_TOOLS_PYTHON)" || { echo "pyodide-build needs Python >= 3.12: none found"; exit 1; }
	test -x $(PYODIDE_TOOLS)/bin/python || $(PYODIDE_TOOLS_PYTHON) -m venv $(PYODIDE_TOOLS)
	$(PYODIDE_TOOLS)/bin/python -m pip install --quiet \
		pyodide-build==0.39.2 pyodide-lock==0.2.1 pkginfo==2.0 build==1.6.1 hatchling==1.33.0
	touch $@

setup-web: $(NODE_MODULES) $(PYODIDE_TOOLS)/.installed

# Everything the site's build needs (`make serve`, `make docs`, `make site`), its three parts at
# once: pip's install of the site's extras takes the longest; npm ci and .venv-pyodide go beside it.
# (`make -q` first: when all is set up, nothing is printed.)
SITE_SETUP := $(BIN)/.site-installed $(NODE_MODULES) $(PYODIDE_TOOLS)/.installed
setup-site:
	@$(MAKE) --no-print-directory -q $(SITE_SETUP) || \
		$(MAKE) --no-print-directory -j3 --output-sync=line $(SITE_SETUP)

# Commit subjects of at most 72 characters (.githooks/commit-msg), for every commit after this one:
# the merge of the build branch, whose three longer subjects were written before the rule reached
# its worktree. The ones before it stay as they were written.
COMMIT_RULE_SINCE := 7845749aa08927cd76d342a6f9b11277eede8c59

# ruff for the Python; ESLint (eslint.config.mjs) and Prettier (.prettierrc.json) for the
# JavaScript and CSS of web/, hooks/ and tests/web/; no export of web/ that nothing imports; web/'s
# imports keep to its floors, in no circle (tests/web/layers.mjs).
JS_SOURCES := web hooks/helpers/*.js tests/web eslint.config.mjs
lint: setup $(NODE_MODULES)
	$(call stage_start,lint)
	$(BIN)/ruff check src tests benchmarks hooks web
	.githooks/commit-msg --since $(COMMIT_RULE_SINCE)
	node_modules/.bin/eslint --max-warnings=0 $(JS_SOURCES)
	node tests/web/unused-exports.mjs
	node tests/web/layers.mjs
	node_modules/.bin/prettier --check $(JS_SOURCES)
	$(call stage_end,lint)

js-format: $(NODE_MODULES)
	node_modules/.bin/prettier --write $(JS_SOURCES)

# Every CPython test but the site's and the browser's (the hooks' tests need node_modules and .venv-pyodide).
unit: setup setup-web
	$(call stage_start,unit)
	$(BIN)/python -m pytest $(DURATIONS) \
		--ignore=tests/pyodide --ignore=tests/test_docs.py --ignore=tests/browser --ignore=tests/engines
	$(call stage_end,unit)

# Mutation testing of the exercises' checks: every small slip in a reference solution must fail
# its checks, or be listed in src/scratchgrad/exercises/mutants_equivalent.toml with the reason.
mutants: setup
	$(call stage_start,mutants)
	$(BIN)/python -m scratchgrad.exercises.mutants
	$(call stage_end,mutants)

# The pure JavaScript modules of web/ under Node's own test runner; tests/web/ mirrors web/.
js-test: $(NODE_MODULES)
	$(call stage_start,js-test)
	node --test --test-reporter=spec $$(find tests/web -name '*.test.mjs' | sort)
	$(call stage_end,js-test)

# The engine's tests inside Pyodide under Node, and the 1,000,000-node chain there.
pyodide-test: setup $(NODE_MODULES) $(PYODIDE_WHEELS)/.downloaded
	$(call stage_start,pyodide-test)
	$(BIN)/python -m pytest $(DURATIONS) tests/pyodide
	$(call stage_end,pyodide-test)

# The tutorial site. Its build runs every ```python run``` block of every page, so it needs the
# package (.venv) and node_modules (KaTeX typesets the formulas at build time).
# Material prints an end-of-life banner for MkDocs 2 on every run; it is not an error.
export NO_MKDOCS_2_WARNING := 1
# `make docs TIMINGS=1` (or site, serve): print the build's time per hook, step and page (hooks/timings.py).
ifdef TIMINGS
export SCRATCHGRAD_TIMINGS := 1
endif

docs: setup-site
	$(BIN)/mkdocs build --strict

# The folder to upload to any static host: site/, built for the address it will be served from.
# `make site SITE_URL=https://you.github.io/scratchgrad/` (docs/publish.md; the Pages workflow runs it).
site: setup-site
	@case "$(SITE_URL)" in https://*/) ;; *) echo "make site needs SITE_URL=https://…/ (ending in /)"; exit 1;; esac
	SCRATCHGRAD_SITE_URL=$(SITE_URL) $(BIN)/mkdocs build --strict --site-dir site

# What `make serve` needs from the system, each named with the way to get it before any set-up runs.
needs:
	@missing=0; \
	command -v $(PYTHON) >/dev/null || { echo "missing: $(PYTHON) (the site's build; torch is cp311): apt-get install python3.11, or make PYTHON=..."; missing=1; }; \
	command -v node >/dev/null && command -v npm >/dev/null || { echo "missing: Node 20 and npm (KaTeX, esbuild): https://nodejs.org or apt-get install nodejs npm"; missing=1; }; \
	command -v dot >/dev/null || { echo "missing: Graphviz's dot (every build draws graphs): apt-get install graphviz (brew install graphviz)"; missing=1; }; \
	test -n "$(PYODIDE_TOOLS_PYTHON)" || { echo "missing: a Python >= 3.12 (pyodide-build): python3.12 on PATH, pyenv install 3.12, or make PYODIDE_TOOLS_PYTHON=..."; missing=1; }; \
	exit $$missing

# --dirty: after an edit to one page, the server renders only that page (hooks/changed_pages.py);
# after any other change, every page. Checks across pages wait for `make docs`.
# `make serve SERVE_ADDR=127.0.0.1:8123` serves on another port.
SERVE_ADDR ?= 127.0.0.1:8000
serve: needs setup-site
	$(BIN)/mkdocs serve --dirty --dev-addr $(SERVE_ADDR)

# The site the tests read: one strict build shared by docs-test and browser-test, made again only
# when a file it is built from changes (tests/conftest.py builds its own without SCRATCHGRAD_SITE_DIR).
TEST_SITE := build/test-site
SITE_SOURCES := mkdocs.yml pyproject.toml package-lock.json README.md \
	$(shell find docs hooks src web -type f -not -path '*/__pycache__/*')
$(TEST_SITE).built: $(SITE_SOURCES) | $(BIN)/.installed $(NODE_MODULES) $(PYODIDE_TOOLS)/.installed
	$(call stage_start,site-build)
	rm -rf $(TEST_SITE) $@
	$(BIN)/mkdocs build --strict --site-dir $(TEST_SITE)
	touch $@
	$(call stage_end,site-build)

# The strict build, every block re-run in pytest, the no-pasted-engine-code rule, broken pages.
docs-test: setup setup-web $(TEST_SITE).built
	$(call stage_start,docs-test)
	SCRATCHGRAD_SITE_DIR=$(TEST_SITE) $(BIN)/python -m pytest $(DURATIONS) tests/test_docs.py
	$(call stage_end,docs-test)

# Every runnable block of every page, run in headless Chromium against the built site, in two
# stages: the tests marked `timing` (they time the page's main thread or a Stop on the wall clock)
# run alone, after the others; the others run in $(BROWSER_WORKERS) pytest-xdist workers, each with
# its own server (a free port) and Chromium. One worker by default: in CI on 2026-11-29 two workers
# beside the unit tests took 24.6 min, no less than one on two cores, and their shuffled order
# broke a check that passes in file order (the notebook's code font): `make test BROWSER_WORKERS=2`
# on a machine with cores to spare.
BROWSER_WORKERS ?= 1
BROWSER_PYTEST := SCRATCHGRAD_SITE_DIR=$(TEST_SITE) $(BIN)/python -m pytest $(DURATIONS) tests/browser
browser-test:
	@$(MAKE) --no-print-directory browser-shared
	@$(MAKE) --no-print-directory browser-timing

browser-shared: setup setup-web $(TEST_SITE).built
	$(call stage_start,browser-shared)
	$(BROWSER_PYTEST) -m "not timing" --numprocesses $(BROWSER_WORKERS) --dist worksteal
	$(call stage_end,browser-shared)

browser-timing: setup setup-web $(TEST_SITE).built
	$(call stage_start,browser-timing)
	$(BROWSER_PYTEST) -m timing
	$(call stage_end,browser-timing)

# The site in Firefox ESR (puppeteer-core over WebDriver BiDi) and WebKitGTK (Selenium, MiniBrowser
# under Xvfb), Debian's browsers only: pages load clean, blocks run, Stop, reload, the Playground.
# PUPPETEER_SKIP_DOWNLOAD: npm never fetches a browser. SE_MANAGER_PATH: nor does Selenium.
engine-test: setup setup-web $(TEST_SITE).built
	$(call stage_start,engine-test)
	SCRATCHGRAD_SITE_DIR=$(TEST_SITE) PUPPETEER_SKIP_DOWNLOAD=1 SE_MANAGER_PATH=/bin/false \
		$(BIN)/python -m pytest $(DURATIONS) tests/engines
	$(call stage_end,engine-test)

# Two cores, kept busy: every stage but browser-timing and engine-test runs in one of two lanes
# at once (each lane is one stage at a time, and --output-sync prints a lane's output whole when
# it ends); the browser tests that time the page's main thread or a Stop (browser-timing) then run
# alone, and Firefox and WebKit last, alone (beside the unit tests, WebKit's reader's-engine test
# lost its page as hung once, 2026-11-29).
# Everything both lanes need is set up first, once. stage-times-reset comes first: make builds
# the prerequisites in the order listed.
test: stage-times-reset setup setup-web $(PYODIDE_WHEELS)/.downloaded
	@$(MAKE) --no-print-directory -j2 --output-sync=recurse python-lane site-lane
	@$(MAKE) --no-print-directory browser-timing
	@$(MAKE) --no-print-directory engine-test
	@echo "== make test: wall time per stage (the rest is setup; the rows above browser-timing ran in two lanes at once) =="
	@cat $(STAGE_TIMES)
	@$(call time_since,$(TEST_CLOCK),total)

# The two lanes: CPython's and Pyodide's unit tests and the mutants (one core); the site's build,
# its tests, the linters, the JavaScript unit tests, then Chromium's browser-shared last, since
# its two workers take both cores once the other lane ends. Every stage that reads the site is in the site's lane.
# A lane's make gets LANE=1, which makes it run its stages one after the other (.NOTPARALLEL,
# below) while sharing the two jobs with the other lane.
python-lane:
	@$(MAKE) --no-print-directory LANE=1 unit pyodide-test mutants
site-lane:
	@$(MAKE) --no-print-directory LANE=1 $(TEST_SITE).built docs-test lint js-test browser-shared

ifdef LANE
.NOTPARALLEL:
endif

stage-times-reset:
	@mkdir -p build && rm -f $(STAGE_TIMES) && date +%s > $(TEST_CLOCK)

# The bench environment: micrograd 0.1.0 (PyPI) is installed here only, next to scratchgrad,
# on the same Python 3.11 as .venv; its wheel is also unpacked inside Pyodide.
MICROGRAD := micrograd==0.1.0
BENCH := .venv-bench
$(BENCH)/.installed: pyproject.toml
	test -x $(BENCH)/bin/python || $(PYTHON) -m venv $(BENCH)
	$(BENCH)/bin/python -m pip install --quiet $(MICROGRAD) -e .
	touch $@

BENCH_WHEELS := build/bench-wheels
$(BENCH_WHEELS)/.downloaded: | $(BENCH)/.installed
	rm -rf $(BENCH_WHEELS)
	$(BENCH)/bin/python $(DOWNLOAD_PY314_WHEELS) --dest $(BENCH_WHEELS) $(MICROGRAD)
	touch $@

bench: $(BENCH)/.installed $(NODE_MODULES) $(BENCH_WHEELS)/.downloaded
	$(BENCH)/bin/python benchmarks/run.py

# The in-browser runtime in headless Chromium: start-up against bare loadPyodide, first output,
# the JS + CSS a page loads (benchmarks/README.md, "In the reader's browser").
bench-browser: setup setup-web
	$(BIN)/python benchmarks/browser_startup.py

# The training playground in headless Chromium: micrograd's demo net to step 100, steps and
# redraws per second for every data set (benchmarks/README.md, "The training playground").
bench-playground: setup setup-web
	$(BIN)/python benchmarks/playground_speed.py

clean:
	rm -rf $(VENV) .venv-* node_modules site dist build .pytest_cache .ruff_cache .hypothesis
