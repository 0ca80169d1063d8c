"""Value makers of the sixth held-out set (judge6, seed 64219), written fresh.

Every maker takes the generator's `random.Random` and returns one value; `h6_*` makers are
secrets (provider tokens in their published shapes, passwords of every strength, PINs, one-time
and recovery codes, private keys, cookies, card data), `h6n_*` makers are content that must
survive (identifiers, digests, public keys, personal data that is no credential). Nothing here
is read from the scrubber or from another set's makers.
"""

from __future__ import annotations

import base64
import json
import random
import string

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = string.ascii_letters + DIGITS
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
BASE32 = UPPER + "234567"
WORDS = [
    "anker", "birne", "wolke", "tafel", "segel", "kiesel", "lampe", "zunder", "otter", "fichte",
    "marble", "copper", "lantern", "harbor", "velvet", "pepper", "meadow", "rocket", "tundra",
]  # fmt: skip
WEAK_STEMS = [
    "Sommer", "Hamburg", "Schalke", "Bello", "Mausi", "Sunshine", "Dragon", "Monkey", "Winter",
    "Lieblingskatze", "Football", "Tigerente",
]  # fmt: skip
FIRST = ["Jana", "Mehmet", "Sophie", "Lukas", "Aylin", "Jonas", "Priya", "Tomasz", "Greta", "Ole"]
LAST = ["Krüger", "Yilmaz", "Brandt", "Novak", "Schulze", "Okafor", "Lindqvist", "Hoffmann"]
PLACES = [
    (["Lindenstraße", "Am Markt", "Hauptstr.", "Kastanienallee"], ["10115 Berlin", "50667 Köln"]),
    (["Baker Street", "Elm Road", "High Street"], ["London SW1A 1AA", "Leeds LS1 4AP"]),
]


