"""Content makers of the third held-out set (seed 31877): identifiers, digests, codes,
versions and personal data that an agent's memory holds and that must survive scrubbing
(CONTRACT §8: identifiers without a credential context are content). Written by the judge
track from the shapes the standards and platforms publish; every maker is `(rng) -> str`,
its name starts with `h3_` (no earlier maker is shadowed). All values are random.
"""

from __future__ import annotations

import base64
import json
import random
import uuid

from tests.data.scrub_eval.heldout3_values import B62, DIGITS, HEX, LOWER, UPPER, URLSAFE, _run

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
FIRST = ("Jana", "Lukas", "Mehmet", "Sofia", "Priya", "Tobias", "Ines", "Kwame", "Marta", "Jonas")
LAST = ("Krüger", "Yilmaz", "Nowak", "Hofmann", "Okafor", "Lindqvist", "Brandt", "Rossi")
STREETS = ("Lindenstraße", "Am Mühlbach", "Bergmannstr.", "Schillerweg", "Hauptstraße")
CITIES = (("10961", "Berlin"), ("80331", "München"), ("50667", "Köln"), ("04109", "Leipzig"))


# --- digests and identifiers -----------------------------------------------------------------
def h3_commit(rng: random.Random) -> str:
    return _run(rng, HEX, 40)


def h3_short_sha(rng: random.Random) -> str:
    return _run(rng, HEX, 9)


def h3_sha256(rng: random.Random) -> str:
    return _run(rng, HEX, 64)


def h3_md5(rng: random.Random) -> str:
    return _run(rng, HEX, 32)


def h3_uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def h3_uuid_hex(rng: random.Random) -> str:
    return uuid.UUID(int=rng.getrandbits(128), version=4).hex


def h3_ulid(rng: random.Random) -> str:
    return "01J" + _run(rng, CROCKFORD, 23)


def h3_png_uri(rng: random.Random) -> str:
    body = base64.b64encode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + rng.randbytes(180))
    return "data:image/png;base64," + body.decode("ascii")


def h3_jpeg_b64(rng: random.Random) -> str:
    head = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    return base64.b64encode(head + rng.randbytes(150)).decode("ascii")


def h3_docker_digest(rng: random.Random) -> str:
    return "sha256:" + _run(rng, HEX, 64)


def h3_container_id(rng: random.Random) -> str:
    return _run(rng, HEX, 12)


def h3_sri(rng: random.Random) -> str:
    return "sha512-" + base64.b64encode(rng.randbytes(64)).decode("ascii")


def h3_trace_parent(rng: random.Random) -> str:
    return f"00-{_run(rng, HEX, 32)}-{_run(rng, HEX, 16)}-01"


def h3_gpg_fingerprint(rng: random.Random) -> str:
    raw = _run(rng, "0123456789ABCDEF", 40)
    return " ".join(raw[i : i + 4] for i in range(0, 40, 4))


def h3_ssh_ed25519_pub(rng: random.Random) -> str:
    return "AAAAC3NzaC1lZDI1NTE5AAAAI" + base64.b64encode(rng.randbytes(32)).decode()[:43]


def h3_wireguard_public(rng: random.Random) -> str:
    return base64.b64encode(rng.randbytes(32)).decode("ascii")


def h3_eth_address(rng: random.Random) -> str:
    return "0x" + _run(rng, HEX, 40)


def h3_cursor(rng: random.Random) -> str:
    data = {"offset": rng.randrange(50, 5000), "sort": rng.choice(("created", "name"))}
    return base64.b64encode(json.dumps(data).encode()).decode("ascii")


def h3_youtube(rng: random.Random) -> str:
    return _run(rng, URLSAFE, 11)


def h3_gdoc(rng: random.Random) -> str:
    return "1" + _run(rng, URLSAFE, 43)


def h3_stripe_customer(rng: random.Random) -> str:
    return "cus_" + _run(rng, B62, 14)


