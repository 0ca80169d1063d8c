"""The tool reference of docs/tools.md, rendered from the tool catalog.

Invariants:
- Every fact comes from where it is defined once: names, titles, scopes, descriptions and
  examples from `shared.tools.catalog.TOOLS`, fields from each tool's published input
  schema (`ToolSpec.input_schema`, what agents read), limits from `shared.tools.limits`
  (the validator's own constants). Nothing here states a limit or a field of its own.
- Deterministic: the catalog's order, the schema's property order; the same catalog always
  renders the same text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from shared.tools.catalog import TOOLS, ToolSpec
from shared.tools.limits import REQUEST_LIMITS, TOOL_LIMITS, Limit

# Schema keywords shown as rules, in this order, with their German wording.
_RULES: Final = (
    ("minLength", "mindestens {} Zeichen"),
    ("maxLength", "höchstens {} Zeichen"),
    ("minItems", "mindestens {} Einträge"),
    ("maxItems", "höchstens {} Einträge"),
    ("minimum", "≥ {}"),
    ("maximum", "≤ {}"),
    ("pattern", "Muster `{}`"),
    ("format", "Format {}"),
    ("default", "Standard `{}`"),
)


@dataclass(frozen=True)
class Field:
    path: str
    types: str
    required: str
    description: str
    rules: tuple[str, ...]


def _types(node: Mapping[str, Any]) -> str:
    if "enum" in node:
        return " | ".join(f"`{json.dumps(v, ensure_ascii=False)}`" for v in node["enum"])
    if "anyOf" in node:
        return " | ".join(_types(variant) for variant in node["anyOf"])
    raw = node.get("type", "object" if "properties" in node else "")
    names = raw if isinstance(raw, list) else [raw]
    items = node.get("items")
    shown = []
    for name in names:
        if name == "array" and isinstance(items, Mapping):
            shown.append(f"array of {'object' if _objects(items) else _types(items)}")
        else:
            shown.append(str(name))
    return " | ".join(shown)


def _rules(node: Mapping[str, Any]) -> list[str]:
    found = []
    variants = [node, *node.get("anyOf", ())]
    for key, wording in _RULES:
        for variant in variants:
            if key in variant:
                value = variant[key]
                shown = json.dumps(value, ensure_ascii=False) if key == "default" else value
                text = wording.format(shown)
                found.append(text.replace("mindestens 1 Einträge", "mindestens 1 Eintrag"))
                break
    if node.get("additionalProperties") is False:
        found.append("keine weiteren Felder")
    return found


def _objects(node: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The object shapes a node allows (an `anyOf` of shapes: each of them)."""
    if "properties" in node:
        return [node]
    return [v for v in node.get("anyOf", ()) if isinstance(v, Mapping) and "properties" in v]


def _fields(node: Mapping[str, Any], prefix: str = "") -> Iterator[Field]:
    shapes = _objects(node)
    seen: dict[str, int] = {}
    for shape in shapes:
        for name in shape["properties"]:
            seen[name] = seen.get(name, 0) + (name in shape.get("required", ()))
    emitted: set[str] = set()
    for shape in shapes:
        for name, prop in shape["properties"].items():
            if name in emitted:
                continue
            emitted.add(name)
            path = f"{prefix}.{name}" if prefix else name
            needed = seen[name]
            required = "ja" if needed == len(shapes) else ("je nach Eintragsart" if needed else "")
            text = " ".join(str(prop.get("description", "")).split())
            yield Field(path, _types(prop), required, text, tuple(_rules(prop)))
            yield from _fields(prop, path)
            items = prop.get("items")
            if isinstance(items, Mapping):
                yield from _fields(items, f"{path}[]")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _limit_rows(tool: str, fields: list[Field]) -> tuple[dict[str, list[str]], list[Limit]]:
    """The validator's limits by field path; those no schema field carries come back apart."""
    paths = {f.path for f in fields}
    by_field: dict[str, list[str]] = {}
    loose: list[Limit] = []
    for limit in TOOL_LIMITS.get(tool, ()):
        field = limit.field
        # `x[]` (every item of x) belongs to x's row when the items have no row of their own
        target = field if field in paths else field.removesuffix("[]")
        if target in paths:
            rule = limit.text().removeprefix(f"{field} ")
            each = "je Eintrag " if target != field else ""
            by_field.setdefault(target, []).append(each + rule)
        else:
            loose.append(limit)
    return by_field, loose


def _scope(spec: ToolSpec) -> str:
    """The tool's scope; a tool with read and write actions also the one its writes need
    (read from the catalog's own rule, applied to the tool's example, a write)."""
    shown = f"`{spec.scope.value}`"
    writing = spec.needed_scope(spec.example)
    if writing is not spec.scope:
        shown += f", schreibend `{writing.value}`"
    return shown


def _flags(spec: ToolSpec) -> str:
    parts = [f"Scope {_scope(spec)}"]
    parts.append("liest nur" if spec.read_only else "schreibt")
    if spec.idempotent:
        parts.append("wiederholsicher (gleicher Aufruf = gleiche Antwort)")
    if spec.destructive:
        parts.append("löscht")
    return " · ".join(parts)


def render_tool(spec: ToolSpec) -> list[str]:
    fields = list(_fields(spec.input_schema))
    limits, loose = _limit_rows(spec.name, fields)
    lines = [
        f"### `{spec.name}`",
        "",
        f"**{spec.title}** — {_flags(spec)}",
        "",
        spec.description,
        "",
        "| Feld | Typ | Pflicht | Beschreibung | Regeln und Grenzen |",
        "|---|---|---|---|---|",
    ]
    for f in fields:
        rules = [*f.rules, *limits.get(f.path, ())]
        lines.append(
            f"| `{f.path}` | {_cell(f.types)} | {f.required} | {_cell(f.description)} "
            f"| {_cell('; '.join(dict.fromkeys(rules)))} |"
        )
    if loose:
        lines += ["", "Weitere Grenzen: " + "; ".join(limit.text() for limit in loose) + "."]
    example = json.dumps(spec.example, ensure_ascii=False, indent=2)
    lines += ["", "Beispiel:", "", "```json", *example.splitlines(), "```", ""]
    return lines


def render_reference() -> list[str]:
    """The generated section: an overview table, the common limits, one part per tool."""
    lines = [
        "| Tool | Titel | Scope | schreibt |",
        "|---|---|---|---|",
    ]
    for spec in TOOLS.values():
        writes = "nein" if spec.read_only else ("ja, löscht" if spec.destructive else "ja")
        lines.append(
            f"| [`{spec.name}`](#{spec.name}) | {_cell(spec.title)} | {_scope(spec)} | {writes} |"
        )
    lines += ["", f"Für jeden Aufruf: {REQUEST_LIMITS}.", ""]
    for spec in TOOLS.values():
        lines += render_tool(spec)
    while lines and lines[-1] == "":
        lines.pop()
    return lines
