"""Content value makers of held-out set 9 (judge9 track): identifiers that look like secrets
but are content (CONTRACT §8) — digests, UUIDs, commit ids, public keys and fingerprints,
base64 images, order/ticket/account references, login names, request and correlation ids.

Invariants: every maker takes the generator's `random.Random`, returns one value that a
memory must keep unchanged, and is named `h9_…` (never resolved to another round's maker).
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import secrets
import uuid

from tests.data.scrub_eval.heldout9_values import (
    ALNUM,
    B64,
    BECH32,
    DIGITS,
    HEX,
    LOWER,
    UPPER,
    _b64url,
    pick,
)

FIRST = ["hanna", "lukas", "mira", "jonas", "elif", "noah", "greta", "samir", "ida", "paul"]
LAST = ["hoffmann", "schulz", "yilmaz", "becker", "nowak", "fischer", "okafor", "lindqvist"]


def h9_sha256(rng: random.Random) -> str:
    return hashlib.sha256(rng.randbytes(32)).hexdigest()


def h9_sha1(rng: random.Random) -> str:
    return hashlib.sha1(rng.randbytes(20)).hexdigest()  # a commit id, not a security use


def h9_md5(rng: random.Random) -> str:
    return hashlib.md5(rng.randbytes(16)).hexdigest()  # an ETag, not a security use


def h9_commit_short(rng: random.Random) -> str:
    return h9_sha1(rng)[: rng.choice([7, 8, 10, 12])]


def h9_docker_digest(rng: random.Random) -> str:
    return "sha256:" + h9_sha256(rng)


def h9_uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def h9_uuid_hex(rng: random.Random) -> str:
    return uuid.UUID(int=rng.getrandbits(128), version=4).hex


def h9_req_id(rng: random.Random) -> str:
    return rng.choice(["req_", "", "r-"]) + h9_uuid_hex(rng)


def h9_idem_key(rng: random.Random) -> str:
    """What `secrets.token_urlsafe(32)` returns, drawn from the seeded generator."""
    return base64.urlsafe_b64encode(rng.randbytes(32)).decode().rstrip("=")


assert len(secrets.token_urlsafe(32)) == len(h9_idem_key(random.Random(0)))


def h9_traceparent(rng: random.Random) -> str:
    return f"00-{pick(rng, HEX, 32)}-{pick(rng, HEX, 16)}-01"


def h9_ssh_pubkey(rng: random.Random) -> str:
    body = "AAAAC3NzaC1lZDI1NTE5AAAAI" + pick(rng, B64, 43)
    return f"ssh-ed25519 {body} {rng.choice(FIRST)}@{rng.choice(['laptop', 'ws-17', 'mbp'])}"


def h9_rsa_pubkey(rng: random.Random) -> str:
    return "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + pick(rng, B64, 340) + " deploy@ci"


def h9_wg_pubkey(rng: random.Random) -> str:
    return pick(rng, B64, 42) + rng.choice("AEIMQUYcgkosw048") + "="


def h9_pgp_fpr(rng: random.Random) -> str:
    raw = pick(rng, HEX.upper(), 40)
    return " ".join(raw[i : i + 4] for i in range(0, 40, 4))


def h9_age_pub(rng: random.Random) -> str:
    return "age1" + pick(rng, BECH32, 58)


def h9_ssh_fpr(rng: random.Random) -> str:
    return "SHA256:" + pick(rng, B64, 43)


def h9_png_b64(rng: random.Random) -> str:
    return "iVBORw0KGgoAAAANSUhEUgAA" + pick(rng, B64, rng.randint(80, 220)) + "=="


def h9_pdf_b64(rng: random.Random) -> str:
    return "JVBERi0xLjcKJeLjz9MK" + pick(rng, B64, rng.randint(120, 260))


def h9_jwt_header(rng: random.Random) -> str:
    header = {"alg": rng.choice(["RS256", "ES256"]), "typ": "JWT", "kid": pick(rng, HEX, 16)}
    return _b64url(json.dumps(header, separators=(",", ":")).encode())


def h9_order(rng: random.Random) -> str:
    return rng.choice(["BE", "WEB", "A"]) + f"-{rng.randint(2024, 2026)}-{pick(rng, DIGITS, 6)}"


def h9_sku(rng: random.Random) -> str:
    return f"{pick(rng, UPPER, 3)}-{pick(rng, DIGITS, 4)}-{rng.choice(['S', 'M', 'L', 'XL'])}"


def h9_invoice(rng: random.Random) -> str:
    return f"RE{rng.randint(2025, 2026)}{pick(rng, DIGITS, 5)}"


def h9_tracking(rng: random.Random) -> str:
    return "1Z" + pick(rng, UPPER + DIGITS, 16)


def h9_ticket(rng: random.Random) -> str:
    return f"{rng.choice(['OPS', 'SUP', 'PLAT', 'INC', 'BILL'])}-{rng.randint(100, 9999)}"


def h9_customer_id(rng: random.Random) -> str:
    return rng.choice(["cus_", "KD-"]) + pick(rng, ALNUM if rng.random() < 0.5 else DIGITS, 14)


def h9_pi_id(rng: random.Random) -> str:
    return "pi_3" + pick(rng, ALNUM, 23)


def h9_iban(rng: random.Random) -> str:
    raw = "DE" + pick(rng, DIGITS, 20)
    return " ".join(raw[i : i + 4] for i in range(0, 22, 4))


def h9_login(rng: random.Random) -> str:
    first, last = rng.choice(FIRST), rng.choice(LAST)
    shape = rng.randrange(3)
    if shape == 0:
        return f"{first}.{last}"
    if shape == 1:
        return f"{first[0]}.{last}{rng.randint(2, 9)}"
    return f"{first[0]}{last}"


def h9_email(rng: random.Random) -> str:
    domain = rng.choice(["firma.de", "acme.io", "kanzlei-berg.de"])
    return f"{rng.choice(FIRST)}.{rng.choice(LAST)}@{domain}"


def h9_semver(rng: random.Random) -> str:
    return f"{rng.randint(1, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 40)}"


def h9_client_id(rng: random.Random) -> str:
    return f"{pick(rng, DIGITS, 12)}-{pick(rng, LOWER + DIGITS, 32)}.apps.googleusercontent.com"


def h9_sa_email(rng: random.Random) -> str:
    name = rng.choice(["exporter", "sync", "ci"])
    return f"{name}@billing-prod-{pick(rng, DIGITS, 4)}.iam.gserviceaccount.com"


def h9_pr_number(rng: random.Random) -> str:
    return str(rng.randint(1000, 9999))


def h9_repo(rng: random.Random) -> str:
    return rng.choice(["acme", "firma", "ops"]) + "/" + rng.choice(["billing", "shop-api", "etl"])


def h9_ssid(rng: random.Random) -> str:
    return rng.choice(["Buero", "Gast", "Lager", "Office"]) + "-" + pick(rng, UPPER + DIGITS, 4)


def h9_chat_id(rng: random.Random) -> str:
    return "-100" + pick(rng, DIGITS, 10)


def h9_twilio_sid(rng: random.Random) -> str:
    return "AC" + pick(rng, HEX, 32)


def h9_migration_id(rng: random.Random) -> str:
    return f"{rng.randint(2024, 2026)}{pick(rng, DIGITS, 10)}_add_{rng.choice(['users', 'tokens'])}"


def h9_serial(rng: random.Random) -> str:
    return "SN" + pick(rng, UPPER + DIGITS, 10)


def h9_pod_name(rng: random.Random) -> str:
    app = rng.choice(["api", "worker", "cron"])
    return f"{app}-{pick(rng, HEX, 10)}-{pick(rng, LOWER + DIGITS, 5)}"


def h9_node(rng: random.Random) -> str:
    ip = f"10-{rng.randint(0, 255)}-{rng.randint(0, 255)}-{rng.randint(1, 254)}"
    return f"ip-{ip}.eu-central-1.compute.internal"


def h9_aws_account(rng: random.Random) -> str:
    return pick(rng, DIGITS, 12)


def h9_arn(rng: random.Random) -> str:
    role = rng.choice(["deploy-ci", "billing-reader", "backup-writer"])
    return f"arn:aws:iam::{h9_aws_account(rng)}:role/{role}"


def h9_aws_reqid(rng: random.Random) -> str:
    return h9_uuid(rng)


def h9_build_id(rng: random.Random) -> str:
    return f"#{rng.randint(10000, 99999)}"


def h9_s3_path(rng: random.Random) -> str:
    return f"s3://artifacts-{pick(rng, LOWER, 5)}/builds/{h9_sha1(rng)[:12]}/app.tar.gz"


def h9_mac(rng: random.Random) -> str:
    return ":".join(pick(rng, HEX, 2) for _ in range(6))


def h9_ipv6(rng: random.Random) -> str:
    return "2001:db8:" + ":".join(pick(rng, HEX, 4) for _ in range(3)) + "::" + pick(rng, HEX, 3)


def h9_ipv4(rng: random.Random) -> str:
    return f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"


def h9_x509_serial(rng: random.Random) -> str:
    return ":".join(pick(rng, HEX.upper(), 2) for _ in range(16))


def h9_date(rng: random.Random) -> str:
    return f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}"


def h9_cache_prefix(rng: random.Random) -> str:
    return f"shop:v{rng.randint(2, 9)}:{pick(rng, LOWER, 4)}:"


def h9_index_name(rng: random.Random) -> str:
    table = rng.choice(["orders", "kunden", "events"])
    return f"idx_{table}_{rng.choice(['created_at', 'status'])}"


def h9_service_name(rng: random.Random) -> str:
    return rng.choice(["invoice-renderer", "lager-sync", "mail-relay", "search-indexer"])


def h9_dash_uid(rng: random.Random) -> str:
    return pick(rng, ALNUM, 9)


def h9_branch(rng: random.Random) -> str:
    topic = rng.choice(["login-retry", "pdf-export", "cache"])
    return f"{rng.choice(['fix', 'feat', 'chore'])}/{topic}-{rng.randint(10, 999)}"


def h9_color(rng: random.Random) -> str:
    return "#" + pick(rng, HEX, 6)
