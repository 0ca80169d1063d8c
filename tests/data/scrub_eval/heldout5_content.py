"""Content makers of the fifth held-out set (`h5k_*`): identifiers, digests, references and
personal data that a memory service must keep verbatim. Several look random (hex digests,
UUIDs, base64 cursors, transfer tickets); none is a credential, so changing one is a fault.
Check digits are right where the real scheme has one (IBAN mod 97, Luhn for IMEI).
"""

from __future__ import annotations

import base64
import random
import string

from tests.data.scrub_eval.heldout5_values import ALNUM, DIGITS, HEX, LOWER, UPPER, _luhn_digit, _r


def h5k_commit(rng: random.Random) -> str:
    return _r(rng, HEX, 40)


def h5k_short_sha(rng: random.Random) -> str:
    return _r(rng, HEX, 7)


def h5k_digest(rng: random.Random) -> str:
    return "sha256:" + _r(rng, HEX, 64)


def h5k_sha256(rng: random.Random) -> str:
    return _r(rng, HEX, 64)


def h5k_uuid(rng: random.Random) -> str:
    h = _r(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:]}"


def h5k_postman_uid(rng: random.Random) -> str:
    return f"{rng.randint(1_000_000, 39_999_999)}-{h5k_uuid(rng)}"


def h5k_run_id(rng: random.Random) -> str:
    return str(rng.randint(10_000_000_000, 13_999_999_999))


def h5k_pipeline_id(rng: random.Random) -> str:
    return str(rng.randint(1_000_000, 2_999_999_999))


def h5k_build(rng: random.Random) -> str:
    return str(rng.randint(100, 4999))


_POD = "bcdfghjklmnpqrstvwxz2456789"  # the alphabet of ReplicaSet and pod name suffixes


def h5k_pod(rng: random.Random) -> str:
    app = rng.choice(["api", "web", "worker", "checkout", "ingest", "billing"])
    return f"{app}-{_r(rng, _POD, 10)}-{_r(rng, _POD, 5)}"


def h5k_container(rng: random.Random) -> str:
    return _r(rng, HEX, 12)


def h5k_trace(rng: random.Random) -> str:
    return _r(rng, HEX, 32)


def h5k_span(rng: random.Random) -> str:
    return _r(rng, HEX, 16)


def h5k_etag(rng: random.Random) -> str:
    return f'W/"{_r(rng, HEX, 8)}-{_r(rng, ALNUM, 27)}"'


def h5k_request_id(rng: random.Random) -> str:
    return "req_" + _r(rng, ALNUM, 14)


def h5k_cursor(rng: random.Random) -> str:
    raw = f'{{"page":{rng.randint(2, 90)},"after":"{_r(rng, HEX, 12)}"}}'
    return base64.b64encode(raw.encode()).decode()


def h5k_ssh_fpr(rng: random.Random) -> str:
    return "SHA256:" + base64.b64encode(rng.randbytes(32)).decode().rstrip("=")


def h5k_wg_public(rng: random.Random) -> str:
    return base64.b64encode(rng.randbytes(32)).decode()


def h5k_resource_version(rng: random.Random) -> str:
    return str(rng.randint(1_000_000, 99_999_999))


def h5k_lsn(rng: random.Random) -> str:
    return f"{rng.randint(0, 9):X}/{_r(rng, HEX.upper(), 8)}"


def h5k_row_count(rng: random.Random) -> str:
    return str(rng.randint(12, 480_000))


def h5k_ticket(rng: random.Random) -> str:
    return rng.choice(["#", "SUP-", "TCK-2026-", "INC"]) + _r(rng, DIGITS, 6)


def h5k_order(rng: random.Random) -> str:
    return f"{rng.choice(['A', 'B', 'W'])}{rng.randint(2025, 2026)}-{_r(rng, DIGITS, 6)}"


def h5k_tracking(rng: random.Random) -> str:
    return "00340434" + _r(rng, DIGITS, 12)


def h5k_postnummer(rng: random.Random) -> str:
    return str(rng.randint(10_000_000, 999_999_999))


def h5k_iban(rng: random.Random) -> str:
    bban = _r(rng, DIGITS, 8) + _r(rng, DIGITS, 10)
    check = 98 - int(bban + "131400") % 97
    raw = f"DE{check:02d}{bban}"
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def h5k_bic(rng: random.Random) -> str:
    return rng.choice(["COBADEFFXXX", "DEUTDEDBXXX", "GENODEF1M04", "BYLADEM1001", "INGDDEFFXXX"])


def h5k_phone(rng: random.Random) -> str:
    return rng.choice(["+49 151 ", "+49 176 ", "+43 664 ", "+41 79 ", "0171 "]) + _r(rng, DIGITS, 7)


def h5k_email(rng: random.Random) -> str:
    first = rng.choice(["anna", "tobias", "leonie", "murat", "svenja", "p.novak", "kai"])
    domain = rng.choice(["gmx.de", "web.de", "posteo.de", "example.org"])
    return f"{first}.{_r(rng, LOWER, 5)}@{domain}"


