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

Linear time: every quantifier is bounded, whitespace runs are possessive (`\\s{1,8}+`) and
never adjacent to another quantifier over the same characters, and unquoted values are
possessive runs: a rule either fails within a bounded number of steps or consumes what it
scanned, so `finditer` never rescans (the engine trims sentence punctuation off the end of a
value and checks `follow`-conditions after the match instead of backtracking into it).
"""

from __future__ import annotations

from typing import Final

_LETTER: Final = "A-Za-z0-9ÄÖÜäöüß"
_SP: Final = r"\s{1,8}+"  # whitespace, at least one (bounded, possessive)
_OSP: Final = r"\s{0,8}+"  # optional whitespace
_COLON_OR_SPACE: Final = rf"(?:{_OSP}:{_OSP}|{_SP})"  # "ist: X", "ist : X", "ist X"

# --- keys ----------------------------------------------------------------------------------

PW_KEY: Final = (
    rf"(?P<key>(?:passwor[dt]|kennwort|passwd|passphrase|passcode"
    r"|(?:wlan|wifi|wi-fi|wpa2?|netzwerk)[- ]?(?:schl(?:ü|ue)ssel|key)"
    rf"|(?<![{_LETTER}])(?:pw|pwd|pass|pswd|pword)|(?<=bind)pw)(?-i:(?:_[A-Z0-9]{{1,24}}+){{0,2}}+))"
    rf"(?![{_LETTER}])"
)
SECRETISH_KEY: Final = (
    r"(?P<key>(?:secret|token|api[-_. ]?key|apikey|api[-_. ]?schl(?:ü|ue)ssel|access[-_. ]?key"
    r"|private[-_. ]?key|signing[-_. ]?key|encryption[-_. ]?key|master[-_. ]?key|auth[-_. ]?key"
    r"|app[-_. ]?key|subscription[-_. ]?key|credentials?|(?<![A-Za-z])pat(?![A-Za-z])"
    r"|authorization"
    r"|geheimnis|(?:(?<![A-Za-z])|(?<=ungs)|(?<=geheim)|(?<=signatur)|(?<=master)|(?<=privat))"
    r"schl(?:ü|ue)ssel|(?<![A-Za-z])(?:2fa|mfa|totp|otp)[-_. ]?(?:seed|secret|key)"
    r"|zugangsschl(?:ü|ue)ssel|api[-_. ]?secret|api[-_. ]?hash|sas[-_. ]?key|shared[-_. ]?key"
    r"|(?<![A-Za-z])key)"
    r"[A-Za-z0-9_\-]{0,24}+)"
)
QUALIFIER: Final = (
    rf"(?:{_OSP}\([^()\n]{{0,40}}+\))?"
    rf"(?:{_SP}(?:für|fuer|fürs|für's|fuers|for|of|vom|von|des|der|zum|zur|to|on|at|bei|beim"
    rf"|im|am|auf|from|in|meiner|meines|deiner|deines|seiner|seines|ihrer|ihres|unserer|unseres"
    rf"|eurer|eures|dieser|dieses){_SP}(?:[^\n:=.;,!?\"'`\[\]{{}}()<>]|[.!](?=\w)){{1,40}}?)?"
    rf"(?:{_OSP}\([^()\n]{{0,80}}+\))?"
)

# --- separators ----------------------------------------------------------------------------

STRONG_SEP: Final = (
    rf"[\"']?(?:{_OSP}(?::{{1,3}}=|\?=|!==?|=>|={{1,3}}|->|→|:)|\s{{0,7}}+\s[–—])"
    rf"(?:(?<=[–—])\s{{1,8}}+|{_OSP})"
)
"""`:`, `=`, `=>`, `->`, a dash, the assignments of Go and make (`:=`, `?=`, `::=`,
`:::=`: `SNYK_TOKEN ?= "…"`) and a comparison in code (`if (api_key != "…")`, `===`)."""
STRONG_WORD_SEP: Final = (
    rf"{_SP}(?:lautet|lautete|lauten|heißt|heisst|hei(?:ß|ss)t)"
    rf"(?:{_SP}(?:jetzt|nun|neu|ab{_SP}sofort|aktuell))?{_COLON_OR_SPACE}"
)
WEAK_SEP: Final = (
    rf"{_SP}(?:ist|is|war|was|wäre|would{_SP}be|bleibt|remains)"
    rf"(?:{_SP}(?:jetzt|nun|now|aktuell|currently|immer{_SP}noch|still|weiterhin|ab{_SP}sofort"
    rf"|temporär|temporarily|vorübergehend|wieder|again))?{_COLON_OR_SPACE}"
)
CHANGED_TO_SEP: Final = (
    rf"{_SP}(?:(?:wurde|wird|ist|was|is|has{_SP}been|have|habe|haben|hab){_SP})?"
    rf"(?:jetzt{_SP}|now{_SP})?"
    r"(?:geändert|geaendert|gesetzt|changed|set|reset|zurückgesetzt|updated|aktualisiert"
    rf"|rotiert|rotated|umgestellt){_SP}(?:auf|zu|in|to|into|as|als){_SP}"
    rf"(?:(?:das|den|the){_SP})?(?:(?:neue|new){_SP})?"
)

# --- values --------------------------------------------------------------------------------

# An unquoted value is one possessive run; the engine trims `.:)]}` off its end ("Passwort ist
# Sommer2024." keeps the sentence's full stop) - a possessive run never backtracks.
_UNQUOTED_BODY: Final = r"(?:[^\s;,\"'`<>„“”«»&]++|&(?![\w.-]{1,64}+=)|>(?=[^\s<>\"'`]))"
"""An unquoted value's characters: no space, quote or separator; `&` unless a query's next
`key=` follows; `>` inside it (`finds>-_$#`), not at its end (`<user:password>`)."""
_ADVERB_FIRST: Final = (
    r"(?:(?:übrigens|uebrigens|btw|inzwischen|mittlerweile|jetzt|nun|now|still|noch|immer"
    r"|weiterhin|aktuell|currently|derzeit|wieder|again|also|auch|einfach|simply|just|nur"
    r"|unverändert|unchanged|vorerst|übergangsweise|temporarily|nach wie vor)\s{1,8}+){0,2}+"
)
"""Adverbs between a key's mark and its value (`lautet übrigens X`, `is still X`): skipped."""
VALUE: Final = (
    _ADVERB_FIRST + r"(?:\"(?P<v1>(?:[^\"\\\n]|\\[^\n]){1,200}+)\"|'(?P<v2>[^'\n]{1,200}+)'"
    r"|„(?P<v3>[^“”\"\n]{1,200}+)[“”\"]|[“«](?P<v4>[^”»\n]{1,200}+)[”»]|`(?P<v5>[^`\n]{1,200}+)`"
    rf"|(?P<v>{_UNQUOTED_BODY}{{1,200}}+))"
)
RANDOM_VALUE: Final = (
    r"(?:```[\w-]{0,20}+\s{1,8}+|[\"'„“`])?(?:base64:)?(?P<v>[A-Za-z0-9+/=_\-.~]{1,1024}+)"
)
"""A random value, also quoted or as the first line of a code block after its key."""
RANDOM_FOLLOW: Final = r"(?:$|[\s\"'`,;&)\]}<>“”]|\.(?:\s|$))"
"""What must follow a RANDOM_VALUE (checked by the engine after the match)."""
PHRASE_VALUE: Final = r"(?P<v>[A-Za-zÄÖÜäöüß0-9][^\n.;,\"]{3,200}?)(?=\s{0,8}+(?:[.;,\n\"]|$))"

