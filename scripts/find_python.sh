#!/usr/bin/env bash
# Prints the absolute path of a working CPython of the given minor version (default 3.13, the
# Lambda runtime of template.yaml): `pythonX.Y` on PATH first, then pyenv's installs
# ($PYENV_ROOT or ~/.pyenv), then the usual prefixes. A pyenv shim that does not resolve to an
# installed version fails its probe and is skipped; a shim that does is resolved to the real
# interpreter. Exit status 1 and a hint when none is found.
#
#   bash scripts/find_python.sh          # e.g. /root/.pyenv/versions/3.13.0/bin/python3.13
#   bash scripts/find_python.sh 3.12
set -euo pipefail

minor=${1:-3.13}
major_minor="(${minor%%.*}, ${minor#*.})"
candidates=("python$minor")
shopt -s nullglob
for dir in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$minor".*/bin /usr/local/bin /usr/bin; do
    candidates+=("$dir/python$minor")
done

for candidate in "${candidates[@]}"; do
    path=$(command -v "$candidate" 2>/dev/null) || continue
    if found=$("$path" -c "import sys; assert sys.version_info[:2] == $major_minor and sys.implementation.name == 'cpython'; print(sys.executable)" 2>/dev/null); then
        echo "$found"
        exit 0
    fi
done
echo "find_python: no working CPython $minor found (tried python$minor on PATH and" \
    "${PYENV_ROOT:-$HOME/.pyenv}/versions/$minor.*); install it (e.g. pyenv install $minor)" \
    "or pass PYTHON=/path/to/python$minor" >&2
exit 1
