"""Value makers of the fifth held-out set (seed 55291, by the judge5 track; measured once).

Secret makers are named `h5_*`, content makers `h5k_*`, so that `__main__.maker`, which looks
names up through every makers module in turn, never picks an older maker of the same name.
Shapes follow the providers' published formats (prefixes, lengths, alphabets, check digits);
every value is random, none is a real credential. Passwords inside URLs are percent-encoded
or drawn from a URL-safe alphabet, as a valid URL carries them.

Written without reading the scrubber's rules or any earlier generator.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from urllib.parse import quote

Maker = Callable[[random.Random], str]

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
SYMBOLS = "!$%&*+#?=@-_.:;"


def _r(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64(rng: random.Random, n_bytes: int) -> str:
    return base64.b64encode(rng.randbytes(n_bytes)).decode()


def _b64url(rng: random.Random, n_bytes: int) -> str:
    return base64.urlsafe_b64encode(rng.randbytes(n_bytes)).decode().rstrip("=")


def _words(text: str) -> list[str]:
    return text.split()


def _luhn_digit(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return str((10 - total % 10) % 10)


# --- provider tokens -------------------------------------------------------------------


def h5_github_classic(rng: random.Random) -> str:
    return "ghp_" + _r(rng, ALNUM, 36)


def h5_github_fine(rng: random.Random) -> str:
    return "github_pat_11" + _r(rng, UPPER + DIGITS, 20) + "_" + _r(rng, ALNUM, 59)


def h5_github_runner(rng: random.Random) -> str:
    return "A" + _r(rng, UPPER + "234567", 28)


def h5_gitlab_pat(rng: random.Random) -> str:
    return "glpat-" + _r(rng, URLSAFE, 20)


def h5_gitlab_trigger(rng: random.Random) -> str:
    return "glptt-" + _r(rng, HEX, 40)


def h5_gitlab_runner_reg(rng: random.Random) -> str:
    return "GR1348941" + _r(rng, URLSAFE, 20)


def h5_jenkins_token(rng: random.Random) -> str:
    return "11" + _r(rng, HEX, 32)


def h5_sonar_token(rng: random.Random) -> str:
    return rng.choice(["squ_", "sqp_", "sqa_"]) + _r(rng, HEX, 40)


def h5_codecov_uuid(rng: random.Random) -> str:
    h = _r(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def h5_npm_token(rng: random.Random) -> str:
    return "npm_" + _r(rng, ALNUM, 36)


def h5_pypi_token(rng: random.Random) -> str:
    return "pypi-AgEIcHlwaS5vcmcCJ" + _r(rng, URLSAFE, 120)


def h5_docker_auth(rng: random.Random) -> str:
    user = rng.choice(["ci-bot", "deploy", "kbauer", "release"])
    return base64.b64encode(f"{user}:{_r(rng, ALNUM, 18)}".encode()).decode()


def h5_slack_bot(rng: random.Random) -> str:
    return f"xoxb-{_r(rng, DIGITS, 12)}-{_r(rng, DIGITS, 13)}-{_r(rng, ALNUM, 24)}"


def h5_slack_hook_secret(rng: random.Random) -> str:
    return _r(rng, ALNUM, 24)


def h5_discord_hook_token(rng: random.Random) -> str:
    return _r(rng, URLSAFE, 68)


def h5_telegram_bot(rng: random.Random) -> str:
    return f"{rng.randint(5_000_000_000, 7_999_999_999)}:AA{_r(rng, URLSAFE, 33)}"


def h5_stripe_live(rng: random.Random) -> str:
    return rng.choice(["sk_live_51", "rk_live_51"]) + _r(rng, ALNUM, 97)


def h5_stripe_whsec(rng: random.Random) -> str:
    return "whsec_" + _r(rng, ALNUM, 32)


def h5_openai_svc(rng: random.Random) -> str:
    return "sk-svcacct-" + _r(rng, URLSAFE, 74) + "T3BlbkFJ" + _r(rng, URLSAFE, 74)


def h5_anthropic(rng: random.Random) -> str:
    return "sk-ant-api03-" + _r(rng, URLSAFE, 93) + "AA"


def h5_google_api(rng: random.Random) -> str:
    return "AIza" + _r(rng, URLSAFE, 35)


def h5_google_oauth_secret(rng: random.Random) -> str:
    return "GOCSPX-" + _r(rng, URLSAFE, 28)


def h5_aws_secret(rng: random.Random) -> str:
    return _r(rng, B64, 40)


def h5_azure_devops_pat(rng: random.Random) -> str:
    return _r(rng, LOWER + DIGITS, 52)


def h5_hf_token(rng: random.Random) -> str:
    return "hf_" + _r(rng, ALNUM, 34)


def h5_wandb_key(rng: random.Random) -> str:
    return _r(rng, HEX, 40)


def h5_kaggle_key(rng: random.Random) -> str:
    return _r(rng, HEX, 32)


def h5_sendgrid(rng: random.Random) -> str:
    return f"SG.{_r(rng, URLSAFE, 22)}.{_r(rng, URLSAFE, 43)}"


def h5_twilio_auth(rng: random.Random) -> str:
    return _r(rng, HEX, 32)


def h5_cloudflare_token(rng: random.Random) -> str:
    return _r(rng, URLSAFE, 40)


def h5_digitalocean(rng: random.Random) -> str:
    return "dop_v1_" + _r(rng, HEX, 64)


def h5_vault_token(rng: random.Random) -> str:
    return "hvs." + _r(rng, ALNUM, 24)


def h5_tfc_token(rng: random.Random) -> str:
    return _r(rng, ALNUM, 14) + ".atlasv1." + _r(rng, ALNUM, 67)


def h5_grafana_sa(rng: random.Random) -> str:
    return "glsa_" + _r(rng, ALNUM, 32) + "_" + _r(rng, HEX, 8)


def h5_datadog_api(rng: random.Random) -> str:
    return _r(rng, HEX, 32)


def h5_atlassian(rng: random.Random) -> str:
    return "ATATT3xFfGF0" + _r(rng, URLSAFE, 170) + "=" + _r(rng, HEX.upper(), 8)


def h5_firebase_server(rng: random.Random) -> str:
    return "AAAA" + _r(rng, URLSAFE, 7) + ":APA91b" + _r(rng, URLSAFE, 134)


def h5_dropbox(rng: random.Random) -> str:
    return "sl.B" + _r(rng, URLSAFE, 136)


# --- tokens, cookies, keys ---------------------------------------------------------------


def _jwt(rng: random.Random, header: dict[str, str], claims: str) -> str:
    compact = json.dumps(header, separators=(",", ":"))
    head = base64.urlsafe_b64encode(compact.encode()).decode().rstrip("=")
    body = base64.urlsafe_b64encode(claims.encode()).decode().rstrip("=")
    return f"{head}.{body}.{_b64url(rng, 64 if header['alg'] == 'HS256' else 256)}"


def h5_bearer_jwt(rng: random.Random) -> str:
    claims = f'{{"sub":"{rng.randint(10000, 99999)}","exp":{rng.randint(1790000000, 1799999999)}}}'
    return _jwt(rng, {"alg": "RS256", "typ": "JWT"}, claims)


def h5_k8s_sa_token(rng: random.Random) -> str:
    kid = _b64url(rng, 32)
    claims = (
        '{"aud":["https://kubernetes.default.svc"],"iss":"https://kubernetes.default.svc",'
        f'"exp":{rng.randint(1790000000, 1799999999)},"sub":"system:serviceaccount:ci:deployer"}}'
    )
    return _jwt(rng, {"alg": "RS256", "kid": kid}, claims)


def h5_hass_token(rng: random.Random) -> str:
    claims = f'{{"iss":"{_r(rng, HEX, 32)}","iat":{rng.randint(1760000000, 1769999999)}}}'
    return _jwt(rng, {"alg": "HS256", "typ": "JWT"}, claims)


def h5_session_php(rng: random.Random) -> str:
    return _r(rng, LOWER + DIGITS, 26)


def h5_session_rails(rng: random.Random) -> str:
    return quote(_b64(rng, 120), safe="") + "--" + _r(rng, HEX, 40)


def h5_session_django(rng: random.Random) -> str:
    return _r(rng, LOWER + DIGITS, 32)


def h5_api_key_hex(rng: random.Random) -> str:
    return _r(rng, HEX, 32)


def h5_basic_auth(rng: random.Random) -> str:
    user = rng.choice(["api", "shopsync", "monitor", "nina.f"])
    return base64.b64encode(f"{user}:{h5_password_random(rng)}".encode()).decode()


def h5_jwt_secret_hex(rng: random.Random) -> str:
    return _r(rng, HEX, 64)


def h5_app_key_b64(rng: random.Random) -> str:
    return _b64(rng, 32)


def h5_ssh_private_body(rng: random.Random) -> str:
    blob = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW" + _b64(rng, 280)
    return "\n".join(blob[i : i + 70] for i in range(0, len(blob), 70))


def h5_kube_client_key(rng: random.Random) -> str:
    body = _b64(rng, 600)
    pem = "-----BEGIN RSA PRIVATE KEY-----\n"
    pem += "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    pem += "\n-----END RSA PRIVATE KEY-----\n"
    return base64.b64encode(pem.encode()).decode()


def h5_openvpn_static(rng: random.Random) -> str:
    return "\n".join(_r(rng, HEX, 32) for _ in range(16))


def h5_wireguard_private(rng: random.Random) -> str:
    return _b64(rng, 32)


def h5_esphome_key(rng: random.Random) -> str:
    return _b64(rng, 32)


def h5_tuya_local_key(rng: random.Random) -> str:
    return _r(rng, ALNUM + "<>{}[]^|~`'", 16)


def h5_totp_seed(rng: random.Random) -> str:
    return _r(rng, UPPER + "234567", 32)


def h5_k8s_secret_b64(rng: random.Random) -> str:
    return base64.b64encode(h5_password_random(rng).encode()).decode()


def h5_minio_secret(rng: random.Random) -> str:
    return _r(rng, ALNUM + "+/", 40)


# --- passwords of every strength ----------------------------------------------------------

_WORDS_DE = _words(
    "Sonnenblume Kaffeetasse Hundekuchen Bergsee Fahrrad Leuchtturm Apfelbaum "
    "Schneeflocke Grashuepfer Wanderweg Zitrone Eichhorn"
)
_WORDS_EN = _words(
    "Sunflower Butterfly Lighthouse Pancake Bluebird Thunder Marmalade Snowball "
    "Pinecone Harbour Cinnamon Falcon"
)
_NAMES = ["Lisa", "Jonas", "Mila", "Bello", "Emma", "Paul", "Greta", "Luna", "Oskar", "Fiete"]


def h5_password_human(rng: random.Random) -> str:
    word = rng.choice(_WORDS_DE + _WORDS_EN)
    tail = rng.choice([str(rng.randint(1960, 2024)), str(rng.randint(10, 99)), ""])
    return word + tail + rng.choice("!?#$%&*") + rng.choice(["", str(rng.randint(1, 9))])


def h5_password_name(rng: random.Random) -> str:
    day, month, year = rng.randint(1, 28), rng.randint(1, 12), rng.randint(1970, 2015)
    return f"{rng.choice(_NAMES)}{rng.choice('#.!_')}{day:02d}{month:02d}{year}"


def h5_password_weak(rng: random.Random) -> str:
    base = rng.choice(["hallo", "passwort", "qwertz", "schatz", "sommer", "welcome", "letmein"])
    return base + str(rng.randint(100, 9999))


def h5_password_random(rng: random.Random) -> str:
    first = rng.choice(ALNUM)
    return first + _r(rng, ALNUM + SYMBOLS, rng.randint(14, 22))


def h5_password_pgpass(rng: random.Random) -> str:
    """A random password as `.pgpass` holds it unescaped: no `:` and no backslash."""
    return rng.choice(ALNUM) + _r(rng, ALNUM + SYMBOLS.replace(":", ""), rng.randint(14, 22))


def h5_password_url(rng: random.Random) -> str:
    """A random password as a URL carries it: percent-encoded, or URL-safe to begin with."""
    if rng.random() < 0.5:
        return quote(h5_password_random(rng), safe="")
    return _r(rng, URLSAFE, rng.randint(18, 28))


def h5_passphrase(rng: random.Random) -> str:
    words = [
        "anker",
        "wolke",
        "tinte",
        "pferd",
        "batterie",
        "heftklammer",
        "moos",
        "kerze",
        "laterne",
        "kompass",
        "rabe",
        "zimt",
        "orbit",
        "walnut",
        "velvet",
        "copper",
    ]
    return rng.choice(["-", " ", "."]).join(rng.sample(words, rng.randint(4, 5)))


def h5_sticker_password(rng: random.Random) -> str:
    word = rng.choice(["pedal", "mango", "kiesel", "tulpe", "anker", "ruder", "quarz", "birke"])
    return f"{word}{rng.randint(1000, 9999)}"


def h5_wifi_psk(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return _r(rng, ALNUM, rng.randint(16, 24))
    return " ".join(_r(rng, DIGITS, 4) for _ in range(5))


# --- PINs, codes, recovery material ---------------------------------------------------------


def h5_pin4(rng: random.Random) -> str:
    return _r(rng, DIGITS, 4)


def h5_pin5(rng: random.Random) -> str:
    return _r(rng, DIGITS, 5)


def h5_pin6(rng: random.Random) -> str:
    return _r(rng, DIGITS, 6)


def h5_puk(rng: random.Random) -> str:
    return _r(rng, DIGITS, 8)


def h5_otp_code(rng: random.Random) -> str:
    return _r(rng, DIGITS, 6)


def h5_otp_google(rng: random.Random) -> str:
    return "G-" + _r(rng, DIGITS, 6)


def h5_alarm_code(rng: random.Random) -> str:
    return _r(rng, DIGITS, rng.choice([4, 6]))


def h5_locker_code(rng: random.Random) -> str:
    return _r(rng, DIGITS, 6)


def h5_recovery_gh(rng: random.Random) -> str:
    return f"{_r(rng, HEX, 5)}-{_r(rng, HEX, 5)}"


def h5_backup_digits(rng: random.Random) -> str:
    return f"{_r(rng, DIGITS, 4)} {_r(rng, DIGITS, 4)}"


def h5_apple_recovery(rng: random.Random) -> str:
    return "-".join(_r(rng, UPPER + DIGITS, 4) for _ in range(7))


def h5_onepassword_secret(rng: random.Random) -> str:
    a = UPPER + DIGITS
    return "-".join(["A3", _r(rng, a, 6), _r(rng, a, 6)] + [_r(rng, a, 5) for _ in range(4)])


def h5_elster_code(rng: random.Random) -> str:
    return "-".join(_r(rng, UPPER + DIGITS, 4) for _ in range(3))


_SEED_WORDS = _words(
    "orbit market lemon jungle harvest galaxy fabric eagle dolphin copper bridge "
    "canyon fossil gravity island kitten ladder magnet napkin ocean pencil rabbit "
    "saddle ticket umbrella vacuum walnut yellow zebra garlic legend mirror planet "
    "rocket silver timber voyage winter hurdle insect jacket kidney lottery meadow "
    "nephew oyster pepper shrimp"
)


def h5_seed_phrase(rng: random.Random) -> str:
    return " ".join(rng.sample(_SEED_WORDS, 12))


def h5_card_number(rng: random.Random) -> str:
    prefix = rng.choice(["4", "51", "53"])
    body = prefix + _r(rng, DIGITS, 15 - len(prefix))
    digits = body + _luhn_digit(body)
    return " ".join(digits[i : i + 4] for i in range(0, 16, 4))


def h5_cvc(rng: random.Random) -> str:
    return _r(rng, DIGITS, 3)
