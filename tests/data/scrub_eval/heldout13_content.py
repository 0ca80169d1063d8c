"""Content makers of the thirteenth held-out set (judge13): values that must survive scrubbing.

Identifiers, references and public material in their real shapes — digests, UUIDs, object and
order ids, public keys, fingerprints, addresses, base64 payloads — none of them grants access.
Names start with `h13c_` (no earlier maker is shadowed). Check digits are computed where the
format has them (EAN-13, IBAN, IMEI), so a value looks the way a system prints it.
"""

from __future__ import annotations

import base64
import random

from tests.data.scrub_eval.heldout13_values import (
    ALNUM,
    B64,
    B64URL,
    DIGITS,
    HEX,
    LOWER,
    UPPER,
    b64_of,
    pick,
)
from tests.data.scrub_eval.heldout13_values import _uuid as uuid4

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def h13c_sha256(rng: random.Random) -> str:
    return pick(rng, HEX, 64)


def h13c_sha1(rng: random.Random) -> str:
    return pick(rng, HEX, 40)


def h13c_md5(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h13c_short_sha(rng: random.Random) -> str:
    return pick(rng, HEX, 9)


def h13c_uuid(rng: random.Random) -> str:
    return uuid4(rng)


def h13c_uuid_nodash(rng: random.Random) -> str:
    return uuid4(rng).replace("-", "")


def h13c_uuid_upper(rng: random.Random) -> str:
    return uuid4(rng).upper()


def h13c_ulid(rng: random.Random) -> str:
    return "01J" + pick(rng, CROCKFORD, 23)


def h13c_ksuid(rng: random.Random) -> str:
    return "2" + pick(rng, ALNUM, 26)


def h13c_mongo_oid(rng: random.Random) -> str:
    return "6" + pick(rng, HEX, 23)


def h13c_nanoid(rng: random.Random) -> str:
    return pick(rng, B64URL, 21)


def h13c_trace_id(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h13c_span_id(rng: random.Random) -> str:
    return pick(rng, HEX, 16)


def h13c_docker_digest(rng: random.Random) -> str:
    return "sha256:" + pick(rng, HEX, 64)


def h13c_container_id(rng: random.Random) -> str:
    return pick(rng, HEX, 12)


def h13c_png(rng: random.Random) -> str:
    return "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA" + b64_of(rng, 90)


def h13c_gzip_b64(rng: random.Random) -> str:
    return "H4sIAAAAAAAA/" + b64_of(rng, 72)


def h13c_pdf_b64(rng: random.Random) -> str:
    return "JVBERi0xLjcKJeLjz9MK" + b64_of(rng, 60)


def h13c_sri(rng: random.Random) -> str:
    return "sha384-" + b64_of(rng, 48)


def h13c_npm_integrity(rng: random.Random) -> str:
    return "sha512-" + b64_of(rng, 64)


def h13c_ssh_pub(rng: random.Random) -> str:
    return "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + pick(rng, B64, 43)


def h13c_ssh_fp(rng: random.Random) -> str:
    return "SHA256:" + pick(rng, B64, 43)


def h13c_gpg_fp(rng: random.Random) -> str:
    return " ".join(pick(rng, "0123456789ABCDEF", 4) for _ in range(10))


def h13c_cert_serial(rng: random.Random) -> str:
    return ":".join(pick(rng, "0123456789ABCDEF", 2) for _ in range(16))


def h13c_age_recipient(rng: random.Random) -> str:
    return "age1" + pick(rng, BECH32, 58)


def h13c_wg_pub(rng: random.Random) -> str:
    return b64_of(rng, 32)


def h13c_jwks_n(rng: random.Random) -> str:
    return base64.urlsafe_b64encode(rng.randbytes(192)).decode().rstrip("=")


def h13c_btc_addr(rng: random.Random) -> str:
    return "bc1q" + pick(rng, BECH32, 38)


def h13c_eth_addr(rng: random.Random) -> str:
    return "0x" + pick(rng, "0123456789abcdefABCDEF", 40)


def h13c_eth_tx(rng: random.Random) -> str:
    return "0x" + pick(rng, HEX, 64)


def h13c_stripe_pi(rng: random.Random) -> str:
    return "pi_3" + pick(rng, ALNUM, 23)


def h13c_stripe_cus(rng: random.Random) -> str:
    return "cus_" + pick(rng, ALNUM, 14)


def h13c_ami(rng: random.Random) -> str:
    return "ami-0" + pick(rng, HEX, 16)


def h13c_aws_account(rng: random.Random) -> str:
    return str(rng.randint(1, 9)) + pick(rng, DIGITS, 11)


def h13c_sg_id(rng: random.Random) -> str:
    return "sg-0" + pick(rng, HEX, 16)


def h13c_order_no(rng: random.Random) -> str:
    return f"B2B-2026-{rng.randint(100000, 999999)}"


def h13c_invoice(rng: random.Random) -> str:
    return f"RE-{rng.randint(2025, 2026)}-{rng.randint(1, 12):02d}-{rng.randint(1000, 9999)}"


def h13c_customer_no(rng: random.Random) -> str:
    return "KD-" + str(rng.randint(1000000, 9999999))


def h13c_ticket(rng: random.Random) -> str:
    return rng.choice(["OPS", "SUP", "INFRA", "KUNDE", "SEC"]) + "-" + str(rng.randint(1000, 9999))


def h13c_dhl(rng: random.Random) -> str:
    return "00340434" + pick(rng, DIGITS, 12)


def h13c_ups(rng: random.Random) -> str:
    return "1Z" + pick(rng, UPPER + DIGITS, 6) + pick(rng, DIGITS, 10)


def h13c_iban(rng: random.Random) -> str:
    bban = pick(rng, DIGITS, 18)
    num = int(bban + "131400")  # D=13, E=14, check digits 00
    check = 98 - num % 97
    iban = f"DE{check:02d}{bban}"
    return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))


