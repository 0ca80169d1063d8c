"""Content makers of held-out set 12 (judge11 track): identifiers, hashes, public material and
references of other kinds than held-out11's — a memory must keep every one unchanged.

Invariants: names start with `h12_`; each value is at least 6 characters and shares no word with
a secret maker of `heldout12_values`, so a kept value never overlaps a labelled secret.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random

from tests.data.scrub_eval.heldout11_values import (
    AN,
    B32C,
    BECH,
    DIG,
    HEXD,
    LO,
    UP,
    URLS,
    b64,
    b64url,
    noise,
    rnd,
)
from tests.data.scrub_eval.heldout12_values import B58, uuid4


def h12_tx_hash(rng: random.Random) -> str:
    return "0x" + rnd(rng, HEXD, 64)


def h12_blob_sha(rng: random.Random) -> str:
    return hashlib.sha1(noise(rng, 20)).hexdigest()  # a git object id, no security use


def h12_container_id(rng: random.Random) -> str:
    return rnd(rng, HEXD, 12)


def h12_full_container_id(rng: random.Random) -> str:
    return rnd(rng, HEXD, 64)


def h12_cid(rng: random.Random) -> str:
    return "bafybei" + rnd(rng, "abcdefghijklmnopqrstuvwxyz234567", 52)


def h12_ec2_instance(rng: random.Random) -> str:
    return "i-0" + rnd(rng, HEXD, 16)


def h12_sg_id(rng: random.Random) -> str:
    return "sg-0" + rnd(rng, HEXD, 16)


def h12_cloudfront_id(rng: random.Random) -> str:
    return "E" + rnd(rng, UP + DIG, 13)


def h12_aws_request_id(rng: random.Random) -> str:
    return uuid4(rng)


def h12_uuid(rng: random.Random) -> str:
    return uuid4(rng)


def h12_hex32(rng: random.Random) -> str:
    return rnd(rng, HEXD, 32)


def h12_uuid_compact(rng: random.Random) -> str:
    return uuid4(rng).replace("-", "")


def h12_multipart_etag(rng: random.Random) -> str:
    return f"{rnd(rng, HEXD, 32)}-{rng.randint(2, 90)}"


def h12_azure_resource(rng: random.Random) -> str:
    return f"/subscriptions/{uuid4(rng)}/resourceGroups/rg-web/providers/Microsoft.Web/sites/shop"


def h12_ga_id(rng: random.Random) -> str:
    return "G-" + rnd(rng, UP + DIG, 10)


def h12_recaptcha_site_key(rng: random.Random) -> str:
    return "6L" + rnd(rng, URLS, 38)


def h12_npub(rng: random.Random) -> str:
    return "npub1" + rnd(rng, BECH, 58)


def h12_age_recipient(rng: random.Random) -> str:
    return "age1" + rnd(rng, BECH, 58)


def h12_host_key_fp(rng: random.Random) -> str:
    return "SHA256:" + b64(noise(rng, 32)).rstrip("=")


def h12_cert_body(rng: random.Random) -> str:
    raw = "MIIDdzCCAl+gAwIBAgIU" + b64(noise(rng, 200))
    return "\n".join(raw[i : i + 64] for i in range(0, len(raw), 64))


def h12_cert_thumbprint(rng: random.Random) -> str:
    return rnd(rng, HEXD.upper(), 40)


def h12_woff_b64(rng: random.Random) -> str:
    return "d09GMgABAAAAA" + b64(noise(rng, 90))


def h12_cursor(rng: random.Random) -> str:
    return b64url(json.dumps({"after": rng.randint(1000, 99999), "dir": "next"}).encode())


def h12_wheel_hash(rng: random.Random) -> str:
    return "sha256:" + hashlib.sha256(noise(rng, 12)).hexdigest()


def h12_nix_path(rng: random.Random) -> str:
    name = rng.choice(["openssl-3.0.14", "python3-3.12.4", "ripgrep-14.1.0"])
    return "/nix/store/" + rnd(rng, "0123456789abcdfghijklmnpqrsvwxyz", 32) + "-" + name


def h12_chunk_name(rng: random.Random) -> str:
    return f"{rng.choice(['main', 'vendor', 'runtime'])}.{rnd(rng, HEXD, 8)}.js"


def h12_vin(rng: random.Random) -> str:
    return "W" + rnd(rng, "ABCDEFGHJKLMNPRSTUVWXYZ" + DIG, 16)


def h12_imei(rng: random.Random) -> str:
    return "35" + rnd(rng, DIG, 13)


def h12_mac(rng: random.Random) -> str:
    return ":".join(rnd(rng, HEXD, 2) for _ in range(6)).upper()


def h12_serial(rng: random.Random) -> str:
    return rnd(rng, UP, 2) + rnd(rng, DIG + UP, 10)


def h12_isbn(rng: random.Random) -> str:
    return f"978-3-{rnd(rng, DIG, 4)}-{rnd(rng, DIG, 4)}-{rng.randrange(10)}"


def h12_amazon_order(rng: random.Random) -> str:
    return f"3{rnd(rng, DIG, 2)}-{rnd(rng, DIG, 7)}-{rnd(rng, DIG, 7)}"


def h12_paypal_txn(rng: random.Random) -> str:
    return rnd(rng, UP + DIG, 17)


def h12_creditor_id(rng: random.Random) -> str:
    return f"DE{rnd(rng, DIG, 2)}ZZZ{rnd(rng, DIG, 11)}"


def h12_mandate_ref(rng: random.Random) -> str:
    return "MR-" + rnd(rng, UP + DIG, 12)


def h12_bic(rng: random.Random) -> str:
    return rnd(rng, UP, 4) + "DE" + rnd(rng, UP + DIG, 2) + rng.choice(["", "XXX"])


def h12_case_no(rng: random.Random) -> str:
    return f"#{rng.randint(40000, 99999)}"


def h12_version(rng: random.Random) -> str:
    return f"{rng.randint(1, 30)}.{rng.randint(0, 12)}.{rng.randint(0, 9)}"


def h12_username(rng: random.Random) -> str:
    return rng.choice(["svc-reports", "m.oyelaran", "ci-runner", "k.haas", "ops-admin"])


def h12_mail(rng: random.Random) -> str:
    name = rng.choice(["noemi", "jakob.r", "amira", "lars.t", "selin"])
    return f"{name}@{rng.choice(['praxis-sued.example', 'verein.example', 'studio.example'])}"


def h12_youtube_url(rng: random.Random) -> str:
    return f"https://www.youtube.com/watch?v={rnd(rng, URLS, 11)}&t={rng.randint(5, 900)}s"


def h12_maps_url(rng: random.Random) -> str:
    return f"https://maps.example.com/?q={rng.uniform(47, 55):.5f},{rng.uniform(6, 15):.5f}&z=17"


def h12_compare_url(rng: random.Random) -> str:
    return f"https://git.example.org/web/shop/compare/{rnd(rng, HEXD, 7)}...{rnd(rng, HEXD, 7)}"


def h12_cursor_url(rng: random.Random) -> str:
    return f"https://api.example.org/v3/items?limit=50&cursor={h12_cursor(rng)}"


def h12_secret_ref_arn(rng: random.Random) -> str:
    acct = rnd(rng, "123456789", 1) + rnd(rng, DIG, 11)
    return f"arn:aws:secretsmanager:eu-west-1:{acct}:secret:prod/db-{rnd(rng, AN, 6)}"


def h12_op_reference(rng: random.Random) -> str:
    item = rng.choice(["Mailserver", "Warehouse DB", "Router"])
    return f"op://{rng.choice(['Private', 'Infra'])}/{item}/{rng.choice(['password', 'token'])}"


def h12_sops_blob(rng: random.Random) -> str:
    data = b64(noise(rng, 24))
    iv = b64(noise(rng, 32))
    tag = b64(noise(rng, 16))
    return f"ENC[AES256_GCM,data:{data},iv:{iv},tag:{tag},type:str]"


def h12_gcp_secret_ref(rng: random.Random) -> str:
    return f"projects/{rnd(rng, '123456789', 1)}{rnd(rng, DIG, 11)}/secrets/db-pass/versions/latest"


def h12_b32_id(rng: random.Random) -> str:
    return rnd(rng, B32C, 26)


def h12_b58_id(rng: random.Random) -> str:
    return rnd(rng, B58, 22)


def h12_lowercase_id(rng: random.Random) -> str:
    return rnd(rng, LO + DIG, 20)


def h12_base64_json_blob(rng: random.Random) -> str:
    payload = {"w": rng.randint(320, 1920), "h": rng.randint(200, 1080), "fmt": "webp"}
    return base64.b64encode(json.dumps(payload).encode()).decode()


def h12_alnum_ref(rng: random.Random) -> str:
    return rnd(rng, AN, 16)


def h12_slack_team(rng: random.Random) -> str:
    return "T" + rnd(rng, UP + DIG, 10)


def h12_slack_hook_id(rng: random.Random) -> str:
    return "B" + rnd(rng, UP + DIG, 10)
