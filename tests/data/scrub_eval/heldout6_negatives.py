"""Negatives of the sixth held-out set (judge6): texts without any credential.

Hard on purpose: identifiers and digests that look random (commit SHAs, UUIDs with and without
dashes, trace IDs, integrity hashes, idempotency keys, `token_urlsafe`-shaped IDs, public
keys), references and placeholders where a secret would go in configs and code, CLI help
text, talk about credentials without one, and personal data that is no credential. Every
`{k:*}` value must survive the scrubber unchanged; a changed text is a false positive.
"""

from __future__ import annotations

CONTENT = {
    "identifiers": [
        "en|Fixed in commit {k:h6n_commit}, cherry-picked as {k:h6n_short_sha} onto release.",
        "de|Der Fehler kam mit {k:h6n_short_sha}; Revert ist {k:h6n_commit}.",
        "en|Image pinned to ghcr.io/acme/brain@{k:h6n_docker_digest} after the rollback.",
        "de|Request-ID {k:h6n_uuid} im Log gefunden, Antwort war 502.",
        "en|Idempotency-Key: {k:h6n_idempotency_key} was sent twice; second call replayed.",
        "de|Job {k:h6n_uuid_hex} hängt seit gestern in der Queue, Pod {k:h6n_pod}.",
        "en|traceparent: {k:h6n_traceparent} - the slow span is the DynamoDB query.",
        'en|package-lock.json: "integrity": "{k:h6n_integrity}" changed after npm update.',
        "de|Checksumme der ISO (SHA-256): {k:h6n_sha256} – stimmt mit der Webseite überein.",
        'en|ETag "{k:h6n_md5}" on the S3 object, so the upload was not multipart.',
    ],
    "cloud_and_app_ids": [
        "de|Git LFS oid sha256:{k:h6n_sha256}, Größe 18 MB, liegt im Bucket.",
        "en|Lambda {k:h6n_arn} times out at 15 s since version {k:h6n_semver}.",
        "de|AWS-Konto {k:h6n_account_id} gehört zur Staging-Umgebung, nicht zu Prod.",
        "en|Stripe customer {k:h6n_stripe_customer} disputed payment "
        "{k:h6n_stripe_payment_intent}.",
        "de|Alerts gehen in den Slack-Kanal {k:h6n_slack_channel}, nicht mehr per Mail.",
        "en|Short link https://acme.example/s/{k:h6n_shortlink} points to the onboarding doc.",
        "de|Das Video https://www.youtube.com/watch?v={k:h6n_video_id} erklärt das Setup gut.",
        "en|Upload id {k:h6n_urlsafe_id} in the presign response; the part list was empty.",
        "de|Produktcode {k:h6n_product_code} ist im Shop doppelt angelegt.",
        "en|CI run {k:h6n_run_id} failed on the lint step, rerun passed.",
        "en|Screenshot inline: {k:h6n_data_uri}",
        "de|MAC {k:h6n_mac} bekommt per DHCP {k:h6n_ip}, bitte fest reservieren.",
        "en|Release {k:h6n_semver} tagged from {k:h6n_commit}; changelog in PR {k:h6n_ticket}.",
    ],
    "logs_and_configs": [
        "en|2026-12-01T09:14:03Z INFO request_id={k:h6n_uuid} user={k:h6n_customer} status=200 "
        "duration_ms=41",
        "de|[WARN] Wiederholung 3/5 für Nachricht {k:h6n_uuid_hex} an Queue "
        "invoices-{k:h6n_short_sha}",
        "en|session_timeout: 1800\ncache_key_prefix: brain-{k:h6n_short_sha}\n"
        "build: {k:h6n_run_id}",
        "de|nginx: upstream timed out while reading response header, upstream {k:h6n_ip}:8080, "
        "Request {k:h6n_traceparent}",
        'en|terraform plan: ~ aws_lambda_function.api source_code_hash = "{k:h6n_integrity}"',
        "de|Cronjob `0 3 * * *` sichert die Datenbank nach s3://acme-backups/{k:h6n_uuid}/ (Lauf "
        "{k:h6n_run_id}).",
    ],
    "public_keys": [
        "en|Added my public key to authorized_keys: {k:h6n_ssh_public}",
        "de|GPG-Fingerprint von Release-Signaturen: {k:h6n_gpg_fingerprint}",
        "en|Verify the tarball with key {k:h6n_gpg_fingerprint} before installing.",
    ],
    "references_and_placeholders": [
        "en|DATABASE_URL=postgresql://app:${DB_PASSWORD}@{k:h6n_ip}:5432/app",
        "de|In der .env steht nur SMTP_PASS=<hier eintragen>, Ticket {k:h6n_ticket}.",
        'en|env:\n  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n  RUN: "{k:h6n_run_id}"',
        "de|password: !vault secret/brain/db#password  # Quelle {k:h6n_ticket}",
        'en|api_key = os.environ["{k:h6n_env_var}"]  # never hard-code, see {k:h6n_ticket}',
        'de|Konfiguration: token: "<YOUR_TOKEN_HERE>", region: eu-central-1, Konto '
        "{k:h6n_account_id}",
        "en|The secret lives in AWS Secrets Manager under brain/prod/{k:h6n_env_var}; the "
        "Lambda reads it at cold start.",
        "de|Passwort-Feld im Formular zeigt nur ******** an; Nutzer {k:h6n_email} kann sich "
        "trotzdem nicht anmelden.",
        'en|password: "{{ vault_db_password }}" in the Ansible role for host {k:h6n_ip}',
        "de|Die Variable {k:h6n_env_var} fehlt im Deployment {k:h6n_pod}.",
        "en|Helm values: existingSecret: brain-db, secretKey: password (release {k:h6n_semver})",
    ],
    "cli_help": [
        "en|usage: brain-cli login [-h] [--token TOKEN] [--password-stdin]\n  --token TOKEN  "
        "API token (or set BRAIN_TOKEN)\nversion {k:h6n_semver}",
        "de|Hilfe: `pg_dump -U NUTZER -W` fragt das Passwort interaktiv ab; siehe {k:h6n_ticket}.",
        "en|mysql --help: -p, --password[=name]  Password to use when connecting to server. "
        "(client {k:h6n_semver})",
        "de|`aws configure` fragt nach Access Key ID und Secret Access Key; Profil für "
        "Konto {k:h6n_account_id} noch nicht angelegt.",
    ],
    "credential_talk": [
        "de|Das Passwort für das Lohnportal wurde zurückgesetzt; das neue liegt im Tresor "
        "(Ticket {k:h6n_ticket}).",
        "en|Rotated the Stripe key this morning; the old one is revoked. Ticket {k:h6n_ticket}.",
        "de|Die PIN der Firmenkarte hat {k:h6n_name} geändert, sie steht nicht hier.",
        "en|User {k:h6n_email} asked how to reset 2FA; pointed her to the recovery-code page.",
        "de|Der Token ist abgelaufen, deshalb 401 seit {k:h6n_birthdate} – neuer Token folgt "
        "per Passwortmanager.",
        "en|Reminder: never paste private keys into chat. Incident {k:h6n_ticket} was "
        "exactly that.",
        "de|Kennwort-Richtlinie: mindestens 14 Zeichen, kein Wiederverwenden der letzten fünf "
        "(Beschluss vom {k:h6n_birthdate}).",
        "en|The SMS code did not arrive for {k:h6n_phone}; the carrier blocks short codes.",
        "de|Session-Cookies laufen nach 30 Minuten ab; {k:h6n_name} wünscht sich 8 Stunden.",
    ],
    "personal_data": [
        "de|Neue Lieferadresse von {k:h6n_name}: {k:h6n_address}.",
        "en|{k:h6n_name}, born {k:h6n_birthdate}, prefers calls on {k:h6n_phone}.",
        "de|Erstattung bitte auf IBAN {k:h6n_iban} (Kontoinhaber {k:h6n_name}).",
        "en|Contact for the audit: {k:h6n_email}, customer number {k:h6n_customer}.",
        "de|Steuer-ID {k:h6n_tax_id} für die Lohnabrechnung von {k:h6n_name} eingetragen.",
        "en|Parcel {k:h6n_tracking} for order {k:h6n_order} is stuck in the depot.",
        "de|Dienstwagen {k:h6n_plate} steht ab Montag bei {k:h6n_name}.",
        "en|Invoice for {k:h6n_customer} goes to {k:h6n_address}, attention {k:h6n_name}.",
    ],
}
