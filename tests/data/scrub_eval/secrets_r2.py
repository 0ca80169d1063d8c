"""Secret makers of the second development round (issue 20, session 3).

Kinds the first round lacks: cloud and SaaS keys of many more vendors, tokens inside URLs
(webhooks, presigned links, DSNs), connection strings of other engines and layouts, JWTs of
other shapes, private keys inside JSON (escaped newlines) and other key formats, app secrets
of frameworks, recovery codes and card security codes. Shapes follow the vendors' published
formats (prefixes, alphabets, lengths); every value is random, none is a live credential.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Mapping

from tests.data.scrub_eval.values import B62, B64, HEX, UPPER_NUM, URLSAFE, _b64, pick

LOWER_NUM = string.ascii_lowercase + string.digits
BECH32 = "023456789ACDEFGHJKLMNPQRSTUVWXYZ"


# --- cloud and platform keys -----------------------------------------------------------------


def gcp_sa_private_key_json(rng: random.Random) -> str:
    """The `private_key` value of a Google service-account JSON file (newlines escaped)."""
    body = _b64(rng, rng.choice([300, 600]))
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(lines) + "\\n-----END PRIVATE KEY-----\\n"


def azure_client_secret(rng: random.Random) -> str:
    return pick(rng, B62, 3) + "8Q~" + pick(rng, B62 + "~_.-", 31)


def azure_sas_sig(rng: random.Random) -> str:
    """The `sig` of an Azure SAS URL (URL-encoded base64 of an HMAC-SHA256)."""
    return _b64(rng, 32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def digitalocean_token(rng: random.Random) -> str:
    return rng.choice(["dop_v1_", "doo_v1_"]) + pick(rng, HEX, 64)


def cloudflare_token(rng: random.Random) -> str:
    return pick(rng, URLSAFE, 40)


def alibaba_key_id(rng: random.Random) -> str:
    return "LTAI" + pick(rng, B62, rng.choice([16, 20]))


def datadog_api_key(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def newrelic_key(rng: random.Random) -> str:
    return "NRAK-" + pick(rng, UPPER_NUM, 27)


def sentry_dsn_key(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def sentry_auth_token(rng: random.Random) -> str:
    return "sntrys_" + _b64(rng, 90, pad=False).replace("/", "_").replace("+", "-")


def grafana_token(rng: random.Random) -> str:
    return rng.choice(["glsa_", "glc_"]) + pick(rng, B62, 32) + "_" + pick(rng, HEX, 8)


def atlassian_token(rng: random.Random) -> str:
    return "ATATT3xFfGF0" + pick(rng, URLSAFE, 170) + "=" + pick(rng, UPPER_NUM, 8)


def notion_token(rng: random.Random) -> str:
    return rng.choice(["secret_" + pick(rng, B62, 43), "ntn_" + pick(rng, B62, 46)])


def airtable_pat(rng: random.Random) -> str:
    return "pat" + pick(rng, B62, 14) + "." + pick(rng, HEX, 64)


def supabase_token(rng: random.Random) -> str:
    return "sbp_" + pick(rng, HEX, 40)


def postman_key(rng: random.Random) -> str:
    return f"PMAK-{pick(rng, HEX, 24)}-{pick(rng, HEX, 34)}"


def figma_token(rng: random.Random) -> str:
    return "figd_" + pick(rng, URLSAFE, 40)


def pulumi_token(rng: random.Random) -> str:
    return "pul-" + pick(rng, HEX, 40)


def terraform_token(rng: random.Random) -> str:
    return pick(rng, B62, 14) + ".atlasv1." + pick(rng, B62, 67)


def age_secret_key(rng: random.Random) -> str:
    return "AGE-SECRET-KEY-1" + pick(rng, BECH32, 58)


def github_other_token(rng: random.Random) -> str:
    return rng.choice(["gho_", "ghs_", "ghu_", "ghr_"]) + pick(rng, B62, 36)


def gitlab_runner_token(rng: random.Random) -> str:
    return rng.choice(["glrt-", "gldt-", "glptt-"]) + pick(rng, URLSAFE, 20)


def slack_app_token(rng: random.Random) -> str:
    return f"xapp-1-A{pick(rng, UPPER_NUM, 10)}-{rng.randint(10**12, 10**13)}-{pick(rng, HEX, 64)}"


def stripe_test_key(rng: random.Random) -> str:
    return rng.choice(["sk_test_", "rk_test_"]) + pick(rng, B62, 99)


def openai_service_key(rng: random.Random) -> str:
    kind = rng.choice(["svcacct", "admin"])
    return f"sk-{kind}-" + pick(rng, URLSAFE, 58) + "T3BlbkFJ" + pick(rng, URLSAFE, 58)


def groq_key(rng: random.Random) -> str:
    return "gsk_" + pick(rng, B62, 52)


def replicate_token(rng: random.Random) -> str:
    return "r8_" + pick(rng, B62, 37)


def perplexity_key(rng: random.Random) -> str:
    return "pplx-" + pick(rng, B62, 48)


def xai_key(rng: random.Random) -> str:
    return "xai-" + pick(rng, B62, 80)


def mistral_key(rng: random.Random) -> str:
    return pick(rng, B62, 32)


def google_oauth_access(rng: random.Random) -> str:
    return "ya29." + pick(rng, URLSAFE, rng.choice([120, 160]))


def google_refresh_token(rng: random.Random) -> str:
    return "1//0" + pick(rng, URLSAFE, 99)


def brevo_key(rng: random.Random) -> str:
    return f"xkeysib-{pick(rng, HEX, 64)}-{pick(rng, B62, 16)}"


def mailchimp_key(rng: random.Random) -> str:
    return pick(rng, HEX, 32) + f"-us{rng.randint(1, 21)}"


def square_token(rng: random.Random) -> str:
    return rng.choice(["EAAA" + pick(rng, URLSAFE, 60), "sq0csp-" + pick(rng, URLSAFE, 43)])


def mapbox_secret(rng: random.Random) -> str:
    claims = json.dumps({"u": "acme", "a": pick(rng, LOWER_NUM, 25)}).encode()
    payload = base64.urlsafe_b64encode(claims).decode().rstrip("=")
    return f"sk.{payload}.{pick(rng, URLSAFE, 22)}"


def discord_bot_token(rng: random.Random) -> str:
    first = base64.b64encode(str(rng.randint(10**17, 10**18)).encode()).decode().rstrip("=")
    return f"{first}.{pick(rng, URLSAFE, 6)}.{pick(rng, URLSAFE, 38)}"


def discord_webhook_token(rng: random.Random) -> str:
    return pick(rng, URLSAFE, 68)


def teams_webhook_secret(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def s3_presigned_signature(rng: random.Random) -> str:
    return pick(rng, HEX, 64)


def twilio_api_secret(rng: random.Random) -> str:
    return pick(rng, B62, 32)


def firebase_server_key(rng: random.Random) -> str:
    return "AAAA" + pick(rng, URLSAFE, 7) + ":APA91b" + pick(rng, URLSAFE, 134)


def okta_token(rng: random.Random) -> str:
    return "00" + pick(rng, URLSAFE, 40)


# --- application secrets ---------------------------------------------------------------------


def django_secret(rng: random.Random) -> str:
    return "django-insecure-" + pick(
        rng, string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)", 50
    )


def laravel_app_key(rng: random.Random) -> str:
    return "base64:" + _b64(rng, 32)


def jwt_signing_secret(rng: random.Random) -> str:
    return rng.choice([pick(rng, HEX, 64), _b64(rng, 48), pick(rng, B62 + "!$%&", 36)])


def jwt_rs256(rng: random.Random) -> str:
    header = {"alg": rng.choice(["RS256", "ES256"]), "kid": pick(rng, HEX, 16), "typ": "JWT"}
    claims = {
        "iss": "https://login.example.com/",
        "sub": f"auth0|{pick(rng, HEX, 24)}",
        "aud": "api",
        "exp": rng.randint(1_700_000_000, 1_900_000_000),
        "scope": "openid profile",
    }

    def part(value: Mapping[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")

    return f"{part(header)}.{part(claims)}.{_b64(rng, 256, url=True, pad=False)}"


def session_cookie(rng: random.Random) -> str:
    return rng.choice(
        [pick(rng, LOWER_NUM, 32), "s%3A" + pick(rng, URLSAFE, 32) + "." + pick(rng, URLSAFE, 43)]
    )


def pgp_private_key(rng: random.Random) -> str:
    body = _b64(rng, 360)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"
        + "\n".join(lines)
        + f"\n={pick(rng, B64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----"
    )


def encrypted_private_key(rng: random.Random) -> str:
    label = rng.choice(["ENCRYPTED PRIVATE KEY", "DSA PRIVATE KEY"])
    body = _b64(rng, 200)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def recovery_code(rng: random.Random) -> str:
    return rng.choice(
        [
            f"{pick(rng, LOWER_NUM, 5)}-{pick(rng, LOWER_NUM, 5)}",
            f"{pick(rng, string.digits, 4)} {pick(rng, string.digits, 4)}",
            "-".join(pick(rng, UPPER_NUM, 4) for _ in range(4)),
        ]
    )


def cvv(rng: random.Random) -> str:
    return f"{rng.randint(100, 999)}"


def password_prose(rng: random.Random) -> str:
    """Passwords people choose: words, dates, leetspeak, separators."""
    word = rng.choice(["Sommer", "Hamburg", "Bello", "Schalke", "dragon", "sunshine", "Lisa"])
    return rng.choice(
        [
            f"{word}{rng.randint(2015, 2026)}!",
            f"{word.replace('a', '@').replace('o', '0')}{rng.randint(1, 99)}",
            f"{word}_{rng.choice(['Mai', 'Juni', 'xmas'])}{rng.randint(1, 31)}",
            f"{rng.randint(10, 99)}{word}#{rng.choice(string.ascii_uppercase)}",
        ]
    )


def password_db(rng: random.Random) -> str:
    """A generated database password (URL-safe, so it fits every connection layout)."""
    while True:
        value = pick(rng, B62 + "_-.", rng.randint(14, 24))
        if any(c.isdigit() for c in value) and any(c.isupper() for c in value):
            return value
