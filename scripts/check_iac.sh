#!/usr/bin/env bash
# Scans template.yaml with checkov (an outside IaC scanner): every check must pass except the
# skips in .checkov.yaml, each with its reason. A new failure breaks `make test`.
#
# checkov pins many packages of its own, so it lives in a separate venv (.venv-checkov,
# gitignored), created on the first run and reused while the pinned version stays the same.
# No network is needed once the venv exists (--skip-download: no policy download).
#
#   bash scripts/check_iac.sh
set -euo pipefail
cd "$(dirname "$0")/.."

CHECKOV_VERSION=3.3.30
PYTHON=${PYTHON:-python3}
CHECKOV_VENV=${CHECKOV_VENV:-.venv-checkov}
TEMPLATE=${TEMPLATE:-template.yaml}
STAMP="$CHECKOV_VENV/.installed-checkov-$CHECKOV_VERSION"

if [ ! -f "$STAMP" ]; then
    echo "check_iac: creating $CHECKOV_VENV (checkov $CHECKOV_VERSION)"
    rm -rf "$CHECKOV_VENV"
    "$PYTHON" -m venv "$CHECKOV_VENV"
    "$CHECKOV_VENV/bin/pip" install --quiet --disable-pip-version-check "checkov==$CHECKOV_VERSION"
    touch "$STAMP"
fi

echo "check_iac: checkov $TEMPLATE"
"$CHECKOV_VENV/bin/checkov" --file "$TEMPLATE" --config-file .checkov.yaml --skip-download
echo "check_iac: ok"
