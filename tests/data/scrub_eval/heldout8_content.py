"""Content makers of the eighth held-out set (judge8 track): values that look like secrets but
are identifiers, digests, public keys, placeholders or personal data that a memory must keep.
Each takes the generator's `random.Random` and returns one value; a text lists it in `keep`.

Invariant: nothing made here is a credential — public halves of key pairs, hashes of public
data, IDs minted for requests and orders, and the literal placeholders people write instead of
a value.
"""

from __future__ import annotations

import base64
import json
import random
import uuid

from tests.data.scrub_eval.heldout8_values import ALNUM, B64, B64URL, DIGITS, HEX, UPPER, pick, raw

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
FIRST = ("hanna", "jonas", "leonie", "mehmet", "sofia", "piotr", "claire", "tobias", "aylin")
LAST = ("hoffmann", "krause", "yilmaz", "nowak", "dubois", "bergmann", "schulte", "ferreira")


# --- digests and ids ------------------------------------------------------------------------


def h8_sha256(rng: random.Random) -> str:
    return pick(rng, HEX, 64)


def h8_commit(rng: random.Random) -> str:
    return pick(rng, HEX, 40)


def h8_short_sha(rng: random.Random) -> str:
    return pick(rng, HEX, rng.choice((7, 8, 10, 12)))


def h8_md5(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h8_uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def h8_uuid_hex(rng: random.Random) -> str:
    return uuid.UUID(int=rng.getrandbits(128), version=4).hex


def h8_urlsafe_id(rng: random.Random) -> str:
    """What `secrets.token_urlsafe(16|32)` returns, used as a request or idempotency id."""
    return b64url(raw(rng, rng.choice((16, 24, 32))))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def h8_ulid(rng: random.Random) -> str:
    return "01J" + pick(rng, CROCKFORD, 23)


def h8_ksuid(rng: random.Random) -> str:
    return "2" + pick(rng, ALNUM, 26)


def h8_nanoid(rng: random.Random) -> str:
    return pick(rng, B64URL, 21)


def h8_objectid(rng: random.Random) -> str:
    return "6" + pick(rng, HEX, 23)


def h8_etag(rng: random.Random) -> str:
    return pick(rng, HEX, 32) + rng.choice(("", "-3", "-12"))


def h8_docker_digest(rng: random.Random) -> str:
    return "sha256:" + pick(rng, HEX, 64)


def h8_sri(rng: random.Random) -> str:
    return "sha512-" + base64.b64encode(raw(rng, 64)).decode()


def h8_go_sum(rng: random.Random) -> str:
    return "h1:" + base64.b64encode(raw(rng, 32)).decode()


def h8_sentry_event(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h8_trace_id(rng: random.Random) -> str:
    return f"00-{pick(rng, HEX, 32)}-{pick(rng, HEX, 16)}-01"


def h8_aws_request_id(rng: random.Random) -> str:
    return pick(rng, UPPER + DIGITS, 16) + pick(rng, "ABCDEF0123456789", 4)


# --- public keys and fingerprints ------------------------------------------------------------


def h8_ssh_ed25519_pub(rng: random.Random) -> str:
    return "AAAAC3NzaC1lZDI1NTE5AAAAI" + pick(rng, B64, 43)


def h8_ssh_rsa_pub(rng: random.Random) -> str:
    return "AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + pick(rng, B64, 514)


def h8_ssh_fpr(rng: random.Random) -> str:
    return "SHA256:" + base64.b64encode(raw(rng, 32)).decode().rstrip("=")


def h8_wg_public(rng: random.Random) -> str:
    return base64.b64encode(raw(rng, 32)).decode()


def h8_pgp_fpr(rng: random.Random) -> str:
    groups = [pick(rng, "0123456789ABCDEF", 4) for _ in range(10)]
    return " ".join(groups[:5]) + "  " + " ".join(groups[5:])


def h8_pgp_keyid(rng: random.Random) -> str:
    return "0x" + pick(rng, "0123456789ABCDEF", 16)


def h8_cert_serial(rng: random.Random) -> str:
    return ":".join(pick(rng, "0123456789ABCDEF", 2) for _ in range(16))


def h8_jwt_header(rng: random.Random) -> str:
    alg = rng.choice(("HS256", "RS256", "ES384", "EdDSA"))
    fields = {"alg": alg, "typ": "JWT"}
    if rng.random() < 0.4:
        fields["kid"] = pick(rng, HEX, 8)
    return b64url(json.dumps(fields, separators=(",", ":")).encode())


# --- images and blobs ----------------------------------------------------------------------


def h8_png_b64(rng: random.Random) -> str:
    return "iVBORw0KGgoAAAANSUhEUgAA" + pick(rng, B64, rng.randrange(160, 400)) + "=="


def h8_blob_b64(rng: random.Random) -> str:
    return base64.b64encode(raw(rng, rng.randrange(90, 240))).decode()


# --- business references ---------------------------------------------------------------------


def h8_order(rng: random.Random) -> str:
    shape = rng.randrange(3)
    if shape == 0:
        return f"BST-{rng.randrange(2024, 2027)}-{rng.randrange(10**5):05d}"
    if shape == 1:
        return "ORD-" + pick(rng, UPPER + DIGITS, 4) + "-" + pick(rng, UPPER + DIGITS, 4)
    return f"{rng.randrange(100, 999)}-{rng.randrange(10**6, 10**7)}-{rng.randrange(10**6, 10**7)}"


def h8_ticket(rng: random.Random) -> str:
    shape = rng.randrange(3)
    if shape == 0:
        return rng.choice(("OPS", "INFRA", "SEC", "BRAIN", "HR")) + f"-{rng.randrange(100, 9999)}"
    if shape == 1:
        return f"INC{rng.randrange(10**6, 10**7):07d}"
    return f"#{rng.randrange(1000, 99999)}"


def h8_sku(rng: random.Random) -> str:
    return pick(rng, UPPER, 2) + pick(rng, DIGITS, 1) + "-" + pick(rng, UPPER + DIGITS, 6)


def h8_invoice(rng: random.Random) -> str:
    return f"RE-{rng.randrange(2024, 2027)}-{rng.randrange(1, 13):02d}-{rng.randrange(10**4):04d}"


def h8_tracking(rng: random.Random) -> str:
    return "00340434" + pick(rng, DIGITS, 12)


def _iban(rng: random.Random, country: str, bban: str) -> str:
    digits = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(digits) % 97
    compact = f"{country}{check:02d}{bban}"
    return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))


