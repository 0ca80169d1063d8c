"""Random ordinary content for the evaluation corpus: identifiers, digests, codes, blobs and
personal data - values a memory service must store as they are (none is a credential).

Standards where an identifier has one (IBAN check digits, EAN/ISBN check digits, UPS 1Z), else
the published shape (Stripe object ids, Drive file ids, IPFS CIDs).
"""

from __future__ import annotations

import base64
import hashlib
import random
import string

from tests.data.scrub_eval.values import B62, HEX, UPPER_NUM, URLSAFE, pick


def sha256(rng: random.Random) -> str:
    return hashlib.sha256(rng.randbytes(16)).hexdigest()


def sha1(rng: random.Random) -> str:
    return hashlib.sha1(rng.randbytes(16)).hexdigest()


def md5(rng: random.Random) -> str:
    return hashlib.md5(rng.randbytes(16)).hexdigest()


def short_sha(rng: random.Random) -> str:
    return sha1(rng)[: rng.choice([7, 8, 10, 12])]


def uuid_hex(rng: random.Random) -> str:
    raw = bytearray(rng.randbytes(16))
    raw[6] = (raw[6] & 0x0F) | 0x40
    raw[8] = (raw[8] & 0x3F) | 0x80
    return raw.hex()


def uuid_dashed(rng: random.Random) -> str:
    h = uuid_hex(rng)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def urlsafe_id(rng: random.Random) -> str:
    """What `secrets.token_urlsafe()` returns (32 bytes: 43 characters)."""
    return base64.urlsafe_b64encode(rng.randbytes(rng.choice([16, 24, 32]))).decode().rstrip("=")


def drive_file_id(rng: random.Random) -> str:
    return "1" + pick(rng, URLSAFE, 32)


def youtube_id(rng: random.Random) -> str:
    return pick(rng, URLSAFE, 11)


def stripe_object_id(rng: random.Random) -> str:
    return rng.choice(["cus_", "pi_", "ch_", "price_", "sub_", "in_"]) + pick(rng, B62, 24)


def airtable_id(rng: random.Random) -> str:
    return rng.choice(["rec", "app", "tbl"]) + pick(rng, B62, 14)


def ipfs_cid(rng: random.Random) -> str:
    return "Qm" + pick(rng, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 44)


def docker_digest(rng: random.Random) -> str:
    return "sha256:" + sha256(rng)


def container_id(rng: random.Random) -> str:
    return sha256(rng)[: rng.choice([12, 64])]


def request_id(rng: random.Random) -> str:
    return rng.choice([uuid_dashed, uuid_hex])(rng)


