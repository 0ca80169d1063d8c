"""The envelope every tool shares, before the tool's own parser: `help` and `referenzfelder`.

Its own module (`shared.validation.requests` holds the tools' parsers): the dispatcher checks
the envelope of every call without loading every tool's request model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.validation import messages, scalar_maps
from shared.validation.errors import FieldError, RequestRejected
from shared.validation.help_flag import HELP_FIELD, requests_help, valid_help_value
from shared.validation.rules import Fields


def check_help(arguments: Mapping[str, Any], errors: list[FieldError]) -> bool:
    if HELP_FIELD not in arguments:
        return False
    if not valid_help_value(arguments[HELP_FIELD]):
        errors.append(FieldError(HELP_FIELD, messages.help_type(arguments[HELP_FIELD])))
        return False
    return requests_help(arguments)


def wants_help(arguments: Mapping[str, Any]) -> bool:
    """True iff `help` is the integer 1; a `help` that is no integer rejects the request."""
    errors: list[FieldError] = []
    result = check_help(arguments, errors)
    if errors:
        raise RequestRejected(errors)
    return result


def collect_referenzfelder(
    arguments: Mapping[str, Any], errors: list[FieldError]
) -> dict[str, Any]:
    found = Fields(arguments, "", errors).optional("referenzfelder", scalar_maps.referenzfelder)
    return found if found is not None else {}


def parse_referenzfelder(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The optional `referenzfelder` object (a copy; {} when absent)."""
    errors: list[FieldError] = []
    result = collect_referenzfelder(arguments, errors)
    if errors:
        raise RequestRejected(errors)
    return result