def h8_iban(rng: random.Random) -> str:
    country = rng.choice(("DE", "DE", "AT", "NL", "CH"))
    if country == "NL":
        return _iban(rng, country, pick(rng, UPPER, 4) + pick(rng, DIGITS, 10))
    length = {"DE": 18, "AT": 16, "CH": 17}[country]
    return _iban(rng, country, pick(rng, DIGITS, length))


def h8_stripe_object(rng: random.Random) -> str:
    head = rng.choice(("cus_", "pi_3", "ch_3", "in_1", "sub_1", "prod_"))
    return head + pick(rng, ALNUM, 14 if head in ("cus_", "prod_") else 24)


def h8_aws_resource(rng: random.Random) -> str:
    head = rng.choice(("ami-0", "i-0", "sg-0", "vpc-0", "subnet-0", "vol-0", "snap-0"))
    return head + pick(rng, HEX, 16)


def h8_arn(rng: random.Random) -> str:
    account = pick(rng, DIGITS, 12)
    name = rng.choice(("brain-prod-memories", "billing-export", "ci-artifacts"))
    return rng.choice(
        (
            f"arn:aws:s3:::{name}",
            f"arn:aws:iam::{account}:role/{name}-writer",
            f"arn:aws:lambda:eu-central-1:{account}:function:{name}",
        )
    )


def h8_pod(rng: random.Random) -> str:
    app = rng.choice(("web", "api", "worker", "brain-sync"))
    return f"{app}-{pick(rng, HEX, 9)}-{pick(rng, 'bcdfghjklmnpqrstvwxz2456789', 5)}"


# --- people and placeholders ------------------------------------------------------------------


def h8_login(rng: random.Random) -> str:
    first, last = rng.choice(FIRST), rng.choice(LAST)
    shape = rng.randrange(3)
    if shape == 0:
        return f"{first}.{last}"
    if shape == 1:
        return f"{first[0]}.{last}{rng.randrange(1, 10)}"
    return f"{last[:6]}{first[0]}"


def h8_email(rng: random.Random) -> str:
    domain = rng.choice(("acme.example", "stadtwerke-nord.example", "mail.example.org"))
    return f"{h8_login(rng)}@{domain}"


def h8_ipv6(rng: random.Random) -> str:
    return "2001:db8:" + ":".join(pick(rng, HEX, 4) for _ in range(4)) + "::" + pick(rng, HEX, 3)


def h8_mac(rng: random.Random) -> str:
    return ":".join(pick(rng, "0123456789ABCDEF", 2) for _ in range(6))


PLACEHOLDERS = (
    "<password>", "<dein-token>", "changeme", "$TOKEN", "***", "${DB_PASSWORD}",
    "{{ vault_api_token }}", "REPLACE_ME", "xxxxxxxxxxxx", "<API_KEY>", "********",
    "${{ secrets.DEPLOY_TOKEN }}", "%(password)s", "your-api-key-here", "$GITHUB_TOKEN",
)  # fmt: skip


def h8_placeholder(rng: random.Random) -> str:
    return rng.choice(PLACEHOLDERS)


def h8_env_ref(rng: random.Random) -> str:
    name = rng.choice(("DB_PASSWORD", "STRIPE_KEY", "SMTP_PASS", "API_TOKEN", "OPENAI_API_KEY"))
    return rng.choice((f"${{{name}}}", f"${name}", f"os.environ['{name}']", f"env:{name}"))


def h8_version(rng: random.Random) -> str:
    return f"{rng.randrange(0, 9)}.{rng.randrange(0, 30)}.{rng.randrange(0, 40)}"
