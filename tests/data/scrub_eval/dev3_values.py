"""Value makers of the third development round (issue 20, session 4; seed 52817).

Written fresh from what agents' memories hold and the first two rounds lack: keys of more
clouds and SaaS vendors (Azure DevOps, Cosmos, Service Bus, GCP HMAC, Tencent, IBM, Scaleway,
Backblaze, Linode, Hetzner, Netlify, Vercel, Fly, PlanetScale, HubSpot, Algolia, Contentful,
SonarQube, CircleCI, Bitbucket, Tailscale, 1Password, Mollie, Razorpay, Braintree, Shopify
shared secrets, Square OAuth secrets, Sentry user tokens, Vault unseal keys, crates.io,
OpenRouter, W&B, Kaggle, ...), passwords people pick in chat, base64 of credentials in k8s
Secrets and registry configs; as content: national identifiers of more countries (FR, BE, AT,
CZ, IE, FI, NO, AU, MX, BR, TR, DE Steuer-ID), public client ids, lock-file hashes, trace
contexts, ticket and version strings. Shapes follow the published formats; values are random.
Names carry no prefix of an older round; `python -m tests.data.scrub_eval --check` fails if a
name shadowed an older maker.
"""

from __future__ import annotations

import base64
import random
import string

from tests.data.scrub_eval.values import B62, B64, HEX, UPPER_NUM, URLSAFE, _b64, pick

B32_LOWER = "abcdefghijklmnopqrstuvwxyz234567"
DIGITS = string.digits
LOWER_NUM = string.ascii_lowercase + string.digits


def dashed(h: str) -> str:
    """32 hex digits in the 8-4-4-4-12 layout of a UUID."""
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


# --- cloud keys ------------------------------------------------------------------------------


def azure_devops_pat(rng: random.Random) -> str:
    return pick(rng, B32_LOWER, 52)


def azure_cosmos_key(rng: random.Random) -> str:
    return _b64(rng, 64)


def azure_servicebus_key(rng: random.Random) -> str:
    return _b64(rng, 32)


