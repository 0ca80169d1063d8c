"""Secret value makers of held-out set 11 (seed 11863, judge11 track; written apart from the
scrubber's rules and from every earlier set).

Invariants: each maker takes the generator's `random.Random` and returns one value in the shape
its vendor or standard documents (prefix, length, alphabet, checksum-free parts random); names
start with `h11_`, so `__main__.maker` resolves them to no other round's maker. A value made
here is a secret wherever a template puts it; look-alike content lives in `heldout11_content`.
Word lists avoid words the templates use, so no 8-character piece of a password recurs in its
text by chance.
"""

from __future__ import annotations

import base64
import json
import random
import string

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DIG = string.digits
AN = string.ascii_letters + DIG
HEXD = "0123456789abcdef"
URLS = AN + "-_"
B64C = AN + "+/"
B32C = UP + "234567"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

# words people build passwords from (none of them occurs in a template of this set)
SILBEN = ["Quirl", "Wombat", "Zwieback", "Pfeffer", "Lakritz", "Murmel", "Schnecke", "Otter"]
SILBEN += ["Krokus", "Hummel", "Dattel", "Ginster", "Pinguin", "Rhabarber", "Kobold", "Igel"]
NOUNS = ["turnip", "pelican", "saffron", "quokka", "juniper", "nutmeg", "badger", "plinth"]
NOUNS += ["mango", "tundra", "walrus", "zephyr", "cobalt", "fjord", "kumquat", "yodel"]
MARKS = "!$%&*+-=?@^_~"


