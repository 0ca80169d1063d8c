"""Secret makers of the eighth held-out set (judge8 track, seed 18839): every function takes the
generator's `random.Random` and returns one fake secret in the shape its provider or its human
author gives it. All names start with `h8_` so that no maker of an earlier set can shadow one
(`__main__.maker` takes the first module that has the name).

Invariants: values are random (nothing from a real account), never contain whitespace except
the PEM bodies' line breaks, and the short human kinds (PINs, codes) avoid year-like digits so
that they do not also occur in a text's dates.
"""

from __future__ import annotations

import base64
import json
import random
import string

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
B32 = UPPER + "234567"


def pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def raw(rng: random.Random, n: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(n))


# --- cloud and code hosting ---------------------------------------------------------------


def h8_aws_key_id(rng: random.Random) -> str:
    return rng.choice(("AKIA", "ASIA")) + pick(rng, UPPER + "234567", 16)


def h8_aws_secret(rng: random.Random) -> str:
    return pick(rng, B64, 40)


def h8_aws_session_token(rng: random.Random) -> str:
    return "IQoJb3JpZ2luX2Vj" + pick(rng, B64, rng.randrange(280, 360))


def h8_github_classic(rng: random.Random) -> str:
    return rng.choice(("ghp_", "gho_", "ghu_")) + pick(rng, ALNUM, 36)


def h8_github_fine(rng: random.Random) -> str:
    return "github_pat_11" + pick(rng, UPPER + DIGITS, 20) + "_" + pick(rng, ALNUM, 59)


def h8_github_app(rng: random.Random) -> str:
    return "ghs_" + pick(rng, ALNUM, 36)


def h8_gitlab_pat(rng: random.Random) -> str:
    return "glpat-" + pick(rng, ALNUM + "-_", 20)


def h8_azure_account_key(rng: random.Random) -> str:
    return base64.b64encode(raw(rng, 64)).decode()


def h8_azure_sas_sig(rng: random.Random) -> str:
    sig = base64.b64encode(raw(rng, 32)).decode()
    return sig.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def h8_google_api(rng: random.Random) -> str:
    return "AIza" + pick(rng, B64URL, 35)


def h8_google_oauth_secret(rng: random.Random) -> str:
    return "GOCSPX-" + pick(rng, B64URL, 28)


def h8_google_refresh(rng: random.Random) -> str:
    return "1//0" + rng.choice("cdgf") + pick(rng, B64URL, rng.randrange(90, 110))


def h8_do_token(rng: random.Random) -> str:
    return "dop_v1_" + pick(rng, HEX, 64)


def h8_databricks(rng: random.Random) -> str:
    return "dapi" + pick(rng, HEX, 32) + rng.choice(("", "-2", "-3"))


def h8_vault(rng: random.Random) -> str:
    return "hvs." + pick(rng, B64URL, rng.choice((24, 91)))


def h8_heroku(rng: random.Random) -> str:
    return "HRKU-AA" + pick(rng, B64URL, 58)


def h8_cloudflare(rng: random.Random) -> str:
    return pick(rng, B64URL, 40)


def h8_docker_pat(rng: random.Random) -> str:
    return "dckr_pat_" + pick(rng, B64URL, 27)


def h8_npm(rng: random.Random) -> str:
    return "npm_" + pick(rng, ALNUM, 36)


def h8_pypi(rng: random.Random) -> str:
    return "pypi-AgEIcHlwaS5vcmcCJ" + pick(rng, B64URL, rng.randrange(120, 170))


def h8_hf(rng: random.Random) -> str:
    return "hf_" + pick(rng, string.ascii_letters, 34)


# --- SaaS APIs ----------------------------------------------------------------------------


def h8_slack_bot(rng: random.Random) -> str:
    head = rng.choice(("xoxb", "xoxp", "xapp"))
    return f"{head}-{pick(rng, DIGITS, 12)}-{pick(rng, DIGITS, 13)}-{pick(rng, ALNUM, 24)}"


def h8_slack_hook_secret(rng: random.Random) -> str:
    return pick(rng, ALNUM, 24)


