"""Content makers of the second development round: identifiers, digests, codes and personal
data of several countries that the first round lacks. None is a credential; a memory service
must store each as it is. Check digits where the standard has them (IBAN, ISIN, AHV/EAN-13,
Codice fiscale is shaped only).
"""

from __future__ import annotations

import base64
import hashlib
import random
import string

from tests.data.scrub_eval.values import B62, HEX, UPPER_NUM, URLSAFE, pick

LOWER_NUM = string.ascii_lowercase + string.digits
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


# --- identifiers -----------------------------------------------------------------------------


def aws_arn(rng: random.Random) -> str:
    account = "".join(rng.choice(string.digits) for _ in range(12))
    return rng.choice(
        [
            f"arn:aws:iam::{account}:role/ci-deploy",
            f"arn:aws:lambda:eu-central-1:{account}:function:brain-api",
            f"arn:aws:s3:::acme-backups-{rng.randint(1, 99)}",
            f"arn:aws:dynamodb:eu-west-1:{account}:table/orders",
        ]
    )


def aws_resource_id(rng: random.Random) -> str:
    return rng.choice(["i-", "sg-", "vpc-", "subnet-", "ami-", "vol-"]) + pick(rng, HEX, 17)


def k8s_pod(rng: random.Random) -> str:
    app = rng.choice(["api", "worker", "web"])
    return f"{app}-{pick(rng, LOWER_NUM, 10)}-{pick(rng, LOWER_NUM, 5)}"


def object_id(rng: random.Random) -> str:
    return pick(rng, HEX, 24)


def ulid(rng: random.Random) -> str:
    return "01" + pick(rng, CROCKFORD, 24)


def ksuid(rng: random.Random) -> str:
    return pick(rng, B62, 27)


def nanoid(rng: random.Random) -> str:
    return pick(rng, URLSAFE, 21)


def slack_channel_id(rng: random.Random) -> str:
    return rng.choice("CGU") + pick(rng, UPPER_NUM, 10)


def snowflake(rng: random.Random) -> str:
    return str(rng.randint(10**17, 10**19 - 1))


def google_doc_id(rng: random.Random) -> str:
    return "1" + pick(rng, URLSAFE, 43)


