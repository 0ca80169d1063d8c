"""Content makers of held-out set 11 (judge11 track): identifiers, digests, public keys, blobs
and references that look random but are no credential — a memory must keep them unchanged.

Invariants: names start with `h11_`; every value is at least 6 characters and holds no word a
secret maker of `heldout11_values` uses, so a kept value never overlaps a labelled secret.
"""

from __future__ import annotations

import base64
import hashlib
import random

from tests.data.scrub_eval.heldout11_values import AN, BECH, DIG, HEXD, LO, UP, URLS, rnd
from tests.data.scrub_eval.heldout11_values import noise as raw


def h11_sha256(rng: random.Random) -> str:
    return hashlib.sha256(raw(rng, 16)).hexdigest()


def h11_sha1(rng: random.Random) -> str:
    return hashlib.sha1(raw(rng, 16)).hexdigest()  # a commit id, no security use


def h11_short_sha(rng: random.Random) -> str:
    return rnd(rng, HEXD, rng.choice([7, 8, 10, 12]))


def h11_md5(rng: random.Random) -> str:
    return hashlib.md5(raw(rng, 16)).hexdigest()  # an ETag, no security use


def h11_uuid(rng: random.Random) -> str:
    h = rnd(rng, HEXD, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def h11_uuid_plain(rng: random.Random) -> str:
    return h11_uuid(rng).replace("-", "")


def h11_uuid_upper(rng: random.Random) -> str:
    return h11_uuid(rng).upper()


def h11_urlsafe_id(rng: random.Random) -> str:
    """`secrets.token_urlsafe(16)`-style share or request id."""
    return base64.urlsafe_b64encode(raw(rng, 16)).decode().rstrip("=")


def h11_nanoid(rng: random.Random) -> str:
    return rnd(rng, URLS, 21)


def h11_drive_id(rng: random.Random) -> str:
    return "1" + rnd(rng, URLS, 32)


def h11_video_id(rng: random.Random) -> str:
    return rnd(rng, URLS, 11)


def h11_trace_id(rng: random.Random) -> str:
    return rnd(rng, HEXD, 32)


def h11_span_id(rng: random.Random) -> str:
    return rnd(rng, HEXD, 16)


def h11_png_b64(rng: random.Random) -> str:
    return "iVBORw0KGgoAAAANSUhEUgAA" + base64.b64encode(raw(rng, 96)).decode()


def h11_pdf_b64_lines(rng: random.Random) -> str:
    body = base64.b64encode(b"%PDF-1.7\n" + raw(rng, 150)).decode()
    return "\n".join(body[i : i + 76] for i in range(0, len(body), 76))


def h11_sri_hash(rng: random.Random) -> str:
    return "sha384-" + base64.b64encode(raw(rng, 48)).decode()


def h11_npm_integrity(rng: random.Random) -> str:
    return "sha512-" + base64.b64encode(raw(rng, 64)).decode()


def h11_gosum_hash(rng: random.Random) -> str:
    return "h1:" + base64.b64encode(raw(rng, 32)).decode()


def h11_image_digest(rng: random.Random) -> str:
    return "sha256:" + h11_sha256(rng)


def h11_ssh_ed25519_pub(rng: random.Random) -> str:
    body = base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00 " + raw(rng, 32)).decode()
    return f"ssh-ed25519 {body} {rng.choice(['lena', 'build', 'tomasz', 'ayse'])}@laptop"


def h11_wg_public_key(rng: random.Random) -> str:
    return base64.b64encode(raw(rng, 32)).decode()


def h11_pgp_fingerprint(rng: random.Random) -> str:
    h = rnd(rng, HEXD.upper(), 40)
    return " ".join(h[i : i + 4] for i in range(0, 40, 4))


def h11_twilio_sid(rng: random.Random) -> str:
    return "AC" + rnd(rng, HEXD, 32)


def h11_aws_account(rng: random.Random) -> str:
    return rnd(rng, "123456789", 1) + rnd(rng, DIG, 11)


def h11_stripe_customer(rng: random.Random) -> str:
    return "cus_" + rnd(rng, AN, 14)


def h11_stripe_payment_intent(rng: random.Random) -> str:
    return "pi_3" + rnd(rng, AN, 23)


def h11_slack_channel(rng: random.Random) -> str:
    return "C0" + rnd(rng, UP + DIG, 9)


def h11_order_no(rng: random.Random) -> str:
    return f"{rng.choice(['BE', 'AU', 'WS'])}-{rng.randint(2025, 2026)}-{rnd(rng, DIG, 6)}"


def h11_invoice_no(rng: random.Random) -> str:
    return f"RE{rnd(rng, DIG, 8)}"


def h11_sku(rng: random.Random) -> str:
    return f"{rnd(rng, UP, 3)}-{rnd(rng, DIG, 4)}-{rnd(rng, UP + DIG, 2)}"


def h11_ean(rng: random.Random) -> str:
    digits = [rng.randrange(10) for _ in range(12)]
    check = (10 - sum(d * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10) % 10
    return "".join(map(str, digits)) + str(check)


def h11_tracking_no(rng: random.Random) -> str:
    return "1Z" + rnd(rng, UP + DIG, 16)


def h11_ticket(rng: random.Random) -> str:
    return f"{rng.choice(['OPS', 'SUP', 'PAY', 'INFRA'])}-{rng.randint(100, 9999)}"


def h11_iban(rng: random.Random) -> str:
    return f"DE{rnd(rng, DIG, 2)} {' '.join(rnd(rng, DIG, 4) for _ in range(4))} {rnd(rng, DIG, 2)}"


def h11_semver(rng: random.Random) -> str:
    return f"v{rng.randint(1, 9)}.{rng.randint(0, 40)}.{rng.randint(0, 30)}"


def h11_login(rng: random.Random) -> str:
    first = rng.choice(["anke", "bjoern", "chiara", "dmitri", "elif", "fynn", "greta", "hugo"])
    return f"{first}.{rng.choice(['schulte', 'nowak', 'ramos', 'berger', 'kaya', 'lind'])}"


def h11_email(rng: random.Random) -> str:
    return f"{h11_login(rng)}@{rng.choice(['firma.example', 'kanzlei-nord.example'])}"


def h11_harmless_url(rng: random.Random) -> str:
    host = rng.choice(["shop.example.com", "docs.example.org", "maps.example.net"])
    query = rng.choice(
        [
            f"utm_source=newsletter&utm_campaign=herbst{rng.randint(10, 99)}",
            f"page={rng.randint(2, 40)}&sort=desc&q=steckdose",
            f"lang=de&ref={rnd(rng, LO + DIG, 10)}",
            f"id={rnd(rng, DIG, 7)}&view=print",
        ]
    )
    return f"https://{host}/{rng.choice(['artikel', 'suche', 'guide'])}?{query}"


def h11_btc_address(rng: random.Random) -> str:
    return "bc1q" + rnd(rng, BECH, 38)


def h11_eth_address(rng: random.Random) -> str:
    return "0x" + rnd(rng, HEXD + "ABCDEF", 40)


def h11_s3_version(rng: random.Random) -> str:
    return rnd(rng, AN + "._", 32)


def h11_arn(rng: random.Random) -> str:
    return f"arn:aws:iam::{h11_aws_account(rng)}:role/{rng.choice(['deploy', 'reader', 'etl'])}"


def h11_azure_tenant(rng: random.Random) -> str:
    return h11_uuid(rng)


def h11_client_id(rng: random.Random) -> str:
    return f"{rnd(rng, DIG, 12)}-{rnd(rng, LO + DIG, 32)}.apps.googleusercontent.com"


def h11_date(rng: random.Random) -> str:
    return f"{rng.randint(1, 28):02d}.{rng.randint(1, 12):02d}.{rng.randint(2025, 2027)}"


def h11_ipv6(rng: random.Random) -> str:
    return "2001:db8:" + ":".join(rnd(rng, HEXD, 4) for _ in range(3)) + "::" + rnd(rng, HEXD, 3)


def h11_discord_channel(rng: random.Random) -> str:
    return rnd(rng, "123456789", 1) + rnd(rng, DIG, 17)
