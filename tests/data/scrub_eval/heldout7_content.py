"""Content value makers of the seventh held-out set (judge7, seed 83471): identifiers,
digests, public keys, personal data and numbers that a memory must keep (CONTRACT.md §8:
content, not secrets). Invariant: none of them is a credential.
"""

from __future__ import annotations

import base64
import random
import string

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = string.ascii_letters + DIGITS
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"

WORDS_DE = [
    "Apfelbaum",
    "Leuchtturm",
    "Kaffeetasse",
    "Wolke",
    "Fahrrad",
    "Sonnenblume",
    "Zugspitze",
    "Haselnuss",
    "Eichhorn",
    "Brezel",
    "Nordsee",
    "Pinguin",
    "Laterne",
]
WORDS_EN = [
    "harbor",
    "velvet",
    "cactus",
    "lantern",
    "orbit",
    "maple",
    "glacier",
    "pepper",
    "falcon",
    "meadow",
    "copper",
    "tundra",
    "saffron",
    "quartz",
    "willow",
    "ember",
]
PETS = ["Bello", "Luna", "Mucki", "Felix", "Nala", "Rocky", "Kira", "Balou"]
MORE_WORDS = [
    "abandon",
    "ribbon",
    "tiger",
    "wagon",
    "social",
    "pulse",
    "arena",
    "fiscal",
    "humble",
    "mirror",
    "oxygen",
    "ladder",
    "vivid",
    "stereo",
    "cruise",
]


def pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def mixed(rng: random.Random, alphabet: str, n: int) -> str:
    """A random string holding every class (upper, lower, digit) its alphabet has."""
    tests = [t for t in (str.isupper, str.islower, str.isdigit) if any(map(t, alphabet))]
    while True:
        s = pick(rng, alphabet, n)
        if all(any(map(t, s)) for t in tests):
            return s


def digits_no_year(rng: random.Random, n: int) -> str:
    """n digits that do not start like a year (19xx/20xx) or with 0, not all one digit."""
    while True:
        s = pick(rng, DIGITS, n)
        if s[:2] not in ("19", "20") and len(set(s)) > 1 and s[0] != "0":
            return s


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def rbytes(rng: random.Random, n: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(n))


def pem_body(rng: random.Random, lead: str, n_bytes: int) -> str:
    body = lead + b64(rbytes(rng, n_bytes))
    return "\n".join(body[i : i + 64] for i in range(0, len(body), 64))


def h7_uuid(rng: random.Random) -> str:
    h = pick(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def h7_uuid_hex(rng: random.Random) -> str:
    return h7_uuid(rng).replace("-", "")


def h7_sha256(rng: random.Random) -> str:
    return pick(rng, HEX, 64)


def h7_commit(rng: random.Random) -> str:
    return pick(rng, HEX, 40)


def h7_short_commit(rng: random.Random) -> str:
    return pick(rng, HEX, 7)


def h7_sri(rng: random.Random) -> str:
    return "sha384-" + b64(rbytes(rng, 48))


def h7_npm_integrity(rng: random.Random) -> str:
    return "sha512-" + b64(rbytes(rng, 64))


def h7_image_digest(rng: random.Random) -> str:
    return "sha256:" + pick(rng, HEX, 64)


def h7_ulid(rng: random.Random) -> str:
    return "01J" + pick(rng, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 23)


def h7_stripe_customer(rng: random.Random) -> str:
    return "cus_" + mixed(rng, ALNUM, 14)


def h7_stripe_payment_intent(rng: random.Random) -> str:
    return "pi_3" + mixed(rng, ALNUM, 23)


def h7_request_id(rng: random.Random) -> str:
    return "req_" + mixed(rng, ALNUM, 24)


def h7_trace_id(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h7_gdoc_id(rng: random.Random) -> str:
    return "1" + mixed(rng, URLSAFE, 43)


def h7_youtube_id(rng: random.Random) -> str:
    return mixed(rng, URLSAFE, 11)


def h7_slack_channel(rng: random.Random) -> str:
    return "C0" + pick(rng, UPPER + DIGITS, 9)


def h7_jira(rng: random.Random) -> str:
    return (
        rng.choice(["OPS", "PAY", "CRM", "INFRA", "SUP", "WEB"]) + "-" + str(rng.randint(100, 9999))
    )


def h7_order(rng: random.Random) -> str:
    return f"B-{rng.randint(2025, 2026)}-{rng.randint(10000, 99999)}"


def h7_invoice(rng: random.Random) -> str:
    return f"RE{rng.randint(24, 26)}{rng.randint(100000, 999999)}"


def h7_customer_no(rng: random.Random) -> str:
    return f"KD-{rng.randint(100000, 999999)}"


def h7_sku(rng: random.Random) -> str:
    return f"{pick(rng, UPPER, 3)}-{pick(rng, UPPER + DIGITS, 4)}-{pick(rng, DIGITS, 2)}"


def _iban_de(bban: str) -> str:
    check = 98 - int(bban + "131400") % 97
    return f"DE{check:02d}{bban}"


def h7_iban(rng: random.Random) -> str:
    iban = _iban_de(pick(rng, DIGITS, 18))
    return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))