def h8_stripe_secret(rng: random.Random) -> str:
    head = rng.choice(("sk_live_", "rk_live_", "sk_test_"))
    return head + pick(rng, ALNUM, rng.choice((24, 99)))


def h8_stripe_webhook(rng: random.Random) -> str:
    return "whsec_" + pick(rng, ALNUM, 32)


def h8_openai(rng: random.Random) -> str:
    body = pick(rng, B64URL, 74) + "T3BlbkFJ" + pick(rng, B64URL, 74)
    return rng.choice(("sk-proj-", "sk-svcacct-", "sk-")) + body


def h8_anthropic(rng: random.Random) -> str:
    return "sk-ant-api03-" + pick(rng, B64URL, 93) + "AA"


def h8_twilio_auth(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h8_sendgrid(rng: random.Random) -> str:
    return "SG." + pick(rng, B64URL, 22) + "." + pick(rng, B64URL, 43)


def h8_mailgun(rng: random.Random) -> str:
    return "key-" + pick(rng, HEX, 32)


def h8_shopify(rng: random.Random) -> str:
    return rng.choice(("shpat_", "shpss_", "shpca_")) + pick(rng, HEX, 32)


def h8_atlassian(rng: random.Random) -> str:
    return "ATATT3xFfGF0" + pick(rng, B64URL, 170) + "=" + pick(rng, HEX.upper(), 8)


def h8_telegram(rng: random.Random) -> str:
    return f"{rng.randrange(10**8, 10**10)}:AA{pick(rng, B64URL, 33)}"


def h8_discord(rng: random.Random) -> str:
    ident = base64.b64encode(str(rng.randrange(10**17, 10**18)).encode()).decode().rstrip("=")
    return f"{ident}.{pick(rng, B64URL, 6)}.{pick(rng, B64URL, 38)}"


def h8_sentry(rng: random.Random) -> str:
    return "sntryu_" + pick(rng, HEX, 64)


def h8_linear(rng: random.Random) -> str:
    return "lin_api_" + pick(rng, ALNUM, 40)


def h8_grafana(rng: random.Random) -> str:
    return "glsa_" + pick(rng, ALNUM, 32) + "_" + pick(rng, HEX, 8)


def h8_newrelic(rng: random.Random) -> str:
    return "NRAK-" + pick(rng, UPPER + DIGITS, 27)


def h8_square(rng: random.Random) -> str:
    return "EAAA" + pick(rng, B64URL, 60)


def h8_age_secret(rng: random.Random) -> str:
    return "AGE-SECRET-KEY-1" + pick(rng, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)


# --- tokens with a structure ----------------------------------------------------------------


def h8_jwt(rng: random.Random) -> str:
    alg = rng.choice(("HS256", "RS256", "ES256"))
    header = {"alg": alg, "typ": "JWT"} if rng.random() < 0.6 else {"typ": "JWT", "alg": alg}
    iat = rng.randrange(1_760_000_000, 1_790_000_000)
    payload = {
        "sub": pick(rng, HEX, 12),
        "iss": rng.choice(("https://login.acme.example", "auth0", "keycloak")),
        "iat": iat,
        "exp": iat + rng.choice((900, 3600, 86400)),
        "scope": rng.choice(("read write", "admin", "openid profile")),
    }
    sig_len = {"HS256": 43, "RS256": 342, "ES256": 86}[alg]
    parts = (json.dumps(header, separators=(",", ":")), json.dumps(payload, separators=(",", ":")))
    return ".".join(b64url(p.encode()) for p in parts) + "." + pick(rng, B64URL, sig_len)


def h8_basic_auth(rng: random.Random) -> str:
    user = rng.choice(("deploy", "api", "grafana", "backup", "j.krause", "ci-bot"))
    return base64.b64encode(f"{user}:{h8_db_password(rng)}".encode()).decode()


def h8_session_cookie(rng: random.Random) -> str:
    return pick(rng, LOWER + DIGITS, 32)


def h8_fernet_key(rng: random.Random) -> str:
    return base64.urlsafe_b64encode(raw(rng, 32)).decode()


def h8_wg_private(rng: random.Random) -> str:
    return base64.b64encode(raw(rng, 32)).decode()


def h8_totp_seed(rng: random.Random) -> str:
    return pick(rng, B32, rng.choice((16, 32)))


def h8_django_secret(rng: random.Random) -> str:
    body = pick(rng, LOWER + DIGITS + "!@#%^&*(-_=+)", 50)
    return rng.choice(("", "django-insecure-")) + body


def h8_api_key(rng: random.Random) -> str:
    return pick(rng, ALNUM, rng.choice((32, 40, 48)))


def h8_hex_secret(rng: random.Random) -> str:
    return pick(rng, HEX, rng.choice((40, 64)))


# --- private keys (the base64 body between the armour lines) ------------------------------


def _body(rng: random.Random, head: str, n: int, width: int, sep: str) -> str:
    text = head + pick(rng, B64, n - len(head))
    return sep.join(text[i : i + width] for i in range(0, len(text), width))


def h8_rsa_pem_body(rng: random.Random) -> str:
    return _body(rng, "MIIEpAIBAAKCAQEA", 64 * rng.randrange(14, 25), 64, "\n")


def h8_pkcs8_escaped(rng: random.Random) -> str:
    """PKCS#8 body as it sits in a JSON string (service-account files): lines joined by `\\n`."""
    return _body(rng, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 64 * rng.randrange(12, 18), 64, "\\n")


def h8_openssh_body(rng: random.Random) -> str:
    return _body(rng, "b3BlbnNzaC1rZXktdjEAAAAA", 70 * rng.randrange(5, 8), 70, "\n")


def h8_ec_pem_body(rng: random.Random) -> str:
    return _body(rng, "MHcCAQEEI", 64 * 3, 64, "\n")


# --- what people choose ---------------------------------------------------------------------

WORDS = (
    "Sonnenblume", "Kaffeetasse", "Wanderweg", "Bergsee", "Leuchtturm", "Apfelbaum",
    "Regenbogen", "Schneeflocke", "Blaubeere", "Hafenkante", "Drachenfels", "Moonlight",
    "Butterfly", "Riverstone", "Copperfield", "Thunderbay", "Maplewood", "Zitronenfalter",
    "Kiefernwald", "Nordlicht", "Pinguin", "Marmelade", "Sternschnuppe", "Quokka",
)  # fmt: skip
SYMBOLS = "!#$%&*+?"


def _no_year(rng: random.Random, digits: int) -> str:
    while True:
        value = "".join(rng.choice(DIGITS) for _ in range(digits))
        if not value.startswith(("19", "20")) and len(set(value)) > 1:
            return value


def h8_human_password(rng: random.Random) -> str:
    a, b = rng.sample(WORDS, 2)
    shape = rng.randrange(5)
    if shape == 0:
        return a + _no_year(rng, rng.randrange(2, 4)) + rng.choice(SYMBOLS)
    if shape == 1:
        return a + rng.choice(SYMBOLS) + b + _no_year(rng, 2)
    if shape == 2:
        return a.lower().replace("e", "3").replace("a", "@") + _no_year(rng, 3)
    if shape == 3:
        return rng.choice(SYMBOLS) + a[:5] + b[:5].lower() + _no_year(rng, 2)
    return a[:6].lower() + _no_year(rng, 4)


def h8_passphrase(rng: random.Random) -> str:
    words = [w.lower() for w in rng.sample(WORDS, 4)]
    return rng.choice("-.").join(words) if rng.random() < 0.8 else "".join(w.title() for w in words)


def h8_db_password(rng: random.Random) -> str:
    return pick(rng, ALNUM, rng.randrange(10, 20)) + pick(rng, "-_.~!*", 1) + pick(rng, ALNUM, 3)


def h8_wifi_psk(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return h8_passphrase(rng)
    return pick(rng, ALNUM, rng.randrange(16, 26))


def h8_pin(rng: random.Random) -> str:
    return _no_year(rng, rng.choice((4, 4, 5, 6)))


def h8_puk(rng: random.Random) -> str:
    return _no_year(rng, 8)


def h8_recovery_code(rng: random.Random) -> str:
    return pick(rng, HEX, 5) + "-" + pick(rng, HEX, 5)


def h8_backup_digits(rng: random.Random) -> str:
    return _no_year(rng, 4) + " " + _no_year(rng, 4)
