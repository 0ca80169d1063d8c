"""Rows of the pattern table for vendor formats with a distinctive structure (session 12).

Sources: the public rule lists of secret scanners - gitleaks' `config/gitleaks.toml`
(gitleaks/gitleaks, read 2026-12-05), trufflehog's detectors and GitHub secret scanning's
list of supported patterns - and the vendors' own documentation of their token forms. Each
row is written in this table's form (prefix, charset, length, a structure check where it is
cheap: `vendor_checks`), not copied. Formats whose body is mixed-case base62 after a short
prefix are found by the generic prefixed-token test already (`bare_checks`); the rows here
are those it cannot see: hex or lowercase bodies, `$`/`.`/`~` separators, checksummed or
encoded forms, and configuration syntax that names a device's shared secret (SNMP).
"""

from __future__ import annotations

import re

from shared.scrubbing import vendor_checks as v
from shared.scrubbing.model import BODY_END, SecretPattern, row
from shared.scrubbing.model import not_after as _nb

__all__ = ["ROWS"]

_END = BODY_END
_B58 = "[1-9A-HJ-NP-Za-km-z]"

# fmt: off
ROWS: tuple[SecretPattern, ...] = (
    row("braintree_token",
        r"access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}(?![A-Za-z0-9])",
        "gateway: ⟦access_token$production${l16}${h32}⟧", ("access_token$",)),
    row("buildkite_token", rf"bk(?:ua|at|ct)_{_nb(5)}[A-Za-z0-9]{{40,64}}{_END}",
        "Buildkite ⟦bkua_{h40}⟧", ("bkua_", "bkat_", "bkct_")),
    row("cloudflare_tunnel_token", r"eyJhIjo[gi](?<![\w+/]eyJhIjo.)[A-Za-z0-9+/]{60,2000}={0,2}",
        "cloudflared service install ⟦{cftunnel}⟧", ("eyjhijo",), check=v.cloudflare_tunnel),
    row("cloudflare_origin_ca_key", rf"v1\.0-{_nb(5)}[a-f0-9]{{24}}-[a-f0-9]{{146}}{_END}",
        "Origin CA key ⟦v1.0-{h24}-{h146}⟧", ("v1.0-",)),
    # bech32 (lower or upper case): the prefix and the 58 characters of 32 bytes + checksum
    row("nostr_secret_key",
        rf"(?:nsec1{_nb(5)}[02-9ac-hj-np-z]{{58}}|NSEC1{_nb(5)}[02-9AC-HJ-NP-Z]{{58}}){_END}",
        "Nostr ⟦NSEC1{c58}⟧", ("nsec1",)),
    row("crypto_private_key",
        rf"(?<!{_B58})(?:5[HJK]{_B58}{{49}}|[KL]{_B58}{{51}}|9{_B58}{{50}}|c{_B58}{{51}})"
        r"(?![A-Za-z0-9])",
        "Paper wallet (WIF): ⟦K{B51}⟧", check=v.wif_key, min_run=51),
    row("crypto_private_key", rf"[xtyz]prv{_nb(4)}{_B58}{{107,108}}(?![A-Za-z0-9])",
        "Electrum wallet master key ⟦xprv{B107}⟧", ("xprv", "tprv", "yprv", "zprv"),
        check=v.extended_private_key),
    row("azure_function_key",
        r"\.azurewebsites\.net/[^\s?#\"'<>]{0,300}+\?(?:[^\s#&\"'<>]{0,200}+&){0,10}?"
        r"code=(?P<v>[A-Za-z0-9_\-]{20,200}={0,2})",
        "https://fn.azurewebsites.net/api/ingest?code=⟦{w54}==⟧", ("azurewebsites.net",)),
    row("azure_function_key",
        r"x-functions-key[\"']?\s{0,4}[:=]\s{0,4}[\"']?(?P<v>[A-Za-z0-9_\-]{20,200}={0,2})",
        "-H 'x-functions-key: ⟦{w54}==⟧'", ("x-functions-key",), flags=re.I),
    row("snmp_community",
        r"(?:snmp-server\s{1,8}community|\b[rw][ow]community6?)\s{1,8}(?P<v>[^\s\"']{1,64})"
        r"|snmp(?:walk|get|getnext|bulkwalk|bulkget|set|table|trap)\b[^\n|;]{0,80}?\s-c\s{0,4}"
        r"(?P<v1>[^\s\"'-][^\s\"']{0,63})",
        "snmp-server community ⟦Mgmt{a8}⟧ RW",
        ("snmp-server", "community", "snmpwalk", "snmpget", "snmpbulk", "snmpset", "snmptable",
         "snmptrap"), check=v.snmp_community, flags=re.I),
)
# fmt: on
