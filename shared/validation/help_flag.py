"""The help flag of every Brain tool, defined once: `{"help": 1}` asks a tool to explain itself.

Only the JSON integer 1 counts (not `true`, `1.0` or `1e0`). The validator, the auth middleware
(a help call needs no scope) and the tool descriptions all read this module, so no layer can
treat a value as help that another refuses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

HELP_FIELD: Final = "help"
HELP_VALUE: Final = 1


def valid_help_value(value: Any) -> bool:
    """True for any JSON integer (0 = no help); False for bool, float, string, ..."""
    return isinstance(value, int) and not isinstance(value, bool)


def requests_help(arguments: Any) -> bool:
    """True iff `arguments` is an object whose help flag is exactly the integer 1."""
    if not isinstance(arguments, Mapping) or HELP_FIELD not in arguments:
        return False
    value = arguments[HELP_FIELD]
    return valid_help_value(value) and value == HELP_VALUE
