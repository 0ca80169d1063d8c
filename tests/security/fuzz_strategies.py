"""Hypothesis strategies for malformed requests: arbitrary JSON, hostile strings, and the
tools' own examples with one part replaced, removed or extended."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st


def fuzz(examples: int) -> Any:
    """Reproducible (derandomized) runs of `examples` generated requests each."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


HOSTILE_TEXT = [
    "",
    " ",
    "x\u0000y",
    "\ud800",
    "a\u200bb",
    "\u202e",
    "password ist" + " " * 3000 + ";",
    "token=" * 500 + "#",
    "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
    "longterm_" + "9" * 5000,
    "shortterm_0",
    "../../etc",
    "users/../x",
    "'; DROP TABLE memories; --",
    "\\u0000",
    "x" * 5000,
]

leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**63 - 2, max_value=2**80),
    st.sampled_from([10**400, -(10**400), 1.0, 1e0, 0.5, -0.0, 1e308, 3.5e38]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(HOSTILE_TEXT),
)

json_values = st.recursive(
    leaves,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.text(max_size=10) | st.sampled_from(HOSTILE_TEXT), children, max_size=4
        )
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*prefix, index))
    return found


@st.composite
def mutated(draw: st.DrawFn, example: dict[str, Any]) -> Any:
    """`example` with one to three parts replaced by arbitrary JSON, removed, or extended."""
    value: Any = copy.deepcopy(example)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = _paths(value)
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "remove", "add", "duplicate"]))
        if not path:
            if action == "replace":
                value = draw(json_values)
            continue
        parent: Any = value
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        if action == "replace":
            parent[last] = draw(json_values)
        elif action == "remove":
            del parent[last]
        elif action == "add" and isinstance(parent[last], dict):
            parent[last][draw(st.text(max_size=12))] = draw(json_values)
        elif action == "duplicate" and isinstance(parent[last], list) and parent[last]:
            parent[last] = parent[last] * draw(st.integers(min_value=2, max_value=120))
    return value


def dumps(value: Any) -> bytes:
    """JSON as a client would send it (big integers and lone surrogates included)."""
    return json.dumps(value, ensure_ascii=True).encode()


raw_bodies = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(lambda text: text.encode("utf-8", "surrogatepass")),
    st.sampled_from(
        [
            b"[" * 5000,
            b'{"a":' * 2000,
            b'{"jsonrpc":"2.0","id":' + b"9" * 5000 + b',"method":"ping"}',
            b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":NaN}}',
            b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":1e999}}',
            b"\xff\xfe",
            b"null",
            b"[]",
            b"[{}]",
        ]
    ),
)