def trace_id(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def base64_image(rng: random.Random) -> str:
    head = rng.choice(["iVBORw0KGgoAAAANSUhEUgAA", "/9j/4AAQSkZJRgABAQEASABIAAD", "R0lGODlh"])
    return head + base64.b64encode(rng.randbytes(rng.choice([90, 180, 300]))).decode()


def base64_blob(rng: random.Random) -> str:
    """A base64 attachment or payload fragment: long, with line breaks at 76."""
    text = base64.b64encode(rng.randbytes(rng.choice([120, 200]))).decode()
    return "\n".join(text[i : i + 76] for i in range(0, len(text), 76))


def product_code(rng: random.Random) -> str:
    return rng.choice(
        [
            lambda: (
                f"{pick(rng, string.ascii_uppercase, 2)}-{rng.randint(1000, 9999)}-"
                f"{pick(rng, UPPER_NUM, 2)}"
            ),
            lambda: f"SKU-{pick(rng, UPPER_NUM, 5)}-{rng.choice(['S', 'M', 'L', 'XL'])}",
            lambda: pick(rng, UPPER_NUM, 10),
            lambda: (
                f"{pick(rng, string.ascii_uppercase, 3)}{rng.randint(10**5, 10**6)}"
                f"{pick(rng, string.ascii_uppercase, 2)}"
            ),
        ]
    )()


def license_key_like_serial(rng: random.Random) -> str:
    return "-".join(pick(rng, UPPER_NUM, 5) for _ in range(4))


def serial_number(rng: random.Random) -> str:
    return pick(rng, UPPER_NUM, 12)


def ean13(rng: random.Random) -> str:
    digits = [rng.randrange(10) for _ in range(12)]
    check = (10 - sum(d * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10) % 10
    return "".join(map(str, digits)) + str(check)


def order_number(rng: random.Random) -> str:
    return rng.choice(
        [
            lambda: (
                f"{rng.randint(100, 999)}-{rng.randint(10**6, 10**7 - 1)}-"
                f"{rng.randint(10**6, 10**7 - 1)}"
            ),
            lambda: f"BN-{rng.randint(2020, 2026)}-{rng.randint(10000, 99999)}",
            lambda: str(rng.randint(10**9, 10**10)),
        ]
    )()


def tracking_number(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "1Z" + pick(rng, UPPER_NUM, 16)
    return "00340" + "".join(rng.choice(string.digits) for _ in range(15))


def vin(rng: random.Random) -> str:
    return rng.choice(["WVW", "WBA", "WDB", "VF1"]) + pick(
        rng, "ABCDEFGHJKLMNPRSTUVWXYZ0123456789", 14
    )


def mac_address(rng: random.Random) -> str:
    return ":".join(pick(rng, "0123456789ABCDEF", 2) for _ in range(6))


def aws_request_id(rng: random.Random) -> str:
    return pick(rng, UPPER_NUM, 16) if rng.random() < 0.5 else uuid_dashed(rng)


def cloudfront_id(rng: random.Random) -> str:
    return "E" + pick(rng, UPPER_NUM, 13)


def twilio_sid(rng: random.Random) -> str:
    return rng.choice(["AC", "SM", "PN"]) + pick(rng, HEX, 32)


def eth_address(rng: random.Random) -> str:
    return "0x" + pick(rng, "0123456789abcdefABCDEF", 40)


def ssh_public_key(rng: random.Random) -> str:
    return "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + pick(rng, B62 + "+/", 43)


def gpg_fingerprint(rng: random.Random) -> str:
    return " ".join(pick(rng, "0123456789ABCDEF", 4) for _ in range(10))


def b62_id(rng: random.Random) -> str:
    return pick(rng, B62, rng.choice([16, 22, 27, 32]))


# --- personal data ---------------------------------------------------------------------------

FIRST = ["Lea", "Jonas", "Mira", "Tobias", "Aylin", "Henrik", "Sofia", "Emre", "Clara", "Noah"]
LAST = ["Schmidt", "Yilmaz", "Becker", "Nowak", "Hoffmann", "Keller", "Wagner", "Park", "Braun"]
STREETS = ["Lindenstraße", "Am Hafen", "Gartenweg", "Bahnhofstr.", "Rosenplatz", "Mühlgasse"]
CITIES = ["10115 Berlin", "80331 München", "50667 Köln", "20095 Hamburg", "04109 Leipzig"]


def person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def email(rng: random.Random) -> str:
    first, last = rng.choice(FIRST).lower(), rng.choice(LAST).lower()
    return f"{first}.{last}@{rng.choice(['example.de', 'firma.example', 'mail.example.com'])}"


def phone(rng: random.Random) -> str:
    return rng.choice(
        [
            lambda: f"+49 {rng.choice(['151', '160', '170', '176'])} {rng.randint(10**6, 10**8)}",
            lambda: f"0{rng.randint(30, 899)}/{rng.randint(100000, 9999999)}",
            lambda: (
                f"+1 ({rng.randint(200, 999)}) {rng.randint(200, 999)}-{rng.randint(1000, 9999)}"
            ),
            lambda: f"+44 20 {rng.randint(1000, 9999)} {rng.randint(1000, 9999)}",
        ]
    )()


def iban(rng: random.Random) -> str:
    bban = "".join(rng.choice(string.digits) for _ in range(18))
    numeric = bban + "131400"  # D=13 E=14, check digits 00
    check = 98 - int(numeric) % 97
    value = f"DE{check:02d}{bban}"
    return (
        " ".join(value[i : i + 4] for i in range(0, len(value), 4)) if rng.random() < 0.6 else value
    )


def birth_date(rng: random.Random) -> str:
    d, m, y = rng.randint(1, 28), rng.randint(1, 12), rng.randint(1950, 2005)
    return rng.choice([f"{d:02d}.{m:02d}.{y}", f"{y}-{m:02d}-{d:02d}"])


def address(rng: random.Random) -> str:
    return f"{rng.choice(STREETS)} {rng.randint(1, 120)}, {rng.choice(CITIES)}"


def tax_id(rng: random.Random) -> str:
    digits = "".join(rng.choice(string.digits) for _ in range(11))
    return (
        f"{digits[:2]} {digits[2:5]} {digits[5:8]} {digits[8:]}" if rng.random() < 0.5 else digits
    )


def social_insurance(rng: random.Random) -> str:
    letter = rng.choice(string.ascii_uppercase)
    area, born = rng.randint(10, 80), birth_date(rng).replace(".", "")[:6]
    return f"{area} {born} {letter} {rng.randint(100, 999)}"


def passport_number(rng: random.Random) -> str:
    return pick(rng, "CFGHJKLMNPRTVWXYZ", 1) + pick(rng, "CFGHJKLMNPRTVWXYZ0123456789", 8)


def id_card_number(rng: random.Random) -> str:
    return pick(rng, "LMNPRTVWXYZ", 1) + pick(rng, "CFGHJKLMNPRTVWXYZ0123456789", 8)


def health_insurance(rng: random.Random) -> str:
    return rng.choice(string.ascii_uppercase) + "".join(rng.choice(string.digits) for _ in range(9))


def license_plate(rng: random.Random) -> str:
    city = rng.choice(["B", "M", "HH", "K", "L", "S"])
    return f"{city}-{pick(rng, string.ascii_uppercase, 2)} {rng.randint(1, 9999)}"


def us_ssn(rng: random.Random) -> str:
    return f"{rng.randint(100, 665)}-{rng.randint(10, 99)}-{rng.randint(1000, 9999)}"


def uk_nino(rng: random.Random) -> str:
    prefix = pick(rng, "ABCEGHJKLMNPRSTWXYZ", 2)
    pairs = " ".join(str(rng.randint(10, 99)) for _ in range(3))
    return f"{prefix} {pairs} {rng.choice('ABCD')}"


def drivers_license(rng: random.Random) -> str:
    return pick(rng, UPPER_NUM, 11)


def ip_address(rng: random.Random) -> str:
    return ".".join(str(rng.randint(1, 254)) for _ in range(4))


def semver(rng: random.Random) -> str:
    return f"{rng.randint(0, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 40)}"


def amount(rng: random.Random) -> str:
    return f"{rng.randint(3, 4999)},{rng.randint(0, 99):02d} €"


def imei(rng: random.Random) -> str:
    """A device's IMEI: 14 digits and a Luhn check digit (they start with a TAC such as 35)."""
    body = rng.choice(["35", "86", "01"]) + "".join(rng.choice(string.digits) for _ in range(12))
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return body + str((10 - total % 10) % 10)


def phone_e164(rng: random.Random) -> str:
    return (
        "+"
        + rng.choice(["49", "43", "41", "44", "1"])
        + "".join(rng.choice(string.digits) for _ in range(rng.randint(9, 11)))
    )


def long_number(rng: random.Random) -> str:
    """A customer, contract or account number of 12 to 18 digits."""
    return str(rng.randint(1, 9)) + "".join(
        rng.choice(string.digits) for _ in range(rng.randint(11, 17))
    )


def pension_number(rng: random.Random) -> str:
    area, born = rng.randint(10, 89), rng.randint(10**5, 10**6 - 1)
    return f"{area}{born}{rng.choice(string.ascii_uppercase)}{rng.randint(100, 999)}"


def bcrypt_hash(rng: random.Random) -> str:
    """A password hash as stored by an application (a digest, not the password)."""
    alphabet = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    return "$2b$12$" + pick(rng, alphabet, 53)