def h5k_birthdate(rng: random.Random) -> str:
    return f"{rng.randint(1, 28):02d}.{rng.randint(1, 12):02d}.{rng.randint(1950, 2006)}"


def h5k_policy(rng: random.Random) -> str:
    return rng.choice(["KV-", "HR ", "VS-"]) + _r(rng, DIGITS, 4) + "-" + _r(rng, DIGITS, 6)


def h5k_steuernummer(rng: random.Random) -> str:
    return f"{_r(rng, DIGITS, 3)}/{_r(rng, DIGITS, 3)}/{_r(rng, DIGITS, 5)}"


def h5k_steuer_id(rng: random.Random) -> str:
    return " ".join(
        [f"{rng.randint(1, 9)}{_r(rng, DIGITS, 1)}"] + [_r(rng, DIGITS, 3) for _ in "abc"]
    )


def h5k_plate(rng: random.Random) -> str:
    return (
        f"{rng.choice(['M', 'HH', 'K', 'B', 'S', 'F'])}-{_r(rng, UPPER, 2)} {rng.randint(1, 9999)}"
    )


def h5k_vin(rng: random.Random) -> str:
    return rng.choice(["WVW", "WBA", "WDD", "VF1"]) + _r(
        rng, "ABCDEFGHJKLMNPRSTUVWXYZ0123456789", 14
    )


def h5k_mac(rng: random.Random) -> str:
    return ":".join(_r(rng, HEX.upper(), 2) for _ in range(6))


def h5k_ipv4(rng: random.Random) -> str:
    return f"192.168.{rng.randint(0, 190)}.{rng.randint(2, 254)}"


def h5k_serial(rng: random.Random) -> str:
    line = rng.choice(["50", "60", "70"])
    return f"{rng.randint(18, 24)}{line}{_r(rng, UPPER, 3)}{_r(rng, DIGITS, 6)}"


def h5k_firmware(rng: random.Random) -> str:
    return f"{rng.randint(6, 8)}.{rng.randint(10, 99)}.{rng.randint(0, 9)}"


def h5k_meter(rng: random.Random) -> str:
    return "1" + rng.choice(["ESY", "EMH", "ITF"]) + _r(rng, DIGITS, 10)


def h5k_contract(rng: random.Random) -> str:
    return "VN-" + _r(rng, DIGITS, 9)


def h5k_customer(rng: random.Random) -> str:
    return rng.choice(["KD-", "K", "CUST-"]) + _r(rng, DIGITS, 7)


def h5k_mandate(rng: random.Random) -> str:
    return "MREF" + _r(rng, UPPER + DIGITS, 12)


def h5k_amount(rng: random.Random) -> str:
    return f"{rng.randint(3, 2400)},{rng.randint(0, 99):02d} €"


def h5k_transfer_ticket(rng: random.Random) -> str:
    return _r(rng, LOWER + DIGITS, 20)


def h5k_imei(rng: random.Random) -> str:
    body = "35" + _r(rng, DIGITS, 12)
    return body + _luhn_digit(body)


def h5k_iccid(rng: random.Random) -> str:
    return "894922" + _r(rng, DIGITS, 13)


def h5k_version(rng: random.Random) -> str:
    return f"v{rng.randint(1, 4)}.{rng.randint(0, 30)}.{rng.randint(0, 12)}"


def h5k_port(rng: random.Random) -> str:
    return str(rng.randint(1025, 65000))


def h5k_room(rng: random.Random) -> str:
    return f"{rng.randint(1, 5)}.{_r(rng, DIGITS, 2)}"


def h5k_date(rng: random.Random) -> str:
    return f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def h5k_name(rng: random.Random) -> str:
    first = ["Birgit", "Hakan", "Johanna", "Piotr", "Ines", "Florian", "Aylin", "Georg"]
    last = ["Schuster", "Yilmaz", "Brandt", "Kowalski", "Lehmann", "Vogt", "Demir", "Albrecht"]
    return f"{rng.choice(first)} {rng.choice(last)}"


def h5k_address(rng: random.Random) -> str:
    street = rng.choice(["Lindenstraße", "Am Mühlbach", "Kastanienallee", "Hauptstr."])
    city = rng.choice(["80331 München", "50667 Köln", "04109 Leipzig", "20095 Hamburg"])
    return f"{street} {rng.randint(1, 140)}, {city}"


def h5k_isbn(rng: random.Random) -> str:
    body = "978" + _r(rng, DIGITS, 9)
    total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(body))
    return body + str((10 - total % 10) % 10)


def h5k_sku(rng: random.Random) -> str:
    return (
        _r(rng, string.ascii_uppercase, 3)
        + "-"
        + _r(rng, DIGITS, 5)
        + "-"
        + rng.choice(["S", "M", "L", "XL"])
    )


def h5k_last4(rng: random.Random) -> str:
    return _r(rng, DIGITS, 4)


def h5k_sri(rng: random.Random) -> str:
    """The base64 body of a `sha512-…` subresource-integrity digest (npm lockfiles)."""
    return base64.b64encode(rng.randbytes(64)).decode()
