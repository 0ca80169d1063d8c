"""Content makers of the third development round: values that must survive scrubbing.

National identifiers with their check digits where the standard has one (FR NIR, BE
Rijksregisternummer, AT SV-Nummer, CZ rodné číslo, IE PPS, FI HETU, NO fødselsnummer, AU TFN,
MX CURP, BR CNPJ, TR T.C. Kimlik, DE Steuer-ID and Rentenversicherungsnummer), phones and
addresses of more countries, public client ids (OAuth client ids are not secrets), lock-file
and package hashes, W3C trace contexts, ticket numbers, version strings, file references.
"""

from __future__ import annotations

import base64
import random
import string

from tests.data.scrub_eval.dev3_values import dashed
from tests.data.scrub_eval.values import B62, HEX, UPPER_NUM, URLSAFE, pick

DIGITS = string.digits


def _num(rng: random.Random, n: int) -> str:
    return pick(rng, DIGITS, n)


def fr_nir(rng: random.Random) -> str:
    body = f"{rng.choice('12')}{rng.randint(40, 99)}{rng.randint(1, 12):02d}"
    body += f"{rng.randint(1, 95):02d}" + _num(rng, 6)
    key = 97 - int(body) % 97
    return f"{body[0]} {body[1:3]} {body[3:5]} {body[5:7]} {body[7:10]} {body[10:13]} {key:02d}"


def be_rrn(rng: random.Random) -> str:
    yy, mm, dd, seq = rng.randint(50, 99), rng.randint(1, 12), rng.randint(1, 28), _num(rng, 3)
    body = f"{yy:02d}{mm:02d}{dd:02d}{seq}"
    return f"{yy:02d}.{mm:02d}.{dd:02d}-{seq}.{97 - int(body) % 97:02d}"


def at_svnr(rng: random.Random) -> str:
    return f"{_num(rng, 4)} {rng.randint(1, 28):02d}{rng.randint(1, 12):02d}{rng.randint(50, 99)}"


def cz_rodne(rng: random.Random) -> str:
    month = rng.randint(1, 12) + rng.choice([0, 50])
    return f"{rng.randint(50, 99)}{month:02d}{rng.randint(1, 28):02d}/{_num(rng, 4)}"


def ie_pps(rng: random.Random) -> str:
    return _num(rng, 7) + rng.choice(string.ascii_uppercase) + rng.choice(["", "A", "W"])


def fi_hetu(rng: random.Random) -> str:
    date = f"{rng.randint(1, 28):02d}{rng.randint(1, 12):02d}{rng.randint(50, 99)}"
    ind = _num(rng, 3)
    return f"{date}-{ind}{'0123456789ABCDEFHJKLMNPRSTUVWXY'[int(date + ind) % 31]}"


def no_fnr(rng: random.Random) -> str:
    return f"{rng.randint(1, 28):02d}{rng.randint(1, 12):02d}{rng.randint(50, 99)} {_num(rng, 5)}"


def au_tfn(rng: random.Random) -> str:
    return f"{_num(rng, 3)} {_num(rng, 3)} {_num(rng, 3)}"


def mx_curp(rng: random.Random) -> str:
    up = string.ascii_uppercase
    return (
        pick(rng, up, 4)
        + f"{rng.randint(50, 99)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
        + rng.choice("HM")
        + rng.choice(["DF", "JC", "NL", "MC"])
        + pick(rng, "BCDFGHJKLMNPQRSTVWXZ", 3)
        + rng.choice(DIGITS + up)
        + rng.choice(DIGITS)
    )


def br_cnpj(rng: random.Random) -> str:
    n = _num(rng, 8) + "0001" + _num(rng, 2)
    return f"{n[:2]}.{n[2:5]}.{n[5:8]}/{n[8:12]}-{n[12:]}"


def tr_tckn(rng: random.Random) -> str:
    return str(rng.randint(1, 9)) + _num(rng, 10)


def de_steuer_id(rng: random.Random) -> str:
    n = str(rng.randint(1, 9)) + _num(rng, 10)
    return f"{n[:2]} {n[2:5]} {n[5:8]} {n[8:]}"


def de_rvnr(rng: random.Random) -> str:
    letter = rng.choice("ABDGHKMSW")
    date = f"{rng.randint(1, 28):02d}{rng.randint(1, 12):02d}{rng.randint(50, 99)}"
    return f"{rng.randint(10, 89)} {date} {letter} {_num(rng, 3)}"


