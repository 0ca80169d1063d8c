"""Secret makers of the thirteenth held-out set (judge13, seed 13579): one maker per kind.

Every maker takes the builder's `random.Random` and returns one fresh value in the shape its
provider or its owner gives it (prefix, alphabet and length of the provider's documented token
format; passwords, passphrases, PINs and codes as people choose or generators print them).
All names start with `h13_`, so a kind names its maker and no earlier set's maker is shadowed.
Values are random: no real credential of anyone is here. Invariant: no maker returns a value
with a quote, backslash, `#`, `$` or whitespace at its ends, so every layout can hold it as is.
"""

from __future__ import annotations

import base64
import random
import string

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = LOWER + UPPER + DIGITS
HEX = "0123456789abcdef"
B32 = UPPER + "234567"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"


def pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def b64_of(rng: random.Random, nbytes: int) -> str:
    return base64.b64encode(rng.randbytes(nbytes)).decode()


# --- AI and developer platforms -------------------------------------------------------------


def h13_hf_token(rng: random.Random) -> str:
    return "hf_" + pick(rng, LOWER + UPPER, 34)


def h13_replicate(rng: random.Random) -> str:
    return "r8_" + pick(rng, ALNUM, 37)


def h13_groq(rng: random.Random) -> str:
    return "gsk_" + pick(rng, ALNUM, 52)


def h13_perplexity(rng: random.Random) -> str:
    return "pplx-" + pick(rng, ALNUM, 48)


def h13_openai_svcacct(rng: random.Random) -> str:
    return "sk-svcacct-" + pick(rng, B64URL, 74) + "T3BlbkFJ" + pick(rng, B64URL, 74)


def h13_anthropic_admin(rng: random.Random) -> str:
    return "sk-ant-admin01-" + pick(rng, B64URL, 93) + "AA"


def h13_linear(rng: random.Random) -> str:
    return "lin_api_" + pick(rng, ALNUM, 40)


def h13_notion(rng: random.Random) -> str:
    return "ntn_" + pick(rng, DIGITS, 11) + pick(rng, ALNUM, 35)


def h13_airtable_pat(rng: random.Random) -> str:
    return "pat" + pick(rng, ALNUM, 14) + "." + pick(rng, HEX, 64)


def h13_postman(rng: random.Random) -> str:
    return "PMAK-" + pick(rng, HEX, 24) + "-" + pick(rng, HEX, 34)


def h13_contentful(rng: random.Random) -> str:
    return "CFPAT-" + pick(rng, B64URL, 43)


def h13_figma(rng: random.Random) -> str:
    return "figd_" + pick(rng, B64URL, 40)


def h13_sentry_user(rng: random.Random) -> str:
    return "sntryu_" + pick(rng, HEX, 64)


def h13_sonar(rng: random.Random) -> str:
    return "squ_" + pick(rng, HEX, 40)


def h13_github_pat(rng: random.Random) -> str:
    return "github_pat_11" + pick(rng, UPPER + DIGITS, 20) + "_" + pick(rng, ALNUM, 59)


def h13_gitea_token(rng: random.Random) -> str:
    return pick(rng, HEX, 40)


def h13_bitbucket_app(rng: random.Random) -> str:
    return "ATBB" + pick(rng, ALNUM, 32) + pick(rng, "0123456789ABCDEF", 8)


def h13_azure_devops_pat(rng: random.Random) -> str:
    return pick(rng, LOWER + "234567", 52)


def h13_jfrog_ref(rng: random.Random) -> str:
    return "cmVmdGtuOjAxOj" + pick(rng, ALNUM, 50)


def h13_pulumi(rng: random.Random) -> str:
    return "pul-" + pick(rng, HEX, 40)


def h13_tfc_token(rng: random.Random) -> str:
    return pick(rng, ALNUM, 14) + ".atlasv1." + pick(rng, ALNUM, 67)


def h13_doppler(rng: random.Random) -> str:
    return "dp.st.prd." + pick(rng, ALNUM, 43)


def h13_clickup(rng: random.Random) -> str:
    return "pk_" + pick(rng, DIGITS, 8) + "_" + pick(rng, UPPER + DIGITS, 32)


def h13_zendesk(rng: random.Random) -> str:
    return pick(rng, ALNUM, 40)


# --- Cloud, hosting, observability ----------------------------------------------------------


def h13_aws_secret(rng: random.Random) -> str:
    return pick(rng, B64, 40)


def h13_do_token(rng: random.Random) -> str:
    return "dop_v1_" + pick(rng, HEX, 64)


def h13_hcloud(rng: random.Random) -> str:
    return pick(rng, ALNUM, 64)


def h13_netlify(rng: random.Random) -> str:
    return "nfp_" + pick(rng, ALNUM, 36)


def h13_planetscale_pw(rng: random.Random) -> str:
    return "pscale_pw_" + pick(rng, B64URL, 43)


def h13_databricks(rng: random.Random) -> str:
    return "dapi" + pick(rng, HEX, 32)