def azure_openai_key(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def gcp_hmac_access_id(rng: random.Random) -> str:
    return "GOOG1E" + pick(rng, UPPER_NUM, 55)


def gcp_hmac_secret(rng: random.Random) -> str:
    return pick(rng, B64, 40)


def tencent_secret_id(rng: random.Random) -> str:
    return "AKID" + pick(rng, B62, 32)


def ibm_cloud_api_key(rng: random.Random) -> str:
    return pick(rng, URLSAFE, 44)


def scaleway_secret(rng: random.Random) -> str:
    h = pick(rng, HEX, 32)
    return dashed(h[:12] + "4" + h[13:16] + "a" + h[17:])


def backblaze_app_key(rng: random.Random) -> str:
    return "K00" + rng.choice("1234") + pick(rng, B62 + "/+", 27)


def linode_token(rng: random.Random) -> str:
    return pick(rng, HEX, 64)


def hetzner_token(rng: random.Random) -> str:
    return pick(rng, B62, 64)


def do_spaces_secret(rng: random.Random) -> str:
    return pick(rng, B64, 43)


def aws_session_token(rng: random.Random) -> str:
    return "IQoJb3JpZ2luX2Vj" + pick(rng, B64, rng.choice([300, 380]))


# --- SaaS, payment and developer platforms -----------------------------------------------------


def netlify_token(rng: random.Random) -> str:
    return "nfp_" + pick(rng, B62, 36)


def vercel_token(rng: random.Random) -> str:
    return pick(rng, B62, 24)


def fly_token(rng: random.Random) -> str:
    return "FlyV1 fm2_" + pick(rng, B64, 120)


def planetscale_password(rng: random.Random) -> str:
    return "pscale_pw_" + pick(rng, URLSAFE, 43)


def hubspot_token(rng: random.Random) -> str:
    return "pat-eu1-" + dashed(pick(rng, HEX, 32))


def algolia_admin_key(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def contentful_token(rng: random.Random) -> str:
    return "CFPAT-" + pick(rng, URLSAFE, 43)


def sonar_token(rng: random.Random) -> str:
    return rng.choice(["squ_", "sqp_", "sqa_"]) + pick(rng, HEX, 40)


def circleci_token(rng: random.Random) -> str:
    return "CCIPAT_" + pick(rng, B62, 22) + "_" + pick(rng, HEX, 40)


def bitbucket_app_password(rng: random.Random) -> str:
    return "ATBB" + pick(rng, B62, 32)


def tailscale_key(rng: random.Random) -> str:
    return "tskey-auth-" + pick(rng, B62, 17) + "-" + pick(rng, B62, 33)


def onepassword_sa_token(rng: random.Random) -> str:
    return "ops_eyJ" + pick(rng, B62, 180)


def mollie_key(rng: random.Random) -> str:
    return rng.choice(["live_", "test_"]) + pick(rng, B62, 30)


def razorpay_secret(rng: random.Random) -> str:
    return pick(rng, B62, 24)


def braintree_token(rng: random.Random) -> str:
    return "access_token$production$" + pick(rng, LOWER_NUM, 16) + "$" + pick(rng, HEX, 32)


def shopify_shared_secret(rng: random.Random) -> str:
    return rng.choice(["shpss_", "shpca_", "shppa_"]) + pick(rng, HEX, 32)


def square_oauth_secret(rng: random.Random) -> str:
    return "sq0csp-" + pick(rng, URLSAFE, 43)


def sentry_user_token(rng: random.Random) -> str:
    return "sntryu_" + pick(rng, HEX, 64)


def vault_unseal_key(rng: random.Random) -> str:
    return _b64(rng, 33)


def crates_token(rng: random.Random) -> str:
    return "cio" + pick(rng, B62, 32)


def openrouter_key(rng: random.Random) -> str:
    return "sk-or-v1-" + pick(rng, HEX, 64)


def wandb_key(rng: random.Random) -> str:
    return pick(rng, HEX, 40)


def kaggle_key(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def postmark_token(rng: random.Random) -> str:
    return dashed(pick(rng, HEX, 32))


def mailjet_secret(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def resend_key(rng: random.Random) -> str:
    return "re_" + pick(rng, B62, 8) + "_" + pick(rng, B62, 24)


def deepl_key(rng: random.Random) -> str:
    return dashed(pick(rng, HEX, 32)) + ":fx"


def dropbox_token(rng: random.Random) -> str:
    return "sl." + pick(rng, URLSAFE, 130)


def pagerduty_key(rng: random.Random) -> str:
    return "u+" + pick(rng, URLSAFE, 18)


def auth0_client_secret(rng: random.Random) -> str:
    return pick(rng, URLSAFE, 64)


def webhook_secret(rng: random.Random) -> str:
    return "whsec_" + pick(rng, B62, 32)


# --- passwords and codes as people write them --------------------------------------------------


def chat_password(rng: random.Random) -> str:
    """Passwords typed in chat: names, years, football clubs, keyboard walks, German words."""
    word = rng.choice(["Mausi", "Borussia", "Kaffee", "Zugspitze", "Hannah", "qwertz", "Tigerente"])
    return rng.choice(
        [
            f"{word}{rng.randint(1, 99):02d}{rng.choice('!?#.$')}",
            f"{word.lower()}{rng.randint(1960, 2024)}",
            f"{rng.choice(['Ich', 'Mein', 'Unser'])}{word}"
            f"{rng.choice(['Ist', 'Hat'])}{rng.randint(2, 9)}",
            f"{word[:3]}{rng.choice('-_')}{rng.randint(100, 999)}{rng.choice('ABCXYZ')}",
        ]
    )


def shell_password(rng: random.Random) -> str:
    """A generated password with shell-relevant symbols (written inside single quotes)."""
    while True:
        value = pick(rng, B62 + "!$%&*()[]{}^~#", rng.randint(12, 20))
        if any(c.isdigit() for c in value) and any(c in "!$%&*()[]{}^~#" for c in value):
            return value


def word_passphrase(rng: random.Random) -> str:
    words = ["Ampel", "Wolke", "tiger", "Fenster", "blue", "Nudel", "river", "Kompass", "Eule"]
    return rng.choice(["-", " ", "+"]).join(rng.sample(words, rng.choice([3, 4])))


def sim_puk(rng: random.Random) -> str:
    return pick(rng, DIGITS, 8)


def pin_code(rng: random.Random) -> str:
    return pick(rng, DIGITS, rng.choice([4, 5, 6]))


def k8s_secret_b64(rng: random.Random) -> str:
    """The base64 of a password, as a Kubernetes Secret's `data:` holds it."""
    raw = pick(rng, B62 + "!#%", rng.randint(14, 22))
    return base64.b64encode(raw.encode()).decode()


def docker_auth_b64(rng: random.Random) -> str:
    user = rng.choice(["ci-bot", "deploy", "jana.k", "_json_key"])
    return base64.b64encode(f"{user}:{pick(rng, URLSAFE, 28)}".encode()).decode()


def split_api_key(rng: random.Random) -> str:
    """A long key broken over two lines, as chat clients and terminals wrap it."""
    body = "sk-proj-" + pick(rng, URLSAFE, 120)
    cut = rng.randint(40, 80)
    return body[:cut] + "\n" + body[cut:]