def phone_more(rng: random.Random) -> str:
    return rng.choice(
        [
            f"+33 6 {_num(rng, 2)} {_num(rng, 2)} {_num(rng, 2)} {_num(rng, 2)}",
            f"+32 470 {_num(rng, 2)} {_num(rng, 2)} {_num(rng, 2)}",
            f"+420 {_num(rng, 3)} {_num(rng, 3)} {_num(rng, 3)}",
            f"+353 87 {_num(rng, 3)} {_num(rng, 4)}",
            f"+61 4{_num(rng, 2)} {_num(rng, 3)} {_num(rng, 3)}",
            f"(0{_num(rng, 3)}) {_num(rng, 6)}",
            f"0{rng.randint(151, 179)}/{_num(rng, 7)}",
        ]
    )


def address_more(rng: random.Random) -> str:
    return rng.choice(
        [
            f"{rng.randint(1, 120)} rue de la République, {rng.randint(10, 95)}000 Lyon",
            f"Rue Neuve {rng.randint(1, 90)}, 1000 Bruxelles",
            f"Vinohradská {rng.randint(1, 200)}/{rng.randint(1, 40)}, 120 00 Praha 2",
            f"{rng.randint(1, 60)} Harcourt Street, Dublin 2, D02 {pick(rng, UPPER_NUM, 4)}",
            f"{rng.randint(1, 300)} George St, Sydney NSW 2000",
            f"Mannerheimintie {rng.randint(1, 80)} A {rng.randint(1, 20)}, 00100 Helsinki",
            f"Karl-Marx-Allee {rng.randint(1, 140)}, 10243 Berlin",
        ]
    )


def google_client_id(rng: random.Random) -> str:
    name = pick(rng, string.ascii_lowercase + DIGITS, 32)
    return f"{_num(rng, 12)}-{name}.apps.googleusercontent.com"


def github_client_id(rng: random.Random) -> str:
    return "Iv1." + pick(rng, HEX, 16)


def traceparent(rng: random.Random) -> str:
    return f"00-{pick(rng, HEX, 32)}-{pick(rng, HEX, 16)}-01"


def pip_hash(rng: random.Random) -> str:
    return "sha256:" + pick(rng, HEX, 64)


def go_sum_hash(rng: random.Random) -> str:
    return "h1:" + base64.b64encode(bytes(rng.randrange(256) for _ in range(32))).decode()


def ticket_id(rng: random.Random) -> str:
    return rng.choice(
        [
            f"INC{_num(rng, 7)}",
            f"CHG{_num(rng, 7)}",
            f"SR-{_num(rng, 6)}",
            f"#{rng.randint(1000, 99999)}",
        ]
    )


def version_string(rng: random.Random) -> str:
    return rng.choice(
        [
            f"{rng.randint(1, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 20)}"
            f"-rc.{rng.randint(1, 5)}+build.{rng.randint(1, 999)}",
            f"v{rng.randint(2022, 2026)}.{rng.randint(1, 12)}.{rng.randint(0, 9)}",
            f"6.{rng.randint(1, 12)}.0-{rng.randint(10, 99)}-generic",
            f"{rng.randint(120, 140)}.0.{rng.randint(6000, 7000)}.{rng.randint(10, 200)}",
        ]
    )


def aktenzeichen(rng: random.Random) -> str:
    chamber = rng.choice(["O", "C", "S", "Ca"])
    return f"{rng.randint(1, 30)} {chamber} {rng.randint(1, 999)}/{rng.randint(20, 26)}"


def apple_team_id(rng: random.Random) -> str:
    return pick(rng, UPPER_NUM, 10)


def aws_account_id(rng: random.Random) -> str:
    return _num(rng, 12)


def bitcoin_txid(rng: random.Random) -> str:
    return pick(rng, HEX, 64)


def did_plc(rng: random.Random) -> str:
    return "did:plc:" + pick(rng, "abcdefghijklmnopqrstuvwxyz234567", 24)


def yt_playlist(rng: random.Random) -> str:
    return "PL" + pick(rng, URLSAFE, 32)


def k8s_uid(rng: random.Random) -> str:
    return dashed(pick(rng, HEX, 32))


def stripe_ids(rng: random.Random) -> str:
    return rng.choice(["pi_", "cus_", "evt_", "in_", "price_"]) + pick(rng, B62, 24)
