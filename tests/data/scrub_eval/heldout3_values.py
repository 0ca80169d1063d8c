"""Secret makers of the third held-out set (seed 31877), written by the judge track without
reading the scrubber's rules or the earlier generators: the shapes of the vendors' published
token formats and of the passwords, PINs and codes people really type. Every maker is
`(rng) -> str`; its name (all start with `h3_`, so no earlier maker is shadowed) is the kind
the benchmark reports. Values are random: none is a real credential.
"""

from __future__ import annotations

import base64
import json
import random
import string
import uuid

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
HEX = "0123456789abcdef"
B62 = string.ascii_letters + DIGITS
B64 = B62 + "+/"
URLSAFE = B62 + "-_"
BASE32 = UPPER + "234567"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
SYMBOLS = "!%*+-._?@"

GERMAN_WORDS = (
    "Apfelbaum",
    "Sonnenblume",
    "Kaffeetasse",
    "Wanderweg",
    "Zitronenfalter",
    "Hafenkran",
    "Eichhörnchen",
    "Mondschein",
    "Laternenpfahl",
    "Kirschkern",
    "Gartenzwerg",
    "Brotkorb",
)
ENGLISH_WORDS = (
    "harbor",
    "maple",
    "lantern",
    "copper",
    "meadow",
    "falcon",
    "orchid",
    "thunder",
    "velvet",
    "granite",
    "saffron",
    "pebble",
    "walrus",
    "cobalt",
    "juniper",
    "mosaic",
)