def notion_page_id(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def salesforce_id(rng: random.Random) -> str:
    return rng.choice(["001", "003", "006", "500"]) + pick(rng, B62, 15)


def jira_key(rng: random.Random) -> str:
    return f"{rng.choice(['OPS', 'CRM', 'BRAIN', 'PAY'])}-{rng.randint(10, 9999)}"


def analytics_id(rng: random.Random) -> str:
    return rng.choice([f"G-{pick(rng, UPPER_NUM, 10)}", f"GTM-{pick(rng, UPPER_NUM, 7)}"])


def azure_subscription(rng: random.Random) -> str:
    h = rng.randbytes(16).hex()
    return f"/subscriptions/{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}/resourceGroups/rg-prod"


def git_branch(rng: random.Random) -> str:
    return f"feature/{rng.choice(['PAY', 'OPS'])}-{rng.randint(10, 999)}-{pick(rng, HEX, 6)}"


# --- digests and integrity -------------------------------------------------------------------


def sha512(rng: random.Random) -> str:
    return hashlib.sha512(rng.randbytes(16)).hexdigest()


def sri_hash(rng: random.Random) -> str:
    algo = rng.choice(["sha384", "sha512"])
    digest = getattr(hashlib, algo)(rng.randbytes(16)).digest()
    return f"{algo}-{base64.b64encode(digest).decode()}"


def ssh_host_fingerprint(rng: random.Random) -> str:
    return "SHA256:" + base64.b64encode(rng.randbytes(32)).decode().rstrip("=")


def cert_thumbprint(rng: random.Random) -> str:
    raw = rng.randbytes(20).hex().upper()
    return ":".join(raw[i : i + 2] for i in range(0, 40, 2)) if rng.random() < 0.5 else raw


def etag(rng: random.Random) -> str:
    return '"' + pick(rng, HEX, 32) + '"'


def asset_name(rng: random.Random) -> str:
    return (
        f"{rng.choice(['main', 'vendor', 'app'])}.{pick(rng, HEX, 8)}.{rng.choice(['js', 'css'])}"
    )


def lfs_oid(rng: random.Random) -> str:
    return "sha256:" + hashlib.sha256(rng.randbytes(8)).hexdigest()


# --- codes -----------------------------------------------------------------------------------


def booking_code(rng: random.Random) -> str:
    return pick(rng, UPPER_NUM.replace("0", "").replace("O", ""), 6)


def invoice_number(rng: random.Random) -> str:
    return f"RE-{rng.randint(2022, 2026)}-{rng.randint(1, 99999):05d}"


def coupon_code(rng: random.Random) -> str:
    return rng.choice(["SOMMER", "WELCOME", "BLACKFRIDAY", "TREUE"]) + str(rng.randint(10, 50))


def dhl_tracking(rng: random.Random) -> str:
    return rng.choice(
        ["JJD" + pick(rng, string.digits, 18), "00340434" + pick(rng, string.digits, 12)]
    )


def isin(rng: random.Random) -> str:
    body = rng.choice(["DE000", "US0", "IE00B"]) + "".join(rng.choice(UPPER_NUM) for _ in range(6))
    body = body[:11].ljust(11, "0")
    digits = "".join(str(int(c, 36)) for c in body)
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d // 10 + d % 10
    return body + str((10 - total % 10) % 10)


def lei(rng: random.Random) -> str:
    return (
        pick(rng, string.digits, 4) + "00" + pick(rng, UPPER_NUM, 12) + pick(rng, string.digits, 2)
    )


def bic(rng: random.Random) -> str:
    return rng.choice(["COBADEFFXXX", "DEUTDEDBBER", "GENODEF1M04", "BKAUATWW", "UBSWCHZH80A"])


def vat_id(rng: random.Random) -> str:
    return rng.choice(
        [
            "DE" + pick(rng, string.digits, 9),
            "ATU" + pick(rng, string.digits, 8),
            "FR" + pick(rng, UPPER_NUM, 2) + pick(rng, string.digits, 9),
            "NL" + pick(rng, string.digits, 9) + "B01",
            "CHE-"
            + "-".join(pick(rng, string.digits, 3) for _ in range(2))
            + "."
            + pick(rng, string.digits, 3),
        ]
    )


def register_number(rng: random.Random) -> str:
    return f"HRB {rng.randint(1000, 299999)}"


# --- personal data of several countries ------------------------------------------------------


def _iban(rng: random.Random, country: str, length: int, alpha: int = 0) -> str:
    bban = pick(rng, string.ascii_uppercase, alpha) + pick(rng, string.digits, length - 4 - alpha)
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    value = f"{country}{98 - int(numeric) % 97:02d}{bban}"
    return (
        " ".join(value[i : i + 4] for i in range(0, len(value), 4)) if rng.random() < 0.5 else value
    )


def iban_intl(rng: random.Random) -> str:
    country, length, alpha = rng.choice(
        [("AT", 20, 0), ("CH", 21, 0), ("NL", 18, 4), ("FR", 27, 0), ("GB", 22, 4), ("ES", 24, 0)]
    )
    return _iban(rng, country, length, alpha)


def phone_intl(rng: random.Random) -> str:
    return rng.choice(
        [
            f"+43 1 {rng.randint(100, 999)} {rng.randint(1000, 9999)}",
            f"+41 44 {rng.randint(100, 999)} {rng.randint(10, 99)} {rng.randint(10, 99)}",
            f"(0{rng.randint(30, 99)}) {rng.randint(100, 999)} "
            f"{rng.randint(10, 99)}-{rng.randint(10, 99)}",
            f"07700 {rng.randint(900000, 900999)}",
            f"+33 6 {' '.join(str(rng.randint(10, 99)) for _ in range(4))}",
            f"+49 (0) {rng.randint(30, 899)} {rng.randint(10000, 999999)}-{rng.randint(0, 99)}",
        ]
    )


def address_intl(rng: random.Random) -> str:
    return rng.choice(
        [
            f"Mariahilfer Straße {rng.randint(1, 200)}/{rng.randint(1, 30)}, 1070 Wien",
            f"Bahnhofstrasse {rng.randint(1, 90)}, 8001 Zürich",
            f"{rng.randint(1, 999)} Market Street, Apt {rng.randint(1, 40)}, "
            "San Francisco, CA 94103",
            f"{rng.randint(1, 200)} Baker Street, London NW1 6XE",
            f"{rng.randint(1, 90)} rue de Rivoli, 75004 Paris",
            f"Postfach {rng.randint(1000, 9999)}, {rng.randint(10000, 99999)} Köln",
        ]
    )


def steuernummer(rng: random.Random) -> str:
    return f"{rng.randint(10, 99)}/{rng.randint(100, 999)}/{rng.randint(10000, 99999)}"


def ahv_number(rng: random.Random) -> str:
    body = "756" + pick(rng, string.digits, 9)
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(body))
    full = body + str((10 - total % 10) % 10)
    return f"{full[:3]}.{full[3:7]}.{full[7:11]}.{full[11:]}"


def us_ein(rng: random.Random) -> str:
    return f"{rng.randint(10, 99)}-{rng.randint(1000000, 9999999)}"


def codice_fiscale(rng: random.Random) -> str:
    letters = string.ascii_uppercase
    return (
        pick(rng, letters, 6)
        + pick(rng, string.digits, 2)
        + rng.choice("ABCDEHLMPRST")
        + pick(rng, string.digits, 2)
        + rng.choice(letters)
        + pick(rng, string.digits, 3)
        + rng.choice(letters)
    )


def dni(rng: random.Random) -> str:
    number = rng.randint(10**7, 10**8 - 1)
    return f"{number}{'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}"


def bsn(rng: random.Random) -> str:
    return pick(rng, string.digits, 9)


def uk_utr(rng: random.Random) -> str:
    return pick(rng, string.digits, 5) + " " + pick(rng, string.digits, 5)


def employee_id(rng: random.Random) -> str:
    return rng.choice([f"P{rng.randint(10000, 99999)}", f"MA-{rng.randint(1000, 9999)}"])


def date_de(rng: random.Random) -> str:
    return (
        f"{rng.randint(1, 28)}. {rng.choice(['März', 'Mai', 'Oktober'])} {rng.randint(1950, 2004)}"
    )


def b62_short(rng: random.Random) -> str:
    """A short random reference (tickets, shares): 10 to 14 characters."""
    return pick(rng, B62, rng.randint(10, 14))
