# ruff: noqa: E501  (template lines are data; splitting them hurts reading)
"""Generator of the HOLD-OUT scrub corpus (tests/data/scrub_holdout.jsonl).

A second, independent corpus for the secret scrubber: written from scratch, without looking at
the first corpus (scrub_corpus.jsonl) or its generator, with its own templates and value
builders. Its job is to measure overfitting: the scrubber was tuned on the first corpus; the
recall gap between the two is the overfit measure (tests/unit/test_scrub_corpus.py gates both).

Texts read like what agents store: notes from tickets, chat hand-overs, config snippets, log
lines, e-mails, runbooks; German and English. About 45 % are negatives, most of them hard
(hashes, commit SHAs, UUIDs, long IDs, public keys, placeholders, talk about passwords).
Obfuscated forms are included on purpose: escaped JSON, zero-width and full-width characters,
"Passwort auf X geändert", bare 40-character AWS secrets and bare base64/hex keys.

Every value is fake and built at run time from a seeded RNG (no token-shaped literal in git).
Line format: {"text": ..., "secrets": [{"kind": ..., "value": ...}], "lang": "de"|"en"}.

Run: python tests/data/make_holdout_corpus.py > tests/data/scrub_holdout.jsonl
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid
from collections.abc import Callable

SEED = 20261130
ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"

Rng = random.Random


def pick(rng: Rng, chars: str, n: int) -> str:
    return "".join(rng.choice(chars) for _ in range(n))


def mixed(rng: Rng, chars: str, n: int) -> str:
    """n characters of `chars` with at least one upper, one lower and one digit."""
    while True:
        value = pick(rng, chars, n)
        if (
            any(c.isupper() for c in value)
            and any(c.islower() for c in value)
            and any(c.isdigit() for c in value)
        ):
            return value


# --- secret builders ----------------------------------------------------------------------

WORDS_DE = ["Sonne", "Tiger", "Anker", "Kiesel", "Falke", "Birke", "Nebel", "Wolke", "Fuchs"]
WORDS_EN = ["River", "Maple", "Falcon", "Copper", "Harbor", "Pepper", "Orbit", "Cedar"]
SYMBOLS = "!#$%&*?@+-"


def human_password(rng: Rng) -> str:
    word = rng.choice(WORDS_DE + WORDS_EN)
    shape = rng.randrange(4)
    if shape == 0:
        return f"{word}{rng.randrange(10, 99)}{rng.choice(SYMBOLS)}"
    if shape == 1:
        return f"{rng.choice(SYMBOLS)}{word.lower()}{rng.randrange(1990, 2030)}"
    if shape == 2:
        other = rng.choice(WORDS_DE + WORDS_EN)
        return f"{word}{rng.choice('&_.-')}{other}{rng.randrange(1, 99)}"
    return word[0].lower() + word[1:].upper() + str(rng.randrange(100, 999)) + rng.choice(SYMBOLS)


def random_password(rng: Rng, n: int = 12) -> str:
    while True:
        value = pick(rng, ALNUM + "!#%*+?", n)
        if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            return value


def aws_access(rng: Rng) -> str:
    return rng.choice(["AKIA", "ASIA"]) + pick(rng, UPPER_DIGITS, 16)


def aws_secret(rng: Rng) -> str:
    while True:
        value = mixed(rng, B64, 40)
        if "/" in value or "+" in value:
            return value


def ghp(rng: Rng) -> str:
    return "ghp_" + mixed(rng, ALNUM, 36)


def github_fine(rng: Rng) -> str:
    return f"github_pat_{mixed(rng, ALNUM, 22)}_{mixed(rng, ALNUM, 59)}"


def glpat(rng: Rng) -> str:
    return "glpat-" + mixed(rng, URLSAFE, 20)


def slack_bot(rng: Rng) -> str:
    return f"xoxb-{pick(rng, string.digits, 11)}-{pick(rng, string.digits, 13)}-{mixed(rng, ALNUM, 24)}"


def slack_hook_path(rng: Rng) -> str:
    return f"T{pick(rng, UPPER_DIGITS, 8)}/B{pick(rng, UPPER_DIGITS, 10)}/{mixed(rng, ALNUM, 24)}"


def stripe(rng: Rng) -> str:
    return rng.choice(["sk_live_", "rk_live_"]) + mixed(rng, ALNUM, 32)


def stripe_whsec(rng: Rng) -> str:
    return "whsec_" + mixed(rng, ALNUM, 32)


def openai(rng: Rng) -> str:
    return "sk-proj-" + mixed(rng, URLSAFE, 64)


def anthropic(rng: Rng) -> str:
    return "sk-ant-api03-" + mixed(rng, URLSAFE, 93) + "AA"


def google_key(rng: Rng) -> str:
    return "AIza" + mixed(rng, URLSAFE, 35)


def b64url_json(data: dict[str, object]) -> str:
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def jwt(rng: Rng) -> str:
    head = b64url_json({"alg": rng.choice(["HS256", "RS256"]), "typ": "JWT"})
    body = b64url_json({"sub": f"user-{rng.randrange(1000)}", "exp": rng.randrange(10**9)})
    return f"{head}.{body}.{mixed(rng, URLSAFE, 43)}"


def pem(rng: Rng) -> str:
    lines = [mixed(rng, B64, 64) for _ in range(4)]
    label = rng.choice(["RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY"])
    return f"-----BEGIN {label}-----\nMII" + "\n".join(lines) + f"\n-----END {label}-----"


def npm(rng: Rng) -> str:
    return "npm_" + mixed(rng, ALNUM, 36)


def hf(rng: Rng) -> str:
    return "hf_" + mixed(rng, ALNUM, 34)


def sendgrid(rng: Rng) -> str:
    return f"SG.{mixed(rng, URLSAFE, 22)}.{mixed(rng, URLSAFE, 43)}"


def twilio(rng: Rng) -> str:
    return "SK" + pick(rng, HEX, 32)


def telegram(rng: Rng) -> str:
    return f"{rng.randrange(10**8, 10**9)}:AA{mixed(rng, URLSAFE, 33)}"


def hex_key(rng: Rng, n: int = 64) -> str:
    return pick(rng, HEX, n)


def b64_key(rng: Rng, nbytes: int = 32) -> str:
    return base64.b64encode(bytes(rng.randrange(256) for _ in range(nbytes))).decode()


def base62(rng: Rng, n: int = 40) -> str:
    return mixed(rng, ALNUM, n)


def luhn_card(rng: Rng) -> str:
    digits = [4] + [rng.randrange(10) for _ in range(14)]
    total = 0
    for i, d in enumerate(reversed(digits)):
        d2 = d * 2 if i % 2 == 0 else d
        total += d2 - 9 if d2 > 9 else d2
    digits.append((10 - total % 10) % 10)
    s = "".join(map(str, digits))
    return " ".join(s[i : i + 4] for i in range(0, 16, 4))


def pin(rng: Rng) -> str:
    while True:
        value = pick(rng, string.digits, rng.choice([4, 4, 6]))
        if len(set(value)) > 2:
            return value


Builder = Callable[[Rng], str]

# --- positive templates: (lang, kind, builder, template); {s} is the secret -----------------

POSITIVE: list[tuple[str, str | None, Builder, str]] = [
    # passwords, prose
    ("de", "password", human_password, "Notiz aus dem Call: Das Passwort für den NAS ist {s}"),
    ("de", "password", human_password, "Neues Kennwort vom Router: {s} (bitte nicht weitergeben)"),
    ("de", "password", human_password, "Hab das Passwort auf {s} geändert, gilt ab Montag."),
    ("de", "password", random_password, "Passwort auf {s} geändert"),
    ("de", "password", random_password, "Kennwort wurde auf {s} gesetzt."),
    ("de", "password", human_password, "Für den Gastzugang: Benutzer gast, Passwort {s}"),
    ("de", "password", random_password, "Zugangsdaten Buchhaltung -> user: fibu, passwort: {s}"),
    (
        "de",
        "password",
        human_password,
        "Anna meinte, das WLAN-Passwort ist {s}, steht am Kühlschrank.",
    ),
    ("de", "password", random_password, "Login Lieferantenportal: max.mustermann / {s}"),
    ("de", "password", human_password, "Das Admin-Passwort lautet jetzt {s}."),
    ("de", "password", random_password, "Pass\u200bwort: {s}"),
    ("de", "password", random_password, "Passwort\uff1a {s}"),
    ("de", "password", random_password, "Pass\u200cwort für Jenkins = {s}"),
    ("de", "password", random_password, "Kenn\u00adwort: {s}"),
    ("de", "password", human_password, "Merke: Datenbank-PW ist {s} – wird im Q3 rotiert."),
    (
        "de",
        "password",
        random_password,
        'Konfig angehängt: {{\\"password\\": \\"{s}\\", \\"user\\": \\"etl\\"}}',
    ),
    (
        "de",
        "password",
        random_password,
        'Log-Zeile: payload="{{\\"user\\":\\"kasse\\",\\"passwort\\":\\"{s}\\"}}"',
    ),
    (
        "de",
        "password",
        human_password,
        "Ich habe das Passwort jetzt auf {s} zurückgesetzt, Nutzer ist informiert.",
    ),
    (
        "de",
        "password",
        random_password,
        "SMTP-Relay: smtp.firma.de:587, Benutzer noreply, Kennwort {s}",
    ),
    ("de", "password", human_password, "Tresor-Eintrag fehlt noch, vorläufig: pw = {s}"),
    ("en", "password", human_password, "Reminder from the call: the NAS password is {s}"),
    ("en", "password", random_password, "I changed the password to {s} after the incident."),
    ("en", "password", random_password, "Password changed to {s}"),
    ("en", "password", human_password, "Guest wifi password: {s}"),
    ("en", "password", random_password, "creds for the staging box -> admin / {s}"),
    ("en", "password", human_password, "The root password was reset to {s} yesterday."),
    ("en", "password", random_password, "pass\u200bword = {s}"),
    ("en", "password", random_password, "Password\uff1a{s}"),
    (
        "en",
        "password",
        random_password,
        'Request body was {{\\"username\\": \\"ops\\", \\"password\\": \\"{s}\\"}}',
    ),
    ("en", "password", random_password, 'env: {{"DB_PASS": "{s}", "DB_HOST": "db.internal"}}'),
    ("en", "password", human_password, "Use {s} as the password for the shared Zoom account."),
    ("en", "password", random_password, "The new VPN passphrase is now {s}"),
    ("en", "password", random_password, "export PGPASSWORD={s}"),
    ("en", "password", random_password, "mysql -h db01 -u report -p{s} sales"),
    ("en", "password", human_password, "Handover: Jira service user jira-bot, password {s}"),
    ("en", "password", random_password, "Set the password to {s} for the kiosk user."),
    # PINs
    ("de", "pin", pin, "Die PIN für das Diensthandy ist {s}."),
    ("de", "pin", pin, "Tür zum Serverraum: Zugangscode {s}"),
    ("en", "pin", pin, "The PIN of the company card is {s}"),
    ("en", "pin", pin, "Alarm code: {s}, disarm within 30 seconds."),
    # connection strings and URLs
    (
        "de",
        "url_credentials",
        random_password,
        "DB verschoben: postgresql://crm_app:{s}@10.0.4.17:5432/crm",
    ),
    (
        "en",
        "url_credentials",
        random_password,
        "MONGO_URI=mongodb+srv://analytics:{s}@cluster0.ab12c.mongodb.net/prod",
    ),
    ("en", "url_credentials", random_password, "broker: amqp://worker:{s}@rabbit.internal:5672/"),
    (
        "de",
        "url_credentials",
        random_password,
        "Connection String: Server=sql01;Database=Lager;User Id=lager;Password={s};",
    ),
    (
        "en",
        "url_credentials",
        random_password,
        "Clone with https://deploy:{s}@git.example.org/team/app.git",
    ),
    # AWS
    ("de", "aws_access_key", aws_access, "AWS-Zugang für den Backup-Job: {s}"),
    ("en", "aws_access_key", aws_access, "access key id {s} belongs to the CI user"),
    ("de", "aws_secret_key", aws_secret, "aws_secret_access_key = {s}"),
    ("de", "aws_secret_key", aws_secret, "Zugang: {s}"),
    ("de", "aws_secret_key", aws_secret, "Secret vom IAM-User ci-deploy: {s}"),
    ("de", "aws_secret_key", aws_secret, "Der Key steht hier, bitte gleich in den Vault: {s}"),
    (
        "en",
        "aws_secret_key",
        aws_secret,
        "here's the secret half of the key pair {s} - rotate after use",
    ),
    ("en", None, aws_secret, "{s}"),  # a bare random value: content (see below)
    ("en", "aws_secret_key", aws_secret, "AWS creds pasted by Tom:\n{s}\nregion eu-central-1"),
    ("en", "aws_secret_key", aws_secret, "SecretAccessKey: {s}"),
    # provider tokens
    ("de", "github_pat", ghp, "GitHub-Token für den Release-Bot: {s}"),
    ("en", "github_pat", ghp, "git remote set-url origin https://{s}@github.com/acme/infra.git"),
    ("en", "github_pat", github_fine, "fine-grained token (expires in 30 days): {s}"),
    ("de", "gitlab_token", glpat, "GitLab Runner registriert mit {s}"),
    ("en", "slack_token", slack_bot, "SLACK_BOT_TOKEN={s}"),
    (
        "de",
        "slack_webhook",
        slack_hook_path,
        "Alerts gehen an https://hooks.slack.com/services/{s}",
    ),
    ("en", "stripe_live", stripe, "Stripe key for the shop backend: {s}"),
    ("de", "stripe_webhook_secret", stripe_whsec, "Webhook-Signatur prüfen mit {s}"),
    ("en", "openai_key", openai, "OPENAI_API_KEY={s}"),
    ("de", "anthropic_key", anthropic, "Claude-Key fürs Team: {s}"),
    ("en", "google_api_key", google_key, "Maps JS loader uses key={s}"),
    ("de", "jwt", jwt, "Session-Cookie aus dem Bugreport: {s}"),
    ("en", "jwt", jwt, "curl -H 'Authorization: Bearer {s}' https://api.internal/v2/me"),
    ("de", "private_key", pem, "Deploy-Key für den Build-Server:\n{s}"),
    ("en", "private_key", pem, "Paste of id_rsa from the old bastion:\n{s}\n(please delete)"),
    ("en", "npm_token", npm, "//registry.npmjs.org/:_authToken={s}"),
    ("de", "hf_token", hf, "HuggingFace Token fürs Modell-Download: {s}"),
    ("en", "sendgrid_key", sendgrid, "Mail provider key: {s}"),
    ("de", "twilio_key", twilio, "Twilio API Key SID {s} für SMS-Versand"),
    ("en", "telegram_bot_token", telegram, "bot token from BotFather: {s}"),
    ("de", "credit_card", luhn_card, "Firmenkreditkarte {s}, Ablauf 11/28, CVC liegt bei Petra."),
    ("en", "credit_card", luhn_card, "Charge it to card {s} exp 03/27"),
    # generic secrets: keyed
    ("de", "generic_secret", base62, "API-Schlüssel Wetterdienst: {s}"),
    ("de", "generic_secret", hex_key, "Verschlüsselungs-Key (AES-256, hex): {s}"),
    ("de", "generic_secret", b64_key, "FERNET_KEY={s}"),
    ("en", "generic_secret", base62, "client_secret: {s}"),
    ("en", "generic_secret", hex_key, "HMAC signing secret is {s}"),
    ("en", "generic_secret", b64_key, "encryption key (base64): {s}"),
    ("en", "generic_secret", base62, 'config.json: {{\\"apiKey\\": \\"{s}\\"}}'),
    ("en", "generic_secret", base62, "X-Api-Key: {s}"),
    ("de", "bearer_token", base62, "Header gesetzt: Authorization: Bearer {s}"),
    # random values without a word of credential context: identifiers by CONTRACT §8, so
    # content, not secrets (kind None: the text is a negative; relabelled in issue 20, the
    # templates stay so that the generator's random sequence and every other text stay)
    (
        "de",
        None,
        base62,
        "Schick mir das nochmal, ich hab nur noch {s} in der Zwischenablage.",
    ),
    ("de", None, hex_key, "Kopiert aus der Admin-Konsole: {s}"),
    (
        "de",
        None,
        b64_key,
        "Von Lisa per Chat bekommen: {s} – gilt für das Partner-Portal.",
    ),
    (
        "en",
        None,
        base62,
        "the value Sam sent over is {s}, paste it into the integration settings",
    ),
    # generic secrets: bare, a credential word near them
    ("en", "generic_secret", lambda r: hex_key(r, 40), "For the webhook integration use {s}"),
    ("en", None, lambda r: b64_key(r, 48), "got this from the vendor portal: {s}"),
    (
        "en",
        "generic_secret",
        lambda r: base62(r, 32),
        "vendor onboarding done, our credential is {s}",
    ),
]

# --- negatives ----------------------------------------------------------------------------


def sha1(rng: Rng) -> str:
    return hashlib.sha1(rng.randbytes(16), usedforsecurity=False).hexdigest()


def sha256(rng: Rng) -> str:
    return hashlib.sha256(rng.randbytes(16)).hexdigest()


def md5(rng: Rng) -> str:
    return hashlib.md5(rng.randbytes(16), usedforsecurity=False).hexdigest()


def a_uuid(rng: Rng) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def sha512_b64(rng: Rng) -> str:
    return base64.b64encode(hashlib.sha512(rng.randbytes(16)).digest()).decode()


def ssh_pub(rng: Rng) -> str:
    return "AAAAC3NzaC1lZDI1NTE5AAAAI" + pick(rng, B64, 43)


def drive_id(rng: Rng) -> str:
    return "1" + mixed(rng, URLSAFE, 32)


def eth_address(rng: Rng) -> str:
    return "0x" + pick(rng, HEX, 40)


def order_no(rng: Rng) -> str:
    return f"{rng.randrange(100, 999)}-{rng.randrange(10**6, 10**7)}-{rng.randrange(10**6, 10**7)}"


def iban(rng: Rng) -> str:
    return "DE" + pick(rng, string.digits, 20)


def stripe_customer(rng: Rng) -> str:
    return "cus_" + mixed(rng, ALNUM, 14)


def word(rng: Rng) -> str:
    return rng.choice(WORDS_DE + WORDS_EN)


NEGATIVE: list[tuple[str, Builder, str]] = [
    # hashes and digests, named
    ("de", sha1, "Fix ist in Commit {s} gelandet, bitte cherry-picken."),
    ("en", sha1, "Reverted {s} because it broke the nightly build (see git log)."),
    ("en", sha1, "HEAD is now at {s} Merge pull request #88 from acme/fix-login"),
    ("de", sha256, "SHA-256 der Release-Datei: {s}"),
    ("en", sha256, "{s}  brain-2.4.1-linux-amd64.tar.gz"),
    ("en", sha256, "image: ghcr.io/acme/brain@sha256:{s}"),
    ("de", md5, "MD5-Prüfsumme vom Export stimmt: {s}"),
    ("en", md5, 'ETag "{s}" unchanged, so the cache was hit.'),
    ("en", sha512_b64, '"integrity": "sha512-{s}"'),
    ("en", sha256, "Git LFS pointer: oid sha256:{s} size 48213"),
    ("de", sha1, "Der Build lief auf Revision {s} – alles grün."),
    ("en", sha256, "checksum mismatch: expected {s}"),
    # identifiers
    ("de", a_uuid, "Mandanten-ID {s} wurde migriert."),
    ("en", a_uuid, "trace_id={s} span=42 status=ok"),
    ("en", a_uuid, "Correlation-Id: {s}"),
    ("de", a_uuid, "Bitte Vorgang {s} im Ticketsystem schließen."),
    ("de", order_no, "Amazon-Bestellung {s} kommt am Donnerstag."),
    ("en", stripe_customer, "Stripe customer {s} asked for a refund."),
    ("de", iban, "Überweisung an {s}, Verwendungszweck Rechnung 2024-117."),
    ("en", drive_id, "Slides are at https://docs.google.com/presentation/d/{s}/edit"),
    ("en", eth_address, "Donations go to the public address {s}"),
    ("de", ssh_pub, "Öffentlicher Schlüssel für Ansible: ssh-ed25519 {s} ansible@ctl"),
    ("en", ssh_pub, "Add this to authorized_keys: ssh-ed25519 {s} deploy@ci"),
    # placeholders and references
    (
        "de",
        word,
        "In der .env steht DB_PASSWORD=${{DB_PASSWORD}}, der Wert kommt aus dem Vault ({s}).",
    ),
    ("en", word, "Template: API_KEY=<your-api-key> (ask {s} for a real one)"),
    ("en", word, 'password: "{{{{ vault_db_password }}}}"  # {s}'),
    ("de", word, "Passwort liegt in 1Password unter op://Team/{s}/password"),
    ("en", word, "Set STRIPE_SECRET_KEY=sk_live_... in production (owner: {s})."),
    ("de", word, "Token: <hier einfügen> – Team {s}"),
    # talk about credentials without one
    ("de", word, "Das Passwort von {s} ist abgelaufen, Reset-Link wurde verschickt."),
    ("de", word, "{s} hat sein Passwort vergessen, Ticket angelegt."),
    ("de", word, "Passwörter müssen mindestens 14 Zeichen haben (Richtlinie {s})."),
    ("en", word, "Password reset for {s} done, they will pick a new one."),
    ("en", word, "The API token for {s} expires in 90 days; rotation is automated."),
    ("en", word, "Never paste secrets into tickets, {s} - use the vault."),
    ("de", word, "Der API-Key von {s} wurde widerrufen."),
    ("en", word, "PIN reset requested by {s} for the door terminal."),
    ("de", word, "Das Token ist 24 Stunden gültig, danach neu anfordern ({s})."),
    ("en", word, "Password policy: 12 characters, one digit, no reuse of the last 5 ({s})."),
    ("de", word, "Bitte das Kennwort nicht per Mail schicken, {s}."),
    # ordinary technical notes
    ("en", word, "Deployed release 4.12.0-rc.3+build.20240611 to staging, owner {s}."),
    ("de", word, "Ticket OPS-4417: Festplatte auf srv-{s}-03 fast voll (92 %)."),
    ("en", word, "Logs are under /var/log/brain/2024/06/11/worker-{s}.log"),
    ("de", word, "Telefon der Hotline: +49 30 12345678, Ansprechpartner {s}."),
    ("en", word, "Meeting with {s} moved to 14:30 CET, room B2.04."),
    ("de", word, "Kunde {s} möchte die Rechnung als PDF statt per Post."),
    ("en", word, "arn:aws:iam::123456789012:role/{s}-deploy has the wrong trust policy"),
    ("de", word, "Base64 von 'hallo welt' ist aGFsbG8gd2VsdA== ({s})"),
    ("en", word, "The S3 key is exports/2024/q2/{s}-report-final.csv"),
    ("de", word, "Primärschlüssel der Tabelle ist (tenant, id), Sortschlüssel {s}."),
    ("en", word, "Cache key user:{s}:profile is evicted after 300 s."),
    ("de", word, "Der Schlüssel für den Keller hängt beim Hausmeister {s}."),
    ("en", word, "bundle.3f9a8c7d.js is 412 kB; {s} wants it under 300 kB."),
    ("en", word, "Color tokens: primary #1E88E5, accent #FFB300 (designer: {s})"),
    ("de", word, "YouTube-Video dQw4w9WgXcQ für das Onboarding von {s}."),
]

CHAT_PREFIX = {
    "de": ["", "", "Kurze Info: ", "Aus dem Standup: ", "Weitergeleitet: ", "FYI – "],
    "en": ["", "", "Quick note: ", "From the standup: ", "Forwarded: ", "FYI - "],
}
CHAT_SUFFIX = {
    "de": ["", "", " Danke!", " LG", " (Stand heute)"],
    "en": ["", "", " Thanks!", " Cheers", " (as of today)"],
}


def positives(rng: Rng, rounds: int) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for _ in range(rounds):
        for lang, kind, build, template in POSITIVE:
            secret = build(rng)
            text = template.format(s=secret)
            if "\n" not in template and template != "{s}":
                text = rng.choice(CHAT_PREFIX[lang]) + text + rng.choice(CHAT_SUFFIX[lang])
            secrets = [{"kind": kind, "value": secret}] if kind else []
            out.append({"text": text, "secrets": secrets, "lang": lang})
    return out


def combined(rng: Rng, count: int) -> list[dict[str, object]]:
    """Texts with two secrets of different kinds, as in a pasted .env or a long hand-over."""
    out: list[dict[str, object]] = []
    for _ in range(count):
        key, secret, pw = aws_access(rng), aws_secret(rng), random_password(rng)
        lang = rng.choice(["de", "en"])
        if lang == "de":
            text = (
                f"Übergabe Backup-Server:\nAWS_ACCESS_KEY_ID={key}\n"
                f"AWS_SECRET_ACCESS_KEY={secret}\nroot-Passwort: {pw}\nRest im Wiki."
            )
        else:
            text = (
                f"Handover for the backup box:\nAWS_ACCESS_KEY_ID={key}\n"
                f"AWS_SECRET_ACCESS_KEY={secret}\nroot password: {pw}\nEverything else is in the wiki."
            )
        secrets = [
            {"kind": "aws_access_key", "value": key},
            {"kind": "aws_secret_key", "value": secret},
            {"kind": "password", "value": pw},
        ]
        out.append({"text": text, "secrets": secrets, "lang": lang})
    return out


def negatives(rng: Rng, rounds: int) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for _ in range(rounds):
        for lang, build, template in NEGATIVE:
            text = template.format(s=build(rng))
            text = rng.choice(CHAT_PREFIX[lang]) + text + rng.choice(CHAT_SUFFIX[lang])
            out.append({"text": text, "secrets": [], "lang": lang})
    return out


def render() -> str:
    rng = random.Random(SEED)
    entries = positives(rng, 3) + combined(rng, 12) + negatives(rng, 4)
    random.Random(SEED + 1).shuffle(entries)
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries)


if __name__ == "__main__":
    print(render(), end="")
