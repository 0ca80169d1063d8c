"""Regex building blocks for secrets that are only recognisable by the words around them.

A context rule is `KEY [qualifier] SEPARATOR VALUE`:

* KEY: a password word (`Passwort`, `Kennwort`, `pw`, `DB_PASSWORD`, ...) or a secret word
  (`secret`, `token`, `api_key`, `client_secret`, `Schlüssel`, ...), also inside compounds
  (`WLAN-Passwort`, `Datenbankpasswort`, `MYSQL_ROOT_PASSWORD`, `X-API-Key`) but not followed by
  more word (`Passwortmanager`, `password_reset`, `Passwort-Reset`).
* qualifier: `(neu)`, `für den Admin-Account`, `for the staging DB`.
* SEPARATOR: strong (`:`, `=`, `->`, `lautet`, `heißt`) or weak (`ist`, `is`, `war`), which the
  validators treat differently: after a weak one the value must look like a password.
* VALUE: quoted (`"..."`, `'...'`, `„...“`, `` `...` ``) or one unquoted token that does not
  take the sentence's closing punctuation (`.`, `:`, `)`) with it; `!` and `?` stay, they are
  common last characters of passwords.

Every value sits in a named group `v` ... `v5`; the scrubber takes the first one that matched.
"""

from __future__ import annotations

from typing import Final

_LETTER: Final = "A-Za-z0-9ÄÖÜäöüß"

# --- keys ----------------------------------------------------------------------------------

PW_KEY: Final = (
    rf"(?P<key>(?:passwor[dt]|kennwort|passwd|passphrase|passcode"
    r"|(?:wlan|wifi|wi-fi|wpa2?|netzwerk)[- ]?(?:schl(?:ü|ue)ssel|key)"
    rf"|(?<![{_LETTER}])(?:pw|pwd|pass|pswd|pword))(?-i:(?:_[A-Z0-9]+){{0,2}}))(?![{_LETTER}])"
)
SECRETISH_KEY: Final = (
    r"(?P<key>(?:secret|token|api[-_. ]?key|apikey|api[-_. ]?schl(?:ü|ue)ssel|access[-_. ]?key"
    r"|private[-_. ]?key|signing[-_. ]?key|encryption[-_. ]?key|master[-_. ]?key|auth[-_. ]?key"
    r"|app[-_. ]?key|subscription[-_. ]?key|credentials?|(?<![A-Za-z])schl(?:ü|ue)ssel"
    r"|zugangsschl(?:ü|ue)ssel|api[-_. ]?secret|sas[-_. ]?key|shared[-_. ]?key|(?<![A-Za-z])key)"
    r"[A-Za-z0-9_\-]{0,24})"
)
QUALIFIER: Final = (
    r"(?:\s*\([^()\n]{0,40}\))?"
    r"(?:\s+(?:für|fuer|fürs|für's|fuers|for|of|vom|von|des|der|zum|zur|to|on|at|bei|beim|im|am|auf|from|in)"
    r"\s+(?:[^\n:=.;,!?\"'`\[\]{}()<>]|\.(?=\w)){1,40}?)?"
    r"(?:\s*\([^()\n]{0,40}\))?"
)

# --- separators ----------------------------------------------------------------------------

STRONG_SEP: Final = r"[\"']?\s*(?::=|=>|->|→|=|:|\s[–—])\s*"
STRONG_WORD_SEP: Final = (
    r"\s+(?:lautet|lautete|lauten|heißt|heisst|hei(?:ß|ss)t)"
    r"(?:\s+(?:jetzt|nun|neu|ab\s+sofort|aktuell))?\s*:?\s+"
)
WEAK_SEP: Final = (
    r"\s+(?:ist|is|war|was|wäre|would\s+be|bleibt|remains)"
    r"(?:\s+(?:jetzt|nun|now|aktuell|currently|immer\s+noch|still|weiterhin|ab\s+sofort"
    r"|temporär|temporarily|vorübergehend|wieder|again))?\s*:?\s+"
)
CHANGED_TO_SEP: Final = (
    r"\s+(?:(?:wurde|wird|ist|was|is|has\s+been|have|habe|haben|hab)\s+)?(?:jetzt\s+|now\s+)?"
    r"(?:geändert|geaendert|gesetzt|changed|set|reset|zurückgesetzt|updated|aktualisiert"
    r"|rotiert|rotated|umgestellt)\s+(?:auf|zu|in|to|into|as|als)\s+"
    r"(?:(?:das|den|the)\s+)?(?:(?:neue|new)\s+)?"
)

# --- values --------------------------------------------------------------------------------

