"""Passwords that software takes as a plain argument: a command's flag and a config directive.

Many tools read a password from a flag whose name says nothing about it (`sqlcmd -P X`,
`ipmitool -P X`, `ldapsearch -w X`, `xfreerdp /p:X`, `docker login -p X`, `mongosh -p X`,
`psexec -p X`) and many config files from a directive followed by a space, no `=` or `:`
(redis's `requirepass X` and `masterauth X`, slapd's `rootpw X`, nss-ldap's `bindpw X`,
snmpd's `rwcommunity X`, Cisco's `snmp-server community X`). `TOOL_FLAG` finds the flag with its
value, `tool_flag_password` accepts it only when the line's command is one whose flag it is
(`mysql -p shop` prompts and names a database; `mkdir -p`, `docker run -p 8080:80` are no
passwords); `DIRECTIVE` finds a directive at the start of a line, its value checked as any
password value.

Invariants: a flag counts only for the tools listed with it (`TOOL_FLAGS`), on the same line
before it; a directive only at a line's start; the value passes `checks.password_value`
(placeholders, references, prose, paths never count). Linear: both regexes are bounded and
anchored at their needles; the look-back is one bounded search. Pure, safe in any thread.
"""

from __future__ import annotations

import re
from typing import Final

from shared.scrubbing.checks import password_value

__all__ = [
    "DIRECTIVE", "DIRECTIVE_ANCHORS", "TOOL_FLAG", "TOOL_FLAGS", "TOOL_FLAG_ANCHORS",
    "tool_flag_password",
]  # fmt: skip

TOOL_FLAGS: Final[dict[str, frozenset[str]]] = {
    **dict.fromkeys(
        ("ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldappasswd",
         "ldapcompare", "ldapmodrdn", "ldapexop"),
        frozenset({"-w"}),
    ),
    **dict.fromkeys(("sqlcmd", "bcp", "osql", "isql", "ipmitool"), frozenset({"-P"})),
    **dict.fromkeys(
        ("mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport",
         "psexec", "psexec64", "paexec"),
        frozenset({"-p"}),
    ),
    **dict.fromkeys(("xfreerdp", "wlfreerdp", "sdl-freerdp"), frozenset({"/p:"})),
}  # fmt: skip
"""The tools whose flag takes the password itself as its argument, with that flag."""
_LOGIN_TOOLS: Final = ("docker", "podman", "helm", "buildah", "skopeo", "nerdctl", "oras")
"""`<tool> login … -p X`: the registry password (`-p` elsewhere in these tools is a port)."""
TOOL_FLAG: Final = (
    r"(?<![^\s])(?P<flag>-[wpP]|/p:)(?:(?<=:)|[ \t]{1,8}+)"
    r"(?:'(?P<v1>[^'\n]{1,200}+)'|\"(?P<v2>[^\"\n]{1,200}+)\"|(?P<v>[^\s'\"]{1,200}+))"
)
TOOL_FLAG_ANCHORS: Final = ("-w", "-p", "/p:")
_TOOL_WORD = re.compile(r"(?<![\w.-])([a-z][\w-]{1,20})(?:\.exe)?(?![\w-])")


def tool_flag_password(value: str, match: re.Match[str]) -> bool:
    """The flag is the password flag of a command before it on its line (see `TOOL_FLAGS`;
    `-p` of a container tool only after its `login`)."""
    text, flag = match.string, match.group("flag")
    line_start = max(text.rfind("\n", 0, match.start()) + 1, match.start() - 300)
    words = _TOOL_WORD.findall(text[line_start : match.start()].lower())
    if any(flag in TOOL_FLAGS.get(w, ()) for w in words):
        return password_value(value, match)
    if flag == "-p" and "login" in words and any(w in _LOGIN_TOOLS for w in words):
        return password_value(value, match)
    return False


DIRECTIVE: Final = (
    r"(?<![^\n])[ \t]{0,16}+(?P<key>requirepass|masterauth|rootpw|bindpw|rwcommunity6?"
    r"|rocommunity6?|snmp-server[ \t]{1,4}+community)[ \t]{1,8}+"
    r"(?:\"(?P<v1>[^\"\n]{1,200}+)\"|'(?P<v2>[^'\n]{1,200}+)'|(?P<v>[^\s\"']{1,200}+))"
)
"""A config line whose directive takes a password after a space: redis (`requirepass`,
`masterauth`), slapd (`rootpw`), nss/pam-ldap (`bindpw`), snmpd and Cisco (community strings)."""
DIRECTIVE_ANCHORS: Final = ("requirepass", "masterauth", "rootpw", "bindpw", "community")
