"""Reserved identity metadata in stored text (seed 004): author, account, device, tenant and
subject come from the token, never from the content.

What counts as an attempt to set them — each refused (`Sicherheitsablehnung`):
- YAML front matter (`---` … `---` at the start) naming a reserved key;
- JSON-like pairs (`"author": …`), bracketed tags (`[author: bob]`, `<!-- device: x -->`)
  and doc tags (`@author bob`);
- key/value lines (`author: bob`, `Konto = acme`, `**Gerät:** Pixel 8`, `- tenant: t1`)
  whose value is a value — one token, a quoted or bracketed value, anything after `=`, or a
  short name (every word capitalised, a number or an identifier).

What stays ordinary prose: a line that merely starts with such a word and goes on as a
sentence ("User: prefers short answers in German.", "Agent: always run tests before
deploying.", "Account: ACME renewal is due in March.").
"""

from __future__ import annotations

import re
from typing import Final

# Keys, normalised (casefolded, umlauts folded, separators " -" as "_").
_KEYS: Final = frozenset(
    {
        "author", "autor", "autorin", "verfasser", "verfasserin", "authored_by", "created_by",
        "written_by", "erstellt_von", "geschrieben_von", "verfasst_von", "user", "username",
        "user_name", "user_id", "userid", "nutzer", "nutzer_id", "nutzername", "benutzer",
        "benutzer_id", "benutzername", "agent", "agent_id", "agent_name", "account",
        "account_id", "account_name", "konto", "konto_id", "kontoname", "device", "device_id",
        "device_name", "geraet", "geraet_id", "geraetename", "geraetebezeichnung", "tenant",
        "tenant_id", "mandant", "mandant_id", "mandantin", "subject", "subject_id", "sub",
        "principal", "owner_id",
    }
)  # fmt: skip
_KEY: Final = r"[A-Za-zÄÖÜäöüß][A-Za-zÄÖÜäöüß0-9 _-]{0,30}?"
_LINE: Final = re.compile(
    rf"^\s*(?:[-*+>]\s+)?(?:\*\*|__)?(?P<key>{_KEY})(?:\*\*|__)?\s*(?P<sep>:|=)"
    r"(?:\*\*|__)?[ \t]*(?P<value>.*?)\s*$"
)
_PAIR: Final = re.compile(rf"[\"'](?P<key>{_KEY})[\"']\s*:")
_TAG: Final = re.compile(rf"(?:\[|\(|<!--|\{{)\s*(?P<key>{_KEY})\s*[:=]\s*[^\]\)\}}\n]{{1,80}}")
_DOC_TAG: Final = re.compile(r"(?m)^\s*@(?P<key>[A-Za-z_]+)\s+\S")
_TOKEN: Final = re.compile(r"^[\w.@+:/#-]+$")
_FRONT_MATTER_MAX_LINES: Final = 40


def _norm(key: str) -> str:
    folded = key.strip().casefold()
    for umlaut, plain in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        folded = folded.replace(umlaut, plain)
    return re.sub(r"[\s-]+", "_", folded)


def _reserved(key: str) -> bool:
    return _norm(key) in _KEYS


def _name_like(word: str) -> bool:
    """A word of a name or an identifier: capitalised, a number, or with ID characters."""
    return (
        word[0].isupper()
        or word[0].isdigit()
        or any(ch.isdigit() or ch in "@_.#/+-" for ch in word)
        or any(ch.isupper() for ch in word[1:])
    )


def _is_value(value: str, sep: str) -> bool:
    """Whether the text after `key:` / `key=` is a metadata value rather than prose."""
    if not value:
        return False
    if value[0] in "\"'[{<":
        return True
    words = value.split()
    if sep == "=":
        return len(words) <= 3 and "(" not in value
    if len(words) == 1:
        return bool(_TOKEN.match(value)) and not value.endswith((".", "!", "?"))
    if value.endswith((".", "!", "?", ",", ";")):
        return False
    return len(words) <= 5 and all(_name_like(word.strip(",;")) for word in words)


def _front_matter(lines: list[str]) -> list[str]:
    if not lines or lines[0].strip() not in ("---", "+++"):
        return []
    fence = lines[0].strip()
    closing = (number for number, line in enumerate(lines) if line.strip() in (fence, "..."))
    end = next((n for n in closing if 0 < n < _FRONT_MATTER_MAX_LINES), None)
    if end is None:
        return []
    found = []
    for line in lines[1:end]:
        match = _LINE.match(line)
        if match and _reserved(match["key"]):
            found.append(_norm(match["key"]))
    return found


def reserved_identity_keys(content: str) -> list[str]:
    """The reserved keys the content tries to set (normalised, each once, in order)."""
    lines = content.splitlines()
    found = _front_matter(lines)
    for line in lines:
        match = _LINE.match(line)
        if match and _reserved(match["key"]) and _is_value(match["value"], match["sep"]):
            found.append(_norm(match["key"]))
    for pattern in (_PAIR, _TAG, _DOC_TAG):
        found += [_norm(m["key"]) for m in pattern.finditer(content) if _reserved(m["key"])]
    return list(dict.fromkeys(found))
