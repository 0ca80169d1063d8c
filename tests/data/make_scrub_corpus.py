"""Generate `scrub_corpus.jsonl`, the labelled corpus of the secret scrubber (shared.scrubbing).

Run: .venv/bin/python tests/data/make_scrub_corpus.py           (rewrites the corpus)
     .venv/bin/python tests/data/make_scrub_corpus.py --check   (exit 1 if the file differs)

Every line is {"text": ..., "secrets": [{"kind": ..., "value": ...}], "lang": "de"|"en"};
hard negatives have "secrets": []. One seeded random.Random drives everything, so the output
is reproduced byte for byte (a test checks it).

All values are FAKE: drawn at random in the real formats (prefixes, lengths, charsets,
checksums: GitHub/npm tokens carry the CRC32 base62 checksum, cards pass Luhn, JWTs are
base64url JSON signed with HMAC-SHA256 under a random key, PEM bodies are random base64 behind
the real DER prefixes). None of them was ever issued by anyone.

Labelling policy, i.e. what the scrubber must remove and what it must leave alone:
* secrets: provider tokens and keys, private keys, passwords, PINs, passphrases and seed
  phrases, credentials in URLs and connection strings, Bearer/Basic credentials, card numbers,
  high-entropy values under secret-ish keys. `value` is exactly the part that must vanish
  (for a URL: the password; for a connection string: the key; for a PEM: the whole block).
* not secrets: identifiers and digests (UUIDs, commit SHAs, checksums named as such, ETags,
  trace ids, memory ids), customer/product/order/invoice numbers, IBANs (printed on every
  invoice; they are personal data, not credentials), phone numbers, dates, versions, paths,
  URLs without credentials, public keys and certificates, SSH fingerprints, base64 of prose,
  talk about passwords without one ("Passwort wurde zurückgesetzt"), references to a secret
  store (`op://...`, `${DB_PASSWORD}`), placeholders (`<YOUR_API_KEY>`, `sk_live_xxx`, `****`),
  documentation example keys (`AKIAIOSFODNN7EXAMPLE`) and card-shaped numbers that the text
  names as order/customer/invoice numbers.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import sys
import zlib
from collections.abc import Callable
from functools import partial
from pathlib import Path

SEED = 6_2024
OUT = Path(__file__).with_name("scrub_corpus.jsonl")

UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LOWER = "abcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789"
HEX = "0123456789abcdef"
B62 = DIGITS + UPPER + LOWER
B64 = UPPER + LOWER + DIGITS + "+/"
B64URL = UPPER + LOWER + DIGITS + "-_"
B32 = UPPER + "234567"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
PW_SYMBOLS = "!$%*#@?+-_=~^"

Secret = dict[str, str]
Entry = dict[str, object]


class Fake:
    """Fake values in real formats, all drawn from one seeded generator."""

    def __init__(self, rng: random.Random) -> None:
        self.r = rng

    def s(self, charset: str, n: int) -> str:
        return "".join(self.r.choice(charset) for _ in range(n))

    def b64(self, nbytes: int) -> str:
        return base64.b64encode(self.r.randbytes(nbytes)).decode()

    def b64url(self, nbytes: int) -> str:
        return base64.urlsafe_b64encode(self.r.randbytes(nbytes)).decode().rstrip("=")

    def uuid(self) -> str:
        h = self.s(HEX, 32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{self.r.choice('89ab')}{h[17:20]}-{h[20:]}"

    @staticmethod
    def base62(num: int, width: int) -> str:
        out = ""
        while num:
            num, rem = divmod(num, 62)
            out = B62[rem] + out
        return out.rjust(width, "0")

    def crc_token(self, prefix: str, body: int = 30) -> str:
        """GitHub/npm style: random base62 body + base62 CRC32 of the body (6 chars)."""
        rand = self.s(B62, body)
        return prefix + rand + self.base62(zlib.crc32(rand.encode()), 6)

    def luhn_card(self, prefix: str, length: int) -> str:
        digits = prefix + self.s(DIGITS, length - len(prefix) - 1)
        total = 0
        for i, ch in enumerate(reversed(digits)):
            d = int(ch)
            if i % 2 == 0:
                d = d * 2 - 9 if d * 2 > 9 else d * 2
            total += d
        return digits + str((10 - total % 10) % 10)

    def card(self) -> str:
        brand = self.r.choice(["visa", "visa", "mc", "mc2", "amex", "discover"])
        if brand == "amex":
            n = self.luhn_card(self.r.choice(["34", "37"]), 15)
            sep = self.r.choice([" ", "-", ""])
            return f"{n[:4]}{sep}{n[4:10]}{sep}{n[10:]}"
        prefix = {"visa": "4", "mc": f"5{self.r.randint(1, 5)}", "mc2": "2221", "discover": "6011"}
        n = self.luhn_card(prefix[brand], 16)
        sep = self.r.choice([" ", " ", "-", ""])
        return sep.join(n[i : i + 4] for i in range(0, 16, 4))

    def jwt(self) -> str:
        def enc(obj: dict[str, object]) -> str:
            raw = json.dumps(obj, separators=(",", ":")).encode()
            return base64.urlsafe_b64encode(raw).decode().rstrip("=")

        iat = 1_700_000_000 + self.r.randint(0, 30_000_000)
        head = enc({"alg": self.r.choice(["HS256", "HS512"]), "typ": "JWT"})
        body = enc(
            {
                "sub": f"nutzer-{self.r.randint(1, 9999)}",
                "tenant": self.r.choice(["acme", "muster-gmbh", "brain-dev"]),
                "scope": self.r.choice(["memories:read", "memories:write admin", "openid"]),
                "iat": iat,
                "exp": iat + 3600,
            }
        )
        key = self.r.randbytes(32)
        sig = hmac.new(key, f"{head}.{body}".encode(), hashlib.sha256).digest()
        return f"{head}.{body}.{base64.urlsafe_b64encode(sig).decode().rstrip('=')}"

    def password(self, style: str | None = None) -> str:
        style = style or self.r.choice(["word", "word", "random", "leet", "random"])
        if style == "word":
            word = self.r.choice(WORDS)
            sym = self.r.choice("!#$%*?@+")
            year = str(self.r.randint(1970, 2029))
            return self.r.choice(
                [f"{word}{year}{sym}", f"{word}{sym}{year[2:]}", f"{word}-{year}{sym}"]
            )
        if style == "leet":
            word = self.r.choice(WORDS).translate(str.maketrans("aeiost", "@3!05+"))
            return f"{word[0].upper()}{word[1:]}{self.r.randint(10, 999)}"
        first = self.s(UPPER + LOWER, 1)
        return first + self.s(UPPER + LOWER + DIGITS + PW_SYMBOLS, self.r.randint(11, 17)) + "9"

    def url_password(self) -> str:
        return self.s(UPPER + LOWER + DIGITS, 6) + self.r.choice("!$*@") + self.s(B62, 6)


WORDS = [
    "Sommer",
    "Winter",
    "Hamburg",
    "Katze",
    "Kaffee",
    "Bergwerk",
    "Falke",
    "Tulpe",
    "Sonnenblume",
    "Elbphilharmonie",
    "Brezel",
    "Orkan",
    "Eisbär",
    "Schwalbe",
    "Dragon",
    "Sunshine",
    "Maple",
    "Rocket",
    "Harbor",
    "Meadow",
    "Thunder",
    "Penguin",
    "Marmelade",
    "Fjord",
]
NAMES = [
    "Max Müller",
    "Erika Schmidt",
    "Jonas Weber",
    "Lea Fischer",
    "Tom Becker",
    "Sarah Klein",
    "Noah Wagner",
    "Mia Hoffmann",
    "Alex Carter",
    "Priya Shah",
    "Sam Lee",
    "Jordan Miles",
]
PROJECTS = [
    "Kundenportal",
    "Lagerverwaltung",
    "Billing",
    "CRM-Sync",
    "Webshop",
    "Data-Lake",
    "Ticketsystem",
    "Mobile-App",
    "Reporting",
    "Newsletter",
]
HOSTS = [
    "db.internal",
    "db-prod.firma.local",
    "10.0.4.12",
    "pg-01.cluster-x1.eu-central-1.rds.amazonaws.com",
    "cache.intra",
    "mq.firma.de",
    "mongo-0.mongo.svc.cluster.local",
]


class Ctx(dict[str, str]):
    """Fresh filler values (names, ids, dates) for one text."""

    def __init__(self, fake: Fake) -> None:
        r = fake.r
        day, month, year = r.randint(1, 28), r.randint(1, 12), r.randint(2023, 2026)
        super().__init__(
            name=r.choice(NAMES).split()[0],
            projekt=r.choice(PROJECTS),
            host=r.choice(HOSTS),
            kunde=f"K-{r.randint(1000, 9999)}",
            ticket=f"{r.choice(['SUP', 'OPS', 'IT', 'HELP'])}-{r.randint(100, 9999)}",
            datum=f"{day:02d}.{month:02d}.{year}",
            datum_en=f"{year}-{month:02d}-{day:02d}",
            zeit=f"{r.randint(6, 22):02d}:{r.choice(['00', '15', '30', '45'])}",
            user=r.choice(["admin", "deploy", "svc_backup", "max.mueller", "root", "ops"]),
            port=str(r.choice([5432, 3306, 27017, 6379, 5672, 1433])),
            memid=f"{r.choice(['longterm', 'shortterm', 'episodic'])}_{r.randint(1, 999)}",
        )


# --- positives: provider tokens (context-free formats) --------------------------------------

Gen = Callable[[Fake], str]
PROVIDERS: list[tuple[str, str, str, Gen]] = [
    (
        "aws_access_key",
        "AWS",
        "AWS_ACCESS_KEY_ID",
        lambda f: f.r.choice(["AKIA", "AKIA", "ASIA"]) + f.s(B32, 16),
    ),
    ("github_pat", "GitHub", "GITHUB_TOKEN", lambda f: f.crc_token("ghp_")),
    (
        "github_pat",
        "GitHub",
        "GH_TOKEN",
        lambda f: f"github_pat_11{f.s(UPPER + DIGITS, 20)}_{f.s(B62, 59)}",
    ),
    ("github_oauth", "GitHub OAuth", "GITHUB_OAUTH_TOKEN", lambda f: f.crc_token("gho_")),
    (
        "github_app_token",
        "GitHub App",
        "GITHUB_APP_TOKEN",
        lambda f: f.crc_token(f.r.choice(["ghs_", "ghu_"])),
    ),
    ("github_refresh_token", "GitHub", "GITHUB_REFRESH_TOKEN", lambda f: f.crc_token("ghr_", 70)),
    (
        "gitlab_token",
        "GitLab",
        "GITLAB_TOKEN",
        lambda f: f.r.choice(["glpat-", "glpat-", "gldt-", "glrt-"]) + f.s(B64URL, 20),
    ),
    (
        "slack_token",
        "Slack",
        "SLACK_BOT_TOKEN",
        lambda f: f"xoxb-{f.s(DIGITS, 11)}-{f.s(DIGITS, 13)}-{f.s(B62, 24)}",
    ),
    (
        "slack_token",
        "Slack",
        "SLACK_USER_TOKEN",
        lambda f: f"xoxp-{f.s(DIGITS, 11)}-{f.s(DIGITS, 11)}-{f.s(DIGITS, 13)}-{f.s(HEX, 32)}",
    ),
    (
        "stripe_live",
        "Stripe",
        "STRIPE_SECRET_KEY",
        lambda f: f.r.choice(["sk_live_", "rk_live_"]) + f.s(B62, f.r.choice([24, 99])),
    ),
    ("stripe_test", "Stripe (Test)", "STRIPE_TEST_KEY", lambda f: "sk_test_" + f.s(B62, 24)),
    (
        "stripe_webhook_secret",
        "Stripe Webhook",
        "STRIPE_WEBHOOK_SECRET",
        lambda f: "whsec_" + f.s(B62, 32),
    ),
    (
        "openai_key",
        "OpenAI",
        "OPENAI_API_KEY",
        lambda f: f.r.choice(
            [
                f"sk-proj-{f.s(B64URL, 156)}",
                f"sk-{f.s(B62, 20)}T3BlbkFJ{f.s(B62, 20)}",
                f"sk-svcacct-{f.s(B64URL, 74)}",
            ]
        ),
    ),
    (
        "anthropic_key",
        "Anthropic",
        "ANTHROPIC_API_KEY",
        lambda f: f"sk-ant-api03-{f.s(B64URL, 93)}AA",
    ),
    ("google_api_key", "Google", "GOOGLE_API_KEY", lambda f: "AIza" + f.s(B64URL, 35)),
    (
        "google_oauth_secret",
        "Google OAuth",
        "GOOGLE_CLIENT_SECRET",
        lambda f: "GOCSPX-" + f.s(B64URL, 28),
    ),
    ("google_oauth_token", "Google", "GOOGLE_ACCESS_TOKEN", lambda f: "ya29.a0" + f.s(B64URL, 150)),
    (
        "azure_client_secret",
        "Azure AD",
        "AZURE_CLIENT_SECRET",
        lambda f: f.s(B62, 3) + f.s(DIGITS, 1) + "Q~" + f.s(B62 + "_~.-", 34),
    ),
    ("npm_token", "npm", "NPM_TOKEN", lambda f: f.crc_token("npm_")),
    ("pypi_token", "PyPI", "PYPI_TOKEN", lambda f: "pypi-AgEIcHlwaS5vcmc" + f.b64url(110)),
    ("twilio_key", "Twilio", "TWILIO_API_KEY", lambda f: "SK" + f.s(HEX, 32)),
    (
        "sendgrid_key",
        "SendGrid",
        "SENDGRID_API_KEY",
        lambda f: f"SG.{f.s(B64URL, 22)}.{f.s(B64URL, 43)}",
    ),
    (
        "mailgun_key",
        "Mailgun",
        "MAILGUN_API_KEY",
        lambda f: f.r.choice(
            [f"key-{f.s(HEX, 32)}", f"{f.s(HEX, 32)}-{f.s(HEX, 8)}-{f.s(HEX, 8)}"]
        ),
    ),
    (
        "mailchimp_key",
        "Mailchimp",
        "MAILCHIMP_API_KEY",
        lambda f: f"{f.s(HEX, 32)}-us{f.r.randint(1, 21)}",
    ),
    (
        "shopify_token",
        "Shopify",
        "SHOPIFY_ACCESS_TOKEN",
        lambda f: f.r.choice(["shpat_", "shpss_", "shpca_"]) + f.s(HEX, 32),
    ),
    (
        "discord_token",
        "Discord",
        "DISCORD_BOT_TOKEN",
        lambda f: (
            base64.b64encode(str(f.r.randint(10**17, 10**18 - 1)).encode()).decode().rstrip("=")
            + f".{f.s(B64URL, 6)}.{f.s(B64URL, 38)}"
        ),
    ),
    (
        "telegram_bot_token",
        "Telegram",
        "TELEGRAM_BOT_TOKEN",
        lambda f: f"{f.r.randint(10**8, 10**10 - 1)}:AA{f.s(B64URL, 33)}",
    ),
    (
        "vault_token",
        "Vault",
        "VAULT_TOKEN",
        lambda f: f.r.choice(
            [f"hvs.CAESI{f.s(B64URL, 86)}", f"hvs.{f.s(B62, 24)}", f"s.{f.s(B62, 24)}"]
        ),
    ),
    ("docker_pat", "Docker Hub", "DOCKERHUB_TOKEN", lambda f: "dckr_pat_" + f.s(B64URL, 27)),
    ("hf_token", "Hugging Face", "HF_TOKEN", lambda f: "hf_" + f.s(UPPER + LOWER, 34)),
    (
        "digitalocean_token",
        "DigitalOcean",
        "DIGITALOCEAN_TOKEN",
        lambda f: f.r.choice(["dop_v1_", "doo_v1_"]) + f.s(HEX, 64),
    ),
    ("linear_key", "Linear", "LINEAR_API_KEY", lambda f: "lin_api_" + f.s(B62, 40)),
    (
        "atlassian_token",
        "Jira",
        "JIRA_API_TOKEN",
        lambda f: "ATATT3xFfGF0" + f.s(B64URL, 170) + "=" + f.s(HEX.upper(), 8),
    ),
    (
        "sentry_token",
        "Sentry",
        "SENTRY_AUTH_TOKEN",
        lambda f: "sntrys_eyJpYXQiOjE3" + f.s(B64, 140) + "_" + f.s(B64URL, 43),
    ),
    ("heroku_key", "Heroku", "HEROKU_API_KEY", lambda f: "HRKU-AA" + f.s(B64URL, 58)),
    (
        "databricks_token",
        "Databricks",
        "DATABRICKS_TOKEN",
        lambda f: "dapi" + f.s(HEX, 32) + f.r.choice(["", "-2", "-3"]),
    ),
    (
        "firebase",
        "Firebase FCM",
        "FCM_SERVER_KEY",
        lambda f: f"AAAA{f.s(B64URL, 7)}:APA91b{f.s(B64URL, 134)}",
    ),
    (
        "new_relic_key",
        "New Relic",
        "NEW_RELIC_API_KEY",
        lambda f: f.r.choice([f"NRAK-{f.s(UPPER + DIGITS, 27)}", f"{f.s(HEX, 36)}NRAL"]),
    ),
    (
        "square_token",
        "Square",
        "SQUARE_ACCESS_TOKEN",
        lambda f: f.r.choice([f"sq0csp-{f.s(B64URL, 43)}", f"EAAA{f.s(B64URL, 60)}"]),
    ),
    ("postman_key", "Postman", "POSTMAN_API_KEY", lambda f: f"PMAK-{f.s(HEX, 24)}-{f.s(HEX, 34)}"),
    ("grafana_token", "Grafana", "GRAFANA_TOKEN", lambda f: f"glsa_{f.s(B62, 32)}_{f.s(HEX, 8)}"),
    (
        "terraform_token",
        "Terraform Cloud",
        "TFE_TOKEN",
        lambda f: f"{f.s(B62, 14)}.atlasv1.{f.s(B64URL, 67)}",
    ),
    ("pulumi_token", "Pulumi", "PULUMI_ACCESS_TOKEN", lambda f: "pul-" + f.s(HEX, 40)),
    ("supabase_key", "Supabase", "SUPABASE_ACCESS_TOKEN", lambda f: "sbp_" + f.s(HEX, 40)),
    ("replicate_token", "Replicate", "REPLICATE_API_TOKEN", lambda f: "r8_" + f.s(B62, 37)),
    ("groq_key", "Groq", "GROQ_API_KEY", lambda f: "gsk_" + f.s(B62, 52)),
    ("notion_token", "Notion", "NOTION_TOKEN", lambda f: f"ntn_{f.s(DIGITS, 11)}{f.s(B62, 35)}"),
    (
        "mapbox_token",
        "Mapbox",
        "MAPBOX_SECRET_TOKEN",
        lambda f: f"sk.eyJ1IjoiZmlybWEiLCJhIjoi{f.s(B64URL, 30)}.{f.s(B64URL, 22)}",
    ),
    ("doppler_token", "Doppler", "DOPPLER_TOKEN", lambda f: "dp.st.prd." + f.s(B62, 40)),
    (
        "onepassword_token",
        "1Password",
        "OP_SERVICE_ACCOUNT_TOKEN",
        lambda f: "ops_eyJzaWduSW5BZGRyZXNzIjoi" + f.b64url(180),
    ),
    ("age_secret_key", "age", "SOPS_AGE_KEY", lambda f: "AGE-SECRET-KEY-1" + f.s(BECH32, 58)),
    ("jwt", "JWT", "ID_TOKEN", lambda f: f.jwt()),
]

PROVIDER_DE = [
    "Übergabe an {name}: Der {svc}-Key für {projekt} lautet {v}, bitte nach dem Go-live rotieren.",
    "Ticket {ticket}: Kunde {kunde} hat seinen {svc}-Token ins Chatfenster kopiert ({v}). "
    "Bitte sperren lassen!",
    "Merken: Der Deploy-Job für {projekt} nutzt {v} ({svc}), läuft am {datum} ab.",
    "{svc}-Zugang im Staging – {v} – nur bis {datum} gültig.",
    "Hab den Token aus dem alten Wiki gefunden: {v}",
]
PROVIDER_EN = [
    "Handover for {name}: the {svc} key for {projekt} is {v}; rotate it after go-live.",
    "Ticket {ticket}: customer {kunde} pasted their {svc} token into the chat ({v}). Revoke it!",
    "Remember: the {projekt} deploy job uses {v} ({svc}), expires {datum_en}.",
    "{svc} credentials for staging - {v} - valid until {datum_en}.",
    "Found this in an old runbook, still works: {v}",
]
PROVIDER_ENV = [
    "Notiz: In der .env von {projekt} steht {env}={v}",
    "CI variable set: {env}={v} (masked: no)",
    'config.json: {{"{envlow}": "{v}"}}',
    "export {env}='{v}'",
]


# --- positives with their own wording ------------------------------------------------------

# Each template: (lang, text). Slots: {v} the secret; {pw} passwords; {ak} an AWS key id
# (labelled too); context fillers from Ctx.
CONTEXT_KINDS: dict[str, tuple[Gen, list[tuple[str, str]]]] = {
    "aws_secret_key": (
        lambda f: f.b64(30),
        [
            ("de", "AWS-Zugang für den Export: Access Key {ak}, Secret {v}"),
            ("en", "aws_access_key_id = {ak}\naws_secret_access_key = {v}"),
            ("de", "AWS Secret Access Key vom Backup-User: {v}"),
            ("en", "export AWS_SECRET_ACCESS_KEY={v}"),
            ("en", "The AWS secret key is {v} - ask {name} before using it."),
        ],
    ),
    "aws_session_token": (
        lambda f: "IQoJb3JpZ2luX2VjE" + f.b64(270),
        [
            ("en", "AWS_SESSION_TOKEN={v}"),
            ("de", "Temporärer Session-Token (1h gültig): {v}"),
            ("en", "aws_session_token = {v}"),
        ],
    ),
    "twilio_key": (
        lambda f: f.s(HEX, 32),
        [
            ("en", "TWILIO_AUTH_TOKEN={v}"),
            ("de", "Twilio Auth Token für die SMS-Benachrichtigung: {v}"),
            ("en", "twilio auth token is {v}"),
        ],
    ),
    "datadog_key": (
        lambda f: f.s(HEX, f.r.choice([32, 40])),
        [
            ("en", "DD_API_KEY={v}"),
            ("de", "Datadog API Key für {projekt}: {v}"),
            ("en", "datadog app key = {v}"),
            ("de", "Im Helm-Values steht DD_APP_KEY: {v}"),
        ],
    ),
    "heroku_key": (
        lambda f: f.uuid(),
        [
            ("en", "HEROKU_API_KEY={v}"),
            ("de", "Heroku API Key (alt, Format UUID): {v}"),
            ("en", "heroku api key: {v}"),
        ],
    ),
    "sentry_dsn": (
        lambda f: f.s(HEX, 32),
        [
            ("en", "SENTRY_DSN=https://{v}@o{d6}.ingest.sentry.io/{d7}"),
            ("de", "Sentry DSN für {projekt}: https://{v}@o{d6}.ingest.us.sentry.io/{d7}"),
            ("en", "dsn: 'https://{v}@sentry.firma.de/{d2}'"),
        ],
    ),
    "slack_webhook": (
        lambda f: f"T{f.s(UPPER + DIGITS, 8)}/B{f.s(UPPER + DIGITS, 10)}/{f.s(B62, 24)}",
        [
            ("de", "Webhook für #alerts: https://hooks.slack.com/services/{v}"),
            ("en", "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/{v}"),
            (
                "de",
                "Benachrichtigungen gehen an https://hooks.slack.com/services/{v} (Kanal #ops).",
            ),
        ],
    ),
    "discord_webhook": (
        lambda f: f"{f.s(DIGITS, 18)}/{f.s(B64URL, 68)}",
        [
            ("en", "Post build results to https://discord.com/api/webhooks/{v}"),
            ("de", "Discord-Webhook: https://discordapp.com/api/webhooks/{v}"),
        ],
    ),
    "azure_connection_string": (
        lambda f: f.b64(64),
        [
            (
                "en",
                "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName="
                "{acct};AccountKey={v};EndpointSuffix=core.windows.net",
            ),
            (
                "de",
                "Service Bus: Endpoint=sb://{acct}.servicebus.windows.net/;SharedAccessKeyName="
                "RootManageSharedAccessKey;SharedAccessKey={v}",
            ),
            (
                "de",
                "Connection String vom Storage {acct}: DefaultEndpointsProtocol=https;"
                "AccountName={acct};AccountKey={v}",
            ),
        ],
    ),
    "azure_sas_token": (
        lambda f: f.b64(32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D"),
        [
            (
                "en",
                "Shared link: https://{acct}.blob.core.windows.net/exports/report.csv?sv=2022-11-02"
                "&ss=b&srt=o&sp=r&se=2025-01-01T00:00:00Z&sig={v}",
            ),
            (
                "de",
                "SAS-URL fürs Upload: https://{acct}.blob.core.windows.net/in?sp=racw&sv=2022-11-02"
                "&sr=c&sig={v}",
            ),
        ],
    ),
    "docker_auth": (
        lambda f: base64.b64encode(
            f"{f.r.choice(['ci', 'deploy', 'max'])}:{f.password('random')}".encode()
        ).decode(),
        [
            (
                "en",
                '~/.docker/config.json: {{"auths": {{"registry.gitlab.com": {{"auth": "{v}"}}}}}}',
            ),
            ("de", 'Docker-Config vom Build-Server: {{"auths":{{"ghcr.io":{{"auth":"{v}"}}}}}}'),
        ],
    ),
    "bearer_token": (
        lambda f: f.b64url(f.r.choice([24, 32, 48])),
        [
            ("en", "Authorization: Bearer {v}"),
            (
                "de",
                "Aufruf mit curl -H 'Authorization: Bearer {v}' https://api.{acct}.de/v2/orders",
            ),
            ("en", "Use header `Authorization: bearer {v}` for the export API."),
            ("de", "Der Bearer-Token {v} funktioniert nur im Staging."),
        ],
    ),
    "basic_auth": (
        lambda f: base64.b64encode(
            f"{f.r.choice(['api', 'admin', 'export'])}:{f.password()}".encode()
        ).decode(),
        [
            ("en", "Authorization: Basic {v}"),
            ("de", "Header für den Altsystem-Export: Authorization: Basic {v}"),
        ],
    ),
    "credit_card": (
        lambda f: f.card(),
        [
            ("de", "Firmenkreditkarte {v}, gültig bis 09/27 - nur für Cloud-Rechnungen."),
            ("de", "Kunde {kunde} hat seine Kartennummer am Telefon durchgegeben: {v}"),
            ("en", "Card number: {v}, exp 11/26"),
            ("en", "Customer paid with {v} - refund pending."),
            ("de", "Kreditkarte: {v}"),
            ("en", "Please charge the corporate Amex/Visa {v} for the renewal."),
        ],
    ),
    "pin": (
        lambda f: f.s(DIGITS, f.r.choice([4, 4, 5, 6])),
        [
            ("de", "Die PIN der Firmenkarte ist {v}."),
            ("de", "Türcode fürs Lager: {v}"),
            ("en", "Phone unlock PIN: {v}"),
            ("en", "The SIM PIN is {v}, PUK is in the drawer."),
            ("de", "Alarmcode lautet {v}, bitte nicht weitergeben."),
            ("de", "Tresor-PIN {v}, der Tresor steht im Keller."),
        ],
    ),
    "totp_secret": (
        lambda f: f.s(B32, 32),
        [
            ("en", "2FA setup: otpauth://totp/Portal:{user}?secret={v}&issuer=Portal"),
            ("de", "TOTP-Secret für den Admin-Login: {v}"),
        ],
    ),
    "wireguard_key": (
        lambda f: f.b64(32),
        [
            ("en", "[Interface]\nPrivateKey = {v}\nAddress = 10.8.0.{d2}/32"),
            ("de", "WireGuard-Config vom Laptop: PrivateKey = {v}"),
        ],
    ),
    "seed_phrase": (
        lambda f: " ".join(f.r.choice(BIP39) for _ in range(f.r.choice([12, 24]))),
        [
            ("en", "Seed phrase of the test wallet: {v}"),
            ("de", "Wiederherstellungsphrase: {v}"),
        ],
    ),
}
BIP39: list[str] = [
    "abandon",
    "ability",
    "absorb",
    "acid",
    "actor",
    "adapt",
    "alarm",
    "album",
    "alley",
    "amber",
    "anchor",
    "ankle",
    "apple",
    "arena",
    "artist",
    "aspect",
    "atom",
    "auction",
    "august",
    "avocado",
    "badge",
    "bamboo",
    "banner",
    "barrel",
    "basket",
    "beach",
    "blanket",
    "bridge",
    "brisk",
    "cabin",
    "cactus",
    "canal",
    "carbon",
    "castle",
    "cereal",
    "chalk",
    "cherry",
    "cinnamon",
    "clever",
    "coral",
    "cotton",
    "crystal",
    "dawn",
    "desert",
    "dolphin",
    "eagle",
    "echo",
    "elbow",
    "ember",
    "fabric",
    "falcon",
    "fiber",
    "galaxy",
    "garlic",
    "glacier",
    "harbor",
    "hazel",
    "island",
    "jungle",
    "kettle",
    "lantern",
    "lemon",
    "marble",
    "meadow",
    "nectar",
    "orbit",
    "oyster",
    "paddle",
    "pepper",
    "planet",
    "quartz",
    "raven",
    "rocket",
    "saddle",
    "velvet",
    "walnut",
    "zebra",
]

PASSWORD_TEMPLATES: list[tuple[str, str]] = [
    ("de", "Passwort: {pw}"),
    ("de", "Das Passwort für den Admin-Account lautet {pw}."),
    ("de", "Kennwort ist {pw}"),
    ("de", "WLAN-Passwort: „{pw}“ (Gäste-Netz im 2. OG)"),
    ("de", "pw={pw}"),
    ("de", "Datenbankpasswort = '{pw}'"),
    ("de", "Neues Passwort für {name}: {pw} – bitte beim ersten Login ändern."),
    ("de", "Das Passwort wurde auf {pw} zurückgesetzt."),
    ("de", "Passwort geändert auf {pw}, Ticket {ticket} geschlossen."),
    ("de", "Login mit Benutzer {user} und dem Passwort {pw} funktioniert wieder."),
    ("de", "Zugangsdaten: {user} / {pw}"),
    ("de", "Root-Passwort vom NAS: {pw}"),
    ("de", "Das Router-Kennwort lautet jetzt {pw}"),
    ("de", "{pw} ist das neue Passwort für das Kundenportal."),
    ("de", "Passwort (neu): {pw}"),
    ("de", "Das Passwort des Routers ist {pw}."),
    ("de", "Übergabe: Portal-Zugang {user}, Passwort {pw}, Rückfragen an {name}."),
    ("de", "Für den Testaccount gilt: Benutzer {user}, PW: {pw}"),
    ("de", "Kunde {kunde} meldet: sein Passwort lautet {pw} und funktioniert nicht mehr."),
    ("en", "password: {pw}"),
    ("en", "The password for the staging DB is {pw}"),
    ("en", "pwd: {pw}"),
    ("en", "DB_PASSWORD={pw}"),
    ("en", 'settings.json: {{"username": "{user}", "password": "{pw}"}}'),
    ("en", "admin password is {pw} (temporary)"),
    ("en", "Login with password {pw} worked after the reset."),
    ("en", "Password was reset to {pw} for {name}."),
    ("en", "Please set the password to {pw} and tell nobody."),
    ("en", "MYSQL_ROOT_PASSWORD={pw}"),
    ("en", "Ran mysqldump --user={user} --password={pw} {projekt} > dump.sql"),
    ("en", "<password>{pw}</password> is still in the old web.config"),
    ("en", "PW: {pw}"),
    ("en", "user: {user}, pass: {pw}"),
    ("en", "New password for the shared mailbox: {pw}."),
    ("en", 'password = "{pw}"'),
    ("de", "Passwort für ftp.{acct}.de: {pw}"),
    ("de", "Login-Daten für das CRM: {user} / {pw}"),
    ("de", "Zugang: {user}:{pw}"),
    ("de", "Passwort steht im Ticket {ticket}: {pw}"),
    ("en", "Use {pw} as the password for the kiosk account."),
    ("de", "WLAN-Schlüssel: {pw}"),
    ("en", "credentials {user}/{pw} (read-only)"),
    ("de", "Das Passwort ist: {pw}"),
    ("de", "PW ist {pw}"),
    ("en", "the wifi password's on the fridge: {pw}"),
    ("en", "Password:{pw}"),
    ("de", "Kennwort lautet: „{pw}“"),
    ("en", "For the VPN, password = {pw} and the OTP comes via SMS."),
    ("de", "Neues Kennwort (gültig 24h) für {name}: {pw}"),
    ("de", "Hab das Passwort geändert, neu: {pw}"),
    ("en", "login is {user} and {pw}, don't ask me why"),
    ("de", "Der Kollege hat mir {pw} als Zugang genannt."),
    ("de", "Passwort neu gesetzt -> {pw}"),
    ("en", "mysql -u {user} -p'{pw}' -h db01 {dbname}"),
    ("en", "redis-cli -h {host} -a {pw} ping"),
    ("de", "Passwort für's Gäste-WLAN ist {pw}"),
]
WEAK_PASSWORD_TEMPLATES: list[tuple[str, str, str]] = [
    ("de", "Passwort: {pw}", "changeme"),
    ("en", "password = {pw}", "changeme"),
    ("de", "Das Passwort lautet {pw}.", "geheim"),
    ("en", "ftp password: {pw}", "letmein"),
    ("de", "Kennwort: {pw}", "Sommer"),
]
PASSPHRASE_TEMPLATES: list[tuple[str, str]] = [
    ("en", "Passphrase: {v}."),
    ("de", "Passphrase für den GPG-Schlüssel: {v}"),
    ("en", 'ssh key passphrase = "{v}"'),
]
URL_TEMPLATES: list[tuple[str, str]] = [
    ("en", "DATABASE_URL=postgres://{user}:{v}@{host}:{port}/{dbname}"),
    ("de", "Verbindung zur Prod-DB: postgresql://{user}:{v}@{host}/{dbname}?sslmode=require"),
    ("en", "Mongo: mongodb+srv://{user}:{v}@cluster0.ab1cd.mongodb.net/{dbname}"),
    ("de", "Cache läuft über redis://:{v}@{host}:6379/0"),
    ("en", "amqp://{user}:{v}@{host}:5672/%2F"),
    ("de", "Die alte FTP-Adresse ftp://{user}:{v}@ftp.{acct}.de/upload nicht mehr nutzen."),
    ("en", "git remote set-url origin https://{user}:{v}@git.firma.de/{dbname}.git"),
    ("de", "JDBC: jdbc:mysql://{host}:3306/{dbname}?user={user}&password={v}&useSSL=true"),
    (
        "en",
        "Server=tcp:{acct}.database.windows.net,1433;Database={dbname};User ID={user};"
        "Password={v};Encrypt=True;",
    ),
    ("de", "SMTP: smtp://{user}@{acct}.de:{v}@mail.{acct}.de:587"),
    ("en", "Connection string: mysql://{user}:{v}@{host}:3306/{dbname}, read-only replica"),
    ("de", "Neuer Broker: amqps://{user}:{v}@mq.firma.de/vhost"),
]
GENERIC_TEMPLATES: list[tuple[str, str]] = [
    ("en", "client_secret: {v}"),
    ("en", "API_TOKEN={v}"),
    ("en", 'secret = "{v}"'),
    ("de", "Der API-Key für das Portal ist {v}."),
    ("de", "Schlüssel: {v}"),
    ("en", "api key: {v}"),
    ("en", "curl -H 'X-API-Key: {v}' https://api.{acct}.com/v1/items"),
    ("de", "Webhook-Secret für {projekt}: {v}"),
    ("en", "access_token={v}"),
    ("de", "Der Zugangsschlüssel lautet {v}"),
    ("en", "signing_key: {v}"),
    ("en", "PRIVATE-TOKEN: {v}"),
    ("de", "Token für die Schnittstelle zu {kunde}: {v}"),
    ("en", 'appsettings: {{"ApiKey": "{v}", "Timeout": 30}}'),
    ("en", "encryption key = {v}"),
    ("de", "Cloudflare API Token: {v}"),
    ("en", "The Okta API token is {v}"),
    ("de", "Geheimer Schlüssel vom Partner (secret): {v}"),
    ("en", "JWT_SECRET={v}"),
    ("de", "Bitte merken, Token lautet {v}"),
]
GENERIC_SPECIAL: list[tuple[str, str, Gen]] = [
    ("de", "Hier der Key: {v}", lambda f: f.s(HEX, 32)),
    ("en", "key = {v}", lambda f: f.s(B62, 40)),
    (
        "en",
        "DJANGO_SECRET_KEY = '{v}'",
        lambda f: "django-insecure-" + f.s(B62 + "!@#$%^&*(-_=+)", 50),
    ),
    ("en", "webhook_secret: '{v}'", lambda f: f.b64url(24)),
    ("de", "Der Schlüssel für die API lautet {v}", lambda f: f.s(HEX, 32)),
    ("en", 'token: "{v}"', lambda f: f.b64(33)),
    ("de", "Secret vom Partner-API ist {v}, gültig bis Jahresende.", lambda f: f.s(B62, 28)),
    ("de", "Api-Key {v}", lambda f: f.s(B62, 30)),
    ("en", "Here's the API token {v} for the staging tenant.", lambda f: f.b64url(30)),
]
GENERIC_VALUES: list[Gen] = [
    lambda f: f.s(B62, 32),
    lambda f: f.s(B62, 40),
    lambda f: f.b64url(32),
    lambda f: f.s(HEX, 64),
    lambda f: f.b64(32),
    lambda f: f.s(B62, 24),
]

# --- private keys ----------------------------------------------------------------------------

PEM_KINDS = [
    ("RSA PRIVATE KEY", "MIIEowIBAAKCAQEA", 10),
    ("PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ", 8),
    ("EC PRIVATE KEY", "MHcCAQEEI", 2),
    (
        "OPENSSH PRIVATE KEY",
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
        5,
    ),
    ("PGP PRIVATE KEY BLOCK", "lQVYBGR", 6),
]


def pem(fake: Fake, newline: str, truncate: bool = False) -> str:
    label, der_prefix, lines = fake.r.choice(PEM_KINDS)
    body = der_prefix + fake.s(B64, 64 * lines - len(der_prefix) + fake.r.randint(0, 40))
    rows = [body[i : i + 64] for i in range(0, len(body), 64)]
    if label.startswith("PGP"):
        rows = ["", *rows, "=" + fake.s(B64, 4)]
    if truncate:
        return newline.join([f"-----BEGIN {label}-----", *rows[:3]])
    return newline.join([f"-----BEGIN {label}-----", *rows, f"-----END {label}-----"])


PEM_TEMPLATES: list[tuple[str, str, str, bool]] = [
    ("de", "Der Deploy-Key für {projekt}:\n{v}\nBitte in den Vault verschieben.", "\n", False),
    ("en", "id_rsa from the old jump host:\n{v}", "\n", False),
    (
        "en",
        'service-account.json: {{"type": "service_account", "private_key": "{v}\\n", '
        '"client_email": "sync@{acct}.iam.gserviceaccount.com"}}',
        "\\n",
        False,
    ),
    ("de", "Im Chat gepostet (gekürzt): {v} …", "\n", True),
    ("en", 'key = "{v}" (truncated in the log)', "\\n", True),
    ("de", "SSH-Schlüssel für den Build-Server, bitte nicht weitergeben: {v}", "\n", False),
]


# --- negatives -------------------------------------------------------------------------------

NEGATIVES: list[tuple[str, str]] = [
    # talk about passwords, tokens and keys without one
    ("de", "Passwort wurde zurückgesetzt, Kunde {kunde} bekommt einen neuen Link per Mail."),
    ("de", "Hinweis vom Admin: das Passwort muss 12 Zeichen haben und eine Ziffer enthalten."),
    ("de", "Das Passwort ist abgelaufen, {name} hat ein Ticket ({ticket}) aufgemacht."),
    ("de", "Passwort: siehe Passwortmanager (Eintrag „{projekt} Prod“)."),
    ("de", "Das Passwort ist im Vault unter secret/data/{projekt}/db hinterlegt."),
    ("de", "Passwort-Reset für {name} erledigt am {datum}."),
    ("de", "Neues Passwort wurde per SMS verschickt, {name} bestätigt den Empfang."),
    ("de", "Kennwortrichtlinie: mindestens 12 Zeichen, keine Wiederholung der letzten 5."),
    ("de", "Die PIN muss 6 Stellen haben, sonst lehnt das Terminal sie ab."),
    ("de", "Die PIN ist 6-stellig und kommt per Brief."),
    ("de", "PIN-Eingabe: 3 Versuche, danach wird die Karte gesperrt."),
    ("de", "Token abgelaufen, Re-Login nötig (Fehler 401 um {zeit})."),
    ("de", "Das Token ist 24 Stunden gültig, danach neu anfordern."),
    ("de", "API-Key wurde am {datum} rotiert; der alte ist gesperrt."),
    ("de", "Der API-Key liegt in AWS Secrets Manager unter prod/{projekt}/api-key."),
    ("de", "Schlüsselübergabe an {name} am {datum}, Schlüssel liegt beim Empfang."),
    ("de", "Schlüssel: liegt beim Hausmeister in Raum 2.14"),
    ("de", "Anmeldung läuft über SSO (Azure AD), es gibt kein lokales Passwort mehr."),
    ("de", "Passwort vergessen? {name} hat den Self-Service-Link genutzt."),
    ("de", "Zugangsdaten: siehe Confluence-Seite „Onboarding {projekt}“."),
    ("de", "Das Passwort ist falsch, sagt das Portal seit {zeit}."),
    ("de", "Passwort-Manager: Bitwarden, Sammlung „Ops“."),
    ("de", "Das ist geheim: Kunde {kunde} wechselt im {datum} zum Wettbewerber."),
    ("de", "Kunde fragt, ob sein Passwort verschlüsselt gespeichert wird – ja, mit Argon2."),
    ("de", "Login: erfolgreich um {zeit}, keine Auffälligkeiten."),
    ("de", "Passwortänderung erzwingen für alle Nutzer von {projekt} ab {datum}."),
    ("de", "Das Kennwort ist zu kurz, mindestens 12 Zeichen."),
    ("de", "Das Passwort ist jetzt 16-stellig."),
    ("de", "Der Token ist noch gültig bis {datum}."),
    ("en", "The password is stored in the vault, ask {name} for access."),
    ("en", "Password reset link sent to the customer ({kunde}) at {zeit}."),
    ("en", "password is required for the admin panel; SSO is not enabled yet"),
    ("en", "Password: see 1Password, item '{projekt} staging'."),
    ("en", "The token expires in 3600 seconds, refresh it before the batch job."),
    ("en", "token_type: bearer, expires_in: 3600, scope: memories:read"),
    ("en", "Tokenizer: cl100k_base, max_tokens: 4096, temperature 0.2"),
    ("en", "secret_name: prod/db/credentials"),
    ("en", "API key rotation is scheduled for {datum_en}."),
    ("en", "The api key was revoked on {datum_en} after the incident."),
    ("en", "client secret expires on {datum_en}, renew it in the Entra portal"),
    ("en", "The secret to fast builds is caching the pip wheels."),
    ("en", "Password must be at least 12 characters and contain a digit."),
    ("en", "The password is 2FA-protected now."),
    ("en", "Login: failed 3 times for {user} at {zeit}"),
    ("en", "Token usage today: 1,284,000 tokens ({projekt})."),
    ("en", "password_hash: $2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW"),
    ("en", "The user changed their password yesterday; no action needed."),
    ("en", "Credentials: see the team vault, entry '{projekt}'."),
    ("en", "PIN must be 6 digits."),
    # placeholders and references
    ("de", "API_KEY=<YOUR_API_KEY> in die .env eintragen."),
    ("de", "Beispiel aus der Doku: STRIPE_KEY=sk_live_xxx"),
    ("de", "DB_PASSWORD=${{DB_PASSWORD}} kommt aus der CI-Variable."),
    ("de", "Passwort: ****"),
    ("de", "Im Log steht token=*** (maskiert)."),
    ("de", "Passwort: siehe op://Private/{projekt}/password"),
    ("en", "token: ${{{{ secrets.GITHUB_TOKEN }}}}"),
    ("en", "apiToken: {{{{ .Values.apiToken }}}} in the Helm chart"),
    ("en", "postgres://app:${{PGPASSWORD}}@{host}:5432/app"),
    ("en", "mysql://user:<password>@{host}/shop"),
    ("en", "Authorization: Bearer <token>"),
    ("en", "Authorization: Bearer $TOKEN"),
    ("en", "curl -u $API_USER:$API_PASS https://api.example.com/v1/export"),
    ("en", "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
    ("en", "Example from the AWS docs: AKIAIOSFODNN7EXAMPLE"),
    ("en", "OPENAI_API_KEY=sk-your-openai-api-key-here"),
    ("en", "password: changeme-placeholder"),
    ("en", "redis://:****@cache:6379/0"),
    ("en", "password = os.environ['DB_PASSWORD']"),
    ("en", "api_key: <insert key here>"),
    ("de", "Der Key sieht aus wie sk_live_... und gehört in den Vault, nicht ins Memory."),
    ("de", "Kubernetes: secretKeyRef name=db-credentials key=password"),
    ("en", "The password has been redacted: [REDACTED]"),
    ("en", "pwd: /home/{user}/projects/{projekt}"),
    # identifiers, digests, numbers
    ("de", "Memory {memid} aktualisiert: Kunde {kunde} bevorzugt Lieferung dienstags."),
    ("de", "Commit {sha40} behebt den Fehler im Export."),
    ("en", "Fixed in {sha7}, see PR #{d3}."),
    ("de", "sha256: {sha256} – Prüfsumme des Release-Archivs stimmt."),
    ("de", "MD5 der Datei: {md5}"),
    ("en", "SHA-1 checksum {sha40} matches the vendor's download page."),
    ("en", "Docker image digest: sha256:{sha256}"),
    ("en", "Request-ID {uuid} failed with 502 at {zeit}."),
    ("de", "Tenant-ID {uuid}, Subscription {uuid2}"),
    ("en", "client_id: {uuid} (public, used by the SPA)"),
    ("en", 'ETag: "{md5}"'),
    ("de", "Trace-ID {hex32} im Grafana-Dashboard ansehen."),
    ("de", "Artikel {artnr} ist nachbestellt, Bestellnummer {order}."),
    ("de", "IBAN {iban}, BIC COBADEFFXXX – Rechnung R-{d5} bezahlt."),
    ("en", "Refund to IBAN {iban} approved by {name}."),
    ("de", "Telefon {phone}, erreichbar ab {zeit}."),
    ("en", "Call back {phone} after {zeit}."),
    ("de", "Version {version} deployt am {datum} um {zeit}."),
    ("en", "Upgraded {projekt} from {version} to {version2}."),
    ("de", "Die Donaudampfschifffahrtsgesellschaftskapitänsmütze liegt im Fundbüro."),
    ("de", "Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz gilt nicht mehr."),
    ("de", "Pfad: /var/lib/brain/{projekt}/exports/{datum_en}.csv"),
    ("en", "Logs are under C:\\Users\\{user}\\AppData\\Local\\Brain\\logs"),
    ("de", "Bild-Hash (pHash) {hex16}, Duplikat von IMG_{d4}.jpg"),
    ("de", "base64 von „Hallo Welt, wie geht's?“ ist SGFsbG8gV2VsdCwgd2llIGdlaHQncz8="),
    ("en", "The payload was base64: VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw=="),
    ("de", "Kartennummer endet auf {d4}, Kunde möchte eine neue Karte."),
    ("de", "Sendungsnummer 00340434{d10}{d2}"),
    ("de", "Kundennummer {kunde}, Vertragsnummer V-{year}-{d5}"),
    ("de", "Bestellnummer: {luhn16}"),
    ("en", "Order no. {luhn16} shipped today."),
    ("en", "Invoice number {nonluhn} is overdue."),
    ("de", "Öffentlicher SSH-Schlüssel: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b43} {user}@laptop"),
    (
        "en",
        "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE{b64_60}\n{b64_28}==\n"
        "-----END PUBLIC KEY-----",
    ),
    ("en", "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU{b64_44}\n-----END CERTIFICATE-----"),
    ("de", "SSH-Fingerprint des Servers: SHA256:{b43}"),
    ("en", "git remote: git@github.com:firma/{projekt}.git"),
    ("de", "Repo liegt unter ssh://git@git.firma.de:2222/{projekt}.git"),
    ("de", "Portal: https://{acct}.firma.de/portal/login?next=/dashboard&lang=de"),
    ("en", "Docs: https://docs.example.com/api/v2/auth#tokens (section 'Rotating keys')"),
    ("en", "http://localhost:8787/mcp and http://127.0.0.1:9000/health are the local endpoints"),
    ("de", "Die Datei liegt in s3://brain-exports/{datum_en}/{projekt}/report.parquet"),
    ("en", "AWS account 123456789012, role arn:aws:iam::123456789012:role/Deploy"),
    ("de", "Region eu-central-1, Bucket brain-prod-backups, Lifecycle 30 Tage."),
    ("en", "Stripe customer cus_{b14} and price price_1{b23} belong to {kunde}."),
    ("en", "Slack channel C0{u9} and user U0{u8} for the alerts."),
    ("de", "YouTube-Video {b11} zeigt das Onboarding."),
    ("en", "blurhash LEHV6nWB2yk8pyo0adR*.7kCMdnj for the product image"),
    ("de", "Build-ID {datum_en}.{d1}-{sha7}, Pipeline grün."),
    ("en", "Uhrzeit {zeit}, Raum 3.14, Termin am {datum_en}T{zeit}:00Z"),
    ("de", "Farbe im Design-System: #{hex6}, Hover #{hex6b}"),
    ("en", "Key fingerprint = {fpr}"),
    ("de", "Lizenz für {projekt} verlängert bis {datum}, Kosten 1.240,00 €."),
    ("en", "npm integrity: sha512-{b86}=="),
    ("de", "Seriennummer des Routers: {u4}-{u4b}-{u4c}"),
    ("en", "Gift card balance for {kunde}: 50 EUR, expires {datum_en}"),
    ("de", "Der Wert {hex40} ist der Git-Tree-Hash, kein Schlüssel."),
    ("en", "commit: {sha40}\nauthor: {name}\ndate: {datum_en}"),
    ("de", "Das neue Feature heißt „SmartSync“, Release {version}."),
    ("en", "Ran the migration 20240612_add_tokens_table.py, 3 tables touched."),
    ("de", "Geheimtipp von {name}: das Café im 3. OG hat die beste Brezel."),
    ("en", "Memory {memid} merged into {memid2} (duplicate)."),
    ("de", "Zahlungsziel 14 Tage, Skonto 2 %, Kunde {kunde}, Beleg {order}."),
    ("en", "Tracking number 1Z999AA1{d10}, carrier UPS."),
    ("de", "IMEI des Diensthandys: 35{d13}"),
    ("en", "sort key: created_at, partition key: tenant_id"),
    ("en", "primary key: (tenant_id, memory_id)"),
    ("en", "public_key: MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE{b64_60}"),
    ("en", "tokenProvider: DefaultAzureCredential"),
    ("en", "token_hash: {sha256}"),
    ("en", "secretArn: arn:aws:secretsmanager:eu-central-1:123456789012:secret:prod/db-{b14}"),
    ("de", "Der Key ist im Tresor, Fach {d2}."),
    ("en", "The key takeaway: {projekt} needs a cache."),
    ("en", "api_key_name: portal-prod-{year}"),
    ("de", "Token-Endpunkt: https://login.microsoftonline.com/{uuid}/oauth2/v2.0/token"),
    ("en", "KMS key ARN: arn:aws:kms:eu-central-1:123456789012:key/{uuid}"),
    ("en", "x-request-id: {uuid}"),
    ("en", "secret: false, required: true"),
    ("de", "Der geheime Schlüssel wurde im HSM erzeugt und verlässt es nie."),
    ("en", "Bearer token required for /v2/export."),
    ("en", "Basic auth is disabled on the new gateway."),
    ("de", "Die Geheimzahl bekommt der Kunde separat per Post."),
    ("en", "Stripe test card 4242 4242 4242 4242 works in staging."),
    ("de", "Testkarte 4111 1111 1111 1111 im Sandbox-Modus verwenden."),
    ("en", "key: longterm_{d3}"),
    ("de", "Schlüssel-ID: {uuid}"),
    ("en", "encryption_key_id: {uuid}"),
    ("de", "Lizenzschlüssel-Format: XXXXX-XXXXX-XXXXX-XXXXX"),
    ("en", "Password hint: name of first pet"),
    ("de", "Passwort-Hinweis: Geburtsort der Mutter"),
    ("de", "Passwort ändern unter https://{acct}.firma.de/account/security"),
    ("en", "pass: 3 of 5 checks, fail: 2"),
    ("de", "WLAN-Name: Firma-Gast, Passwort am Empfang erfragen."),
    ("en", "The password policy requires rotation every 90 days."),
    ("de", "In Version {version} wurde das Passwort-Feld auf 64 Zeichen erweitert."),
    ("en", "Password123 is on the banned password list now."),
    ("de", "IBAN kompakt: {iban_compact}"),
    ("de", "Passwort per Telefon durchgegeben, nicht notiert."),
    ("en", "Reminder: never paste tokens into memories; use the vault reference instead."),
    ("de", "Seit 2021 gilt PIN-Pflicht für alle Kartenzahlungen."),
    ("en", "API key rotation happens every 90 days."),
    ("en", "mysql -u {user} -p -h db01 {dbname}  (asks for the password)"),
    ("en", "redis-cli -h {host} ping"),
    ("de", "Passwort neu gesetzt -> siehe Mail von {name}"),
    ("de", "Die PIN 1234 ist als Trivial-PIN gesperrt."),
]


def iban(fake: Fake) -> str:
    bban = fake.s(DIGITS, 18)
    check = 98 - int(bban + "131400") % 97
    raw = f"DE{check:02d}{bban}"
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def add_fillers(ctx: Ctx, fake: Fake) -> None:
    r = fake.r
    not_luhn = fake.luhn_card("4", 16)
    not_luhn = not_luhn[:-1] + str((int(not_luhn[-1]) + 3) % 10)
    ctx.update(
        uuid=fake.uuid(),
        uuid2=fake.uuid(),
        sha40=fake.s(HEX, 40),
        hex40=fake.s(HEX, 40),
        sha7=fake.s(HEX, 7),
        sha256=fake.s(HEX, 64),
        md5=fake.s(HEX, 32),
        hex32=fake.s(HEX, 32),
        hex16=fake.s(HEX, 16),
        hex6=fake.s(HEX, 6),
        hex6b=fake.s(HEX, 6),
        artnr=f"ART-{r.randint(2019, 2026)}-{r.randint(1, 9999):04d}",
        order=f"{r.randint(300, 309)}-{fake.s(DIGITS, 7)}-{fake.s(DIGITS, 7)}",
        iban=iban(fake),
        phone=r.choice(
            [
                f"+49 30 {fake.s(DIGITS, 7)}",
                f"0151 {fake.s(DIGITS, 8)}",
                f"+49 (0)89 {fake.s(DIGITS, 3)} {fake.s(DIGITS, 4)}-0",
            ]
        ),
        version=f"v{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 20)}",
        version2=f"{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 20)}",
        d1=fake.s(DIGITS, 1),
        d2=fake.s(DIGITS, 2),
        d3=fake.s(DIGITS, 3),
        d4=fake.s(DIGITS, 4),
        d5=fake.s(DIGITS, 5),
        d6=fake.s(DIGITS, 6),
        d7=fake.s(DIGITS, 7),
        d10=fake.s(DIGITS, 10),
        d13=fake.s(DIGITS, 13),
        year=str(r.randint(2020, 2026)),
        b43=fake.b64(32).rstrip("="),
        b64_60=fake.s(B64, 60),
        b64_28=fake.s(B64, 28),
        b64_44=fake.s(B64, 44),
        b86=fake.s(B64, 86),
        b14=fake.s(B62, 14),
        b23=fake.s(B62, 23),
        b11=fake.s(B64URL, 11),
        u9=fake.s(UPPER + DIGITS, 9),
        u8=fake.s(UPPER + DIGITS, 8),
        u4=fake.s(UPPER + DIGITS, 4),
        u4b=fake.s(UPPER + DIGITS, 4),
        u4c=fake.s(UPPER + DIGITS, 4),
        luhn16=fake.luhn_card("4", 16),
        nonluhn=not_luhn,
        fpr=" ".join(fake.s(HEX.upper(), 4) for _ in range(10)),
        memid2=f"longterm_{r.randint(1000, 1999)}",
        iban_compact=iban(fake).replace(" ", ""),
        acct=r.choice(["brainstore01", "firmaexport", "muster", "acme-data"]),
        dbname=r.choice(["brain", "shop", "crm", "billing"]),
    )


# --- assembly --------------------------------------------------------------------------------


def leaks(value: str, text: str) -> bool:
    """The value, or any 8-character piece of it, is in `text`."""
    if value in text:
        return True
    return any(value[i : i + 8] in text for i in range(max(0, len(value) - 7)))


def entry(text: str, secrets: list[Secret], lang: str) -> Entry | None:
    """The corpus line, or None when a value is not cleanly separable from its text."""
    rest = text
    for s in sorted(secrets, key=lambda s: -len(s["value"])):
        if s["value"] not in rest:
            return None
        rest = rest.replace(s["value"], "\0")
    if any(leaks(s["value"], rest) for s in secrets):
        return None
    return {"text": text, "secrets": secrets, "lang": lang}


Made = tuple[str, list[Secret], str]
Make = Callable[[Ctx], Made]


def const(value: str) -> Callable[[], str]:
    return partial(str, value)


def negative(template: str, lang: str, c: Ctx) -> Made:
    return template.format(**c), [], lang


class Builder:
    def __init__(self, seed: int = SEED) -> None:
        self.fake = Fake(random.Random(seed))  # fake data, not crypto
        self.r = self.fake.r
        self.entries: list[Entry] = []

    def ctx(self) -> Ctx:
        ctx = Ctx(self.fake)
        add_fillers(ctx, self.fake)
        return ctx

    def add(self, make: Callable[[Ctx], tuple[str, list[Secret], str]], tries: int = 20) -> bool:
        for _ in range(tries):
            e = entry(*make(self.ctx()))
            if e is not None and e not in self.entries:
                self.entries.append(e)
                return True
        if tries > 1:
            raise RuntimeError("could not build a clean entry")
        return False

    def providers(self) -> None:
        for kind, svc, env, gen in PROVIDERS:
            picks = [("de", t) for t in self.r.sample(PROVIDER_DE, 2)]
            picks += [("en", t) for t in self.r.sample(PROVIDER_EN, 2)]
            picks.append((self.r.choice(["de", "en"]), self.r.choice(PROVIDER_ENV)))
            for lang, template in picks:

                def make(
                    c: Ctx,
                    t: str = template,
                    lang: str = lang,
                    row: tuple[str, str, str, Gen] = (kind, svc, env, gen),
                ) -> tuple[str, list[Secret], str]:
                    k, label, var, g = row
                    v = g(self.fake)
                    text = t.format(**c, v=v, svc=label, env=var, envlow=var.lower())
                    return text, [{"kind": k, "value": v}], lang

                self.add(make)

    def context_kinds(self) -> None:
        for kind, (gen, templates) in CONTEXT_KINDS.items():
            for lang, template in templates:

                def make(
                    c: Ctx, t: str = template, lang: str = lang, k: str = kind, g: Gen = gen
                ) -> tuple[str, list[Secret], str]:
                    v = g(self.fake)
                    secrets = [{"kind": k, "value": v}]
                    ak = ""
                    if "{ak}" in t:
                        ak = "AKIA" + self.fake.s(B32, 16)
                        secrets.insert(0, {"kind": "aws_access_key", "value": ak})
                    return t.format(**c, v=v, ak=ak), secrets, lang

                self.add(make)

    def single(
        self, kind: str, lang: str, template: str, value: Callable[[], str], slot: str = "v"
    ) -> Make:
        """A text from `template` with one secret, drawn by `value` when the text is made."""

        def make(c: Ctx) -> Made:
            v = value()
            return template.format(**c, **{slot: v}), [{"kind": kind, "value": v}], lang

        return make

    def passwords(self) -> None:
        for lang, template in PASSWORD_TEMPLATES:
            self.add(self.single("password", lang, template, self.fake.password, "pw"))
        for lang, template, weak in WEAK_PASSWORD_TEMPLATES:
            self.add(self.single("password", lang, template, const(weak), "pw"))
        for lang, template in PASSPHRASE_TEMPLATES:
            phrase = " ".join(self.r.sample(BIP39, 4))
            self.add(self.single("password", lang, template, const(phrase)))

    def urls(self) -> None:
        for lang, template in URL_TEMPLATES:
            self.add(self.single("url_credentials", lang, template, self.fake.url_password))

    def generic(self) -> None:
        for lang, template in GENERIC_TEMPLATES:
            gen = self.r.choice(GENERIC_VALUES)
            self.add(self.single("generic_secret", lang, template, partial(gen, self.fake)))

    def generic_special(self) -> None:
        for lang, template, gen in GENERIC_SPECIAL:
            self.add(self.single("generic_secret", lang, template, partial(gen, self.fake)))

    def private_keys(self) -> None:
        for lang, template, newline, truncate in PEM_TEMPLATES:
            for _ in range(2):
                value = partial(pem, self.fake, newline, truncate)
                self.add(self.single("private_key", lang, template, value))

    def mixed(self) -> None:
        """Texts with several secrets of different kinds, as handover notes have them."""
        for _ in range(4):

            def make(c: Ctx) -> tuple[str, list[Secret], str]:
                pw, gh = self.fake.password(), self.fake.crc_token("ghp_")
                sk = "sk_live_" + self.fake.s(B62, 24)
                text = (
                    f"Übergabe {c['projekt']} an {c['name']}: Admin-Login {c['user']}, "
                    f"Passwort: {pw}; GitHub-Token {gh}; Stripe-Key {sk}. Danke!"
                )
                return (
                    text,
                    [
                        {"kind": "password", "value": pw},
                        {"kind": "github_pat", "value": gh},
                        {"kind": "stripe_live", "value": sk},
                    ],
                    "de",
                )

            self.add(make)
        for _ in range(3):

            def make_en(c: Ctx) -> tuple[str, list[Secret], str]:
                url_pw, jwt = self.fake.url_password(), self.fake.jwt()
                text = (
                    f"Incident {c['ticket']}: app used postgres://{c['user']}:{url_pw}@"
                    f"{c['host']}/brain and a hard-coded session {jwt} (commit "
                    f"{c['sha7']}). Both rotated at {c['zeit']}."
                )
                return (
                    text,
                    [{"kind": "url_credentials", "value": url_pw}, {"kind": "jwt", "value": jwt}],
                    "en",
                )

            self.add(make_en)

    def negatives(self) -> None:
        for lang, template in NEGATIVES:
            for _ in range(3):
                if not self.add(partial(negative, template, lang), 1):
                    break

    def build(self) -> list[Entry]:
        self.providers()
        self.context_kinds()
        self.passwords()
        self.urls()
        self.generic()
        self.generic_special()
        self.private_keys()
        self.mixed()
        self.negatives()
        self.r.shuffle(self.entries)
        return self.entries


def render(seed: int = SEED) -> str:
    """The corpus file's exact content."""
    lines = (json.dumps(e, ensure_ascii=False) for e in Builder(seed).build())
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    content = render()
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == content
        print("corpus is up to date" if same else "corpus differs from the generator")
        return 0 if same else 1
    OUT.write_text(content, encoding="utf-8")
    entries = [json.loads(line) for line in content.splitlines()]
    negatives = sum(not e["secrets"] for e in entries)
    kinds = {s["kind"] for e in entries for s in e["secrets"]}
    print(
        f"wrote {OUT.name}: {len(entries)} texts, {negatives} negatives "
        f"({negatives / len(entries):.0%}), {len(kinds)} kinds"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
