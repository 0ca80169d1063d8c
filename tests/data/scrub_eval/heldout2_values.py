"""Value makers of the second held-out set (issue 20, session 3): written apart from the
development rounds, by their own list of what agents' memories hold - payment and social
platforms, CI systems, config files of frameworks, national IDs of other countries. The
held-out templates use only these makers and the first round's `values`/`content` shapes
where a kind is the same; none of it may be tuned on.
"""

from __future__ import annotations

import base64
import random
import string

from tests.data.scrub_eval.values import B62, HEX, URLSAFE, _b64, pick

LOWER = string.ascii_lowercase
DIGITS = string.digits
LOWER_NUM = LOWER + DIGITS
UPPER = string.ascii_uppercase

# --- secrets ---------------------------------------------------------------------------------


def h_azure_devops_pat(rng: random.Random) -> str:
    return pick(rng, LOWER + "234567", 52)


def h_jenkins_token(rng: random.Random) -> str:
    return "11" + pick(rng, HEX, 32)


def h_algolia_admin(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h_contentful(rng: random.Random) -> str:
    return "CFPAT-" + pick(rng, URLSAFE, 43)


def h_dropbox(rng: random.Random) -> str:
    return "sl." + pick(rng, URLSAFE, 135)


def h_mollie(rng: random.Random) -> str:
    return "live_" + pick(rng, B62, 30)


def h_braintree(rng: random.Random) -> str:
    return f"access_token$production${pick(rng, LOWER_NUM, 16)}${pick(rng, HEX, 32)}"


def h_twitter_bearer(rng: random.Random) -> str:
    return "AAAAAAAAAAAAAAAAAAAAA" + pick(rng, B62 + "%", 80)


def h_facebook_token(rng: random.Random) -> str:
    return "EAAB" + pick(rng, B62, 180)


def h_binance(rng: random.Random) -> str:
    return pick(rng, B62, 64)


def h_telegram_api_hash(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


def h_cloudinary_secret(rng: random.Random) -> str:
    return pick(rng, URLSAFE, 27)


def h_wp_salt(rng: random.Random) -> str:
    chars = string.ascii_letters + DIGITS + "!@#$%^&*()-_[]{}<>~+=,.;:/?|"
    return pick(rng, chars, 64)


def h_k8s_secret_b64(rng: random.Random) -> str:
    word = rng.choice(["Winterreifen", "Mainz05", "Blaubeere", "quokka", "Nordsee"])
    return base64.b64encode(f"{word}{rng.randint(100, 999)}!".encode()).decode()


def h_kubeconfig_token(rng: random.Random) -> str:
    return pick(rng, LOWER_NUM, 6) + "." + pick(rng, LOWER_NUM, 16)


def h_git_credential_token(rng: random.Random) -> str:
    return "ghp_" + pick(rng, B62, 36)


def h_spring_password(rng: random.Random) -> str:
    return pick(rng, B62, rng.randint(12, 20))


def h_everyday_password(rng: random.Random) -> str:
    """What people type when asked for a password: names, years, keyboard walks, pets."""
    return rng.choice(
        [
            f"{rng.choice(['Mausi', 'Balu', 'Findus', 'Krümel'])}{rng.randint(1, 12):02d}"
            f"{rng.randint(60, 99)}",
            f"qwertz{rng.randint(100, 999)}",
            f"{rng.choice(['FCBayern', 'Borussia', 'HSV'])}{rng.randint(1900, 1999)}",
            f"{rng.choice(['Ostsee', 'Alpen', 'Toskana'])}-{rng.randint(2000, 2030)}",
            f"Ich{rng.choice(['Liebe', 'Mag'])}"
            f"{rng.choice(['Kaffee', 'Pizza'])}{rng.randint(1, 9)}",
        ]
    )


def h_pin_spoken(rng: random.Random) -> str:
    return pick(rng, DIGITS, rng.choice([4, 6]))


def h_api_key_vendorless(rng: random.Random) -> str:
    return pick(rng, LOWER_NUM, 40)


def h_snowflake_password(rng: random.Random) -> str:
    return pick(rng, B62, 10) + rng.choice("#!?") + pick(rng, DIGITS, 3)


def h_ssh_key_in_yaml(rng: random.Random) -> str:
    body = _b64(rng, 180)
    return (
        "-----BEGIN OPENSSH PRIVATE KEY-----\n    "
        + body[:70]
        + "\n    "
        + body[70:]
        + ("\n    -----END OPENSSH PRIVATE KEY-----")
    )


# --- content ---------------------------------------------------------------------------------


def h_pesel(rng: random.Random) -> str:
    return pick(rng, DIGITS, 11)


def h_personnummer(rng: random.Random) -> str:
    born = f"{rng.randint(50, 99)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
    return f"{born}-{pick(rng, DIGITS, 4)}"


def h_cpr(rng: random.Random) -> str:
    born = f"{rng.randint(1, 28):02d}{rng.randint(1, 12):02d}{rng.randint(50, 99)}"
    return f"{born}-{pick(rng, DIGITS, 4)}"


def h_pan_india(rng: random.Random) -> str:
    return pick(rng, UPPER, 5) + pick(rng, DIGITS, 4) + pick(rng, UPPER, 1)


def h_aadhaar(rng: random.Random) -> str:
    return " ".join(pick(rng, DIGITS, 4) for _ in range(3))


def h_cpf(rng: random.Random) -> str:
    d = pick(rng, DIGITS, 11)
    return f"{d[:3]}.{d[3:6]}.{d[6:9]}-{d[9:]}"


def h_sin_canada(rng: random.Random) -> str:
    return " ".join(pick(rng, DIGITS, 3) for _ in range(3))


def h_nif_pt(rng: random.Random) -> str:
    return rng.choice("12356") + pick(rng, DIGITS, 8)


def h_iban_more(rng: random.Random) -> str:
    country, length = rng.choice([("PL", 28), ("IT", 27), ("BE", 16), ("SE", 24), ("DK", 18)])
    body = (pick(rng, UPPER, 1) if country == "IT" else "") + pick(
        rng, DIGITS, length - 4 - (1 if country == "IT" else 0)
    )
    numeric = "".join(str(int(c, 36)) for c in body + country + "00")
    value = f"{country}{98 - int(numeric) % 97:02d}{body}"
    return (
        value if rng.random() < 0.5 else " ".join(value[i : i + 4] for i in range(0, len(value), 4))
    )


def h_phone_more(rng: random.Random) -> str:
    return rng.choice(
        [
            f"+48 {pick(rng, DIGITS, 3)} {pick(rng, DIGITS, 3)} {pick(rng, DIGITS, 3)}",
            f"+39 0{rng.randint(2, 99)} {pick(rng, DIGITS, 7)}",
            f"+46 (0)8-{pick(rng, DIGITS, 3)} {pick(rng, DIGITS, 2)} {pick(rng, DIGITS, 2)}",
            f"0{rng.randint(151, 179)}-{pick(rng, DIGITS, 8)}",
            f"+91 {pick(rng, DIGITS, 5)} {pick(rng, DIGITS, 5)}",
        ]
    )


def h_address_more(rng: random.Random) -> str:
    return rng.choice(
        [
            f"Via Roma {rng.randint(1, 200)}, 00184 Roma",
            f"ul. Marszałkowska {rng.randint(1, 150)}/{rng.randint(1, 40)}, 00-624 Warszawa",
            f"Drottninggatan {rng.randint(1, 99)}, 111 51 Stockholm",
            f"Calle Mayor {rng.randint(1, 90)}, 3º B, 28013 Madrid",
            f"Kaiserstraße {rng.randint(1, 150)}, 60311 Frankfurt am Main",
        ]
    )


def h_orcid(rng: random.Random) -> str:
    return (
        "0000-000"
        + str(rng.randint(1, 3))
        + "-"
        + pick(rng, DIGITS, 4)
        + "-"
        + pick(rng, DIGITS, 3)
        + rng.choice(DIGITS + "X")
    )


def h_doi(rng: random.Random) -> str:
    return f"10.{rng.randint(1000, 9999)}/{pick(rng, LOWER_NUM, 8)}.{rng.randint(2015, 2026)}"


def h_container_no(rng: random.Random) -> str:
    return rng.choice(["MSCU", "MAEU", "HLXU", "CMAU"]) + pick(rng, DIGITS, 7)


def h_amazon_order(rng: random.Random) -> str:
    return f"{pick(rng, DIGITS, 3)}-{pick(rng, DIGITS, 7)}-{pick(rng, DIGITS, 7)}"


def h_paypal_txn(rng: random.Random) -> str:
    return pick(rng, UPPER + DIGITS, 17)


def h_stripe_account(rng: random.Random) -> str:
    return "acct_" + pick(rng, B62, 16)


def h_ipv6(rng: random.Random) -> str:
    return "2001:db8:" + ":".join(pick(rng, HEX, 4) for _ in range(4)) + "::" + pick(rng, HEX, 3)


def h_docker_image_id(rng: random.Random) -> str:
    return pick(rng, HEX, 12)


def h_npm_shasum(rng: random.Random) -> str:
    return pick(rng, HEX, 40)


def h_kms_key_id(rng: random.Random) -> str:
    h = rng.randbytes(16).hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def h_wikidata(rng: random.Random) -> str:
    return "Q" + str(rng.randint(100, 99999999))


def h_random_slug(rng: random.Random) -> str:
    """A random share/invite slug of a web app (identifier, no credential)."""
    return pick(rng, B62, rng.choice([22, 26, 32]))


def h_b64_json_blob(rng: random.Random) -> str:
    payload = f'{{"page":{rng.randint(1, 99)},"sort":"created_at","filter":"open"}}'
    return base64.b64encode(payload.encode()).decode()