def _r(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _digits(rng: random.Random, n: int) -> str:
    return str(rng.choice("123456789")) + _r(rng, DIGITS, n - 1)


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


# --- provider tokens -----------------------------------------------------------------------
def h6_aws_access_key(rng: random.Random) -> str:
    return "AKIA" + _r(rng, UPPER + "234567", 16)


def h6_aws_secret(rng: random.Random) -> str:
    return _r(rng, B64, 40)


def h6_github_classic(rng: random.Random) -> str:
    return "ghp_" + _r(rng, ALNUM, 36)


def h6_github_fine(rng: random.Random) -> str:
    return "github_pat_11" + _r(rng, UPPER + DIGITS, 20) + "_" + _r(rng, ALNUM, 59)


def h6_gitlab_pat(rng: random.Random) -> str:
    return "glpat-" + _r(rng, URLSAFE, 20)


def h6_slack_bot(rng: random.Random) -> str:
    return f"xoxb-{_digits(rng, 12)}-{_digits(rng, 13)}-{_r(rng, ALNUM, 24)}"


def h6_slack_webhook_secret(rng: random.Random) -> str:
    return _r(rng, ALNUM, 24)


def h6_stripe_live(rng: random.Random) -> str:
    return "sk_live_51" + _r(rng, ALNUM, 96)


def h6_stripe_restricted(rng: random.Random) -> str:
    return "rk_live_" + _r(rng, ALNUM, 24)


def h6_openai(rng: random.Random) -> str:
    return "sk-proj-" + _r(rng, URLSAFE, 64)


def h6_anthropic(rng: random.Random) -> str:
    return "sk-ant-api03-" + _r(rng, URLSAFE, 93) + "AA"


def h6_google_api(rng: random.Random) -> str:
    return "AIza" + _r(rng, URLSAFE, 35)


def h6_npm(rng: random.Random) -> str:
    return "npm_" + _r(rng, ALNUM, 36)


def h6_pypi(rng: random.Random) -> str:
    return "pypi-AgEIcHlwaS5vcmc" + _r(rng, URLSAFE, 70)


def h6_sendgrid(rng: random.Random) -> str:
    return f"SG.{_r(rng, URLSAFE, 22)}.{_r(rng, URLSAFE, 43)}"


def h6_twilio_auth(rng: random.Random) -> str:
    return _r(rng, HEX, 32)


def h6_jwt(rng: random.Random) -> str:
    head = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    claims = {"sub": _digits(rng, 7), "name": rng.choice(FIRST), "iat": 1764000000 + _n(rng)}
    body = _b64url(json.dumps(claims, separators=(",", ":")).encode())
    return f"{head}.{body}.{_r(rng, URLSAFE, 43)}"


def _n(rng: random.Random) -> int:
    return rng.randrange(1, 9_000_000)


def h6_azure_account_key(rng: random.Random) -> str:
    return base64.b64encode(rng.randbytes(64)).decode()


def h6_hf_token(rng: random.Random) -> str:
    return "hf_" + _r(rng, string.ascii_letters, 34)


def h6_digitalocean(rng: random.Random) -> str:
    return "dop_v1_" + _r(rng, HEX, 64)


def h6_telegram_bot(rng: random.Random) -> str:
    return f"{_digits(rng, 10)}:AA{_r(rng, URLSAFE, 33)}"


def h6_mailgun(rng: random.Random) -> str:
    return "key-" + _r(rng, HEX, 32)


def h6_shopify(rng: random.Random) -> str:
    return "shpat_" + _r(rng, HEX, 32)


def h6_docker_pat(rng: random.Random) -> str:
    return "dckr_pat_" + _r(rng, URLSAFE, 27)


def h6_vault_token(rng: random.Random) -> str:
    return "hvs.CAESI" + _r(rng, URLSAFE, 86)


def h6_age_key(rng: random.Random) -> str:
    return "AGE-SECRET-KEY-1" + _r(rng, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)


def h6_datadog_api(rng: random.Random) -> str:
    return _r(rng, HEX, 32)


def h6_generic_api_key(rng: random.Random) -> str:
    return _r(rng, ALNUM, 32)


def h6_bearer_opaque(rng: random.Random) -> str:
    return _r(rng, URLSAFE, 43)


def h6_django_secret(rng: random.Random) -> str:
    return "django-insecure-" + _r(rng, LOWER + DIGITS + "!@#%^&*(-_=+)", 50)


def h6_gcp_private_key(rng: random.Random) -> str:
    """The `private_key` of a service-account JSON: a PEM with escaped newlines."""
    body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + _r(rng, B64, 32 + 64 * 4)
    rows = "\\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    return f"-----BEGIN PRIVATE KEY-----\\n{rows}\\n-----END PRIVATE KEY-----\\n"


def h6_presigned_signature(rng: random.Random) -> str:
    return _r(rng, HEX, 64)


def h6_magic_link_token(rng: random.Random) -> str:
    return _r(rng, URLSAFE, 43)


def h6_basic_auth(rng: random.Random) -> str:
    user = rng.choice(["deploy", "ci", "grafana", "jana"])
    return base64.b64encode(f"{user}:{h6_pw_strong(rng)}".encode()).decode()


def h6_k8s_secret_b64(rng: random.Random) -> str:
    return base64.b64encode(h6_pw_strong(rng).encode()).decode()


# --- passwords, PINs and codes -------------------------------------------------------------
def h6_pw_strong(rng: random.Random) -> str:
    body = [rng.choice(UPPER), rng.choice(LOWER), rng.choice(DIGITS), rng.choice("!#%&*+-=?@^_~")]
    body += [rng.choice(ALNUM + "!#%&*+=?@^_~") for _ in range(rng.randrange(10, 16))]
    rng.shuffle(body)
    return rng.choice(UPPER) + "".join(body) + rng.choice(DIGITS)


def h6_pw_weak(rng: random.Random) -> str:
    return rng.choice(WEAK_STEMS) + str(
        rng.choice([rng.randrange(1960, 2027), rng.randrange(10, 99)])
    )


def h6_pw_weak_bang(rng: random.Random) -> str:
    return h6_pw_weak(rng) + rng.choice(["!", "?", "#", "$"])


def h6_pw_passphrase(rng: random.Random) -> str:
    return "-".join(rng.sample(WORDS, 4))


def h6_pw_urlsafe(rng: random.Random) -> str:
    return _r(rng, ALNUM, 3) + _r(rng, URLSAFE, 14) + _r(rng, ALNUM, 3)


def h6_pw_percent(rng: random.Random) -> str:
    parts = [_r(rng, ALNUM, rng.randrange(3, 6)) for _ in range(3)]
    codes = rng.sample(["%40", "%21", "%23", "%2F", "%3A", "%24", "%26", "%2B"], 2)
    return parts[0] + codes[0] + parts[1] + codes[1] + parts[2]


def h6_pw_wifi(rng: random.Random) -> str:
    return _r(rng, ALNUM, rng.randrange(12, 18))


def h6_pin(rng: random.Random) -> str:
    return _r(rng, DIGITS, rng.choice([4, 4, 5, 6]))


def h6_otp(rng: random.Random) -> str:
    return _r(rng, DIGITS, 6)


def h6_recovery_code(rng: random.Random) -> str:
    return f"{_r(rng, HEX, 5)}-{_r(rng, HEX, 5)}"


def h6_backup_code(rng: random.Random) -> str:
    return f"{_r(rng, DIGITS, 4)} {_r(rng, DIGITS, 4)}"


def h6_totp_seed(rng: random.Random) -> str:
    return _r(rng, BASE32, 32)


def h6_puk(rng: random.Random) -> str:
    return _r(rng, DIGITS, 8)


# --- keys, cookies, cards ------------------------------------------------------------------
def _pem(rng: random.Random, label: str, lines: int, first: str = "") -> str:
    body = (first + _r(rng, B64, 64 * lines))[: 64 * lines]
    rows = [body[i : i + 64] for i in range(0, len(body), 64)] + [_r(rng, B64, 20) + "=="]
    return f"-----BEGIN {label}-----\n" + "\n".join(rows) + f"\n-----END {label}-----"


def h6_openssh_private(rng: random.Random) -> str:
    return _pem(rng, "OPENSSH PRIVATE KEY", 5, "b3BlbnNzaC1rZXktdjEAAAAA")


def h6_rsa_private(rng: random.Random) -> str:
    return _pem(rng, "RSA PRIVATE KEY", 8, "MIIEpAIBAAKCAQEA")


def h6_ec_private(rng: random.Random) -> str:
    return _pem(rng, "EC PRIVATE KEY", 3, "MHcCAQEEI")


def h6_session_cookie(rng: random.Random) -> str:
    return _r(rng, LOWER + DIGITS, 32)


def h6_jsessionid(rng: random.Random) -> str:
    return _r(rng, "0123456789ABCDEF", 32)


def h6_connect_sid(rng: random.Random) -> str:
    sig = _r(rng, ALNUM, 20) + "%2F" + _r(rng, ALNUM, 12) + "%2B" + _r(rng, ALNUM, 8)
    return f"s%3A{_r(rng, URLSAFE, 32)}.{sig}"


def h6_card_number(rng: random.Random) -> str:
    digits = [int(d) for d in rng.choice(["4", "51", "53", "55"])]
    digits += [rng.randrange(10) for _ in range(15 - len(digits))]
    total = 0
    for i, d in enumerate(reversed(digits)):
        d = d * 2 if i % 2 == 0 else d
        total += d - 9 if d > 9 else d
    number = "".join(map(str, digits)) + str((10 - total % 10) % 10)
    return " ".join(number[i : i + 4] for i in range(0, 16, 4))


def h6_card_cvc(rng: random.Random) -> str:
    return _r(rng, DIGITS, 3)


# --- content that must survive -------------------------------------------------------------
def h6n_commit(rng: random.Random) -> str:
    return _r(rng, HEX, 40)


def h6n_short_sha(rng: random.Random) -> str:
    return _r(rng, HEX, 7)


def h6n_sha256(rng: random.Random) -> str:
    return _r(rng, HEX, 64)


def h6n_md5(rng: random.Random) -> str:
    return _r(rng, HEX, 32)


def h6n_uuid(rng: random.Random) -> str:
    h = _r(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def h6n_uuid_hex(rng: random.Random) -> str:
    return h6n_uuid(rng).replace("-", "")


def h6n_traceparent(rng: random.Random) -> str:
    return f"00-{_r(rng, HEX, 32)}-{_r(rng, HEX, 16)}-01"


def h6n_ticket(rng: random.Random) -> str:
    return f"{rng.choice(['OPS', 'PAY', 'BRAIN', 'INFRA', 'SUP'])}-{rng.randrange(100, 9999)}"


def h6n_order(rng: random.Random) -> str:
    return f"B-2026-{rng.randrange(1000, 999999):06d}"


def h6n_iban(rng: random.Random) -> str:
    bban = _r(rng, DIGITS, 18)
    check = 98 - int(bban + "131400") % 97
    raw = f"DE{check:02d}{bban}"
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def h6n_phone(rng: random.Random) -> str:
    return f"+49 1{rng.choice('567')}{rng.randrange(0, 9)} {_digits(rng, 7)}"


def h6n_email(rng: random.Random) -> str:
    first, last = rng.choice(FIRST).lower(), rng.choice(LAST).lower()
    last = last.replace("ü", "ue").replace("ö", "oe")
    return f"{first}.{last}{rng.randrange(1, 99)}@{rng.choice(['example.org', 'acme.example'])}"


def h6n_name(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def h6n_birthdate(rng: random.Random) -> str:
    return f"{rng.randrange(1, 29):02d}.{rng.randrange(1, 13):02d}.{rng.randrange(1950, 2005)}"


def h6n_address(rng: random.Random) -> str:
    streets, cities = rng.choice(PLACES)
    return f"{rng.choice(streets)} {rng.randrange(1, 120)}, {rng.choice(cities)}"


def h6n_arn(rng: random.Random) -> str:
    return f"arn:aws:lambda:eu-central-1:{_digits(rng, 12)}:function:brain-{_r(rng, LOWER, 6)}"


def h6n_account_id(rng: random.Random) -> str:
    return _digits(rng, 12)


def h6n_integrity(rng: random.Random) -> str:
    return "sha512-" + base64.b64encode(rng.randbytes(64)).decode()


def h6n_docker_digest(rng: random.Random) -> str:
    return "sha256:" + _r(rng, HEX, 64)


def h6n_pod(rng: random.Random) -> str:
    return (
        f"{rng.choice(['api', 'worker', 'ingest'])}-{_r(rng, HEX, 9)}-{_r(rng, LOWER + DIGITS, 5)}"
    )


def h6n_ssh_public(rng: random.Random) -> str:
    key = base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00 " + rng.randbytes(32)).decode()
    return f"ssh-ed25519 {key} {rng.choice(FIRST).lower()}@laptop"


def h6n_gpg_fingerprint(rng: random.Random) -> str:
    h = _r(rng, "0123456789ABCDEF", 40)
    return " ".join(h[i : i + 4] for i in range(0, 40, 4))


def h6n_video_id(rng: random.Random) -> str:
    return _r(rng, URLSAFE, 11)


def h6n_shortlink(rng: random.Random) -> str:
    return _r(rng, URLSAFE, 10)


def h6n_tracking(rng: random.Random) -> str:
    return "00340434" + _r(rng, DIGITS, 12)


def h6n_tax_id(rng: random.Random) -> str:
    return _digits(rng, 11)


def h6n_plate(rng: random.Random) -> str:
    return f"{rng.choice(['M', 'HH', 'B', 'K'])}-{_r(rng, UPPER, 2)} {rng.randrange(1, 9999)}"


def h6n_ip(rng: random.Random) -> str:
    return f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"


def h6n_mac(rng: random.Random) -> str:
    return ":".join(_r(rng, HEX, 2) for _ in range(6))


def h6n_semver(rng: random.Random) -> str:
    return f"{rng.randrange(0, 5)}.{rng.randrange(0, 30)}.{rng.randrange(0, 20)}"


def h6n_customer(rng: random.Random) -> str:
    return f"KD-{_digits(rng, 6)}"


def h6n_stripe_customer(rng: random.Random) -> str:
    return "cus_" + _r(rng, ALNUM, 14)


def h6n_stripe_payment_intent(rng: random.Random) -> str:
    return "pi_3" + _r(rng, ALNUM, 23)


def h6n_slack_channel(rng: random.Random) -> str:
    return "C0" + _r(rng, UPPER + DIGITS, 9)


def h6n_data_uri(rng: random.Random) -> str:
    return (
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA"
        + base64.b64encode(rng.randbytes(45)).decode()
    )


def h6n_idempotency_key(rng: random.Random) -> str:
    return _r(rng, HEX, 32)


def h6n_urlsafe_id(rng: random.Random) -> str:
    return _r(rng, URLSAFE, 22)


def h6n_run_id(rng: random.Random) -> str:
    return _digits(rng, 11)


def h6n_env_var(rng: random.Random) -> str:
    return rng.choice(["DB_PASSWORD", "STRIPE_SECRET_KEY", "GITHUB_TOKEN", "SMTP_PASS", "API_KEY"])


def h6n_product_code(rng: random.Random) -> str:
    return f"{_r(rng, UPPER, 3)}-{_r(rng, UPPER + DIGITS, 5)}-{_r(rng, UPPER + DIGITS, 4)}"