def h3_stripe_object(rng: random.Random) -> str:
    return rng.choice(("pi_3", "in_1", "ch_3", "re_3")) + _run(rng, B62, 23)


def h3_slack_channel(rng: random.Random) -> str:
    return "C0" + _run(rng, UPPER + DIGITS, 9)


def h3_snowflake(rng: random.Random) -> str:
    return str(rng.randrange(10**17, 12 * 10**17))


def h3_google_client_id(rng: random.Random) -> str:
    return f"{_run(rng, DIGITS, 12)}-{_run(rng, LOWER + DIGITS, 32)}.apps.googleusercontent.com"


def h3_arn(rng: random.Random) -> str:
    account = _run(rng, DIGITS, 12)
    name = rng.choice(("role/deploy-ci", "policy/ReadOnlyBilling", "role/lambda-exec"))
    return f"arn:aws:iam::{account}:{name}"


def h3_ec2_id(rng: random.Random) -> str:
    return rng.choice(("i-0", "sg-0", "vpc-0", "subnet-0")) + _run(rng, HEX, 16)


def h3_pod(rng: random.Random) -> str:
    app = rng.choice(("api", "worker", "billing-sync", "web"))
    safe = "bcdfghjklmnpqrstvwxz2456789"  # the alphabet of Kubernetes' generated suffixes
    return f"{app}-{_run(rng, safe, 10)}-{_run(rng, safe, 5)}"


def h3_sentry_event(rng: random.Random) -> str:
    return _run(rng, HEX, 32)


def h3_mac(rng: random.Random) -> str:
    return ":".join(_run(rng, HEX, 2) for _ in range(6))


def h3_ipv6(rng: random.Random) -> str:
    return "2001:db8:" + ":".join(_run(rng, HEX, 4) for _ in range(3)) + "::" + _run(rng, HEX, 3)


def h3_serial(rng: random.Random) -> str:
    return "C02" + _run(rng, UPPER + DIGITS, 9)


# --- codes, numbers, versions ----------------------------------------------------------------
def _ean_check(digits: str) -> str:
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(digits))
    return digits + str((10 - total % 10) % 10)


def h3_ean13(rng: random.Random) -> str:
    return _ean_check("40" + _run(rng, DIGITS, 10))


def h3_isbn13(rng: random.Random) -> str:
    return _ean_check("9783" + _run(rng, DIGITS, 8))


def h3_sku(rng: random.Random) -> str:
    return f"{_run(rng, UPPER, 2)}-{_run(rng, DIGITS, 4)}-{rng.choice(('DE', 'EU', 'XL', 'BLK'))}"


def h3_amazon_order(rng: random.Random) -> str:
    return f"30{_run(rng, DIGITS, 1)}-{_run(rng, DIGITS, 7)}-{_run(rng, DIGITS, 7)}"


def h3_order_code(rng: random.Random) -> str:
    return rng.choice(("BE", "AU", "WEB")) + "-2026-" + _run(rng, DIGITS, 6)


def h3_invoice(rng: random.Random) -> str:
    return f"RE{_run(rng, DIGITS, 2)}/{_run(rng, DIGITS, 5)}"


def h3_tracking(rng: random.Random) -> str:
    return "1Z" + _run(rng, UPPER + DIGITS, 16)


def h3_version(rng: random.Random) -> str:
    v = f"{rng.randint(0, 9)}.{rng.randint(0, 40)}.{rng.randint(0, 20)}"
    pre, build = f"-rc.{rng.randint(1, 5)}", f"+build.{rng.randint(10, 999)}"
    return rng.choice((v, "v" + v, v + pre, v + build))


def h3_jira(rng: random.Random) -> str:
    return rng.choice(("OPS", "BRAIN", "PAY", "SEC", "INFRA")) + "-" + str(rng.randrange(100, 9999))