_UNQUOTED_BODY: Final = r"(?:[^\s;,\"'`<>„“”«»&]|&(?![\w.-]+=))"
_UNQUOTED_LAST: Final = r"[^\s;,\"'`<>„“”«».:)\]}&]"

VALUE: Final = (
    r"(?:\"(?P<v1>[^\"\n]{1,200})\"|'(?P<v2>[^'\n]{1,200})'"
    r"|„(?P<v3>[^“”\"\n]{1,200})[“”\"]|[“«](?P<v4>[^”»\n]{1,200})[”»]|`(?P<v5>[^`\n]{1,200})`"
    rf"|(?P<v>{_UNQUOTED_BODY}{{0,200}}{_UNQUOTED_LAST}))"
)
RANDOM_VALUE: Final = (
    r"[\"'„“`]?(?P<v>[A-Za-z0-9+/=_\-.~]*[A-Za-z0-9+/=_\-~])"
    r"(?=$|[\s\"'`,;&)\]}<>“”]|\.(?:\s|$))"
)
PHRASE_VALUE: Final = r"(?P<v>[A-Za-zÄÖÜäöüß0-9][^\n.;,\"]{3,200}?)(?=\s*(?:[.;,\n\"]|$))"

# --- assembled rules -----------------------------------------------------------------------

