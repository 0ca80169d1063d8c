"""Value makers of the fourth held-out scrub set (seed 40613), written by the judge4 track.

Written from the author's own knowledge of credential and identifier shapes, apart from the
scrubber's rules (not read) and from the earlier held-out and dev generators (not read). Every
maker takes a `random.Random` and returns one value. `h4_*` makers are secrets (credentials a
memory must not keep); `h4k_*` makers are content (identifiers and personal data that must
survive). The prefixes keep `__main__.maker` from finding an earlier maker of the same name.
"""

from __future__ import annotations

import base64
import random
import string

LOW = string.ascii_lowercase
UP = string.ascii_uppercase
DIG = string.digits
HEX = "0123456789abcdef"
ALNUM = LOW + UP + DIG
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"


def _r(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _luhn(digits: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            d -= 9 if d > 9 else 0
        total += d
    return digits + str((10 - total % 10) % 10)


# --- secrets ---------------------------------------------------------------------------
def h4_gh_oauth(rng: random.Random) -> str:
    return "gho_" + _r(rng, ALNUM, 36)


def h4_gh_server(rng: random.Random) -> str:
    return "ghs_" + _r(rng, ALNUM, 36)


def h4_gitlab_runner(rng: random.Random) -> str:
    return "glrt-" + _r(rng, ALNUM + "_-", 20)


def h4_gitlab_deploy(rng: random.Random) -> str:
    return "gldt-" + _r(rng, ALNUM, 20)


def h4_slack_user(rng: random.Random) -> str:
    n = [_r(rng, DIG, k) for k in (12, 12, 13)]
    return f"xoxp-{n[0]}-{n[1]}-{n[2]}-{_r(rng, HEX, 32)}"


def h4_slack_app(rng: random.Random) -> str:
    return f"xapp-1-A0{_r(rng, UP + DIG, 9)}-{_r(rng, DIG, 13)}-{_r(rng, HEX, 64)}"


def h4_openai_project(rng: random.Random) -> str:
    return "sk-proj-" + _r(rng, B64URL, 74) + "T3BlbkFJ" + _r(rng, B64URL, 74)


def h4_anthropic_admin(rng: random.Random) -> str:
    return "sk-ant-admin01-" + _r(rng, B64URL, 93) + "AA"


def h4_gcp_key(rng: random.Random) -> str:
    return "AIza" + _r(rng, B64URL, 35)


def h4_aws_session(rng: random.Random) -> str:
    return "FwoGZXIvYXdzE" + _r(rng, B64, 300)


def h4_aws_secret(rng: random.Random) -> str:
    return _r(rng, B64, 40)


def h4_azure_account_key(rng: random.Random) -> str:
    return _r(rng, B64, 86) + "=="


def h4_sentry_user(rng: random.Random) -> str:
    return "sntryu_" + _r(rng, HEX, 64)


def h4_linear(rng: random.Random) -> str:
    return "lin_api_" + _r(rng, ALNUM, 40)


def h4_doppler(rng: random.Random) -> str:
    return "dp.st.prd." + _r(rng, ALNUM, 43)


def h4_newrelic(rng: random.Random) -> str:
    return "NRAK-" + _r(rng, UP + DIG, 27)


def h4_databricks(rng: random.Random) -> str:
    return "dapi" + _r(rng, HEX, 32)


def h4_vault_batch(rng: random.Random) -> str:
    return "hvb." + _r(rng, B64URL, 120)


def h4_tailscale(rng: random.Random) -> str:
    return f"tskey-auth-k{_r(rng, ALNUM, 10)}CNTRL-{_r(rng, ALNUM, 33)}"


def h4_ngrok(rng: random.Random) -> str:
    return "2" + _r(rng, ALNUM, 26) + "_" + _r(rng, ALNUM, 21)


def h4_shopify_admin(rng: random.Random) -> str:
    return "shpat_" + _r(rng, HEX, 32)


def h4_docker_pat(rng: random.Random) -> str:
    return "dckr_pat_" + _r(rng, B64URL, 27)


def h4_rubygems(rng: random.Random) -> str:
    return "rubygems_" + _r(rng, HEX, 48)


def h4_figma(rng: random.Random) -> str:
    return f"figd_{_r(rng, B64URL, 40)}"


def h4_postman(rng: random.Random) -> str:
    return f"PMAK-{_r(rng, HEX, 24)}-{_r(rng, HEX, 34)}"


def h4_brevo(rng: random.Random) -> str:
    return f"xkeysib-{_r(rng, HEX, 64)}-{_r(rng, ALNUM, 16)}"


def h4_mailgun(rng: random.Random) -> str:
    return "key-" + _r(rng, HEX, 32)


def h4_vonage_secret(rng: random.Random) -> str:
    return _r(rng, ALNUM, 16)


def h4_jwt_refresh(rng: random.Random) -> str:
    head = "eyJhbGciOiJIUzUxMiIsInR5cCI6IkpXVCJ9"
    return f"{head}.eyJ{_r(rng, B64URL, 110)}.{_r(rng, B64URL, 86)}"


def h4_ec_key(rng: random.Random) -> str:
    body = "\n".join(_r(rng, B64, 64) for _ in range(2)) + "\n" + _r(rng, B64, 48)
    return f"-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI{body}\n-----END EC PRIVATE KEY-----"


def h4_pgp_key(rng: random.Random) -> str:
    body = "\n".join(_r(rng, B64, 64) for _ in range(5))
    return (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQVYBG"
        + body
        + "\n="
        + _r(rng, B64, 4)
        + "\n-----END PGP PRIVATE KEY BLOCK-----"
    )


def h4_password_typed(rng: random.Random) -> str:
    word = rng.choice(["Sommer", "Hafen", "Falke", "Winter", "Lindenhof", "Kaktus", "Nordwind"])
    return word + rng.choice(["!", "#", "$", "%", "&"]) + _r(rng, DIG, rng.choice([2, 4]))


def h4_password_strong(rng: random.Random) -> str:
    return _r(rng, ALNUM + "!#%&*+-=?@^~", rng.choice([18, 20, 24]))


def h4_wifi_psk(rng: random.Random) -> str:
    return _r(rng, LOW + DIG, 4) + "-" + _r(rng, LOW + DIG, 4) + "-" + _r(rng, LOW + DIG, 4)


def h4_sms_code(rng: random.Random) -> str:
    return str(rng.randint(100000, 999999))


def h4_banking_pin(rng: random.Random) -> str:
    return str(rng.randint(10000, 99999))


def h4_keybox_code(rng: random.Random) -> str:
    return str(rng.randint(1000, 9999))


def h4_spoken_pin(rng: random.Random) -> str:
    return " ".join(str(rng.randint(0, 9)) for _ in range(4))


def h4_bitlocker(rng: random.Random) -> str:
    return "-".join(_r(rng, DIG, 6) for _ in range(8))


def h4_app_password(rng: random.Random) -> str:
    return " ".join(_r(rng, LOW, 4) for _ in range(4))


def h4_apple_app_password(rng: random.Random) -> str:
    return "-".join(_r(rng, LOW, 4) for _ in range(4))


def h4_kubeadm_token(rng: random.Random) -> str:
    return _r(rng, LOW + DIG, 6) + "." + _r(rng, LOW + DIG, 16)


def h4_rails_master(rng: random.Random) -> str:
    return _r(rng, HEX, 32)


def h4_fernet(rng: random.Random) -> str:
    return _r(rng, B64URL, 43) + "="


def h4_laravel_key(rng: random.Random) -> str:
    return "base64:" + _r(rng, B64, 43) + "="


def h4_jenkins_token(rng: random.Random) -> str:
    return "11" + _r(rng, HEX, 32)


def h4_supabase_pat(rng: random.Random) -> str:
    return "sbp_" + _r(rng, HEX, 40)


def h4_planetscale(rng: random.Random) -> str:
    return "pscale_pw_" + _r(rng, B64URL, 43)


def h4_card_amex(rng: random.Random) -> str:
    raw = _luhn(rng.choice(["34", "37"]) + _r(rng, DIG, 12))
    return f"{raw[:4]} {raw[4:10]} {raw[10:]}"


def h4_uuid_token(rng: random.Random) -> str:
    h = _r(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def h4_basic_b64(rng: random.Random) -> str:
    user = rng.choice(["proxyuser", "svc-build", "scanner", "ops"])
    raw = f"{user}:{_r(rng, ALNUM, 14)}".encode()
    return base64.b64encode(raw).decode()


def h4_connect_sid(rng: random.Random) -> str:
    return "s%3A" + _r(rng, B64URL, 32) + "." + _r(rng, B64, 43)


def h4_vault_password(rng: random.Random) -> str:
    words = ["anker", "moos", "pixel", "tulpe", "regal", "quark", "zebra", "ofen", "birke"]
    return "-".join(rng.sample(words, 4)) + "-" + _r(rng, DIG, 2)


# --- content (must survive) ------------------------------------------------------------
def h4k_commit(rng: random.Random) -> str:
    return _r(rng, HEX, 40)


def h4k_jira(rng: random.Random) -> str:
    return rng.choice(["OPS", "PLAT", "PAY", "WEB", "SEC"]) + "-" + str(rng.randint(100, 9999))


def h4k_request_id(rng: random.Random) -> str:
    h = _r(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def h4k_iban(rng: random.Random) -> str:
    bban = _r(rng, DIG, 18)
    check = 98 - int(bban + "131400") % 97
    raw = f"DE{check:02d}{bban}"
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def h4k_phone(rng: random.Random) -> str:
    return rng.choice(["+49 151 ", "+49 30 ", "+43 664 ", "+41 79 "]) + _r(rng, DIG, 7)


def h4k_email(rng: random.Random) -> str:
    first = rng.choice(["lena", "tobias", "aylin", "marek", "sofia", "jonas", "priya", "ole"])
    last = rng.choice(["brandt", "yilmaz", "novak", "hoffmann", "schulte", "costa"])
    return f"{first}.{last}@{rng.choice(['kanzlei.example', 'werk.example.org', 'mail.example'])}"


def h4k_sg(rng: random.Random) -> str:
    return rng.choice(["sg-", "subnet-", "vpc-", "i-"]) + "0" + _r(rng, HEX, 16)


def h4k_ami(rng: random.Random) -> str:
    return "ami-0" + _r(rng, HEX, 16)


def h4k_sha256(rng: random.Random) -> str:
    return "sha256:" + _r(rng, HEX, 64)


def h4k_address(rng: random.Random) -> str:
    return "0x00007f" + _r(rng, HEX, 10)


def h4k_slack_ts(rng: random.Random) -> str:
    return f"17{_r(rng, DIG, 8)}.{_r(rng, DIG, 6)}"


def h4k_version(rng: random.Random) -> str:
    return f"{rng.randint(1, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 99)}"


def h4k_tracking(rng: random.Random) -> str:
    return "00340434" + _r(rng, DIG, 12)


def h4k_order(rng: random.Random) -> str:
    return f"{rng.choice(['BE', 'AU', 'RE'])}-2026-{_r(rng, DIG, 6)}"


def h4k_integrity(rng: random.Random) -> str:
    return "sha512-" + _r(rng, B64, 86) + "=="


def h4k_ssh_fingerprint(rng: random.Random) -> str:
    return "SHA256:" + _r(rng, B64, 43)


def h4k_k8s_uid(rng: random.Random) -> str:
    h = _r(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def h4k_booking(rng: random.Random) -> str:
    return _r(rng, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 6)


def h4k_flight(rng: random.Random) -> str:
    return rng.choice(["LH ", "OS ", "LX ", "EW "]) + str(rng.randint(100, 2999))


def h4k_mac(rng: random.Random) -> str:
    return ":".join(_r(rng, HEX, 2) for _ in range(6))


def h4k_ipv4(rng: random.Random) -> str:
    return f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"


def h4k_amount(rng: random.Random) -> str:
    return f"{rng.randint(12, 9800)},{rng.randint(0, 99):02d} €"


def h4k_date(rng: random.Random) -> str:
    return (
        f"{rng.randint(1, 28):02d}.{rng.randint(1, 12):02d}.{rng.choice([1968, 1979, 1985, 1992])}"
    )


def h4k_gpg_keyid(rng: random.Random) -> str:
    return _r(rng, HEX.upper(), 16)


def h4k_build(rng: random.Random) -> str:
    return "#" + str(rng.randint(1000, 99999))


def h4k_op_ref(rng: random.Random) -> str:
    vault = rng.choice(["Private", "Infra", "Team-Ops"])
    item = rng.choice(["GitHub", "Postgres prod", "Router", "AWS root"])
    return f"op://{vault}/{item}/{rng.choice(['password', 'credential', 'token'])}"


def h4k_customer(rng: random.Random) -> str:
    return "KD-" + _r(rng, DIG, 8)


def h4k_plate(rng: random.Random) -> str:
    return f"{rng.choice(['M', 'HH', 'B', 'K', 'S'])}-{_r(rng, UP, 2)} {rng.randint(10, 9999)}"


def h4k_image_b64(rng: random.Random) -> str:
    return "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA" + _r(rng, B64, 60)


def h4k_stack_hash(rng: random.Random) -> str:
    return _r(rng, HEX, 12)