def h3_epoch_ms(rng: random.Random) -> str:
    return str(rng.randrange(1_760_000_000_000, 1_800_000_000_000))


def h3_amount(rng: random.Random) -> str:
    return f"{rng.randrange(1, 999)}.{rng.randrange(100, 999)},{rng.randrange(10, 99)} €"


def h3_license_plate(rng: random.Random) -> str:
    return f"{rng.choice(('B', 'M', 'HH', 'K'))}-{_run(rng, UPPER, 2)} {rng.randrange(10, 9999)}"


def h3_masked_card(rng: random.Random) -> str:
    return "•••• •••• •••• " + _run(rng, DIGITS, 4)


# --- personal data ---------------------------------------------------------------------------
def h3_name(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def h3_email(rng: random.Random) -> str:
    first, last = rng.choice(FIRST).lower(), rng.choice(("krueger", "yilmaz", "nowak", "okafor"))
    return f"{first}.{last}@{rng.choice(('example.org', 'firma.example', 'mail.example.com'))}"


def h3_phone(rng: random.Random) -> str:
    return rng.choice(
        (
            f"+49 151 {_run(rng, DIGITS, 8)}",
            f"0170 {_run(rng, DIGITS, 3)} {_run(rng, DIGITS, 4)}",
            f"+43 664 {_run(rng, DIGITS, 7)}",
            f"+41 79 {_run(rng, DIGITS, 3)} {_run(rng, DIGITS, 2)} {_run(rng, DIGITS, 2)}",
            f"(415) {rng.randrange(200, 999)}-{_run(rng, DIGITS, 4)}",
            f"+44 7700 {_run(rng, DIGITS, 6)}",
        )
    )


def h3_address(rng: random.Random) -> str:
    zip_code, city = rng.choice(CITIES)
    return f"{rng.choice(STREETS)} {rng.randrange(1, 120)}, {zip_code} {city}"


def h3_birthday(rng: random.Random) -> str:
    return f"{rng.randrange(1, 29):02d}.{rng.randrange(1, 13):02d}.{rng.randrange(1950, 2006)}"


def _iban(country: str, bban: str) -> str:
    moved = bban + country + "00"
    number = int("".join(str(int(c, 36)) for c in moved))
    check = 98 - number % 97
    raw = f"{country}{check:02d}{bban}"
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def h3_iban(rng: random.Random) -> str:
    country, length = rng.choice((("DE", 18), ("AT", 16), ("CH", 17)))
    return _iban(country, _run(rng, DIGITS, length))


def h3_bic(rng: random.Random) -> str:
    return _run(rng, UPPER, 4) + rng.choice(("DE", "AT", "CH")) + _run(rng, UPPER + DIGITS, 2)


def h3_tax_id(rng: random.Random) -> str:
    return str(rng.randrange(1, 10)) + _run(rng, DIGITS, 10)


def h3_pension_number(rng: random.Random) -> str:
    birth = f"{rng.randrange(1, 29):02d}{rng.randrange(1, 13):02d}{rng.randrange(50, 99)}"
    return f"{rng.randrange(10, 80)} {birth} {rng.choice(UPPER)} {_run(rng, DIGITS, 3)}"


def h3_health_insurance(rng: random.Random) -> str:
    return rng.choice(UPPER) + _run(rng, DIGITS, 9)


def h3_id_card(rng: random.Random) -> str:
    return rng.choice("LMNPRT") + _run(rng, "CFGHJKLMNPRTVWXYZ0123456789", 8)


def h3_vat_id(rng: random.Random) -> str:
    return "DE" + _run(rng, DIGITS, 9)


def h3_customer_number(rng: random.Random) -> str:
    return "KD-" + _run(rng, DIGITS, 7)


def h3_ssn(rng: random.Random) -> str:
    return f"{rng.randrange(100, 665)}-{rng.randrange(10, 99)}-{rng.randrange(1000, 9999)}"
