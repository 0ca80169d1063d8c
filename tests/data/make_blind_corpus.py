# ruff: noqa: E501  (template lines are data; splitting them hurts reading)
"""Generator of the BLIND scrub corpus (tests/data/scrub_blind.jsonl).

The third corpus, and the only one nobody has tuned on: written from scratch in one sitting,
with templates and value builders of its own, without reading the other two corpora or their
generators. Its numbers were measured and committed before any change to the scrubber was
made with it in view (see tests/unit/test_scrub_corpus.py for the gate and the history).

Scenes agents store: incident timelines, onboarding hand-overs, customer calls, pull-request
reviews, shell history, .env / YAML / JSON snippets, support e-mails, on-call notes; German and
English, about half each. Roughly 45 % negatives, most of them hard: commit and image digests,
checksums, UUIDs, Stripe/AWS/Slack object IDs (not credentials), ticket and order numbers,
IBANs, package integrity strings, ARNs, camel-case identifiers, placeholders, talk about
passwords and rotation without a value.

All values are fake, built at run time from a seeded RNG (no token-shaped literal in git).
Line format: {"text": ..., "secrets": [{"kind": ..., "value": ...}], "lang": "de"|"en"}.

Run: python tests/data/make_blind_corpus.py > tests/data/scrub_blind.jsonl
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid
from collections.abc import Callable

SEED = 73011130
AZ = string.ascii_letters
AN = string.ascii_letters + string.digits
UP = string.ascii_uppercase + string.digits
HX = "0123456789abcdef"

R = random.Random


def s(rng: R, chars: str, n: int) -> str:
    return "".join(rng.choice(chars) for _ in range(n))


def rand_mixed(rng: R, chars: str, n: int) -> str:
    while True:
        v = s(rng, chars, n)
        if (
            any(c.isupper() for c in v)
            and any(c.islower() for c in v)
            and any(c.isdigit() for c in v)
        ):
            return v


# --- secrets ---------------------------------------------------------------------------------

NOUNS_DE = [
    "Apfel",
    "Dackel",
    "Leuchtturm",
    "Schnee",
    "Mond",
    "Zirkus",
    "Karotte",
    "Wald",
    "Donner",
    "Hafen",
]
NOUNS_EN = [
    "lantern",
    "Badger",
    "Saturn",
    "pickle",
    "Thunder",
    "willow",
    "Rocket",
    "marble",
    "Cobalt",
    "Pirate",
]
SYMBOLS = "!#$%&*?@+-"


def human_password(rng: R) -> str:
    word = rng.choice(NOUNS_DE + NOUNS_EN)
    form = rng.randrange(6)
    if form == 0:
        return f"{word}{rng.randrange(10, 99)}{rng.choice(SYMBOLS)}"
    if form == 1:
        return f"{rng.choice(SYMBOLS)}{word.capitalize()}{rng.randrange(1990, 2026)}"
    if form == 2:
        return f"{word[:3]}{rng.randrange(100, 999)}{word[3:].upper()}"
    if form == 3:
        return (
            word.replace("a", "4").replace("e", "3").replace("o", "0")
            + str(rng.randrange(1, 9))
            + rng.choice(SYMBOLS)
        )
    if form == 4:
        return rand_mixed(rng, AN + "!#%", rng.randrange(10, 17))
    return f"{word}-{rng.choice(NOUNS_EN)}-{rng.randrange(10, 99)}"


def pin(rng: R) -> str:
    while True:
        v = str(rng.randrange(1000, 999999)).zfill(rng.choice([4, 6]))[:6]
        if len(set(v)) > 2 and not v.startswith(("19", "20")):
            return v


def luhn_complete(prefix: str, length: int, rng: R) -> str:
    body = prefix + s(rng, "0123456789", length - len(prefix) - 1)
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return body + str((10 - total % 10) % 10)


def b64url(obj: dict[str, object]) -> str:
    return (
        base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode())
        .decode()
        .rstrip("=")
    )


def jwt(rng: R) -> str:
    head = b64url({"alg": rng.choice(["RS256", "HS256", "ES256"]), "typ": "JWT"})
    body = b64url({"sub": f"u{rng.randrange(10**6)}", "iat": 1760000000 + rng.randrange(10**6)})
    return f"{head}.{body}.{s(rng, AN + '-_', 43)}"


def pem(rng: R) -> str:
    lines = [s(rng, AN + "+/", 64) for _ in range(rng.randrange(3, 6))]
    label = rng.choice(["RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY"])
    return (
        f"-----BEGIN {label}-----\n"
        + "\n".join(lines)
        + f"\n{s(rng, AN, 20)}==\n-----END {label}-----"
    )


BUILDERS: dict[str, Callable[[R], str]] = {
    "aws_access_key": lambda r: rng_choice(r, ["AKIA", "ASIA"]) + s(r, UP, 16),
    "aws_secret_key": lambda r: rand_mixed(r, AN + "+/", 40),
    "github_pat": lambda r: "ghp_" + rand_mixed(r, AN, 36),
    "github_app_token": lambda r: "ghs_" + rand_mixed(r, AN, 36),
    "gitlab_token": lambda r: "glpat-" + rand_mixed(r, AN + "-_", 20),
    "slack_token": lambda r: (
        f"xoxb-{s(r, '0123456789', 11)}-{s(r, '0123456789', 12)}-{rand_mixed(r, AN, 24)}"
    ),
    "slack_webhook": lambda r: f"T{s(r, UP, 10)}/B{s(r, UP, 10)}/{rand_mixed(r, AN, 24)}",
    "stripe_live": lambda r: "sk_live_" + rand_mixed(r, AN, 32),
    "stripe_webhook_secret": lambda r: "whsec_" + rand_mixed(r, AN, 32),
    "openai_key": lambda r: "sk-proj-" + rand_mixed(r, AN + "-_", 64),
    "anthropic_key": lambda r: "sk-ant-api03-" + rand_mixed(r, AN + "-_", 93) + "AA",
    "google_api_key": lambda r: "AIza" + rand_mixed(r, AN + "-_", 35),
    "npm_token": lambda r: "npm_" + rand_mixed(r, AN, 36),
    "hf_token": lambda r: "hf_" + s(r, AZ, 34),
    "sendgrid_key": lambda r: f"SG.{rand_mixed(r, AN + '-_', 22)}.{rand_mixed(r, AN + '-_', 43)}",
    "jwt": jwt,
    "private_key": pem,
    "password": human_password,
    "pin": pin,
    "generic_secret": lambda r: rand_mixed(r, AN, r.choice([24, 32, 40])),
    "high_entropy": lambda r: rand_mixed(r, AN + "+/", 44),
    "credit_card": lambda r: luhn_complete(r.choice(["4", "51", "55", "53"]), 16, r),
    "totp_secret": lambda r: s(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 32),
    "vault_token": lambda r: "hvs." + rand_mixed(r, AN, 90),
    "docker_pat": lambda r: "dckr_pat_" + rand_mixed(r, AN + "-_", 27),
    "url_credentials": human_password,
    "bearer_token": lambda r: rand_mixed(r, AN + "-_.", 48),
}


def rng_choice(rng: R, items: list[str]) -> str:
    return rng.choice(items)


def fmt_card(number: str, rng: R) -> str:
    if rng.random() < 0.5:
        return " ".join(number[i : i + 4] for i in range(0, 16, 4))
    return number


# --- positive templates: (lang, kinds, template) ---------------------------------------------
# {0}, {1}, ... are the secrets in the order of kinds; {who}, {sys}, {when} are neutral fillers.

POSITIVE: list[tuple[str, tuple[str, ...], str]] = [
    (
        "de",
        ("password",),
        "Notiz aus dem Kundentelefonat mit {who}: das Admin-Passwort vom Router ist {0}, bitte nach dem Termin ändern.",
    ),
    (
        "de",
        ("password",),
        "Übergabe {sys}: Benutzer service_backup, Kennwort {0} (läuft Ende {when} ab).",
    ),
    (
        "de",
        ("password",),
        "{who} hat das Passwort für {sys} auf {0} gesetzt, weil das alte gesperrt war.",
    ),
    ("de", ("password",), "Zugang für die Agentur: Login agentur@example.org, Passwort: {0}"),
    ("de", ("password",), "WLAN im Büro Köln\nSSID: Gaeste-5G\nWLAN-Schlüssel: {0}"),
    (
        "de",
        ("password",),
        "Laut {who} lautet das neue Datenbankpasswort {0} – bitte nicht in Slack posten.",
    ),
    ("de", ("password",), "Für den Testlauf am {when}: DB_PASSWORD={0}"),
    ("de", ("password",), "PW vom Synology-NAS: {0}"),
    ("de", ("password",), "Ich hab das Kennwort von {sys} jetzt auf {0} umgestellt."),
    ("de", ("pin",), "Die PIN für das Diensthandy von {who} lautet {0}."),
    ("de", ("pin",), "Tresor im Serverraum: Zugangscode {0}, nur im Notfall benutzen."),
    (
        "de",
        ("credit_card",),
        "Firmenkreditkarte für AWS-Rechnungen: {0}, Ablauf 11/28, Inhaber {who}.",
    ),
    (
        "de",
        ("aws_access_key", "aws_secret_key"),
        "Backup-Skript auf {sys} nutzt\nAWS_ACCESS_KEY_ID={0}\nAWS_SECRET_ACCESS_KEY={1}",
    ),
    ("de", ("aws_secret_key",), "{who} hat mir den Secret Access Key geschickt: {0}"),
    (
        "de",
        ("github_pat",),
        "Der Deploy-Job auf {sys} scheitert, weil der Token {0} abgelaufen ist – bitte neuen erzeugen.",
    ),
    ("de", ("gitlab_token",), "Runner-Registrierung: git config mit Token {0} im CI hinterlegt."),
    ("de", ("slack_token",), "Der Bot für #alerts meldet sich mit {0} an."),
    ("de", ("slack_webhook",), "Alarm-Webhook für {sys}: https://hooks.slack.com/services/{0}"),
    ("de", ("stripe_live",), "Zahlungsanbindung produktiv: STRIPE_SECRET_KEY={0}"),
    (
        "de",
        ("openai_key",),
        "Für das Zusammenfassen der Tickets nehmen wir den Schlüssel {0} aus dem Team-Account.",
    ),
    ("de", ("anthropic_key",), "export ANTHROPIC_API_KEY={0} in der .zshrc von {who} gefunden"),
    ("de", ("jwt",), "Beim Debuggen von {sys} war im Header: Authorization: Bearer {0}"),
    ("de", ("private_key",), "Schlüssel für den Bastion-Host (bitte sicher ablegen):\n{0}"),
    ("de", ("url_credentials",), "Verbindung: postgresql://reporting:{0}@db-{sys}.intern:5432/kpi"),
    ("de", ("generic_secret",), "Das Client-Secret für die SSO-Anbindung ist {0}."),
    ("de", ("generic_secret",), "api_key: {0}  # von {who} am {when} erzeugt"),
    (
        "de",
        ("high_entropy",),
        "{who} hat mir per Signal den Schlüssel geschickt: {0} – gilt für {sys}.",
    ),
    ("de", ("totp_secret",), "2FA-Einrichtung: otpauth://totp/{sys}:{who}?secret={0}&issuer={sys}"),
    ("de", ("password", "pin"), "Zugangsdaten Hausmeister: Passwort {0}, Alarmanlage PIN {1}."),
    ("de", ("npm_token",), "In der .npmrc steht //registry.npmjs.org/:_authToken={0}"),
    ("de", ("vault_token",), "Vault-Root-Token nach dem Unseal: {0}"),
    (
        "de",
        ("password",),
        '{{\\"user\\": \\"svc\\", \\"passwort\\": \\"{0}\\"}} stand im Log von {sys}',
    ),
    ("de", ("password",), "Passw\u200bort für {sys}: {0}"),
    ("de", ("docker_pat",), "docker login -u ci-bot mit {0} auf dem Build-Server"),
    (
        "en",
        ("password",),
        "Call notes with {who}: the admin password for {sys} is {0}, change it after go-live.",
    ),
    ("en", ("password",), "Handover: service account svc-etl, password {0} (expires {when})."),
    ("en", ("password",), "{who} reset the {sys} password to {0} because the old one was locked."),
    ("en", ("password",), "Login for the contractor: contractor@example.org / {0}"),
    ("en", ("password",), "Guest Wi-Fi password: {0}"),
    ("en", ("password",), "FYI the new root password is {0} - don't paste it anywhere."),
    ("en", ("password",), "MYSQL_ROOT_PASSWORD={0}"),
    ("en", ("password",), "I changed the {sys} password to {0} this morning."),
    ("en", ("password",), "pwd for the staging box: {0}"),
    ("en", ("pin",), "Door code for the server room is {0}."),
    ("en", ("pin",), "{who}'s phone PIN: {0} (needed for the MDM wipe)"),
    ("en", ("credit_card",), "Corporate card for the SaaS renewals: {0} exp 04/29"),
    (
        "en",
        ("aws_access_key", "aws_secret_key"),
        "~/.aws/credentials on {sys}:\naws_access_key_id = {0}\naws_secret_access_key = {1}",
    ),
    ("en", ("aws_access_key",), "Found {0} hard-coded in the Lambda environment of {sys}."),
    ("en", ("github_pat",), "Use {0} to clone the private repo until the deploy key is set up."),
    (
        "en",
        ("github_app_token",),
        "git remote set-url origin https://x-access-token:{0}@github.com/acme/{sys}.git",
    ),
    ("en", ("gitlab_token",), "CI variable GITLAB_TOKEN={0} was visible in the job log."),
    ("en", ("slack_token",), "Slack bot token for the standup reminder: {0}"),
    ("en", ("stripe_webhook_secret",), "Stripe signing secret for the billing webhook: {0}"),
    ("en", ("openai_key",), "OPENAI_API_KEY={0}"),
    ("en", ("google_api_key",), "The Maps embed on the landing page uses {0}."),
    ("en", ("hf_token",), "huggingface-cli login --token {0}"),
    ("en", ("sendgrid_key",), "Transactional mail goes out through SendGrid with key {0}."),
    ("en", ("jwt",), "Repro: curl -H 'Authorization: Bearer {0}' https://api.{sys}.dev/v2/me"),
    ("en", ("private_key",), "Deploy key for {sys} (rotate after the migration):\n{0}"),
    ("en", ("url_credentials",), "REDIS_URL=redis://default:{0}@cache-{sys}.internal:6379/0"),
    ("en", ("generic_secret",), "The OAuth client secret for {sys} is {0}."),
    ("en", ("generic_secret",), 'webhook_secret: "{0}"'),
    ("en", ("high_entropy",), "{who} sent this over chat for the {sys} integration: {0}"),
    ("en", ("bearer_token",), "Authorization: Bearer {0}"),
    (
        "en",
        ("totp_secret",),
        "MFA seed for the shared account: otpauth://totp/{sys}?secret={0}&issuer=Acme",
    ),
    (
        "en",
        ("password", "aws_access_key"),
        "Old console user: password {0}, access key {1} - both revoked?",
    ),
    ("en", ("vault_token",), "VAULT_TOKEN={0} vault kv get secret/{sys}"),
    ("en", ("password",), '{{\\"username\\": \\"deploy\\", \\"password\\": \\"{0}\\"}}'),
    ("en", ("password",), "password\uff1a {0}"),
    ("en", ("docker_pat",), "echo {0} | docker login --username ci --password-stdin"),
]

# --- negative templates: fillers only; hard ones carry IDs, digests, placeholders ----------

NEGATIVE: list[tuple[str, str]] = [
    ("de", "Fix für {sys} ist in Commit {sha1} gelandet, Review von {who} steht noch aus."),
    ("de", "SHA-256 des Release-Archivs: {sha256}"),
    ("de", "Mandant {uuid} wurde am {when} nach eu-central-1 migriert."),
    ("de", "Bestellung {order} von {who} ist verschickt, Sendungsnummer {tracking}."),
    ("de", "Rechnung bitte auf IBAN {iban} überweisen, Verwendungszweck {order}."),
    ("de", "Das Passwort von {who} wurde zurückgesetzt, der Link ging per Mail raus."),
    ("de", "Passwortrichtlinie: mindestens 14 Zeichen, keine Wiederverwendung der letzten 5."),
    (
        "de",
        "Bitte den API-Key in der .env als OPENAI_API_KEY=<dein-key> eintragen, nicht ins Repo.",
    ),
    ("de", "Image-Digest für den Rollback: sha256:{sha256}"),
    ("de", "Ticket {ticket}: {who} kann sich nicht anmelden, Passwort vergessen."),
    ("de", "Die Stripe-Kundennummer von {who} ist cus_{stripe_id}, Abo läuft bis {when}."),
    ("de", "Trace-ID {hex32} taucht in allen fehlgeschlagenen Requests von {sys} auf."),
    ("de", "Der Schlüssel liegt im Vault unter secret/data/{sys}/db, nicht hier speichern."),
    ("de", "Gemeinsamer Ordner: https://drive.google.com/drive/folders/{gdoc}"),
    ("de", "Telefonnummer der Hotline: +49 30 {phone}, erreichbar bis 18 Uhr."),
    ("de", "Memory {mem} gehört zum Projekt {sys}, bitte nicht löschen."),
    ("de", "Die Klasse {camel} wirft beim Start eine NullPointerException."),
    ("de", "KMS-Schlüssel-ID {uuid} für das Bucket-Encryption von {sys}."),
    ("de", "Token rotiert am {when}, neuer Wert steht im Passwortmanager."),
    ("de", "Paket-Integrität laut Lockfile: sha512-{b64hash}"),
    ("de", "ARN der Rolle: arn:aws:iam::{acct}:role/{sys}-deployer"),
    ("de", "Git-LFS-Objekt oid sha256:{sha256} fehlt auf dem Server."),
    ("de", "PIN-Eingabe schlägt nach 3 Versuchen fehl, dann ist die Karte gesperrt."),
    ("de", "Die Sitzung {hex24} von {who} lief 42 Minuten, danach Timeout."),
    ("de", "Base64 der Begrüßung im Test: {b64prose}"),
    ("en", "Fixed in {sha1}; {who} will cherry-pick it to the release branch."),
    ("en", "Checksum (sha256) of the installer: {sha256}"),
    ("en", "Tenant {uuid} hit the rate limit at {when}."),
    ("en", "Order {order} shipped, tracking {tracking}, customer {who}."),
    ("en", "{who} forgot their password again; reset link sent via the portal."),
    ("en", "Password requirements: 12+ characters, one symbol, rotated every 90 days."),
    ("en", "Set STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxx in your local .env (placeholder)."),
    ("en", "Pin the image by digest: ghcr.io/acme/{sys}@sha256:{sha256}"),
    ("en", "Ticket {ticket}: SSO login loops for {who}."),
    ("en", "PaymentIntent pi_{stripe_id} failed with card_declined for {who}."),
    ("en", "Request {uuid} returned 503 from {sys} after 29 s."),
    (
        "en",
        "The token is stored in AWS Secrets Manager under {sys}/api-token; fetch it at runtime.",
    ),
    ("en", "Meeting notes: https://docs.google.com/document/d/{gdoc}/edit"),
    ("en", "Support line: +1 415 {phone}."),
    ("en", "Memory {mem} was superseded by a newer decision."),
    ("en", "Stack trace points at {camel}.handleRequest."),
    ("en", "CloudFront distribution {cfid} serves the docs site."),
    ("en", "We rotated the API key on {when}; the new one is in 1Password."),
    ("en", "npm integrity: sha512-{b64hash}"),
    ("en", "Role ARN: arn:aws:iam::{acct}:role/{sys}-reader"),
    ("en", "Slack channel {slackch} is where the alerts for {sys} land."),
    ("en", "Your PIN must have 6 digits and cannot repeat one digit."),
    ("en", "Build {hex12} of {sys} passed in 7 min."),
    ("en", "Session {hex24} expired after 30 minutes of inactivity."),
    ("en", "Example header: Authorization: Bearer <YOUR_TOKEN_HERE>"),
    ("en", "The public key fingerprint is SHA256:{b64fp}"),
    ("en", "Base64 of the test greeting: {b64prose}"),
]

WHO = ["Jana", "Tobias", "Mehmet", "Priya", "Lukas", "Chen", "Sofia", "Ole", "Amara", "Felix"]
SYS = [
    "billing",
    "crm",
    "nightly-etl",
    "grafana",
    "warehouse",
    "jira",
    "vpn",
    "shop",
    "mailer",
    "wiki",
]
WHEN = ["03.02.", "Q3", "Montag", "next Friday", "2026-11-12", "Ende Mai", "the 14th", "17:30"]
PROSE = [
    "Hallo Team, willkommen an Bord",
    "Good morning from the night shift",
    "Bitte vor Freitag erledigen",
    "Thanks for the quick fix",
]


def fillers(rng: R) -> dict[str, str]:
    return {
        "who": rng.choice(WHO),
        "sys": rng.choice(SYS),
        "when": rng.choice(WHEN),
        "sha1": hashlib.sha1(rng.randbytes(16)).hexdigest(),
        "sha256": hashlib.sha256(rng.randbytes(16)).hexdigest(),
        "uuid": str(uuid.UUID(bytes=rng.randbytes(16), version=4)),
        "order": f"{rng.choice(['B', 'ORD-', 'A-'])}{rng.randrange(10**6, 10**8)}",
        "tracking": f"00{rng.randrange(10**17, 10**18)}",
        "iban": f"DE{rng.randrange(10, 99)} {' '.join(str(rng.randrange(1000, 9999)) for _ in range(4))} {rng.randrange(10, 99)}",
        "ticket": f"{rng.choice(['SUP', 'OPS', 'INC'])}-{rng.randrange(100, 9999)}",
        "stripe_id": rand_mixed(rng, AN, 14),
        "hex32": s(rng, HX, 32),
        "hex24": s(rng, HX, 24),
        "hex12": s(rng, HX, 12),
        "gdoc": "1" + rand_mixed(rng, AN + "-_", 32),
        "phone": f"{rng.randrange(100, 999)} {rng.randrange(1000, 9999)}",
        "mem": f"longterm_{rng.randrange(1, 99999)}",
        "camel": rng.choice(
            [
                "CustomerInvoiceReconciliationService",
                "UserPreferencesCacheLoader",
                "OrderExportBatchScheduler",
            ]
        ),
        "b64hash": base64.b64encode(hashlib.sha512(rng.randbytes(8)).digest()).decode(),
        "acct": str(rng.randrange(10**11, 10**12)),
        "cfid": "E" + s(rng, UP, 13),
        "slackch": "C0" + s(rng, UP, 9),
        "b64prose": base64.b64encode(rng.choice(PROSE).encode()).decode(),
        "b64fp": base64.b64encode(rng.randbytes(32)).decode().rstrip("="),
    }


# Templates whose value has no word of credential context around it: an identifier by
# CONTRACT §8, content and not a secret (relabelled in issue 20; the template stays so that the
# random sequence and every other text stay the same).
NOT_A_SECRET = frozenset({"{who} sent this over chat for the {sys} integration: {0}"})


def positive(rng: R, lang: str, kinds: tuple[str, ...], template: str) -> dict[str, object]:
    values = [BUILDERS[k](rng) for k in kinds]
    shown = [
        fmt_card(v, rng) if k == "credit_card" else v for k, v in zip(kinds, values, strict=True)
    ]
    text = template.format(*shown, **fillers(rng))
    secrets = [{"kind": k, "value": v} for k, v in zip(kinds, shown, strict=True)]
    return {"text": text, "secrets": [] if template in NOT_A_SECRET else secrets, "lang": lang}


def build() -> list[dict[str, object]]:
    rng = R(SEED)
    entries: list[dict[str, object]] = []
    for _ in range(4):  # every positive template four times with fresh values
        for lang, kinds, template in POSITIVE:
            entries.append(positive(rng, lang, kinds, template))
    for _ in range(4):  # every negative template four times with fresh fillers
        for lang, template in NEGATIVE:
            entries.append({"text": template.format(**fillers(rng)), "secrets": [], "lang": lang})
    rng.shuffle(entries)
    return entries


def render() -> str:
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in build())


if __name__ == "__main__":
    print(render(), end="")
