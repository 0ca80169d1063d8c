"""Secret value makers of held-out set 9 (seed 47093, judge9 track; written apart from the
scrubber's rules and from the earlier held-out sets).

Invariants: every maker takes the generator's `random.Random` and returns one value in the
shape its provider or standard documents (prefixes, lengths, alphabets); names start with
`h9_`, so `__main__.maker` can never resolve them to another round's maker. A value here is
always a secret where a template puts it; the look-alike content lives in `heldout9_content`.
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
B32 = UPPER + "234567"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

WORDS_DE = ["Sonne", "Anker", "Birke", "Kiesel", "Falke", "Nebel", "Kupfer", "Lampe", "Wiese"]
WORDS_DE += ["Hafen", "Zimt", "Brezel", "Ofen", "Tanne", "Kompass", "Wolke", "Dachs", "Segel"]
WORDS_EN = ["harbor", "maple", "copper", "violet", "lantern", "pebble", "falcon", "orbit"]
WORDS_EN += ["canyon", "marble", "thistle", "walnut", "ember", "glacier", "meadow", "sparrow"]
SYMBOLS = "!#%&*+-.?_"


def pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


# --- passwords people choose -------------------------------------------------------------


def h9_human_password(rng: random.Random) -> str:
    words = rng.choice([WORDS_DE, WORDS_EN])
    shape = rng.randrange(4)
    if shape == 0:
        return f"{rng.choice(words).capitalize()}{rng.randint(1970, 2029)}{rng.choice(SYMBOLS)}"
    if shape == 1:
        a, b = rng.sample(words, 2)
        return f"{a.capitalize()}{rng.choice(SYMBOLS)}{b.lower()}{rng.randint(10, 99)}"
    if shape == 2:
        return pick(rng, ALNUM + "!#%*?", rng.randint(12, 18))
    a, b = rng.sample(words, 2)
    return f"{a[0].upper()}{a[1:].lower()}{rng.randint(100, 999)}{rng.choice(SYMBOLS)}{b.upper()}"


def h9_url_password(rng: random.Random) -> str:
    """A generated password that needs no escaping inside a URL or a shell word."""
    return pick(rng, ALNUM, rng.randint(6, 10)) + rng.choice("-_.~") + pick(rng, ALNUM, 7)


def h9_smtp_password(rng: random.Random) -> str:
    return pick(rng, ALNUM + "#%+", 16)


def h9_redis_password(rng: random.Random) -> str:
    return pick(rng, ALNUM, 32)


def h9_passphrase(rng: random.Random) -> str:
    words = rng.choice([WORDS_DE, WORDS_EN])
    return "-".join(w.lower() for w in rng.sample(words, 4)) + str(rng.randint(2, 9))


def h9_wifi_psk(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return pick(rng, ALNUM, 20)
    a, b = rng.sample(WORDS_DE + WORDS_EN, 2)
    return f"{a.lower()}{rng.choice(SYMBOLS)}{b.capitalize()}{rng.randint(1000, 9999)}"


def h9_pin(rng: random.Random) -> str:
    return str(rng.randint(10 ** (n := rng.choice([4, 5, 6])) // 10 * 3, 10**n - 1))


def h9_puk(rng: random.Random) -> str:
    return str(rng.randint(10_000_000, 99_999_999))


def h9_recovery_code(rng: random.Random) -> str:
    return f"{pick(rng, LOWER + DIGITS, 5)}-{pick(rng, LOWER + DIGITS, 5)}"


def h9_totp_seed(rng: random.Random) -> str:
    return pick(rng, B32, 32)


# --- provider tokens ---------------------------------------------------------------------


def h9_aws_key_id(rng: random.Random) -> str:
    return rng.choice(["AKIA", "ASIA"]) + pick(rng, UPPER + "234567", 16)


def h9_aws_secret_key(rng: random.Random) -> str:
    return pick(rng, B64, 40)


def h9_github_classic(rng: random.Random) -> str:
    return rng.choice(["ghp_", "gho_", "ghs_"]) + pick(rng, ALNUM, 36)


def h9_github_fine(rng: random.Random) -> str:
    return "github_pat_11" + pick(rng, UPPER + DIGITS, 20) + "_" + pick(rng, ALNUM, 59)


def h9_gitlab_token(rng: random.Random) -> str:
    return rng.choice(["glpat-", "gldt-", "glrt-"]) + pick(rng, ALNUM + "_-", 20)


def h9_slack_bot(rng: random.Random) -> str:
    return f"{rng.choice(['xoxb', 'xoxp'])}-{pick(rng, DIGITS, 12)}-{pick(rng, DIGITS, 13)}-" + (
        pick(rng, ALNUM, 24)
    )


def h9_slack_hook_secret(rng: random.Random) -> str:
    return pick(rng, ALNUM, 24)


def h9_stripe_live(rng: random.Random) -> str:
    return rng.choice(["sk_live_51", "rk_live_51"]) + pick(rng, ALNUM, rng.choice([24, 97]))


def h9_stripe_test(rng: random.Random) -> str:
    return "sk_test_51" + pick(rng, ALNUM, 97)


def h9_stripe_webhook(rng: random.Random) -> str:
    return "whsec_" + pick(rng, ALNUM, 32)


def h9_openai_key(rng: random.Random) -> str:
    head = rng.choice(["sk-proj-", "sk-svcacct-", "sk-"])
    return head + pick(rng, URLSAFE, 58) + "T3BlbkFJ" + pick(rng, URLSAFE, 58)


def h9_anthropic_key(rng: random.Random) -> str:
    return "sk-ant-api03-" + pick(rng, URLSAFE, 93) + "AA"


def h9_google_api_key(rng: random.Random) -> str:
    return "AIza" + pick(rng, URLSAFE, 35)


def h9_google_oauth_secret(rng: random.Random) -> str:
    return "GOCSPX-" + pick(rng, URLSAFE, 28)


def h9_azure_storage_key(rng: random.Random) -> str:
    return pick(rng, B64, 86) + "=="


def h9_azure_client_secret(rng: random.Random) -> str:
    return pick(rng, ALNUM, 3) + rng.choice(DIGITS) + "Q~" + pick(rng, ALNUM + "-_.~", 34)


def h9_sendgrid_key(rng: random.Random) -> str:
    return "SG." + pick(rng, URLSAFE, 22) + "." + pick(rng, URLSAFE, 43)


def h9_npm_token(rng: random.Random) -> str:
    return "npm_" + pick(rng, ALNUM, 36)


def h9_pypi_token(rng: random.Random) -> str:
    return "pypi-AgEIcHlwaS5vcmc" + pick(rng, URLSAFE, 120)


def h9_hf_token(rng: random.Random) -> str:
    return "hf_" + pick(rng, string.ascii_letters, 34)


def h9_twilio_auth(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h9_mailgun_key(rng: random.Random) -> str:
    return "key-" + pick(rng, HEX, 32)


def h9_do_token(rng: random.Random) -> str:
    return rng.choice(["dop_v1_", "doo_v1_"]) + pick(rng, HEX, 64)


def h9_shopify_token(rng: random.Random) -> str:
    return rng.choice(["shpat_", "shpss_", "shpca_"]) + pick(rng, HEX, 32)


def h9_telegram_bot(rng: random.Random) -> str:
    return f"{rng.randint(5 * 10**8, 8 * 10**9)}:AA{pick(rng, URLSAFE, 33)}"


def h9_vault_token(rng: random.Random) -> str:
    return rng.choice(["hvs.CAESI", "hvb.AAAAAQ"]) + pick(rng, URLSAFE, 84)


def h9_linear_key(rng: random.Random) -> str:
    return "lin_api_" + pick(rng, ALNUM, 40)


def h9_notion_token(rng: random.Random) -> str:
    return rng.choice(["ntn_", "secret_"]) + pick(rng, DIGITS, 11) + pick(rng, ALNUM, 35)


def h9_atlassian_token(rng: random.Random) -> str:
    return "ATATT3xFfGF0" + pick(rng, URLSAFE, 160) + "=" + pick(rng, HEX.upper(), 8)


def h9_postman_key(rng: random.Random) -> str:
    return "PMAK-" + pick(rng, HEX, 24) + "-" + pick(rng, HEX, 34)


def h9_age_secret(rng: random.Random) -> str:
    return "AGE-SECRET-KEY-1" + pick(rng, BECH32.upper(), 58)


def h9_wg_private(rng: random.Random) -> str:
    return pick(rng, B64, 42) + rng.choice("AEIMQUYcgkosw048") + "="


def h9_django_key(rng: random.Random) -> str:
    return "django-insecure-" + pick(rng, LOWER + DIGITS + "!@#%^&*(-_=+)", 50)


def h9_fly_token(rng: random.Random) -> str:
    return "fo1_" + pick(rng, URLSAFE, 43)


def h9_cloudflare_token(rng: random.Random) -> str:
    return pick(rng, URLSAFE, 40)


def h9_discord_token(rng: random.Random) -> str:
    bot_id = _b64url(str(rng.randint(10**17, 10**18 - 1)).encode())
    return f"{bot_id}.{pick(rng, URLSAFE, 6)}.{pick(rng, URLSAFE, 38)}"


def h9_hex_api_key(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h9_hex_secret64(rng: random.Random) -> str:
    return pick(rng, HEX, 64)


def h9_opaque_bearer(rng: random.Random) -> str:
    return pick(rng, URLSAFE, rng.choice([40, 48, 64]))


def h9_session_cookie(rng: random.Random) -> str:
    return pick(rng, LOWER + DIGITS, 32)


def h9_jwt(rng: random.Random) -> str:
    header = {"alg": rng.choice(["HS256", "RS256"]), "typ": "JWT"}
    payload = {
        "sub": pick(rng, DIGITS, 8),
        "name": rng.choice(["Mara Klein", "Tom Baker", "Ines Vogt", "Ravi Patel"]),
        "iat": rng.randint(1_760_000_000, 1_790_000_000),
        "scope": rng.choice(["read write", "admin", "orders:read"]),
    }
    parts = [_b64url(json.dumps(p, separators=(",", ":")).encode()) for p in (header, payload)]
    return ".".join(parts) + "." + pick(rng, URLSAFE, 43)


def h9_basic_b64(rng: random.Random) -> str:
    user = rng.choice(["partner-api", "billing", "export", "svc.reports"])
    return base64.b64encode(f"{user}:{h9_url_password(rng)}".encode()).decode()


def h9_docker_auth(rng: random.Random) -> str:
    return base64.b64encode(f"ci-bot:{h9_github_classic(rng)}".encode()).decode()


def h9_k8s_b64(rng: random.Random) -> str:
    return base64.b64encode(h9_human_password(rng).encode()).decode()


def _pem_body(rng: random.Random, head: str, total: int) -> str:
    body = head + pick(rng, B64, total - len(head))
    return "\n".join(body[i : i + 64] for i in range(0, len(body), 64))


def h9_openssh_body(rng: random.Random) -> str:
    head = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
    return _pem_body(rng, head, 64 * 6 + 12)


def h9_rsa_body(rng: random.Random) -> str:
    return _pem_body(rng, "MIIEpAIBAAKCAQEA", 64 * 9 + 28)


def h9_pkcs8_escaped(rng: random.Random) -> str:
    """A PKCS#8 body as it sits in a service-account JSON file: lines joined by a literal
    backslash-n."""
    return _pem_body(rng, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 64 * 8 + 20).replace("\n", "\\n")


def h9_sas_sig(rng: random.Random) -> str:
    return pick(rng, ALNUM, 43) + "%3D"
