"""Passwords that software takes as a plain argument: a flag, a directive, a call's argument.

Many tools read a password from a flag whose name says nothing about it (`mysql -pX`, `7z a
-pX`, `redis-cli -a X`, `zip -P X`: `db_tool_password`; `sqlcmd -P X`,
`ipmitool -P X`, `ldapsearch -w X`, `xfreerdp /p:X`, `docker login -p X`, `mongosh -p X`,
`psexec -p X`, `mosquitto_pub -P X`, `openssl enc -k X`: `TOOL_FLAG`), many config files from a
directive followed by a space, no `=` or `:` (redis's `requirepass X` and `masterauth X`,
slapd's `rootpw X`, nss-ldap's `bindpw X`, snmpd's `rwcommunity X`, Cisco's `snmp-server
community X`: `DIRECTIVE`); an LDAP bind names its password after the bind DN
(`cn=svc,ou=services,dc=acme mit X`: `LDAP_BIND`), a login call after the user
(`smtp.login('ops@x.org', 'X')`, `new NetworkCredential("svc", "X")`: `CREDENTIAL_CALL`) and
a browser test in the password field (`page.fill('#password', 'X')`: `FORM_FILL`).

Invariants: a flag counts only for the tools listed with it (`TOOL_FLAGS`) and only after that
tool on its line (`mysql -p shop` prompts and names a database; `mkdir -p`, `docker run -p
8080:80` are no passwords); a directive only at a line's start (SNMP's default communities
`public`/`private` are none); every value passes `checks.password_value` (placeholders,
references, prose, paths never count), after a bind DN, in a call or a form field also a
strong password's shape (`prose_checks.strong_shape`). Linear: the regexes are bounded and
anchored at their needles; the look-back is one bounded search. Pure, safe in any thread.
"""

from __future__ import annotations

import re
from typing import Final

from shared.scrubbing.checks import password_bare, password_value
from shared.scrubbing.prose_checks import strong_shape

__all__ = [
    "CREDENTIAL_CALL", "CREDENTIAL_CALL_ANCHORS", "DIRECTIVE", "DIRECTIVE_ANCHORS", "FORM_FILL",
    "LDAP_BIND", "LDAP_BIND_ANCHORS", "TOOL_FLAG", "TOOL_FLAGS", "TOOL_FLAG_ANCHORS",
    "call_password", "db_tool_password", "directive_password", "set_password",
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
    **dict.fromkeys(("mosquitto_pub", "mosquitto_sub", "mosquitto_rr"), frozenset({"-P"})),
    "openssl": frozenset({"-k"}),
}  # fmt: skip
"""The tools whose flag takes the password itself as its argument, with that flag."""
_LOGIN_TOOLS: Final = ("docker", "podman", "helm", "buildah", "skopeo", "nerdctl", "oras")
"""`<tool> login … -p X`: the registry password (`-p` elsewhere in these tools is a port)."""
TOOL_FLAG: Final = (
    r"(?<![^\s])(?P<flag>-[wpPk]|/p:)(?:(?<=:)|[ \t]{1,8}+)"
    r"(?:'(?P<v1>[^'\n]{1,200}+)'|\"(?P<v2>[^\"\n]{1,200}+)\"|(?P<v>[^\s'\"]{1,200}+))"
)
TOOL_FLAG_ANCHORS: Final = ("-w", "-p", "-k", "/p:")
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
_DEFAULT_COMMUNITIES: Final = frozenset({"public", "private"})
"""SNMP's default community names: a device's factory setting, named as such, not a secret."""


def directive_password(value: str, match: re.Match[str]) -> bool:
    """A directive's value is a password value; SNMP's default community names are none."""
    if "community" in match.group("key") and value.lower() in _DEFAULT_COMMUNITIES:
        return False
    return password_value(value, match)


