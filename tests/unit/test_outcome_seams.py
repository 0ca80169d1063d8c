"""No status from wording: only the kinds of refusals (`Art`) choose statuses.

An AST walk over shared/: no comparison (`==`, `in`, `startswith`, `endswith`) may involve a
German refusal prefix, an error's `meldung`, or the in-progress field name — those are how
statuses used to be chosen (`memory_api._classify`, `tool_handler.http_status`). The kinds
are set where errors are made and mapped in `shared/services/outcomes.py`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from shared.services.outcomes import HTTP_STATUS, ApiRefused, art_of, envelope_status
from shared.services.responses import failure
from shared.validation.errors import Art, FieldError

SHARED = Path(__file__).resolve().parents[2] / "shared"
PREFIXES = (
    "nicht berechtigt",
    "nicht_berechtigt",
    "nicht_gefunden",
    "nicht gefunden",
    "konflikt",
    "speicherfehler",
    "wird bereits",
)
NAMES = ("meldung", "IN_PROGRESS_FIELD", "message")


def _suspicious(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.strip().casefold().startswith(PREFIXES)
    if isinstance(node, ast.Attribute):
        return node.attr in NAMES
    if isinstance(node, ast.Name):
        return node.id in NAMES
    if isinstance(node, ast.Subscript):
        key = node.slice
        return isinstance(key, ast.Constant) and key.value == "meldung"
    return False


def _decisions(tree: ast.AST) -> list[int]:
    """Lines where a comparison or a prefix test reads message text."""
    lines = []
    for node in ast.walk(tree):
        operands: list[ast.AST] = []
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("startswith", "endswith")
        ):
            operands = [node.func.value, *node.args]
        for operand in operands:
            inner = list(ast.walk(operand)) if isinstance(operand, ast.Tuple) else [operand]
            if any(_suspicious(part) for part in inner):
                lines.append(getattr(node, "lineno", 0))
                break
    return sorted(lines)


def test_no_module_decides_a_status_from_message_text() -> None:
    found = []
    for path in sorted(SHARED.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(SHARED.parent)}:{line}" for line in _decisions(tree)]
    assert found == [], "statuses must come from FieldError.art, not from wording"


def test_the_walk_sees_the_old_seams() -> None:
    """The test can fail: the shapes of the removed classifiers are caught."""
    old = """
if any(message.startswith(prefix) for message in messages): pass
if error.meldung.startswith("Konflikt"): pass
if IN_PROGRESS_FIELD in fields: pass
if "nicht berechtigt" in text: pass
if e["meldung"] == x: pass
"""
    assert _decisions(ast.parse(old)) == [2, 3, 4, 5, 6]


@pytest.mark.parametrize("art", list(Art))
def test_every_kind_has_one_status(art: Art) -> None:
    error = FieldError("x", "Irgendeine Meldung.", art)
    assert ApiRefused(art_of([error]), [error]).status == HTTP_STATUS[art]
    assert envelope_status(failure([error], {})) == HTTP_STATUS[art]


def test_the_kind_survives_the_envelope() -> None:
    errors = [FieldError("a", "x"), FieldError("b", "y", Art.FORBIDDEN)]
    envelope = failure(errors, {})
    assert [e["art"] for e in envelope["fehler"]] == ["ungueltig", "nicht_berechtigt"]
    assert [FieldError.from_dict(e).art for e in envelope["fehler"]] == [
        Art.INVALID,
        Art.FORBIDDEN,
    ]
    # The most specific kind wins: rights before rules.
    assert art_of(errors) is Art.FORBIDDEN
    assert envelope_status(envelope) == 403


def test_wording_alone_decides_nothing() -> None:
    """A message that merely reads like a refusal stays what its maker said it is."""
    worded = FieldError("x", "nicht berechtigt: Konflikt, nicht_gefunden.")
    assert art_of([worded]) is Art.INVALID
    assert envelope_status(failure([worded], {})) == 422