def _run(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64(data: bytes, url: bool = False) -> str:
    text = base64.urlsafe_b64encode(data) if url else base64.b64encode(data)
    return text.decode("ascii")


# --- vendor tokens -------------------------------------------------------------------------
def h3_github_classic(rng: random.Random) -> str:
    return "ghp_" + _run(rng, B62, 36)


def h3_github_fine(rng: random.Random) -> str:
    return "github_pat_11" + _run(rng, UPPER + DIGITS, 20) + "_" + _run(rng, B62, 59)


def h3_gitlab(rng: random.Random) -> str:
    return "glpat-" + _run(rng, URLSAFE, 20)


def h3_slack_bot(rng: random.Random) -> str:
    return f"xoxb-{_run(rng, DIGITS, 11)}-{_run(rng, DIGITS, 13)}-{_run(rng, B62, 24)}"


def h3_slack_hook_secret(rng: random.Random) -> str:
    return _run(rng, B62, 24)


def h3_stripe_live(rng: random.Random) -> str:
    return "sk_live_51" + _run(rng, B62, 97)


def h3_stripe_restricted(rng: random.Random) -> str:
    return "rk_live_51" + _run(rng, B62, 97)


def h3_stripe_whsec(rng: random.Random) -> str:
    return "whsec_" + _run(rng, B62, 32)


def h3_openai(rng: random.Random) -> str:
    return "sk-proj-" + _run(rng, URLSAFE, 74) + "T3BlbkFJ" + _run(rng, URLSAFE, 74)


def h3_anthropic(rng: random.Random) -> str:
    return "sk-ant-api03-" + _run(rng, URLSAFE, 93) + "AA"


def h3_google_api(rng: random.Random) -> str:
    return "AIza" + _run(rng, URLSAFE, 35)


def h3_azure_storage(rng: random.Random) -> str:
    return _b64(rng.randbytes(64))


def h3_twilio_token(rng: random.Random) -> str:
    return _run(rng, HEX, 32)


def h3_sendgrid(rng: random.Random) -> str:
    return "SG." + _run(rng, URLSAFE, 22) + "." + _run(rng, URLSAFE, 43)


def h3_npm(rng: random.Random) -> str:
    return "npm_" + _run(rng, B62, 36)


def h3_pypi(rng: random.Random) -> str:
    return "pypi-AgEIcHlwaS5vcmc" + _run(rng, URLSAFE, 140)


def h3_huggingface(rng: random.Random) -> str:
    return "hf_" + _run(rng, string.ascii_letters, 34)


def h3_discord_bot(rng: random.Random) -> str:
    user_id = _b64(str(rng.randrange(10**17, 10**18)).encode()).rstrip("=")
    return f"{user_id}.{_run(rng, URLSAFE, 6)}.{_run(rng, URLSAFE, 38)}"


def h3_telegram(rng: random.Random) -> str:
    return f"{rng.randrange(10**9, 8 * 10**9)}:AA{_run(rng, URLSAFE, 33)}"


def h3_datadog(rng: random.Random) -> str:
    return _run(rng, HEX, 32)


def h3_shopify(rng: random.Random) -> str:
    return "shpat_" + _run(rng, HEX, 32)


def h3_uuid_secret(rng: random.Random) -> str:
    """A UUID used as a credential (Postmark server tokens, Heroku API keys)."""
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def h3_atlassian(rng: random.Random) -> str:
    return "ATATT3xFfGF0" + _run(rng, URLSAFE, 180) + "=" + _run(rng, "0123456789ABCDEF", 8)


def h3_notion(rng: random.Random) -> str:
    return "ntn_" + _run(rng, DIGITS, 11) + _run(rng, B62, 35)


def h3_digitalocean(rng: random.Random) -> str:
    return "dop_v1_" + _run(rng, HEX, 64)


def h3_cloudflare(rng: random.Random) -> str:
    return _run(rng, URLSAFE, 40)


def h3_vault(rng: random.Random) -> str:
    return "hvs.CAESI" + _run(rng, URLSAFE, 86)


def h3_terraform_cloud(rng: random.Random) -> str:
    return _run(rng, B62, 14) + ".atlasv1." + _run(rng, B62, 67)


def h3_mapbox(rng: random.Random) -> str:
    return "sk.eyJ1Ijoi" + _run(rng, B62, 60) + "." + _run(rng, URLSAFE, 22)


def h3_okta(rng: random.Random) -> str:
    return "00" + _run(rng, URLSAFE, 40)


def h3_algolia_admin(rng: random.Random) -> str:
    return _run(rng, HEX, 32)


def h3_mailchimp(rng: random.Random) -> str:
    return _run(rng, HEX, 32) + f"-us{rng.randint(2, 21)}"


def h3_square(rng: random.Random) -> str:
    return "EAAA" + _run(rng, URLSAFE, 60)


def h3_azure_client_secret(rng: random.Random) -> str:
    return _run(rng, B62, 3) + "8Q~" + _run(rng, B62 + "~._-", 34)


def h3_bitbucket(rng: random.Random) -> str:
    return "ATBB" + _run(rng, B62, 28) + _run(rng, "0123456789ABCDEF", 8)


def h3_grafana_sa(rng: random.Random) -> str:
    return "glsa_" + _run(rng, B62, 32) + "_" + _run(rng, HEX, 8)


def h3_pulumi(rng: random.Random) -> str:
    return "pul-" + _run(rng, HEX, 40)


def h3_age(rng: random.Random) -> str:
    return "AGE-SECRET-KEY-1" + _run(rng, BECH32, 58)


def h3_wireguard_private(rng: random.Random) -> str:
    return _b64(rng.randbytes(32))


def h3_api_key_hex(rng: random.Random) -> str:
    return _run(rng, HEX, 40)


def h3_aws_secret(rng: random.Random) -> str:
    return _run(rng, B62 + "/+", 40)


def h3_s3_signature(rng: random.Random) -> str:
    return _run(rng, HEX, 64)


def h3_azure_sas_sig(rng: random.Random) -> str:
    raw = _b64(rng.randbytes(32))
    return raw.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def h3_jwt(rng: random.Random) -> str:
    head = _b64(b'{"alg":"HS256","typ":"JWT"}', url=True).rstrip("=")
    sub, exp = rng.randrange(10**6, 10**7), rng.randrange(1_790_000_000, 1_800_000_000)
    claims = {"sub": str(sub), "exp": exp}
    body = _b64(json.dumps(claims, separators=(",", ":")).encode(), url=True).rstrip("=")
    return f"{head}.{body}.{_run(rng, URLSAFE, 43)}"


def h3_basic_auth(rng: random.Random) -> str:
    user = rng.choice(("deploy", "ci-bot", "grafana", "backup"))
    return _b64(f"{user}:{h3_password_random(rng)}".encode())


def h3_k8s_b64(rng: random.Random) -> str:
    return _b64(h3_password_random(rng).encode())


def h3_totp_seed(rng: random.Random) -> str:
    return _run(rng, BASE32, 32)


def h3_recovery_code(rng: random.Random) -> str:
    return _run(rng, HEX, 5) + "-" + _run(rng, HEX, 5)


def h3_session_cookie(rng: random.Random) -> str:
    return _run(rng, LOWER + DIGITS, 32)


def h3_django_secret(rng: random.Random) -> str:
    return "django-insecure-" + _run(rng, LOWER + DIGITS + "!@%^*(-_=+)", 50)


# --- private key bodies ----------------------------------------------------------------------
def _pem_lines(rng: random.Random, start: str, lines: int, width: int = 64) -> list[str]:
    body = start + _b64(rng.randbytes(width * lines))
    return [body[i : i + width] for i in range(0, width * lines, width)]


def h3_pem_body(rng: random.Random) -> str:
    """The base64 body of a PKCS#1 RSA key, lines joined by newlines."""
    return "\n".join(_pem_lines(rng, "MIIEpAIBAAKCAQEA", 8))


def h3_openssh_body(rng: random.Random) -> str:
    return "\n".join(_pem_lines(rng, "b3BlbnNzaC1rZXktdjEAAAAA", 6, 70))


def h3_pem_escaped(rng: random.Random) -> str:
    """A PKCS#8 body as it sits in a JSON string: lines joined by a literal backslash-n."""
    return "\\n".join(_pem_lines(rng, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 8))


# --- passwords, PINs, codes ------------------------------------------------------------------
def h3_password_human(rng: random.Random) -> str:
    word = rng.choice(GERMAN_WORDS + ENGLISH_WORDS)
    word = word.capitalize() if rng.random() < 0.6 else word
    digits = _run(rng, DIGITS, rng.randint(2, 4))
    return rng.choice((word + digits + rng.choice("!?.*"), word + rng.choice("!-_") + digits))


def h3_password_random(rng: random.Random) -> str:
    core = _run(rng, B62, rng.randint(11, 15))
    cut = rng.randrange(2, len(core) - 2)
    return core[:cut] + rng.choice(SYMBOLS) + core[cut:]


def h3_url_password(rng: random.Random) -> str:
    return _run(rng, B62, rng.randint(12, 18)) + rng.choice(("-", "_", ".")) + _run(rng, B62, 3)


def h3_passphrase(rng: random.Random) -> str:
    words = rng.sample(ENGLISH_WORDS, 4)
    return rng.choice(("-", " ", ".")).join(words)


def h3_pin4(rng: random.Random) -> str:
    return f"{rng.randrange(1000, 10000)}"


def h3_pin6(rng: random.Random) -> str:
    return f"{rng.randrange(100000, 1000000)}"


def h3_puk(rng: random.Random) -> str:
    return f"{rng.randrange(10**7, 10**8)}"


def h3_door_code(rng: random.Random) -> str:
    return f"{rng.randrange(10**4, 10**6)}"


def h3_wifi_fritz(rng: random.Random) -> str:
    return " ".join(_run(rng, DIGITS, 4) for _ in range(5))


def _luhn_complete(prefix: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(prefix)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return prefix + str((10 - total % 10) % 10)


def h3_card_number(rng: random.Random) -> str:
    prefix = rng.choice(("4", "51", "53", "55"))
    number = _luhn_complete(prefix + _run(rng, DIGITS, 15 - len(prefix)))
    return " ".join(number[i : i + 4] for i in range(0, 16, 4))


def h3_cvc(rng: random.Random) -> str:
    return f"{rng.randrange(100, 1000)}"
