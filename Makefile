# Two entry points: `make serve` (local MCP server) and `make test` (everything CI runs).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8787
DATA_DIR ?= .brain

.PHONY: serve test lint typecheck unit template install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

serve: $(STAMP)
	$(BIN)/brain serve --host $(HOST) --port $(PORT) --data-dir $(DATA_DIR)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

# cfn-lint and `sam validate --lint` in their own venv (.venv-sam): aws-sam-cli pins its own deps.
template:
	bash scripts/check_template.sh

test: lint typecheck template unit

clean:
	rm -rf $(VENV) .venv-sam .aws-sam .pytest_cache .mypy_cache .ruff_cache
