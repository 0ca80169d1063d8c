"""Secret value makers of held-out set 12 (seed 60917, judge11 track; the round's judge, written
apart from the scrubber's rules and with other vendors, formats and words than held-out11).

Invariants: each maker takes the generator's `random.Random` and returns one value in the shape
its vendor or standard documents; names start with `h12_`, so `__main__.maker` resolves them to
no other round's maker. A value made here is a secret wherever a template puts it; look-alike
content lives in `heldout12_content`. Password words occur in no template of this set.
"""

from __future__ import annotations

import json
import random

from tests.data.scrub_eval.heldout11_values import (
    AN,
    B64C,
    BECH,
    DIG,
    HEXD,
    LO,
    UP,
    URLS,
    b64,
    b64url,
    noise,
    rnd,
)

B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
GEMS = ["Achat", "Beryll", "Citrin", "Jaspis", "Onyx", "Topas", "Opal", "Granat", "Zirkon"]
BIRDS = ["heron", "puffin", "osprey", "kestrel", "plover", "grebe", "curlew", "wren", "egret"]
SPICE = ["Kardamom", "Sternanis", "Kurkuma", "Piment", "Wacholder", "Muskat", "Koriander"]


def uuid4(rng: random.Random) -> str:
    h = rnd(rng, HEXD, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


# --- passwords, passphrases and codes of people ---------------------------------------------


def h12_person_password(rng: random.Random) -> str:
    w = rng.choice(GEMS + SPICE + [b.capitalize() for b in BIRDS])
    y = rng.randint(11, 98)
    return rng.choice([f"{w}#{y}{w[0].lower()}", f"{w.upper()}.{y}!", f"{y}{w}?{rng.choice(UP)}"])


def h12_random_password(rng: random.Random) -> str:
    return (
        rnd(rng, AN, 6)
        + rng.choice("#$%&*")
        + rnd(rng, AN, 6)
        + rng.choice("!?+")
        + rnd(rng, AN, 4)
    )


def h12_plain_password(rng: random.Random) -> str:
    """A generated password of letters and digits only (fits in URLs, JDBC and XML)."""
    return rnd(rng, AN, rng.randint(14, 20))


def h12_word_passphrase(rng: random.Random) -> str:
    return " ".join(rng.sample([g.lower() for g in GEMS] + BIRDS, 5))


def h12_filevault_key(rng: random.Random) -> str:
    return "-".join(rnd(rng, UP.replace("O", "") + "23456789", 4) for _ in range(6))


def h12_apple_app_password(rng: random.Random) -> str:
    return "-".join(rnd(rng, LO, 4) for _ in range(4))


def h12_id_card_pin(rng: random.Random) -> str:
    return str(rng.randint(100_000, 999_999))


def h12_voicemail_pin(rng: random.Random) -> str:
    return str(rng.randint(1000, 9999))


def h12_locker_code(rng: random.Random) -> str:
    return f"{rng.randint(10, 99)}{rnd(rng, UP, 2)}{rng.randint(10, 99)}"


def h12_safe_combo(rng: random.Random) -> str:
    return "-".join(str(rng.randint(10, 59)) for _ in range(3))


def h12_sms_otp(rng: random.Random) -> str:
    return str(rng.randint(100_000, 999_999))


def h12_snmp_community(rng: random.Random) -> str:
    return rnd(rng, LO + DIG, 5) + rng.choice(["_rw", "-priv", "Mgmt"]) + rnd(rng, DIG, 3)


# --- developer platforms and SaaS ------------------------------------------------------------


def h12_github_oauth(rng: random.Random) -> str:
    return "gho_" + rnd(rng, AN, 36)


def h12_gitlab_pat(rng: random.Random) -> str:
    return "glpat-" + rnd(rng, URLS, 20)


def h12_gitlab_deploy_token(rng: random.Random) -> str:
    return "gldt-" + rnd(rng, URLS, 20)


def h12_bitbucket_app_password(rng: random.Random) -> str:
    return "ATBB" + rnd(rng, AN, 28) + rnd(rng, HEXD.upper(), 8)


def h12_slack_user(rng: random.Random) -> str:
    return f"xoxp-{rnd(rng, DIG, 11)}-{rnd(rng, DIG, 12)}-{rnd(rng, DIG, 13)}-{rnd(rng, HEXD, 32)}"


def h12_slack_hook_secret(rng: random.Random) -> str:
    return rnd(rng, AN, 24)


def h12_stripe_secret(rng: random.Random) -> str:
    return rng.choice(["sk_live_51", "sk_test_51"]) + rnd(rng, AN, 97)


def h12_square_token(rng: random.Random) -> str:
    return "EAAA" + rnd(rng, URLS, 60)


def h12_braintree_token(rng: random.Random) -> str:
    return f"access_token$production${rnd(rng, LO + DIG, 16)}${rnd(rng, HEXD, 32)}"


def h12_mailchimp_key(rng: random.Random) -> str:
    return rnd(rng, HEXD, 32) + f"-us{rng.randint(2, 21)}"


def h12_brevo_key(rng: random.Random) -> str:
    return f"xkeysib-{rnd(rng, HEXD, 64)}-{rnd(rng, AN, 16)}"


def h12_resend_key(rng: random.Random) -> str:
    return "re_" + rnd(rng, AN, 8) + "_" + rnd(rng, AN, 24)


def h12_postmark_token(rng: random.Random) -> str:
    return uuid4(rng)


def h12_groq_key(rng: random.Random) -> str:
    return "gsk_" + rnd(rng, AN, 52)


def h12_replicate_token(rng: random.Random) -> str:
    return "r8_" + rnd(rng, AN, 37)


def h12_perplexity_key(rng: random.Random) -> str:
    return "pplx-" + rnd(rng, AN, 48)


def h12_sentry_user_token(rng: random.Random) -> str:
    return "sntryu_" + rnd(rng, HEXD, 64)


def h12_datadog_api_key(rng: random.Random) -> str:
    return rnd(rng, HEXD, 32)


def h12_newrelic_user_key(rng: random.Random) -> str:
    return "NRAK-" + rnd(rng, UP + DIG, 27)


def h12_dynatrace_token(rng: random.Random) -> str:
    return f"dt0c01.{rnd(rng, UP + DIG, 24)}.{rnd(rng, UP + DIG, 64)}"


def h12_splunk_hec(rng: random.Random) -> str:
    return uuid4(rng)


def h12_elastic_api_key(rng: random.Random) -> str:
    return b64(f"{rnd(rng, URLS, 20)}:{rnd(rng, URLS, 22)}".encode())


def h12_contentful_pat(rng: random.Random) -> str:
    return "CFPAT-" + rnd(rng, URLS, 43)


def h12_hubspot_pat(rng: random.Random) -> str:
    return "pat-eu1-" + uuid4(rng)


def h12_airtable_pat(rng: random.Random) -> str:
    return f"pat{rnd(rng, AN, 14)}.{rnd(rng, HEXD, 64)}"


def h12_dropbox_token(rng: random.Random) -> str:
    return "sl.B" + rnd(rng, URLS, 134)


def h12_postman_key(rng: random.Random) -> str:
    return f"PMAK-{rnd(rng, HEXD, 24)}-{rnd(rng, HEXD, 34)}"


def h12_sonar_token(rng: random.Random) -> str:
    return "sqp_" + rnd(rng, HEXD, 40)


def h12_rubygems_key(rng: random.Random) -> str:
    return "rubygems_" + rnd(rng, HEXD, 48)


def h12_jfrog_token(rng: random.Random) -> str:
    return "cmVmdGtuOjAxOj" + rnd(rng, AN, 50)


def h12_okta_token(rng: random.Random) -> str:
    return "00" + rnd(rng, URLS, 40)


def h12_jenkins_token(rng: random.Random) -> str:
    return "11" + rnd(rng, HEXD, 32)


def h12_buildkite_token(rng: random.Random) -> str:
    return "bkua_" + rnd(rng, HEXD, 40)


def h12_matrix_token(rng: random.Random) -> str:
    return f"syt_{b64url(b'assistant').rstrip('=')}_{rnd(rng, AN, 20)}_{rnd(rng, AN, 6)}"


def h12_twitch_oauth(rng: random.Random) -> str:
    return rnd(rng, LO + DIG, 30)


def h12_hass_token(rng: random.Random) -> str:
    head = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = b64url(json.dumps({"iss": rnd(rng, HEXD, 32), "iat": 1_760_000_000}).encode())
    return f"{head}.{body}.{b64url(noise(rng, 32))}"


def h12_magic_link_token(rng: random.Random) -> str:
    return b64url(noise(rng, 32))


# --- clouds, infrastructure, keys ------------------------------------------------------------


def h12_cloudflare_tunnel(rng: random.Random) -> str:
    raw = json.dumps({"a": rnd(rng, HEXD, 32), "t": uuid4(rng), "s": b64(noise(rng, 32))})
    return b64(raw.encode())


def h12_cloudflare_global_key(rng: random.Random) -> str:
    return rnd(rng, HEXD, 37)


def h12_supabase_token(rng: random.Random) -> str:
    return "sbp_" + rnd(rng, HEXD, 40)


def h12_neon_key(rng: random.Random) -> str:
    return "napi_" + rnd(rng, LO + DIG, 64)


def h12_planetscale_password(rng: random.Random) -> str:
    return "pscale_pw_" + rnd(rng, URLS, 43)


def h12_doppler_token(rng: random.Random) -> str:
    return "dp.st.prd." + rnd(rng, AN, 40)


def h12_azure_devops_pat(rng: random.Random) -> str:
    return rnd(rng, AN, 76) + "AZDO" + rnd(rng, AN, 4)


def h12_azure_function_code(rng: random.Random) -> str:
    return b64url(noise(rng, 40)) + "=="


def h12_servicebus_key(rng: random.Random) -> str:
    return b64(noise(rng, 32))


def h12_aws_temp_key_id(rng: random.Random) -> str:
    return "ASIA" + rnd(rng, UP + "234567", 16)


def h12_aws_temp_secret(rng: random.Random) -> str:
    return rnd(rng, B64C, 40)


def h12_ses_smtp_password(rng: random.Random) -> str:
    return "B" + rnd(rng, B64C, 43)


def h12_alibaba_key_id(rng: random.Random) -> str:
    return "LTAI5t" + rnd(rng, AN, 18)


def h12_alibaba_secret(rng: random.Random) -> str:
    return rnd(rng, AN, 30)


def h12_hetzner_token(rng: random.Random) -> str:
    return rnd(rng, AN, 64)


def h12_b2_app_key(rng: random.Random) -> str:
    return "K00" + rnd(rng, AN + "/+", 28)


def h12_k8s_bootstrap(rng: random.Random) -> str:
    return f"{rnd(rng, LO + DIG, 6)}.{rnd(rng, LO + DIG, 16)}"


def h12_consul_token(rng: random.Random) -> str:
    return uuid4(rng)


def h12_vault_unseal(rng: random.Random) -> str:
    return b64(noise(rng, 33))


def h12_eth_private_key(rng: random.Random) -> str:
    return rnd(rng, HEXD, 64)


def h12_nostr_nsec(rng: random.Random) -> str:
    return "nsec1" + rnd(rng, BECH, 58)


def h12_btc_wif(rng: random.Random) -> str:
    return rng.choice("KL") + rnd(rng, B58, 51)


def h12_ec_private_body(rng: random.Random) -> str:
    raw = "MHcCAQEEI" + b64(noise(rng, 110))
    return "\n".join(raw[i : i + 64] for i in range(0, len(raw), 64))


def h12_putty_private_lines(rng: random.Random) -> str:
    raw = b64(noise(rng, 48))
    return "\n".join(raw[i : i + 64] for i in range(0, len(raw), 64))


def h12_session_id(rng: random.Random) -> str:
    return rnd(rng, LO + DIG, 26)


def h12_laravel_session(rng: random.Random) -> str:
    payload = {"iv": b64(noise(rng, 16)), "value": b64(noise(rng, 48)), "tag": ""}
    return b64(json.dumps(payload).encode()).replace("=", "%3D")
