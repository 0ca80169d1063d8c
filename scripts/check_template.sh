#!/usr/bin/env bash
# Lints the SAM template offline: cfn-lint and `sam validate --lint`, both must be clean.
#
# aws-sam-cli pins its own pydantic/boto3, so it lives in a separate venv (.venv-sam,
# gitignored), created on the first run and reused while the pinned versions stay the same.
# Neither command needs AWS credentials or network once the venv exists.
#
#   bash scripts/check_template.sh             # lint template.yaml
#   SAM_VENV=/tmp/sam bash scripts/check_template.sh
set -euo pipefail
cd "$(dirname "$0")/.."

SAM_CLI_VERSION=1.170.0
CFN_LINT_VERSION=1.58.0
PYTHON=${PYTHON:-python3}
SAM_VENV=${SAM_VENV:-.venv-sam}
TEMPLATE=${TEMPLATE:-template.yaml}
STAMP="$SAM_VENV/.installed-sam-$SAM_CLI_VERSION-cfn-lint-$CFN_LINT_VERSION"

if [ ! -f "$STAMP" ]; then
    echo "check_template: creating $SAM_VENV (aws-sam-cli $SAM_CLI_VERSION, cfn-lint $CFN_LINT_VERSION)"
    rm -rf "$SAM_VENV"
    "$PYTHON" -m venv "$SAM_VENV"
    "$SAM_VENV/bin/pip" install --quiet --disable-pip-version-check \
        "aws-sam-cli==$SAM_CLI_VERSION" "cfn-lint==$CFN_LINT_VERSION"
    touch "$STAMP"
fi

# No telemetry, no update check, and a region for the SAM translator (nothing is called).
export SAM_CLI_TELEMETRY=0
export AWS_DEFAULT_REGION=${AWS_DEFAULT_REGION:-${AWS_REGION:-eu-central-1}}

echo "check_template: cfn-lint $TEMPLATE"
"$SAM_VENV/bin/cfn-lint" -- "$TEMPLATE"
echo "check_template: sam validate --lint $TEMPLATE"
"$SAM_VENV/bin/sam" validate --lint --template "$TEMPLATE"
echo "check_template: SnapStart and aliases in the translated $TEMPLATE"
"$SAM_VENV/bin/python" scripts/check_aliases.py "$TEMPLATE"
echo "check_template: ok"
