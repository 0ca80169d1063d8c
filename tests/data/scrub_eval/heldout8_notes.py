"""Negative templates of the eighth held-out set, business and credential-talk part: order,
product, invoice and bank references, login names and e-mail addresses, schema declarations
and docs that name passwords or tokens without a value, placeholders, references to a secret
store, and long everyday notes. No text holds a secret; `{k:…}` marks what must survive.
"""

from __future__ import annotations

NOTES = {
    "orders": [
        "de|Bestellung {k:h8_order} ist raus, Sendungsnummer {k:h8_tracking}, Rechnung "
        "{k:h8_invoice}.",
        "en|Replacement part {k:h8_sku} ordered under {k:h8_order}; the supplier's ticket is "
        "{k:h8_ticket}.",
        "de|Artikel {k:h8_sku} und {k:h8_sku} sind nachbestellt, Lieferschein {k:h8_invoice}.",
        "en|Marketplace order {k:h8_order}: return label generated, tracking {k:h8_tracking}.",
    ],
    "bank_refs": [
        "de|Überweisung an den Vermieter: IBAN {k:h8_iban}, Verwendungszweck Miete Dezember "
        "{k:h8_invoice}.",
        "en|The supplier changed banks; new account {k:h8_iban} (confirmed by phone with "
        "{f:who}, not by e-mail).",
        "de|Lastschriftmandat {k:h8_order} für das Konto {k:h8_iban} ist aktiv.",
    ],
    "logins": [
        "de|Der Benutzername für das neue Lohnportal ist {k:h8_login}, das Passwort setzt sie "
        "beim ersten Login selbst.",
        "en|New hires this week: {k:h8_email} and {k:h8_email}. Their usernames are "
        "{k:h8_login} and {k:h8_login}; accounts get activated on Monday.",
        "de|Login: {k:h8_login}\nPasswort: (kommt per Reset-Link)\nRolle: Buchhaltung",
        "en|user={k:h8_login} logged in from {k:h8_ipv6} at 09:14, MFA ok, session length 8h.",
    ],
    "schema": [
        "en|CREATE TABLE accounts (\n  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),\n  email "
        "text NOT NULL UNIQUE,\n  password_hash text NOT NULL,\n  api_token_hash char(64),\n  "
        "created_at timestamptz DEFAULT now()\n);\n-- migration {k:h8_short_sha}",
        'de|Das Request-Schema für /login (Ticket {k:h8_ticket}):\n{\n  "type": "object",\n  '
        '"properties": {\n    "username": {"type": "string"},\n    "password": {"type": '
        '"string", "minLength": 12},\n    "otp": {"type": "string", "pattern": "^[0-9]{6}$"}\n'
        '  },\n  "required": ["username", "password"]\n}',
        "en|interface Credentials {\n  clientId: string;\n  clientSecret: string;\n  "
        "refreshToken?: string;\n}\n// used by {k:h8_pod}",
        "de|class Zugang(BaseModel):\n    benutzer: str\n    passwort: SecretStr\n    token: "
        "SecretStr | None = None\n\n# eingeführt in {k:h8_commit}",
    ],
    "placeholders": [
        "en|DB_HOST=localhost\nDB_USER=app\nDB_PASSWORD={k:h8_placeholder}\nAPI_TOKEN="
        "{k:h8_placeholder}\n# copy to .env and fill in — ticket {k:h8_ticket}",
        'de|Beispielaufruf aus der README: curl -H "Authorization: Bearer {k:h8_placeholder}" '
        "https://api.acme.example/v1/me",
        "en|docker run -e POSTGRES_PASSWORD={k:h8_env_ref} -e ADMIN_TOKEN={k:h8_placeholder} "
        "postgres:16",
        "de|In den Helm-Values steht password: {k:h8_placeholder} und token: {k:h8_env_ref} — "
        "die echten Werte kommen aus dem External Secrets Operator.",
    ],
    "credential_docs": [
        "de|So kommst du an ein API-Token: In {f:svc} oben rechts aufs Profil, dann Sicherheit "
        "→ Tokens → Neues Token. Es wird nur einmal angezeigt und beginnt mit glpat-. Ablauf "
        "nach 90 Tagen, siehe {k:h8_ticket}.",
        "en|Password policy (from {k:h8_ticket}): at least 14 characters, no reuse of the last "
        "5, rotation only on suspicion of compromise. Service tokens expire after 30 days.",
        "en|How the webhook secret works: we sign each payload with HMAC-SHA256 using the "
        "endpoint's secret and send the hex digest in X-Signature. Example digest for an empty "
        "body with the test secret: {k:h8_sha256}.",
        "de|Die PIN der Firmenkarten ist vierstellig und wird per Brief verschickt; wer sie "
        "vergisst, bestellt über {k:h8_ticket} eine neue. Niemand aus der IT kennt sie.",
    ],
    "payment_objects": [
        "en|Refund issued for {k:h8_stripe_object} (customer {k:h8_stripe_object}); Stripe says "
        "5–10 days.",
        "de|Abo {k:h8_stripe_object} gekündigt, die letzte Rechnung {k:h8_stripe_object} bleibt "
        "offen.",
        "en|Webhook delivery evt_{k:h8_nanoid} for {k:h8_stripe_object} failed with 502 and "
        "succeeded on retry.",
    ],
    "credential_talk": [
        "de|Passwort von {f:who} zurückgesetzt, sie vergibt beim nächsten Login ein neues. "
        "Vorgang {k:h8_ticket}.",
        "en|The API key for {f:svc} was rotated on {f:weekday}; the new one is in the vault "
        "under kv/prod/{k:h8_nanoid}. Nothing to do for consumers.",
        "de|Token abgelaufen → 401 im Worker. Ursache: Die Uhr auf {f:host} lief 9 Minuten "
        "nach. NTP korrigiert, Build {k:h8_short_sha}.",
        "en|Reminder: never paste secrets into tickets. If you did, rotate the credential and "
        "note the ticket ({k:h8_ticket}) in the security channel.",
    ],
    "secret_refs": [
        "en|spring:\n  datasource:\n    url: jdbc:postgresql://{f:host}:5432/orders\n    "
        "username: orders\n    password: {k:h8_env_ref}\n    hikari:\n      pool-name: "
        "{k:h8_nanoid}",
        "de|Die Anwendung liest den Schlüssel aus dem AWS Secrets Manager ({k:h8_arn}); in der "
        "Konfiguration steht nur secret_name: brain/prod/db.",
        "en|auth:\n  provider: oidc\n  issuer: https://login.acme.example/realms/brain\n  "
        "client_id: {k:h8_uuid}\n  client_secret_file: /run/secrets/oidc\n  scopes: [openid, "
        "profile]",
        "de|`vault kv get -field=password secret/brain/db` ist der Befehl — den Wert selbst "
        "bitte nie ins Wiki. Policy {k:h8_nanoid}.",
    ],
    "everyday": [
        "de|{f:who}: Kannst du dir {k:h8_ticket} anschauen? Der Kunde {k:h8_email} sagt, seine "
        "Bestellung {k:h8_order} hängt.",
        "en|Standup: finished {k:h8_ticket}, reviewing {k:h8_ticket}; blocked on access to "
        "{f:svc} (requested via SSO, no password involved).",
        "de|Meeting-Notiz: Umzug der Datenbank am {f:weekday}. Zuständig ist {k:h8_email}, "
        "Rückfallebene der Snapshot {k:h8_aws_resource}.",
    ],
    "long_notes": [
        "en|Weekly ops summary ({f:city})\n\nDeploys: {k:h8_short_sha}, {k:h8_short_sha} and "
        "{k:h8_short_sha} went out; release {k:h8_version} is tagged at {k:h8_commit}. The "
        "image is pinned by digest {k:h8_docker_digest}.\n\nIncidents: one, {k:h8_ticket} — "
        "the token refresh job ran twice because two pods ({k:h8_pod} and {k:h8_pod}) held the "
        "lease. Correlation id of the duplicate run: {k:h8_uuid_hex}.\n\nAccess: {k:h8_login} "
        "joined the on-call rota; her SSH key ssh-ed25519 {k:h8_ssh_ed25519_pub} is on the "
        "bastion. No passwords were shared, everything goes through SSO.",
        "de|Protokoll Jahresabschluss mit der Steuerkanzlei\n\nAnwesend: {f:who}, {f:who}.\n\n"
        "1. Offene Posten: Rechnungen {k:h8_invoice} und {k:h8_invoice} sind bezahlt, "
        "Bestellung {k:h8_order} wird storniert.\n2. Bankverbindung für die Erstattung: IBAN "
        "{k:h8_iban}.\n3. Die Kanzlei bekommt einen eigenen Zugang zum DATEV-Portal; den "
        "Benutzernamen ({k:h8_login}) schicken wir per Mail, das Kennwort vergibt die Kanzlei "
        "selbst.\n4. Belege werden als PDF mit Prüfsumme abgelegt, z. B. {k:h8_sha256}.",
        "en|Design note: idempotent imports\n\nEvery import request carries an id minted with "
        "secrets.token_urlsafe(), e.g. {k:h8_urlsafe_id}. The worker stores it with the "
        "import's ULID ({k:h8_ulid}) and the file digest ({k:h8_sha256}); a repeated id returns "
        "the first result. Ids are not credentials: they grant nothing and may be logged. The "
        "API key that authorises the call travels in a header and is never logged or stored "
        "here.",
    ],
}