PW_STRONG: Final = rf"{PW_KEY}{QUALIFIER}(?:{STRONG_SEP}|{STRONG_WORD_SEP}){VALUE}"
PW_WEAK: Final = rf"{PW_KEY}{QUALIFIER}{WEAK_SEP}{VALUE}"
PW_CHANGED: Final = rf"{PW_KEY}{QUALIFIER}{CHANGED_TO_SEP}{VALUE}"
PW_AUF: Final = (
    rf"{PW_KEY}{QUALIFIER}\s+(?:wurde|wird|ist|hab(?:e|en)?)\s+(?:jetzt\s+|nun\s+)?auf\s+"
    rf"{VALUE}\s+(?:geändert|geaendert|gesetzt|zurückgesetzt|aktualisiert|umgestellt)"
)
PW_WITH: Final = (
    r"(?:\b(?:mit|with|using|via|per)\s+(?:dem\s+|the\s+|einem\s+|a\s+|neuem\s+|new\s+)?"
    r"|\b(?:set|change|reset|setze|ändere|setz|änder)\s+(?:the\s+|das\s+|dein\s+|your\s+)?"
    r"(?:[\w-]+[- ])?)"
    rf"{PW_KEY}(?:\s+(?:to|auf|zu))?\s+{VALUE}"
)
PW_INVERTED: Final = (
    r"(?<![^\s„“\"'«(])(?P<v>[^\s\"'`<>„“”«»]{4,64})[“”\"'»]?\s+(?:ist|is)\s+"
    r"(?:das|the|unser|our|sein|his|ihr|her|mein|my|dein|your)\s+"
    r"(?:neues?\s+|new\s+|aktuelles?\s+|current\s+)?(?:[\w-]+-)?(?:passwort|password|kennwort)\b"
    r"|(?<![^\s„“\"'«(])(?P<v1>[^\s\"'`<>„“”«»]{4,64})[“”\"'»]?\s+(?:as|als)\s+"
    r"(?:(?:the|das|dein|your|unser|our|neues?|new)\s+)*(?:passwort|password|kennwort)\b"
)
PW_BARE: Final = rf"{PW_KEY}\s+{VALUE}"
PW_LOOSE: Final = (
    rf"{PW_KEY}(?:'s|\s)(?:[^\n:=;{{}}@/\\<>-]|-(?!>)){{0,40}}?(?::|->|=>|→|=)\s+{VALUE}"
)
PW_TOOL: Final = (
    r"\b(?:(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p(?:'(?P<v1>[^'\n]+)'"
    r"|\"(?P<v2>[^\"\n]+)\"|(?P<v3>[^\s'\"]{3,}))"
    r"|(?:redis-cli|sshpass|keydb-cli)\b[^\n]*?\s(?:-a|-p|--pass)\s+(?P<v>[^\s'\"]+))"
)
PW_CLI: Final = rf"--(?<![\w-]--)[a-z-]*pass(?:word|wd)?(?:=|\s+){VALUE}"
PW_XML: Final = r"<(?P<key>[\w.-]*(?:password|passwort|passwd))>(?P<v>[^<\s]{1,200})</"
CREDENTIAL_PAIR: Final = (
    r"(?<![A-Za-z])(?P<key>zugangs?(?:daten)?|credentials|creds|login(?:[- ]?daten)?"
    r"|anmelde(?:daten|infos?)|user\s*/\s*pass(?:word)?|benutzer\s*/\s*(?:passwort|pw))"
    rf"(?:{QUALIFIER}\s*[:=]\s*|\s+)[^\s/:,;]{{1,64}}\s*(?:/|:|\s\|\s)\s*"
    rf"(?P<v>{_UNQUOTED_BODY}{{0,200}}{_UNQUOTED_LAST})"
)
PASSPHRASE: Final = (
    r"(?P<key>passphrase|pass\s+phrase|passsatz|merksatz|kennsatz)"
    rf"{QUALIFIER}\s*[\"']?\s*[:=]\s*{PHRASE_VALUE}"
)
SEED_PHRASE: Final = (
    r"(?P<key>seed[-\s]?phrase|recovery[-\s]?phrase|mnemonic|wiederherstellungs(?:phrase|satz)"
    r"|seed[-\s]?w(?:ö|o)rter|seed[-\s]?words|backup[-\s]?phrase|secret\s+recovery\s+phrase)"
    rf"{QUALIFIER}[\"']?\s*(?:[:=]|\s(?:ist|is|lautet))\s*[\"'„“]?"
    r"(?P<v>(?:[a-z]{3,8}\s+){11,23}[a-z]{3,8})\b"
)
PIN: Final = (
    r"(?<![A-Za-z])(?P<key>PIN|PIN-Code|PIN\s+code|Pincode|PUK|Entsperrcode|unlock\s+code"
    r"|Geheimzahl|Geheimnummer|Kartenpin"
    r"|Zugangscode|access\s+code|Türcode|door\s+code|Alarmcode|alarm\s+code|Tresorcode)\b"
    rf"{QUALIFIER}(?:\s*[:=]\s*|\s+(?:ist|is|lautet|was|war)\s*:?\s+)[\"'„“]?(?P<v>\d{{4,8}})\b"
    r"(?!\s*(?:Zeichen|Stellen|stellig|digits|characters|chars|Tage|days|Versuche|attempts|mal"
    r"|times|x\b|%|€|Euro|EUR|Minuten|minutes|Sekunden|seconds))(?![.,:/-]\d)"
)
GENERIC_STRONG: Final = (
    rf"{SECRETISH_KEY}{QUALIFIER}(?:{STRONG_SEP}|{STRONG_WORD_SEP}){RANDOM_VALUE}"
)
GENERIC_QUOTED: Final = (
    rf"{SECRETISH_KEY}{QUALIFIER}(?:{STRONG_SEP}|{STRONG_WORD_SEP}|{WEAK_SEP})"
    r"(?:\"(?P<v1>[^\"\s]{16,200})\"|'(?P<v2>[^'\s]{16,200})')"
)
GENERIC_BARE: Final = rf"{SECRETISH_KEY}\s+{RANDOM_VALUE}"
PIN_BARE: Final = (
    r"(?<![A-Za-z])(?P<key>PIN|PIN-Code|PUK|Geheimzahl|Türcode|Alarmcode|Tresorcode)"
    r"\s+(?P<v>(?!19[5-9]\d\b|20[0-3]\d\b)\d{4,8})\b(?![.,:/-]\d)"
    r"(?!\s*(?:Zeichen|Stellen|stellig|digits|characters|chars|Versuche|attempts|x\b|%|€))"
)
GENERIC_WEAK: Final = rf"{SECRETISH_KEY}{QUALIFIER}{WEAK_SEP}{RANDOM_VALUE}"

# --- anchors: lowercase literals at which the key of a rule starts --------------------------

PW_ANCHORS: Final = (
    "pass",
    "pw",
    "pswd",
    "kennwort",
    "wlan",
    "wifi",
    "wi-fi",
    "wpa",
    "netzwerk",
)
SECRET_ANCHORS: Final = (
    "secret", "token", "api", "access", "private", "signing", "encryption", "master", "auth",
    "app", "subscription", "credential", "schlüssel", "schluessel", "zugangsschl", "sas",
    "shared", "key",
)  # fmt: skip
PAIR_ANCHORS: Final = ("zugang", "credential", "creds", "login", "anmelde", "user", "benutzer")
PIN_ANCHORS: Final = (
    "pin", "puk", "entsperrcode", "unlock", "zugangscode", "access", "türcode", "door",
    "alarm", "tresorcode", "geheimzahl", "geheimnummer", "kartenpin",
)  # fmt: skip
PASSPHRASE_ANCHORS: Final = ("pass", "merksatz", "kennsatz")
SEED_ANCHORS: Final = ("seed", "recovery", "mnemonic", "wiederherstellungs", "backup", "secret")