def rnd(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def noise(rng: random.Random, n: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(n))


# --- passwords and codes of people ---------------------------------------------------------


def h11_chosen_password(rng: random.Random) -> str:
    """A password a person picks: word, digits and a mark in some order."""
    w = rng.choice(SILBEN + NOUNS)
    n = rng.randint(10, 9999)
    m = rng.choice(MARKS)
    shapes = [f"{w}{n}{m}", f"{m}{w.lower()}{n}", f"{w}{m}{n}{rng.choice(UP)}", f"{n}{w}{m}{m}"]
    return rng.choice(shapes)


def h11_generated_password(rng: random.Random) -> str:
    """What a password manager generates: 16–24 of letters, digits and marks."""
    out = rnd(rng, AN, rng.randint(14, 20))
    for _ in range(rng.randint(2, 4)):
        i = rng.randrange(len(out))
        out = out[:i] + rng.choice("!%*+-=?^_~") + out[i:]
    return out


def h11_url_safe_password(rng: random.Random) -> str:
    """A generated password that a URL and a shell word carry unquoted."""
    return rnd(rng, AN, rng.randint(16, 22)) + rng.choice(["-", "_", "."]) + rnd(rng, AN, 4)


def h11_passphrase_dashes(rng: random.Random) -> str:
    words = rng.sample(NOUNS + [s.lower() for s in SILBEN], rng.randint(4, 6))
    return "-".join(words) + str(rng.randint(1, 9))


def h11_sim_pin(rng: random.Random) -> str:
    return str(rng.randint(1000, 9999))


def h11_puk(rng: random.Random) -> str:
    return str(rng.randint(10_000_000, 99_999_999))


def h11_door_code(rng: random.Random) -> str:
    return str(rng.randint(100_000, 999_999))


def h11_banking_pin(rng: random.Random) -> str:
    return str(rng.randint(10_000, 99_999))


def h11_github_recovery(rng: random.Random) -> str:
    return f"{rnd(rng, HEXD, 5)}-{rnd(rng, HEXD, 5)}"


def h11_totp_seed(rng: random.Random) -> str:
    return rnd(rng, B32C, 32)


def h11_wifi_psk(rng: random.Random) -> str:
    return "-".join(rnd(rng, UP + DIG, 4) for _ in range(4))


# --- code hosting, packages, CI ------------------------------------------------------------


def h11_github_fine_pat(rng: random.Random) -> str:
    return "github_pat_11" + rnd(rng, UP + DIG, 20) + "_" + rnd(rng, AN, 59)


def h11_github_app_token(rng: random.Random) -> str:
    return "ghs_" + rnd(rng, AN, 36)


def h11_gitlab_runner_token(rng: random.Random) -> str:
    return "glrt-" + rnd(rng, URLS, 20)


def h11_npm_token(rng: random.Random) -> str:
    return "npm_" + rnd(rng, AN, 36)


def h11_pypi_token(rng: random.Random) -> str:
    return "pypi-AgEIcHlwaS5vcmc" + b64url(noise(rng, 60))


def h11_docker_pat(rng: random.Random) -> str:
    return "dckr_pat_" + rnd(rng, URLS, 27)


def h11_nuget_key(rng: random.Random) -> str:
    return "oy2" + rnd(rng, LO + DIG, 43)


def h11_circleci_token(rng: random.Random) -> str:
    return "CCIPAT_" + rnd(rng, AN, 22) + "_" + rnd(rng, HEXD, 40)


# --- chat, mail, SaaS ----------------------------------------------------------------------


def h11_slack_bot(rng: random.Random) -> str:
    return f"xoxb-{rnd(rng, DIG, 12)}-{rnd(rng, DIG, 13)}-{rnd(rng, AN, 24)}"


def h11_slack_app_token(rng: random.Random) -> str:
    return f"xapp-1-A{rnd(rng, UP + DIG, 10)}-{rnd(rng, DIG, 13)}-{rnd(rng, HEXD, 64)}"


def h11_discord_bot(rng: random.Random) -> str:
    uid = b64(str(rng.randint(10**17, 10**18 - 1)).encode()).rstrip("=")
    return f"{uid}.{rnd(rng, URLS, 6)}.{rnd(rng, URLS, 38)}"


def h11_discord_webhook_token(rng: random.Random) -> str:
    return rnd(rng, URLS, 68)


def h11_telegram_bot(rng: random.Random) -> str:
    return f"{rng.randint(10**9, 8 * 10**9)}:AA{rnd(rng, URLS, 33)}"


def h11_sendgrid_key(rng: random.Random) -> str:
    return f"SG.{rnd(rng, URLS, 22)}.{rnd(rng, URLS, 43)}"


def h11_mailgun_key(rng: random.Random) -> str:
    return f"{rnd(rng, HEXD, 32)}-{rnd(rng, HEXD, 8)}-{rnd(rng, HEXD, 8)}"


def h11_twilio_auth_token(rng: random.Random) -> str:
    return rnd(rng, HEXD, 32)


def h11_linear_key(rng: random.Random) -> str:
    return "lin_api_" + rnd(rng, AN, 40)


def h11_notion_token(rng: random.Random) -> str:
    return "ntn_" + rnd(rng, DIG, 11) + rnd(rng, AN, 35)


def h11_atlassian_token(rng: random.Random) -> str:
    return "ATATT3xFfGF0" + rnd(rng, URLS, 170) + "=" + rnd(rng, HEXD.upper(), 8)


def h11_figma_pat(rng: random.Random) -> str:
    return "figd_" + rnd(rng, URLS, 40)


def h11_anthropic_key(rng: random.Random) -> str:
    return "sk-ant-api03-" + rnd(rng, URLS, 93) + "AA"


def h11_openai_project_key(rng: random.Random) -> str:
    return "sk-proj-" + rnd(rng, URLS, 74) + "T3BlbkFJ" + rnd(rng, URLS, 74)


def h11_hf_token(rng: random.Random) -> str:
    return "hf_" + rnd(rng, string.ascii_letters, 34)


def h11_shopify_token(rng: random.Random) -> str:
    return "shpat_" + rnd(rng, HEXD, 32)


def h11_stripe_restricted(rng: random.Random) -> str:
    return "rk_live_51" + rnd(rng, AN, 97)


def h11_stripe_webhook_secret(rng: random.Random) -> str:
    return "whsec_" + rnd(rng, AN, 32)


def h11_mapbox_secret(rng: random.Random) -> str:
    head = b64url(json.dumps({"u": rnd(rng, LO, 8), "a": rnd(rng, LO + DIG, 25)}).encode())
    return f"sk.{head}.{rnd(rng, URLS, 22)}"


# --- clouds and infrastructure -------------------------------------------------------------


def h11_aws_key_id(rng: random.Random) -> str:
    return "AKIA" + rnd(rng, B32C, 16)


def h11_aws_secret(rng: random.Random) -> str:
    return rnd(rng, B64C, 40)


def h11_aws_session_token(rng: random.Random) -> str:
    return "IQoJb3JpZ2luX2VjE" + rnd(rng, B64C, 300) + "=="


def h11_azure_storage_key(rng: random.Random) -> str:
    return b64(noise(rng, 64))


def h11_azure_sas_sig(rng: random.Random) -> str:
    raw = b64(noise(rng, 32))
    return raw.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def h11_azure_client_secret(rng: random.Random) -> str:
    return rnd(rng, AN, 3) + "8Q~" + rnd(rng, AN + "~._-", 31)


def h11_gcp_api_key(rng: random.Random) -> str:
    return "AIza" + rnd(rng, URLS, 35)


def h11_google_client_secret(rng: random.Random) -> str:
    return "GOCSPX-" + rnd(rng, URLS, 28)


def h11_google_refresh_token(rng: random.Random) -> str:
    return "1//0" + rnd(rng, URLS, 99)


def h11_do_token(rng: random.Random) -> str:
    return "dop_v1_" + rnd(rng, HEXD, 64)


def h11_vault_token(rng: random.Random) -> str:
    return "hvs.CAESI" + rnd(rng, URLS, 86)


def h11_tfc_token(rng: random.Random) -> str:
    return f"{rnd(rng, AN, 14)}.atlasv1.{rnd(rng, AN, 67)}"


def h11_pulumi_token(rng: random.Random) -> str:
    return "pul-" + rnd(rng, HEXD, 40)


def h11_tailscale_authkey(rng: random.Random) -> str:
    return f"tskey-auth-k{rnd(rng, AN, 10)}CNTRL-{rnd(rng, AN, 33)}"


def h11_grafana_sa_token(rng: random.Random) -> str:
    return f"glsa_{rnd(rng, AN, 32)}_{rnd(rng, HEXD, 8)}"


def h11_heroku_key_uuid(rng: random.Random) -> str:
    h = rnd(rng, HEXD, 32)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def h11_age_secret_key(rng: random.Random) -> str:
    return "AGE-SECRET-KEY-1" + rnd(rng, BECH, 58).upper()


def h11_wg_private_key(rng: random.Random) -> str:
    return b64(noise(rng, 32))


def h11_rails_master_key(rng: random.Random) -> str:
    return rnd(rng, HEXD, 32)


def h11_django_secret(rng: random.Random) -> str:
    return "django-insecure-" + rnd(rng, LO + DIG + "!@#%^&*(-_=+)", 50)


def h11_jwt(rng: random.Random) -> str:
    head = b64url(json.dumps({"alg": "RS256", "kid": rnd(rng, HEXD, 16), "typ": "JWT"}).encode())
    body = {"sub": rnd(rng, DIG, 9), "iss": "https://auth.example.org", "exp": 1_790_000_000}
    body["sid"] = rnd(rng, AN, 20)
    return f"{head}.{b64url(json.dumps(body).encode())}.{b64url(noise(rng, 64))}"


def h11_session_cookie(rng: random.Random) -> str:
    return b64url(noise(rng, 30)) + "." + b64url(noise(rng, 18))


def h11_basic_auth(rng: random.Random) -> str:
    user = rng.choice(["ci-bot", "reporter", "ops", "sync"])
    return b64(f"{user}:{h11_url_safe_password(rng)}".encode())


def h11_openssh_private_body(rng: random.Random) -> str:
    raw = b64(b"openssh-key-v1\x00" + noise(rng, 370))
    return "\n".join(raw[i : i + 70] for i in range(0, len(raw), 70))


def h11_rsa_private_body(rng: random.Random) -> str:
    raw = "MIIEow" + b64(noise(rng, 640))
    return "\n".join(raw[i : i + 64] for i in range(0, len(raw), 64))


def h11_signed_url_sig(rng: random.Random) -> str:
    return rnd(rng, HEXD, 64)