# --- assembled rules -----------------------------------------------------------------------

_BLOCK_SCALAR: Final = r"(?:[|>][+-]?[ \t]{0,8}+\n[ \t]{1,16}+)?"
"""YAML's block scalar after a key's colon (`password: |`): the value is on the next line."""
_CODE_SUFFIX_STOP: Final = (
    r"(?:reset|hint|min|max|field|label|prompt|confirm|confirmation|required|enabled|disabled"
    r"|regex|pattern|rules?|strength|manager|errors?|message|msg|changed?|help|text|title"
    r"|placeholder|visible|toggle|icon|input|form|mode|hash|hashed|salt|history|age|last"
    r"|updated|set|key|file|path|url|id|name|type|length|len|policy|expiry|expires|env|var|ref)"
)
PW_CODE_KEY: Final = (
    rf"(?P<key>(?:passwor[dt]|passwd|passphrase|(?<![{_LETTER}])(?:pass|pwd))"
    rf"(?:_(?!{_CODE_SUFFIX_STOP}(?![a-z0-9]))[a-z0-9]{{1,24}}+){{1,2}}+)(?![{_LETTER}_])"
)
PW_CODE: Final = (
    rf"{PW_CODE_KEY}{_OSP}(?::{{1,3}}=|\?=|=>|=|:){_OSP}@?"
    r"(?:\"(?P<v1>[^\"\n]{1,200}+)\"|'(?P<v2>[^'\n]{1,200}+)'|`(?P<v5>[^`\n]{1,200}+)`)"
)
"""A code identifier that goes on after its password word (`my_password_super_secure = "X"`,
`db_pass_prod: 'X'`) with a quoted value: `PW_KEY` takes only capitals after the word
(`MYSQL_ROOT_PASSWORD`), since `password_reset` and `password_min_length` name settings; here a
suffix that names a setting (`_CODE_SUFFIX_STOP`) ends the key, and the value must be quoted."""
PW_STRONG: Final = rf"{PW_KEY}{QUALIFIER}(?:{STRONG_SEP}|{STRONG_WORD_SEP}){_BLOCK_SCALAR}{VALUE}"
PW_WEAK: Final = rf"{PW_KEY}{QUALIFIER}{WEAK_SEP}{VALUE}"
PW_CHANGED: Final = rf"{PW_KEY}{QUALIFIER}{CHANGED_TO_SEP}{VALUE}"
PW_AUF: Final = (
    rf"{PW_KEY}{QUALIFIER}(?:{_SP}(?:wurde|wird|ist|hab(?:e|en)?))?{_SP}"
    rf"(?:jetzt{_SP}|nun{_SP})?auf{_SP}{VALUE}{_SP}"
    r"(?:geändert|geaendert|gesetzt|zurückgesetzt|aktualisiert|umgestellt|changed)"
)
PW_WITH: Final = (
    rf"(?:\b(?:mit|with|using|via|per){_SP}(?:(?:dem|the|einem|a|neuem|new){_SP})?"
    rf"|\b(?:set|change|changed|reset|updated|setze|ändere|setz|änder){_SP}(?:(?:the|das|dein|your){_SP})?"
    r"(?:[\w-]{1,40}+[- ])?)"
    rf"{PW_KEY}(?:{_SP}(?:to|auf|zu))?{_SP}{VALUE}"
)
PW_INVERTED: Final = (
    r"(?<![^\s„“\"'«(])(?P<v>[^\s\"'`<>„“”«»]{4,64}+)[“”\"'»]?"
    rf"{_SP}(?:ist|is){_SP}(?:das|the|unser|our|sein|his|ihr|her|mein|my|dein|your){_SP}"
    rf"(?:(?:neues?|new|aktuelles?|current){_SP})?(?:[\w-]{{1,40}}-)?(?:passwort|password|kennwort)\b"
    r"|(?<![^\s„“\"'«(])(?P<v1>[^\s\"'`<>„“”«»]{4,64}+)[“”\"'»]?"
    rf"{_SP}(?:as|als){_SP}"
    rf"(?:(?:the|das|dein|your|unser|our|neues?|new){_SP}){{0,4}}+(?:[\w-]{{2,20}}+{_SP})?"
    r"(?:passwort|password|kennwort)\b"
)
"""`X ist das neue Passwort`, `I used X as the root password` (one word may name whose)."""
PW_BARE: Final = rf"{PW_KEY}{_SP}{VALUE}"
PW_LOOSE: Final = (
    rf"{PW_KEY}(?:'s|\s)(?:[^\n:=;{{}}@/\\<>-]|-(?!>)){{0,40}}?(?::|->|=>|→|=){_SP}{VALUE}"
)
PW_TOOL: Final = (
    r"-(?<=\s-)(?:p(?:'(?P<v1>[^'\n]{1,200}+)'|\"(?P<v2>[^\"\n]{1,200}+)\""
    r"|(?P<v3>[^\s'\"]{3,200}+))"
    r"|(?:a|p|P|-pass)\s{1,8}+(?:'(?P<v4>[^'\n]{1,200}+)'|\"(?P<v5>[^\"\n]{1,200}+)\""
    r"|(?P<v>[^\s'\"]{1,200}+)))"
)
"""`mysql -pX`, `7z a -pX`, `redis-cli -a X`, `zip -P X`: the validator checks the command
before it on the line."""
PW_COMMAND: Final = (
    r"(?:ConvertTo-SecureString\s{1,8}+(?:-String\s{1,8}+)?(?:\"(?P<v1>[^\"\n]{1,200}+)\""
    r"|'(?P<v2>[^'\n]{1,200}+)')\s{1,8}+-AsPlainText"
    r"|htpasswd\s{1,8}+-[ac-zA-Z]{0,4}+b[A-Za-z]{0,4}+\s{1,8}+\S{1,200}+\s{1,8}+\S{1,64}+\s{1,8}+"
    r"(?P<v3>[^\s'\"]{1,200}+)"
    r"|net\s{1,8}+use\s{1,8}+(?:[A-Za-z]:\s{1,8}+)?\\\\\S{1,200}+\s{1,8}+(?P<v4>[^\s/*'\"]\S{0,199}+)"
    r"\s{1,8}+/user:"
    r"|-(?<=\s-)(?:src|dest)?(?:store|key)pass\s{1,8}+(?P<v5>[^\s'\"]{1,200}+))"
)
"""Passwords as arguments of commands: PowerShell's `ConvertTo-SecureString "X" -AsPlainText`,
`htpasswd -b file user X`, `net use Z: \\\\srv\\share X /user:…`, keytool's `-storepass X`,
`echo 'X' | docker login … --password-stdin` (`PW_ECHO_STDIN`)."""
PW_ECHO_STDIN: Final = (
    r"echo\s{1,8}+(?:-n\s{1,8}+)?(?:'(?P<v1>[^'\n]{1,200}+)'|\"(?P<v2>[^\"\n]{1,200}+)\""
    r"|(?P<v>[^\s'\"|]{1,200}+))\s{0,8}+\|[^\n|]{0,200}?--password-stdin"
)
PW_COMMAND_ANCHORS: Final = (
    "convertto-securestring", "htpasswd", "net use", "-storepass", "-keypass", "-srcstorepass",
    "-deststorepass", "-srckeypass", "-destkeypass",
)  # fmt: skip
WIFI_QR: Final = r"WIFI:(?:[^;\n]{0,64}+;){0,6}?P:(?P<v>(?:\\.|[^;\\\n]){1,64}+)"
"""A Wi-Fi QR code's text (`WIFI:T:WPA;S:Buero;P:<key>;;`)."""
HTTP_AUTH_TUPLE: Final = (
    r"(?:auth|HTTPBasicAuth|HTTPDigestAuth|BasicAuth)\s{0,8}+(?:=\s{0,8}+)?\(\s{0,8}+"
    r"[\"'][^\"'\n]{1,64}+[\"']\s{0,8}+,\s{0,8}+(?:\"(?P<v1>[^\"\n]{1,200}+)\"|'(?P<v2>[^'\n]{1,200}+)')"
)
"""`requests.get(url, auth=('admin', 'X'))`, `HTTPBasicAuth("u", "X")`: the second string."""
BITLOCKER_KEY: Final = r"(?<![\d-])\d{6}(?:-\d{6}){7}(?![\d-])"
"""A BitLocker recovery key: eight groups of six digits."""
ATTR_SETTING: Final = (
    r"(?<![\w-])(?:key|name)[\"']?\s{0,8}+[:=]\s{0,8}+[\"']?(?P<key>[\w.:-]{0,40}?(?:passw(?:or[dt]|ort)"
    r"|kennwort|passwd|pwd|secret|token|api[-_.]?key|apikey|access[-_.]?key|private[-_.]?key"
    r"|session[-_]?id|sessid))[\"']?[\s,]{1,40}?(?:-\s{1,8}+)?[\"']?value[\"']?\s{0,8}+[:=]\s{0,8}+"
    r"(?:\"(?P<v>[^\"\n]{1,200}+)\"|(?P<v2>[^\"'\s,}<>]{1,200}+))"
)
"""A setting as a name/value record: XML attributes (`<add key="ApiKey" value="X"/>`,
`<property name="password" value="X"/>`), JSON (`{"name":"sessionid","value":"X"}`: cookies,
parameter stores) and YAML (`- name: DB_PASSWORD` / `  value: X`: container env)."""
PW_CLI: Final = rf"--(?<![\w-]--)[a-z-]{{0,40}}?pass(?:word|wd)?(?:=|{_SP}){VALUE}"
PW_XML: Final = r"<(?P<key>[\w.-]{0,40}?(?:password|passwort|passwd))>(?P<v>[^<\s]{1,200}+)</"
CREDENTIAL_PAIR: Final = (
    r"(?<![A-Za-z])(?P<key>zugangs?(?:daten)?|credentials|creds|login(?:[- ]?daten)?"
    rf"|anmelde(?:daten|infos?)|user{_OSP}/{_OSP}pass(?:word)?"
    rf"|benutzer{_OSP}/{_OSP}(?:passwort|pw))"
    rf"(?:(?:{_SP}[\w.-]{{1,30}}+){{1,3}}(?={_OSP}[:=]))?"  # "Login Lieferantenportal: max / X"
    rf"(?:(?:{QUALIFIER}{_OSP}(?:[:=]|->|→){_OSP}|{_SP})[^\s/:,;]{{1,64}}+{_OSP}(?:/|:|\s\|\s)"
    rf"|{QUALIFIER}{_SP}[^\s/:,;]{{1,64}}+{_OSP}/)"  # "Login fürs Portal max / X"
    rf"{_OSP}"
    rf"(?P<v>{_UNQUOTED_BODY}{{1,200}}+)"
)
ACCOUNT_SLASH_VALUE: Final = (
    r"(?<![^\s(„\"'])(?P<key>[A-Za-z][\w.@-]{1,40}+) / (?P<v>[^\s/\"'`<>„“”«»]{8,64}+)"
)
"""`jana.k / Kx9#mP2qL`: an account and a password without a key word; the validator wants a
value no prose has (letters of both cases, a digit and a symbol)."""
WIFI_KEY: Final = (
    r"(?P<key>(?<![A-Za-z])(?:key|schl(?:ü|ue)ssel|psk))"
    rf"(?:{STRONG_SEP}|{STRONG_WORD_SEP}|{WEAK_SEP}|{_SP}){VALUE}"
)
"""`SSID Gast, key X`: the validator wants a Wi-Fi word before the key on its line."""
PASSPHRASE: Final = (
    rf"(?P<key>passphrase|pass{_SP}phrase|passsatz|merksatz|kennsatz)"
    rf"{QUALIFIER}(?:{_OSP}[\"']?{_OSP}[:=]{_OSP}{PHRASE_VALUE}"
    rf"|{WEAK_SEP}(?:\"(?P<v1>[^\"\n]{{8,200}}+)\"|„(?P<v2>[^“”\"\n]{{8,200}}+)[“”\"]))"
)
SEED_PHRASE: Final = (
    r"(?P<key>seed[-\s]?phrase|recovery[-\s]?phrase|mnemonic|wiederherstellungs(?:phrase|satz)"
    r"|seed[-\s]?w(?:ö|o)rter|seed[-\s]?words|backup[-\s]?phrase|secret\s{1,4}+recovery\s{1,4}+phrase)"
    rf"{QUALIFIER}[\"']?(?:{_OSP}[:=]|{_SP}(?:ist|is|lautet)){_OSP}[\"'„“]?"
    r"(?P<v>(?:[a-z]{3,8}+\s{1,4}+(?=[a-z])){11,23}+[a-z]{3,8}+)\b"
)
NOT_A_PIN: Final = (
    r"(?!\s{0,4}+(?:Zeichen|Stellen|stellig|digits|characters|chars|Tage|days|Versuche|attempts"
    r"|mal|times|x\b|%|€|Euro|EUR|Minuten|minutes|Sekunden|seconds))(?![.,:/-]\d)"
)
"""What follows a number that counts something (`4 Versuche`, `12 Zeichen`, `3.5`): no PIN."""
PIN: Final = (
    r"(?<![A-Za-z])(?P<key>PIN|PIN-Code|PIN\s{1,4}+code|Pincode|PUK|Entsperrcode|unlock\s{1,4}+code"
    r"|Geheimzahl|Geheimnummer|Kartenpin"
    r"|Zugangscode|access\s{1,4}+code|Türcode|door\s{1,4}+code|Alarmcode|alarm\s{1,4}+code"
    r"|Tresorcode|(?:tor|garagen|safe|schlie(?:ß|ss)fach|haust(?:ü|ue)r|alarmanlagen)-?code"
    r"|(?:gate|garage|safe|locker|lockbox|alarm\s{1,4}+system|keypad)[-\s]{1,4}+code"
    r"|Code\s{1,4}+(?:der|des|vom|von|f(?:ü|ue)r|fürs|of\s{1,4}+the|for\s{1,4}+the|to\s{1,4}+the)"
    r"\s{1,4}+(?:Alarmanlage|Haust(?:ü|ue)r|T(?:ü|ue)r|Tor|Garage|Garagentor|Tresor|Safe"
    r"|Schlie(?:ß|ss)fach|gate|door|alarm|garage|safe|locker))\b"
    rf"{QUALIFIER}(?:{_OSP}[:=]{_OSP}|{_SP}(?:ist|is|lautet|was|war){_COLON_OR_SPACE}"
    rf"|{CHANGED_TO_SEP}|(?:{_SP}(?:wurde|wird|ist|hab(?:e|en)?))?{_SP}auf(?={_SP}\d{{4,8}}+"
    rf"{_SP}(?:geändert|geaendert|gesetzt|zurückgesetzt|umgestellt)){_SP})"
    rf"[\"'„“]?(?P<v>\d{{4,8}}+)\b{NOT_A_PIN}"
)
"""A PIN or a lock's code after its name and a mark: `Die PIN der Firmenkarte ist 4711`,
`door code changed to 5521`, `Der Türcode wurde auf 5521 geändert`."""
GENERIC_STRONG: Final = (
    rf"{SECRETISH_KEY}{QUALIFIER}(?:{STRONG_SEP}|{STRONG_WORD_SEP}){_BLOCK_SCALAR}{RANDOM_VALUE}"
)
GENERIC_QUOTED: Final = (
    rf"{SECRETISH_KEY}{QUALIFIER}(?:{STRONG_SEP}|{STRONG_WORD_SEP}|{WEAK_SEP})"
    r"(?:\"(?P<v1>[^\"\s]{16,200}+)\"|'(?P<v2>[^'\s]{16,200}+)')"
)
GENERIC_BARE: Final = rf"{SECRETISH_KEY}{_SP}{RANDOM_VALUE}"
GENERIC_SYMBOLS: Final = (
    rf"{SECRETISH_KEY}{QUALIFIER}{STRONG_SEP}"
    r"(?P<v>(?:[A-Za-z0-9+=_\-.~!$%*#^?]|&(?![\w.-]{1,64}+=)){16,200}+)"
)
"""`JWT_SECRET=aB3%x!…`: a secret with symbols the random rows stop at (`checks.symbol_secret`)."""
PIN_BARE: Final = (
    r"(?<![A-Za-z])(?P<key>PIN|PIN-Code|PUK|Geheimzahl|Türcode|Alarmcode|Tresorcode|Zugangscode"
    r"|Entsperrcode|Kartenpin)"
    rf"{_SP}(?P<v>(?!19[5-9]\d\b|20[0-3]\d\b)\d{{4,8}}+)\b(?![.,:/-]\d)"
    r"(?!\s{0,4}+(?:Zeichen|Stellen|stellig|digits|characters|chars|Versuche|attempts|x\b|%|€))"
)
LOCK_CODE: Final = (
    r"(?<![A-Za-z])(?P<key>Tresor|Safe|Haust(?:ü|ue)r|Hintert(?:ü|ue)r|T(?:ü|ue)r|Tor|Garage"
    r"|Garagentor|Schlie(?:ß|ss)fach|Spind|Schl(?:ü|ue)ssel(?:kasten|safe|tresor)|Alarmanlage"
    r"|door|gate|locker|lockbox|key\s{1,4}+box)(?![A-Za-z])"
    rf"{QUALIFIER}{_OSP}[:,]{_OSP}(?:Zahlen)?(?:Code|Kombination|combination)(?![A-Za-z])"
    rf"(?:{_OSP}[:=]{_OSP}|{_SP}(?:ist|is|lautet){_COLON_OR_SPACE}|{_SP})[\"'„“]?"
    rf"(?P<v>\d{{4,8}}+)\b{NOT_A_PIN}"
)
"""A lock named first, its code after a colon: `Tresor im Lager: Code 151232`."""
LOCK_ANCHORS: Final = (
    "tresor", "safe", "haust", "hintert", "tür", "tuer", "tor", "garage", "schließ", "schliess",
    "spind", "schlüssel", "schluessel", "alarm", "door", "gate", "locker", "lockbox", "key",
)  # fmt: skip
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
    "shared", "key", "2fa", "mfa", "totp", "otp", "pat", "geheim",
)  # fmt: skip
PAIR_ANCHORS: Final = ("zugang", "credential", "creds", "login", "anmelde", "user", "benutzer")
PIN_ANCHORS: Final = (
    "pin", "puk", "entsperrcode", "unlock", "zugangscode", "access", "türcode", "door",
    "alarm", "tresorcode", "geheimzahl", "geheimnummer", "kartenpin", "torcode", "garage",
    "safe", "schließfach", "schliessfach", "haustür", "haustuer", "gate", "locker", "lockbox",
    "keypad", "code",
)  # fmt: skip
CVC: Final = (
    r"(?<![A-Za-z])(?P<key>CVV2?|CVC2?|Kartenpr(?:ü|ue)fnummer|Kartenpr(?:ü|ue)fziffer"
    r"|Sicherheitscode|security\s{1,4}+code|card\s{1,4}+verification(?:\s{1,4}+(?:code|value))?)"
    rf"(?![A-Za-z]){QUALIFIER}(?:{_OSP}[:=]{_OSP}|{_SP}(?:ist|is|lautet|was|war){_COLON_OR_SPACE}"
    rf"|{_SP})[\"'„“]?(?P<v>\d{{3,4}}+)\b(?![.,:/-]\d)"
)
"""A card's security code (3 or 4 digits) after its name: `CVC der Firmenkarte: 418`."""
CVC_ANCHORS: Final = (
    "cvv", "cvc", "kartenprüf", "kartenpruef", "sicherheitscode", "security", "card",
)  # fmt: skip
_ONE_CODE: Final = (
    r"(?:[A-Za-z0-9]{3,10}+(?:-[A-Za-z0-9]{3,10}+){1,4}+|\d{3,10}+(?: \d{3,10}+){0,3}+"
    r"|(?=[A-Za-z]{0,15}+\d)[A-Za-z0-9]{4,16}+)"
)
_LIST_WORD: Final = r"(?:und|and|oder|or|sowie)"
_ITEM: Final = r"(?:(?:\d{1,2}+[.)]|[-*•])[ \t]{1,4}+)?"
"""A list item's mark before a code: `1. `, `2) `, `- `, `• `."""
RECOVERY_CODES: Final = (
    r"(?<![A-Za-z])(?P<key>(?:recovery|backup|wiederherstellungs|notfall|sicherungs|2fa|mfa"
    r"|totp)[-\s]?codes?)(?![A-Za-z])"
    rf"{QUALIFIER}(?:{_OSP}[:=]{_OSP}|{_SP}(?:ist|is|sind|are|lautet|lauten){_COLON_OR_SPACE}"
    rf"|{_OSP}[,(–-][^\n:=]{{1,40}}+:[ \t]{{0,8}}+\r?\n"
    r"|[ \t]{0,8}+\r?\n(?=[ \t]{0,8}+(?:\d{1,2}[.)]|[-*•])[ \t]))"
    rf"(?P<v>{_ITEM}{_ONE_CODE}"
    rf"(?:(?:{_OSP}[,;]{_OSP}|\n[ \t]{{0,8}}+|{_SP}{_LIST_WORD}{_SP}){_ITEM}{_ONE_CODE}){{0,15}}+)"
    r"(?![\w-])"
)
"""One-time recovery codes after their name: `Backup-Codes für 2FA: 2670 1046, LF1L-OPS0-…`,
or as a list under a heading line that names them (`Recovery codes, keep them safe:⏎…`), its
items numbered or bulleted (`1. 9424 9875⏎2. …`, then the heading needs no colon); the list
may end in a conjunction (`…, mjn01-1id7b und gausc-c6muz`)."""
RECOVERY_ANCHORS: Final = (
    "recovery", "backup", "wiederherstellungs", "notfall", "sicherungs", "2fa", "mfa", "totp",
)  # fmt: skip
SESSION_COOKIE: Final = (
    r"(?<![\w.-])(?P<key>(?i:session[_-]?id|sessionid|session|sessid|connect\.sid|phpsessid"
    r"|jsessionid|asp\.net_sessionid|laravel_session|_[a-z]{2,20}_session|remember_token"
    r"|__(?:Secure|Host)-[\w-]{1,40}))=(?P<v>[A-Za-z0-9%._\-+/=:]{16,512}+)"
)
"""A session cookie (`Cookie: sessionid=…`, `connect.sid=s%3A…`): its value is a login."""
SESSION_ANCHORS: Final = (
    "sess",
    "connect.sid",
    "_session",
    "remember_token",
    "__secure-",
    "__host-",
)
PGPASS_LINE: Final = (
    r"(?<![\w.:-])(?:[A-Za-z0-9][\w-]{0,62}+(?:\.[\w-]{1,62}+){1,8}+|localhost|\*)"
    r":(?:\d{4,5}+|\*):[\w*.$-]{1,63}+:[\w*.@$-]{1,63}+:(?P<v>[^\s:]{1,200}+)"
)
"""A `.pgpass` line, `host:port:database:user:password`: the last field is the password."""
ORACLE_LOGIN: Final = (
    r"(?<![\w-])(?:sqlplus|rman|expdp|impdp|sqlldr|sqlcl|conn(?:ect)?)\s{1,8}+"
    r"(?:-[A-Za-z]{1,10}+\s{1,8}+){0,3}+[\w.$#-]{1,30}+/(?P<v>[^\s/@\"']{1,128}+)@"
)
"""`sqlplus user/password@host:1521/SERVICE` (Oracle EZConnect): the part after the slash."""
ORACLE_ANCHORS: Final = ("sqlplus", "rman", "expdp", "impdp", "sqlldr", "sqlcl", "conn")
SMB_USER: Final = r"-(?<=\s-)U\s{0,8}+[\"']?[\w.$@\\-]{1,64}+%(?P<v>[^\s\"'%]{1,200}+)"
"""`smbclient -U user%password` (Samba's user%password convention)."""
TABLE_CELL: Final = r"\|[ \t]{1,8}+(?P<v>[^|\s]{4,64}+)[ \t]{1,8}+(?=\|)"
"""One cell of a Markdown table; the validator reads its column's header."""
TABLE_ANCHORS: Final = (
    "pass", "pw", "kennw", "secret", "geheim", "token", "key", "schlüssel", "pin", "credential",
)  # fmt: skip
SPACED_PHRASE: Final = (
    r"(?P<key>(?:wlan|wifi|wi-fi|wpa2?|netzwerk)[- ]?(?:schl(?:ü|ue)ssel|key|passwor[dt]"
    rf"|kennwort)|passwor[dt]|kennwort|passphrase|passsatz|merksatz|kennsatz){QUALIFIER}"
    rf"(?:{STRONG_SEP}|{STRONG_WORD_SEP}|{WEAK_SEP})[\"'„“]?"
    r"(?P<v>[A-Za-zÄÖÜäöüß0-9]{2,20}+(?:[ +][A-Za-zÄÖÜäöüß0-9]{2,20}+){2,7}+)"
    r"(?=[\"'“”]?[ \t]{0,8}+(?:[.;,!\n)]|$))"
)
"""A Wi-Fi key or passphrase of words with spaces: `WLAN-Schlüssel lautet Nudel blue Ampel`."""
PASSPHRASE_ANCHORS: Final = ("pass", "merksatz", "kennsatz")
SEED_ANCHORS: Final = ("seed", "recovery", "mnemonic", "wiederherstellungs", "backup", "secret")
