"""Secret makers of the seventh held-out set (judge7, seed 83471): secrets in the shapes the
providers and standards publish, generated from the seed (none is real); the content values a
memory must keep are in `heldout7_content`.

Invariants: every maker takes one `random.Random` and returns a string; a secret maker's name
is its kind (`h7_` prefix); no maker returns a value that occurs in a template's fixed text.
Written from the providers' documented formats only, apart from the scrubber's rules.
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Callable

from tests.data.scrub_eval.heldout7_content import (
    ALNUM,
    BECH32,
    DIGITS,
    HEX,
    LOWER,
    MORE_WORDS,
    PETS,
    UPPER,
    URLSAFE,
    WORDS_DE,
    WORDS_EN,
    b64,
    digits_no_year,
    h7_uuid,
    mixed,
    pem_body,
    pick,
    rbytes,
)

Maker = Callable[[random.Random], str]

B64 = ALNUM + "+/"
BASE32 = UPPER + "234567"


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


# --- provider tokens -------------------------------------------------------------------


def h7_github_classic(rng: random.Random) -> str:
    return "ghp_" + mixed(rng, ALNUM, 36)


def h7_github_fine(rng: random.Random) -> str:
    return "github_pat_11" + mixed(rng, UPPER + DIGITS, 20) + "_" + mixed(rng, ALNUM, 59)


def h7_gitlab_pat(rng: random.Random) -> str:
    return "glpat-" + mixed(rng, URLSAFE, 20)


def h7_openai_project(rng: random.Random) -> str:
    return "sk-proj-" + mixed(rng, URLSAFE, 58) + "T3BlbkFJ" + mixed(rng, URLSAFE, 58)


def h7_anthropic(rng: random.Random) -> str:
    return "sk-ant-api03-" + mixed(rng, URLSAFE, 93) + "AA"


def h7_huggingface(rng: random.Random) -> str:
    return "hf_" + mixed(rng, UPPER + LOWER, 34)


def h7_slack_bot(rng: random.Random) -> str:
    return f"xoxb-{digits_no_year(rng, 12)}-{digits_no_year(rng, 13)}-{mixed(rng, ALNUM, 24)}"


def h7_slack_webhook_secret(rng: random.Random) -> str:
    return mixed(rng, ALNUM, 24)


def h7_discord_webhook_token(rng: random.Random) -> str:
    return mixed(rng, URLSAFE, 68)


def h7_stripe_secret(rng: random.Random) -> str:
    return "sk_live_51" + mixed(rng, ALNUM, 97)


def h7_stripe_webhook(rng: random.Random) -> str:
    return "whsec_" + mixed(rng, ALNUM, 32)


def h7_stripe_client_secret(rng: random.Random) -> str:
    return mixed(rng, ALNUM, 25)


def h7_twilio_auth(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h7_sendgrid(rng: random.Random) -> str:
    return "SG." + mixed(rng, URLSAFE, 22) + "." + mixed(rng, URLSAFE, 43)


def h7_aws_secret(rng: random.Random) -> str:
    return mixed(rng, B64, 40)


def h7_npm(rng: random.Random) -> str:
    return "npm_" + mixed(rng, ALNUM, 36)


def h7_pypi(rng: random.Random) -> str:
    return "pypi-AgEIcHlwaS5vcmcCJ" + mixed(rng, URLSAFE, 130)


def h7_shopify(rng: random.Random) -> str:
    return "shpat_" + pick(rng, HEX, 32)


def h7_atlassian(rng: random.Random) -> str:
    return "ATATT3xFfGF0" + mixed(rng, URLSAFE, 170) + "=" + pick(rng, "0123456789ABCDEF", 8)


def h7_linear(rng: random.Random) -> str:
    return "lin_api_" + mixed(rng, ALNUM, 40)


def h7_notion(rng: random.Random) -> str:
    return "ntn_" + digits_no_year(rng, 11) + mixed(rng, ALNUM, 35)


def h7_postman(rng: random.Random) -> str:
    return f"PMAK-{pick(rng, HEX, 24)}-{pick(rng, HEX, 34)}"


def h7_digitalocean(rng: random.Random) -> str:
    return "dop_v1_" + pick(rng, HEX, 64)


def h7_tailscale(rng: random.Random) -> str:
    return f"tskey-auth-k{mixed(rng, ALNUM, 10)}CNTRL-{mixed(rng, ALNUM, 33)}"


def h7_ngrok(rng: random.Random) -> str:
    return "2" + mixed(rng, ALNUM, 26) + "_" + mixed(rng, ALNUM, 21)


def h7_vault(rng: random.Random) -> str:
    return "hvs." + mixed(rng, ALNUM, 24)


def h7_terraform_cloud(rng: random.Random) -> str:
    return mixed(rng, ALNUM, 14) + ".atlasv1." + mixed(rng, ALNUM, 67)


def h7_telegram_bot(rng: random.Random) -> str:
    return f"{digits_no_year(rng, 10)}:AA{mixed(rng, URLSAFE, 33)}"


def h7_mapbox_secret(rng: random.Random) -> str:
    user = rng.choice(["kartenwerk", "fleetops", "geo-team", "routeplan"])
    payload = b64url(
        json.dumps({"u": user, "a": mixed(rng, ALNUM, 25)}, separators=(",", ":")).encode()
    )
    return f"sk.{payload}.{mixed(rng, URLSAFE, 22)}"


def h7_groq(rng: random.Random) -> str:
    return "gsk_" + mixed(rng, ALNUM, 52)


def h7_langsmith(rng: random.Random) -> str:
    return f"lsv2_pt_{pick(rng, HEX, 32)}_{pick(rng, HEX, 10)}"


def h7_pinecone(rng: random.Random) -> str:
    return f"pcsk_{mixed(rng, ALNUM, 5)}_{mixed(rng, ALNUM, 60)}"


def h7_replicate(rng: random.Random) -> str:
    return "r8_" + mixed(rng, ALNUM, 37)


def h7_supabase(rng: random.Random) -> str:
    return "sbp_" + pick(rng, HEX, 40)


def h7_grafana_sa(rng: random.Random) -> str:
    return f"glsa_{mixed(rng, ALNUM, 32)}_{pick(rng, HEX, 8)}"


def h7_newrelic(rng: random.Random) -> str:
    return "NRAK-" + pick(rng, UPPER + DIGITS, 27)


def h7_datadog_api(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h7_google_client_secret(rng: random.Random) -> str:
    return "GOCSPX-" + mixed(rng, URLSAFE, 28)


def h7_azure_client_secret(rng: random.Random) -> str:
    return mixed(rng, ALNUM, 3) + "8Q~" + mixed(rng, ALNUM + "_~.-", 31)


def h7_azure_storage_key(rng: random.Random) -> str:
    return b64(rbytes(rng, 64))


def h7_cloudflare(rng: random.Random) -> str:
    return mixed(rng, URLSAFE, 40)


def h7_mailchimp(rng: random.Random) -> str:
    return f"{pick(rng, HEX, 32)}-us{rng.randint(2, 21)}"


def h7_figma(rng: random.Random) -> str:
    return "figd_" + mixed(rng, URLSAFE, 40)


def h7_resend(rng: random.Random) -> str:
    return f"re_{mixed(rng, ALNUM, 8)}_{mixed(rng, ALNUM, 24)}"


def h7_heroku_uuid(rng: random.Random) -> str:
    return h7_uuid(rng)  # a legacy Heroku API key is a UUID


def h7_sentry_user(rng: random.Random) -> str:
    return "sntryu_" + pick(rng, HEX, 64)


# --- keys, signatures, app secrets -----------------------------------------------------


def h7_pkcs8_body(rng: random.Random) -> str:
    return pem_body(rng, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 300)


def h7_openssh_body(rng: random.Random) -> str:
    return pem_body(
        rng, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", 180
    )


def h7_ec_key_body(rng: random.Random) -> str:
    return pem_body(rng, "MHcCAQEEI", 110)


def h7_pgp_private_body(rng: random.Random) -> str:
    return pem_body(rng, "lQOYBG", 360)


def h7_age_secret(rng: random.Random) -> str:
    return "AGE-SECRET-KEY-1" + pick(rng, BECH32, 58)


def h7_wireguard_private(rng: random.Random) -> str:
    return b64(rbytes(rng, 32))


def h7_jwt(rng: random.Random) -> str:
    header = b64url(b'{"alg":"HS256","typ":"JWT"}')
    claims = {
        "sub": str(rng.randint(10000, 99999)),
        "role": rng.choice(["admin", "service", "editor"]),
        "iat": rng.randint(1764000000, 1765000000),
    }
    body = b64url(json.dumps(claims, separators=(",", ":")).encode())
    return f"{header}.{body}.{b64url(rbytes(rng, 32))}"


def h7_session_django(rng: random.Random) -> str:
    return pick(rng, LOWER + DIGITS, 32)


def h7_session_express(rng: random.Random) -> str:
    return "s%3A" + mixed(rng, URLSAFE, 32) + "." + mixed(rng, ALNUM, 43)


def h7_aws_presign_sig(rng: random.Random) -> str:
    return pick(rng, HEX, 64)


def h7_azure_sas_sig(rng: random.Random) -> str:
    return b64(rbytes(rng, 32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def h7_totp_seed(rng: random.Random) -> str:
    return pick(rng, BASE32, 32)


def h7_django_secret(rng: random.Random) -> str:
    return pick(rng, LOWER + DIGITS + "!@#%^&*(-_=+)", 50)


def h7_rails_master(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h7_fernet(rng: random.Random) -> str:
    return base64.urlsafe_b64encode(rbytes(rng, 32)).decode()


def h7_laravel_key(rng: random.Random) -> str:
    return "base64:" + b64(rbytes(rng, 32))


def h7_webhook_hex(rng: random.Random) -> str:
    return pick(rng, HEX, 64)


def h7_basic_b64(rng: random.Random) -> str:
    user = rng.choice(["deploy", "ci-bot", "grafana", "lager", "buchhaltung"])
    return b64(f"{user}:{h7_pw_random(rng)}".encode())


def h7_bearer_opaque(rng: random.Random) -> str:
    return mixed(rng, URLSAFE, 43)


# --- passwords in human and machine shapes ---------------------------------------------


def h7_pw_random(rng: random.Random) -> str:
    while True:
        s = pick(rng, ALNUM + "!%*-_+=", rng.randint(14, 20))
        if any(c in "!%*-_+=" for c in s) and any(c.isdigit() for c in s) and s[-1].isalnum():
            return s


def h7_pw_human(rng: random.Random) -> str:
    return rng.choice(PETS) + rng.choice(["#", "!", "$", "&"]) + str(rng.randint(1961, 2019))


def h7_pw_season(rng: random.Random) -> str:
    season = rng.choice(["Sommer", "Winter", "Herbst", "Fruehling"])
    return f"{season}{rng.randint(2021, 2026)}{rng.choice(['!', '?', '+', '#'])}{rng.randint(1, 9)}"


def h7_pw_passphrase_de(rng: random.Random) -> str:
    words = rng.sample(WORDS_DE, 3)
    return "-".join(words) + "-" + str(rng.randint(10, 99))


def h7_pw_passphrase_en(rng: random.Random) -> str:
    return " ".join(rng.sample(WORDS_EN, 4))


def h7_pw_url(rng: random.Random) -> str:
    return mixed(rng, ALNUM + "-._~", rng.randint(16, 24))


def h7_pw_leet(rng: random.Random) -> str:
    base = rng.choice(["P4ssw0rt", "B4ckup", "Adm1n", "S3rv3r", "L4g3r", "Dr0hn3"])
    return base + rng.choice(["_", ".", "!"]) + pick(rng, DIGITS + UPPER, 4)


def h7_pw_wifi(rng: random.Random) -> str:
    return rng.choice(WORDS_DE) + rng.choice(WORDS_DE) + str(rng.randint(100, 999))


def h7_mnemonic(rng: random.Random) -> str:
    pool = [*WORDS_EN, *MORE_WORDS]
    return " ".join(rng.sample(pool, 12))


def h7_apple_app_pw(rng: random.Random) -> str:
    return "-".join(pick(rng, LOWER, 4) for _ in range(4))


# --- short codes -----------------------------------------------------------------------


def h7_pin4(rng: random.Random) -> str:
    return digits_no_year(rng, 4)


def h7_pin6(rng: random.Random) -> str:
    return digits_no_year(rng, 6)


def h7_otp6(rng: random.Random) -> str:
    return digits_no_year(rng, 6)


def h7_cvc(rng: random.Random) -> str:
    return digits_no_year(rng, 3)


def h7_puk(rng: random.Random) -> str:
    return digits_no_year(rng, 8)


def h7_bitlocker(rng: random.Random) -> str:
    return "-".join(f"{rng.randrange(1, 65536) * 11:06d}" for _ in range(8))


def h7_recovery_code(rng: random.Random) -> str:
    return f"{pick(rng, HEX[:10] + 'abcdef', 5)}-{pick(rng, HEX, 5)}"


def h7_backup_digits(rng: random.Random) -> str:
    return f"{digits_no_year(rng, 4)} {digits_no_year(rng, 4)}"


def h7_door_code(rng: random.Random) -> str:
    return digits_no_year(rng, rng.choice([5, 6]))


def h7_pkcs8_json(rng: random.Random) -> str:
    """A PKCS#8 key body as a service-account JSON file holds it (lines joined by `\\n`)."""
    return h7_pkcs8_body(rng).replace("\n", "\\n")