def h7_phone(rng: random.Random) -> str:
    return rng.choice(["+49 151 ", "+49 170 ", "+49 30 ", "+49 89 ", "0176 "]) + str(
        rng.randint(1000000, 9999999)
    )


def h7_phone_us(rng: random.Random) -> str:
    return f"+1 ({rng.randint(201, 989)}) {rng.randint(200, 999)}-{rng.randint(1000, 9999)}"


FIRST = [
    "Jana",
    "Marc",
    "Aylin",
    "Tobias",
    "Priya",
    "Henrik",
    "Sofia",
    "Mehmet",
    "Lena",
    "Oskar",
    "Chen",
    "Greta",
    "Jonas",
    "Fatima",
    "Ruth",
    "Daniel",
]
LAST = [
    "Kowalski",
    "Brandt",
    "Yilmaz",
    "Nguyen",
    "Hoffmann",
    "Achterberg",
    "Lindqvist",
    "Okafor",
    "Schuster",
    "Varga",
    "Rossi",
    "Demir",
    "Falk",
    "Ivanova",
]


def h7_name(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def h7_email(rng: random.Random) -> str:
    first, last = rng.choice(FIRST).lower(), rng.choice(LAST).lower()
    domain = rng.choice(["example.org", "kanzlei-mueller.example", "shop.example.com"])
    return f"{first}.{last}@{domain}"


def h7_street(rng: random.Random) -> str:
    street = rng.choice(["Lindenstraße", "Hafenweg", "Am Markt", "Gartenstr.", "Bergring"])
    return f"{street} {rng.randint(1, 140)}"


def h7_date(rng: random.Random) -> str:
    return f"{rng.randint(1, 28):02d}.{rng.randint(1, 12):02d}.{rng.choice([2025, 2026])}"


def h7_iso_date(rng: random.Random) -> str:
    return f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def h7_amount(rng: random.Random) -> str:
    return f"{rng.randint(3, 9800)},{rng.randint(0, 99):02d} €"


def h7_ipv4(rng: random.Random) -> str:
    return f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"


def h7_mac(rng: random.Random) -> str:
    return ":".join(pick(rng, "0123456789ABCDEF", 2) for _ in range(6))


def h7_serial(rng: random.Random) -> str:
    return pick(rng, UPPER, 2) + pick(rng, DIGITS, 8) + pick(rng, UPPER, 1)


def h7_tracking(rng: random.Random) -> str:
    return "00340434" + pick(rng, DIGITS, 12)


def h7_vin(rng: random.Random) -> str:
    return "WVW" + pick(rng, "ABCDEFGHJKLMNPRSTUVWXYZ0123456789", 14)


def h7_tax_id(rng: random.Random) -> str:
    return str(rng.randint(1, 9)) + pick(rng, DIGITS, 10)


def h7_insurance_no(rng: random.Random) -> str:
    return rng.choice(UPPER) + pick(rng, DIGITS, 9)


def h7_eth_address(rng: random.Random) -> str:
    return "0x" + pick(rng, HEX + "ABCDEF", 40)


def h7_txid(rng: random.Random) -> str:
    return pick(rng, HEX, 64)


def h7_ssh_pub(rng: random.Random) -> str:
    return "AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(rbytes(rng, 32))[:43]


def h7_ssh_fingerprint(rng: random.Random) -> str:
    return "SHA256:" + b64(rbytes(rng, 32)).rstrip("=")


def h7_pgp_fingerprint(rng: random.Random) -> str:
    h = pick(rng, "0123456789ABCDEF", 40)
    return " ".join(h[i : i + 4] for i in range(0, 40, 4))


def h7_wg_public(rng: random.Random) -> str:
    return b64(rbytes(rng, 32))


def h7_png_b64(rng: random.Random) -> str:
    return "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA" + b64(rbytes(rng, 90))


def h7_oauth_client_id(rng: random.Random) -> str:
    return f"{digits_no_year(rng, 12)}-{pick(rng, LOWER + DIGITS, 32)}.apps.googleusercontent.com"


def h7_arn(rng: random.Random) -> str:
    role = rng.choice(["deploy", "lambda-exec", "backup-reader"])
    return f"arn:aws:iam::{digits_no_year(rng, 12)}:role/{role}"


def h7_pod(rng: random.Random) -> str:
    app = rng.choice(["checkout", "api", "worker", "billing"])
    return f"{app}-{pick(rng, HEX, 10)}-{pick(rng, LOWER + DIGITS, 5)}"


def h7_container(rng: random.Random) -> str:
    return pick(rng, HEX, 12)


def h7_cid(rng: random.Random) -> str:
    return "bafybei" + pick(rng, "abcdefghijklmnopqrstuvwxyz234567", 52)


def h7_etag(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h7_cert_body(rng: random.Random) -> str:
    return pem_body(rng, "MIIDdzCCAl+gAwIBAgIU", 240)


def h7_ticket(rng: random.Random) -> str:
    return f"#{rng.randint(10000, 99999)}"


def h7_plate(rng: random.Random) -> str:
    return f"{rng.choice(['M', 'HH', 'B', 'K', 'S'])}-{pick(rng, UPPER, 2)} {rng.randint(10, 9999)}"


def h7_version(rng: random.Random) -> str:
    return f"{rng.randint(1, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 20)}"


def h7_last4(rng: random.Random) -> str:
    return digits_no_year(rng, 4)


def h7_user(rng: random.Random) -> str:
    return rng.choice(FIRST).lower()[0] + "." + rng.choice(LAST).lower() + str(rng.randint(1, 9))


def h7_host(rng: random.Random) -> str:
    env = rng.choice(["prod", "stage", "int"])
    role = rng.choice(["db", "pg", "mq", "cache", "ldap", "mail"])
    org = rng.choice(["nordwind", "acme", "kbx"])
    return f"{role}-{rng.randint(1, 9)}.{env}.{org}.internal"


def h7_count(rng: random.Random) -> str:
    return str(rng.randint(12, 98000))


def h7_twilio_sid(rng: random.Random) -> str:
    return "AC" + pick(rng, HEX, 32)


def h7_age_public(rng: random.Random) -> str:
    return "age1" + pick(rng, BECH32.lower(), 58)


def h7_port(rng: random.Random) -> str:
    return str(rng.randint(3000, 9999))


def h7_client_number(rng: random.Random) -> str:
    """A service account's numeric OAuth client id (21 digits, public)."""
    return digits_no_year(rng, 21)