LDAP_BIND: Final = (
    r"(?<![\w=])(?i:cn|uid)=[^,\s=]{1,64}+(?:,[A-Za-z]{1,3}+=[^,\s=]{1,64}+){1,8}+"
    r"[ \t]{1,4}+(?:mit|with|und|and|/|:|pw|password|passwort|kennwort)[:=]?[ \t]{1,4}+"
    r"(?P<v>[^\s\"'`<>]{6,64}+)"
)
"""A bind DN and its password: `cn=svc-wiki,ou=services,dc=firma,dc=local mit X`."""
LDAP_BIND_ANCHORS: Final = ("cn=", "uid=")


def set_password(value: str, match: re.Match[str]) -> bool:
    """A value the syntax sets as a password (after a bind DN, typed into a password field):
    a strong password's shape (not a word, host or path)."""
    v = value.rstrip(".,;:!?)")
    return strong_shape(v) and password_bare(v, match)


CREDENTIAL_CALL: Final = (
    r"(?P<fn>(?i:login|log_in|signin|sign_in|authenticate|connect|getconnection|credentials?"
    r"|pdo|simple_bind_s|basicauth|login_user))[ \t]{0,4}+\("
    r"(?P<args>[^()\n]{0,200}?),[ \t]{0,8}+(?:\"(?P<v1>[^\"\n]{4,200}+)\"|'(?P<v2>[^'\n]{4,200}+)')"
    r"[ \t]{0,8}+[,)]"
)
"""A call that logs in with its arguments, the password a string after the user's:
`smtp.login('alerts@example.com', 'X')`, `new NetworkCredential("svc", "X")`,
`DriverManager.getConnection(url, "app", "X")`, `new PDO($dsn, 'app', 'X')`."""
CREDENTIAL_CALL_ANCHORS: Final = (
    "login", "log_in", "signin", "sign_in", "authenticate", "connect", "credential", "pdo",
    "bind_s", "basicauth",
)  # fmt: skip
FORM_FILL: Final = (
    r"\.(?:fill|type)\([ \t]{0,4}+[\"'][^\"'\n]{0,60}?(?i:pass|pwd|kennwort)[^\"'\n]{0,60}?[\"'],"
    r"[ \t]{0,8}+(?:\"(?P<v1>[^\"\n]{4,200}+)\"|'(?P<v2>[^'\n]{4,200}+)')"
)
"""A browser test typing into a password field: `page.fill('#password', 'X')`."""


def call_password(value: str, match: re.Match[str]) -> bool:
    """The last string of a login call, after the user's (a quoted or named argument before it):
    a strong password's shape, not a host, address or path."""
    if not match.group("args").strip():
        return False  # `connect("X")`: one argument is a host or a DSN, not a password
    return set_password(value, match)


_DB_TOOL_LINE = re.compile(
    r"(?:^|[\s;|&(])(?P<tool>mysql|mysqldump|mysqladmin|mariadb|redis-cli|sshpass|keydb-cli"
    r"|7z|7za|7zr|rar|unrar|zip|unzip)\b"
)


def db_tool_password(value: str, match: re.Match[str]) -> bool:
    """`-pX` after mysql/mariadb/7z/rar, `-a X`/`-p X`/`--pass X` after redis-cli/sshpass,
    `-P X` after zip/unzip; the tool on the same line."""
    text = match.string
    line_start = max(text.rfind("\n", 0, match.start()) + 1, match.start() - 200)
    tools = {  # from the character before the line: `(?:^|\s)` sees the line break
        m.group("tool") for m in _DB_TOOL_LINE.finditer(text, max(0, line_start - 1), match.start())
    }
    if text.startswith("-P", match.start()):  # `zip -P X` (for mysql, -P is the port)
        wanted = {"zip", "unzip"}
    elif max(match.start("v"), match.start("v4"), match.start("v5")) >= 0:  # `-a X`, `-p 'X'`
        wanted = {"redis-cli", "sshpass", "keydb-cli"}
    else:  # `-pX` attached: mysql's password, 7-Zip's and RAR's archive password
        wanted = {"mysql", "mysqldump", "mysqladmin", "mariadb", "7z", "7za", "7zr", "rar", "unrar"}
    return bool(tools & wanted) and password_value(value, match)