def h13_newrelic(rng: random.Random) -> str:
    return "NRAK-" + pick(rng, UPPER + DIGITS, 27)


def h13_datadog_api(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h13_grafana_sa(rng: random.Random) -> str:
    return "glsa_" + pick(rng, ALNUM, 32) + "_" + pick(rng, HEX, 8)


def h13_okta_ssws(rng: random.Random) -> str:
    return "00" + pick(rng, B64URL, 40)


def h13_alibaba_secret(rng: random.Random) -> str:
    return pick(rng, ALNUM, 30)


def h13_scaleway_secret(rng: random.Random) -> str:
    return str(_uuid(rng))


def h13_heroku_key(rng: random.Random) -> str:
    return str(_uuid(rng))


def h13_azure_storage_key(rng: random.Random) -> str:
    return b64_of(rng, 64)


def h13_gcp_oauth_secret(rng: random.Random) -> str:
    return "GOCSPX-" + pick(rng, B64URL, 28)


def h13_google_refresh(rng: random.Random) -> str:
    return "1//0" + pick(rng, B64URL, 99)


def h13_firebase_fcm(rng: random.Random) -> str:
    return "AAAA" + pick(rng, B64URL, 7) + ":APA91b" + pick(rng, B64URL, 134)


def h13_tailscale(rng: random.Random) -> str:
    return "tskey-auth-k" + pick(rng, ALNUM, 10) + "CNTRL-" + pick(rng, ALNUM, 33)


def h13_ngrok(rng: random.Random) -> str:
    return "2" + pick(rng, ALNUM, 26) + "_" + pick(rng, ALNUM, 21)


# --- Commerce, mail, messaging --------------------------------------------------------------


def h13_stripe_restricted(rng: random.Random) -> str:
    return "rk_live_51" + pick(rng, ALNUM, 96)


def h13_square(rng: random.Random) -> str:
    return "EAAA" + pick(rng, B64URL, 60)


def h13_mollie(rng: random.Random) -> str:
    return "live_" + pick(rng, ALNUM, 30)


def h13_shippo(rng: random.Random) -> str:
    return "shippo_live_" + pick(rng, HEX, 40)


def h13_easypost(rng: random.Random) -> str:
    return "EZAK" + pick(rng, HEX, 54)


def h13_hubspot(rng: random.Random) -> str:
    return "pat-eu1-" + str(_uuid(rng))


def h13_mailchimp(rng: random.Random) -> str:
    return pick(rng, HEX, 32) + "-us" + str(rng.randint(2, 21))


def h13_brevo(rng: random.Random) -> str:
    return "xkeysib-" + pick(rng, HEX, 64) + "-" + pick(rng, ALNUM, 16)


def h13_resend(rng: random.Random) -> str:
    return "re_" + pick(rng, ALNUM, 8) + "_" + pick(rng, ALNUM, 24)


def h13_webhook_secret(rng: random.Random) -> str:
    return "whsec_" + b64_of(rng, 24)


def h13_matrix(rng: random.Random) -> str:
    user = base64.b64encode(rng.choice(["ops", "jana", "bot", "leitstelle"]).encode()).decode()
    return "syt_" + user.rstrip("=") + "_" + pick(rng, ALNUM, 20) + "_" + pick(rng, ALNUM, 6)


def h13_mastodon(rng: random.Random) -> str:
    return pick(rng, B64URL, 43)


def h13_plex(rng: random.Random) -> str:
    return pick(rng, B64URL, 20)


def h13_twitter_bearer(rng: random.Random) -> str:
    return "AAAAAAAAAAAAAAAAAAAAA" + pick(rng, ALNUM, 22) + "%3D" + pick(rng, ALNUM, 50)


def h13_dropbox(rng: random.Random) -> str:
    return "sl.B" + pick(rng, B64URL, 134)


# --- Keys and signing secrets ---------------------------------------------------------------


def _pem(rng: random.Random, label: str, nbytes: int) -> str:
    body = b64_of(rng, nbytes)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def h13_openssh_key(rng: random.Random) -> str:
    return _pem(rng, "OPENSSH PRIVATE KEY", 300)


def h13_ec_key(rng: random.Random) -> str:
    return _pem(rng, "EC PRIVATE KEY", 121)


def h13_putty_private(rng: random.Random) -> str:
    return "AAAAI" + b64_of(rng, 33)


def h13_eth_private(rng: random.Random) -> str:
    return pick(rng, HEX, 64)


def h13_wg_private(rng: random.Random) -> str:
    return b64_of(rng, 32)


def h13_jwt_secret(rng: random.Random) -> str:
    return b64_of(rng, 36)


def h13_django_secret(rng: random.Random) -> str:
    return pick(rng, LOWER + DIGITS + "!%^&*(-_=+)", 50)


def h13_rails_master(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h13_session_cookie(rng: random.Random) -> str:
    return "eyJpdiI6I" + pick(rng, B64URL, 180) + "In0%3D"


# --- Passwords, codes, PINs -----------------------------------------------------------------

_WORDS = [
    "Kiefer",
    "Murmel",
    "Pelikan",
    "Quitte",
    "Wombat",
    "Lagune",
    "Trommel",
    "Zimt",
    "Falke",
    "Harfe",
    "Mokka",
    "Nebel",
    "Otter",
    "Pirat",
    "Rakete",
    "Salbei",
    "Tukan",
    "Veilchen",
    "walnut",
    "copper",
    "harbor",
    "pepper",
    "falcon",
    "meadow",
    "cobalt",
    "lantern",
    "velvet",
    "juniper",
    "saffron",
    "tundra",
    "willow",
    "quartz",
    "ember",
    "glacier",
]
_SYMBOLS = "!?.*+-_&%"
_PHRASE = [
    "kupfer",
    "wolke",
    "anker",
    "birne",
    "dackel",
    "eimer",
    "fichte",
    "gurke",
    "hafen",
    "igel",
    "jacke",
    "kompass",
    "leiter",
    "mandel",
    "nordsee",
    "ofen",
    "paddel",
    "rost",
    "amber",
    "basil",
    "canyon",
    "drift",
    "echo",
    "fjord",
    "gravel",
    "hazel",
    "island",
    "jasper",
    "kettle",
    "lemon",
    "marble",
    "nickel",
    "orbit",
    "prairie",
    "raven",
    "sprout",
]


def h13_chosen_pw(rng: random.Random) -> str:
    word = rng.choice(_WORDS)
    if rng.random() < 0.5:
        word = word.capitalize()
    style = rng.randrange(4)
    if style == 0:
        return word + str(rng.randint(10, 99)) + rng.choice(_SYMBOLS)
    if style == 1:
        return rng.choice(_SYMBOLS) + word + str(rng.randint(1960, 2025))
    if style == 2:
        return word + rng.choice("_-.") + rng.choice(_WORDS).lower() + str(rng.randint(1, 9))
    return word.replace("a", "@").replace("o", "0") + str(rng.randint(100, 999)) + "!"


def h13_generated_pw(rng: random.Random) -> str:
    body = pick(rng, ALNUM + "!%&*+-=_~^", rng.randint(16, 22))
    return rng.choice(UPPER) + body + rng.choice(DIGITS)


def h13_url_pw(rng: random.Random) -> str:
    return rng.choice(LOWER) + pick(rng, ALNUM + "-_.~", rng.randint(14, 20)) + rng.choice(DIGITS)


def h13_passphrase(rng: random.Random) -> str:
    sep = rng.choice(["-", " ", ".", "_"])
    return sep.join(rng.sample(_PHRASE, rng.randint(4, 5))) + (
        str(rng.randint(2, 9)) if rng.random() < 0.4 else ""
    )


def h13_pin(rng: random.Random) -> str:
    while True:
        pin = pick(rng, DIGITS, 4)
        if len(set(pin)) > 2 and not pin.startswith(("19", "20")):
            return pin


def h13_pin6(rng: random.Random) -> str:
    return str(rng.randint(1, 9)) + pick(rng, DIGITS, 5)


def h13_puk(rng: random.Random) -> str:
    return str(rng.randint(1, 9)) + pick(rng, DIGITS, 7)


def h13_nextcloud_app_pw(rng: random.Random) -> str:
    return "-".join(pick(rng, ALNUM, 5) for _ in range(5))


def h13_apple_app_pw(rng: random.Random) -> str:
    return "-".join(pick(rng, LOWER, 4) for _ in range(4))


def h13_ms_recovery(rng: random.Random) -> str:
    return "-".join(pick(rng, "BCDFGHJKMPQRTVWXY2346789", 5) for _ in range(5))


def h13_backup_code(rng: random.Random) -> str:
    return pick(rng, DIGITS, 4) + " " + pick(rng, DIGITS, 4)


def h13_totp_seed(rng: random.Random) -> str:
    return " ".join(pick(rng, LOWER + "234567", 4) for _ in range(8))


def h13_basic_auth(rng: random.Random) -> str:
    user = rng.choice(["ops", "scanner", "import", "hmueller", "ci-bot"])
    return base64.b64encode(f"{user}:{h13_url_pw(rng)}".encode()).decode()


def h13_docker_auth(rng: random.Random) -> str:
    user = rng.choice(["deploy", "robot$ci", "k.yilmaz"])
    return base64.b64encode(f"{user}:{pick(rng, ALNUM, 32)}".encode()).decode()


def h13_npm_auth(rng: random.Random) -> str:
    return base64.b64encode(f"build:{h13_url_pw(rng)}".encode()).decode()


def h13_wifi_key(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "-".join(pick(rng, DIGITS, 4) for _ in range(4))
    return pick(rng, ALNUM, rng.randint(14, 20))


def h13_ipsec_psk(rng: random.Random) -> str:
    return pick(rng, ALNUM + "+/", 32)


def _uuid(rng: random.Random) -> str:
    h = pick(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"
