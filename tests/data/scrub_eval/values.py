"""Random values for the evaluation corpus: secrets, identifiers, personal data, fillers.

Written from scratch for this corpus (it shares nothing with the older `make_*_corpus.py`).
Every maker takes a `random.Random` and returns one value; the formats follow the providers'
published shapes (prefixes, alphabets, lengths) or the standards of the identifier (Luhn, IBAN
check digits, ISO 7064). The values are random, so none is a live credential.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable

Maker = Callable[[random.Random], str]

B62 = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
URLSAFE = B62 + "-_"
B64 = B62 + "+/"
UPPER_NUM = string.ascii_uppercase + string.digits


def pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64(rng: random.Random, nbytes: int, *, url: bool = False, pad: bool = True) -> str:
    raw = bytes(rng.randrange(256) for _ in range(nbytes))
    text = (base64.urlsafe_b64encode if url else base64.b64encode)(raw).decode()
    return text if pad else text.rstrip("=")


def _luhn_complete(prefix: str, length: int, rng: random.Random) -> str:
    body = prefix + "".join(rng.choice(string.digits) for _ in range(length - len(prefix) - 1))
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            d -= 9 if d > 9 else 0
        total += d
    return body + str((10 - total % 10) % 10)


# --- secrets ---------------------------------------------------------------------------------

WORDS_DE = ["Sonne", "Falke", "Birke", "Anker", "Wolke", "Tiger", "Kiesel", "Nebel", "Pilot"]
WORDS_EN = ["maple", "falcon", "river", "copper", "orbit", "velvet", "harbor", "cobalt"]
SYMBOLS = "!#$%&*?@+-_."


def password_strong(rng: random.Random) -> str:
    alphabet = B62 + "!#$%&*?@+"
    while True:
        value = pick(rng, alphabet, rng.randint(10, 18))
        if any(c.isdigit() for c in value) and any(c in "!#$%&*?@+" for c in value):
            return value


def password_word(rng: random.Random) -> str:
    word = rng.choice(WORDS_DE + WORDS_EN).capitalize()
    return (
        f"{word}{rng.choice(SYMBOLS)}{rng.randint(10, 9999)}"
        if rng.random() < 0.5
        else (f"{word}{rng.randint(1990, 2026)}{rng.choice('!?#$')}")
    )


def password_weak(rng: random.Random) -> str:
    return f"{rng.choice(WORDS_DE + WORDS_EN).lower()}{rng.randint(1, 999)}"


def passphrase(rng: random.Random) -> str:
    words = rng.sample(WORDS_EN + [w.lower() for w in WORDS_DE], 4)
    return rng.choice(["-", " ", "."]).join(words)


def pin(rng: random.Random) -> str:
    return "".join(rng.choice(string.digits) for _ in range(rng.choice([4, 4, 5, 6])))


def aws_key_id(rng: random.Random) -> str:
    return rng.choice(["AKIA", "ASIA"]) + pick(rng, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)


def aws_secret(rng: random.Random) -> str:
    return pick(rng, B64, 40)


def github_pat(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "ghp_" + pick(rng, B62, 36)
    return "github_pat_11" + pick(rng, UPPER_NUM, 20) + "_" + pick(rng, B62, 59)


def gitlab_pat(rng: random.Random) -> str:
    return "glpat-" + pick(rng, URLSAFE, 20)


def slack_token(rng: random.Random) -> str:
    return f"xox{rng.choice('bp')}-{rng.randint(10**10, 10**12)}-{rng.randint(10**11, 10**13)}-" + (
        pick(rng, B62, 24)
    )


def slack_webhook(rng: random.Random) -> str:
    return f"T{pick(rng, UPPER_NUM, 8)}/B{pick(rng, UPPER_NUM, 10)}/{pick(rng, B62, 24)}"


def stripe_secret(rng: random.Random) -> str:
    return rng.choice(["sk_live_", "rk_live_"]) + pick(rng, B62, rng.choice([24, 99]))


def stripe_webhook(rng: random.Random) -> str:
    return "whsec_" + pick(rng, B62, 32)


def openai_key(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "sk-proj-" + pick(rng, URLSAFE, 74) + "T3BlbkFJ" + pick(rng, URLSAFE, 74)
    return "sk-" + pick(rng, B62, 20) + "T3BlbkFJ" + pick(rng, B62, 20)


def anthropic_key(rng: random.Random) -> str:
    return "sk-ant-api03-" + pick(rng, URLSAFE, 93) + "AA"


def google_api_key(rng: random.Random) -> str:
    return "AIza" + pick(rng, URLSAFE, 35)


def google_client_secret(rng: random.Random) -> str:
    return "GOCSPX-" + pick(rng, URLSAFE, 28)


def jwt(rng: random.Random) -> str:
    header = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    claims = {
        "sub": str(rng.randint(1000, 99999)),
        "iat": rng.randint(1_600_000_000, 1_800_000_000),
    }
    payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"{header}.{payload}.{_b64(rng, 32, url=True, pad=False)}"


def private_key(rng: random.Random) -> str:
    label = rng.choice(["RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY"])
    body = _b64(rng, rng.choice([120, 240, 400]))
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def npm_token(rng: random.Random) -> str:
    return "npm_" + pick(rng, B62, 36)


def pypi_token(rng: random.Random) -> str:
    return "pypi-AgEIcHlwaS5vcmc" + pick(rng, URLSAFE, 70)


def docker_pat(rng: random.Random) -> str:
    return "dckr_pat_" + pick(rng, URLSAFE, 27)


def hf_token(rng: random.Random) -> str:
    return "hf_" + pick(rng, string.ascii_letters, 34)


def sendgrid_key(rng: random.Random) -> str:
    return f"SG.{pick(rng, URLSAFE, 22)}.{pick(rng, URLSAFE, 43)}"


def twilio_auth_token(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def azure_account_key(rng: random.Random) -> str:
    return _b64(rng, 64)


def hex_key(rng: random.Random) -> str:
    return pick(rng, HEX, rng.choice([32, 40, 64]))


def urlsafe_token(rng: random.Random) -> str:
    return _b64(rng, rng.choice([24, 32]), url=True, pad=False)


def b64_key(rng: random.Random) -> str:
    return _b64(rng, 32)


def uuid_key(rng: random.Random) -> str:
    """A UUID used as a key (Heroku API keys, some vendors' client secrets)."""
    h = rng.randbytes(16).hex()
    return h if rng.random() < 0.5 else f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def b62_key(rng: random.Random) -> str:
    return pick(rng, B62, rng.choice([24, 32, 40]))


def basic_auth(rng: random.Random) -> str:
    user = rng.choice(["admin", "deploy", "ci", "svc-export", "jana"])
    return base64.b64encode(f"{user}:{password_strong(rng)}".encode()).decode()


def card_number(rng: random.Random) -> str:
    prefix, length = rng.choice([("4", 16), ("51", 16), ("55", 16), ("37", 15), ("6011", 16)])
    digits = _luhn_complete(prefix, length, rng)
    if length == 16 and rng.random() < 0.5:
        return " ".join(digits[i : i + 4] for i in range(0, 16, 4))
    return digits


def totp_secret(rng: random.Random) -> str:
    return pick(rng, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 32)


def databricks_token(rng: random.Random) -> str:
    return "dapi" + pick(rng, HEX, 32)


def shopify_token(rng: random.Random) -> str:
    return "shpat_" + pick(rng, HEX, 32)


def telegram_token(rng: random.Random) -> str:
    return f"{rng.randint(10**8, 10**10)}:AA{pick(rng, URLSAFE, 33)}"


def mailgun_key(rng: random.Random) -> str:
    return "key-" + pick(rng, HEX, 32)


def linear_key(rng: random.Random) -> str:
    return "lin_api_" + pick(rng, B62, 40)


def doppler_token(rng: random.Random) -> str:
    return "dp.st.prd." + pick(rng, B62, 43)


def vault_token(rng: random.Random) -> str:
    return "hvs." + pick(rng, URLSAFE, 90)


def wifi_key(rng: random.Random) -> str:
    return rng.choice([password_strong, password_word, passphrase])(rng)


def password_url(rng: random.Random) -> str:
    """A password that fits unescaped into a URL's user-info (no `@ : / ? # %`)."""
    while True:
        value = pick(rng, B62 + "!*-_.~", rng.randint(10, 16))
        if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            return value