def _luhn_complete(partial: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(partial)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            d -= 9 if d > 9 else 0
        total += d
    return partial + str((10 - total % 10) % 10)


def h13c_imei(rng: random.Random) -> str:
    return _luhn_complete("35" + pick(rng, DIGITS, 12))


def h13c_ean13(rng: random.Random) -> str:
    base = "40" + pick(rng, DIGITS, 10)
    s = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(base))
    return base + str((10 - s % 10) % 10)


def h13c_vin(rng: random.Random) -> str:
    return "WVW" + pick(rng, "ABCDEFGHJKLMNPRSTUVWXYZ0123456789", 14)


def h13c_mac(rng: random.Random) -> str:
    return ":".join(pick(rng, "0123456789ABCDEF", 2) for _ in range(6))


def h13c_serial(rng: random.Random) -> str:
    return pick(rng, UPPER, 2) + pick(rng, DIGITS, 2) + pick(rng, UPPER + DIGITS, 8)


def h13c_youtube(rng: random.Random) -> str:
    return pick(rng, B64URL, 11)


def h13c_gdoc_id(rng: random.Random) -> str:
    return "1" + pick(rng, B64URL, 43)


def h13c_pod(rng: random.Random) -> str:
    name = rng.choice(["api", "worker", "ingest", "billing", "search"])
    return f"{name}-{pick(rng, HEX[:10] + 'bcdf', 10)}-{pick(rng, LOWER + DIGITS, 5)}"


def h13c_cf_ray(rng: random.Random) -> str:
    return pick(rng, HEX, 16) + "-" + rng.choice(["FRA", "AMS", "MUC", "ZRH", "VIE"])


def h13c_run_id(rng: random.Random) -> str:
    return str(rng.randint(10**10, 10**11 - 1))


def h13c_pkce_challenge(rng: random.Random) -> str:
    return pick(rng, B64URL, 43)


def h13c_csp_nonce(rng: random.Random) -> str:
    return b64_of(rng, 18)


def h13c_etag(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h13c_login(rng: random.Random) -> str:
    first = rng.choice(["jana", "ole", "mira", "tarek", "svenja", "ingo", "leyla", "bart"])
    last = rng.choice(["schubert", "okonkwo", "brandt", "nowak", "hartl", "lindqvist"])
    return rng.choice([f"{first}.{last}", f"{first[0]}{last}", f"{first}_{last[:3]}"])


def h13c_host(rng: random.Random) -> str:
    return (
        rng.choice(["nas", "pve", "mqtt", "git", "kasse", "print"])
        + "-"
        + str(rng.randint(10, 99))
        + rng.choice([".lan", ".intern.firma.example", ".home.arpa"])
    )


def h13c_version(rng: random.Random) -> str:
    return f"{rng.randint(1, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 40)}"


def h13c_idem_key(rng: random.Random) -> str:
    return "idem-" + pick(rng, B64URL, 24)


def h13c_phone(rng: random.Random) -> str:
    return f"+49 {rng.randint(151, 179)} {rng.randint(1000000, 9999999)}"
