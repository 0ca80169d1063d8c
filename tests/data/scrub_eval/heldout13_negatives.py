"""Negative templates of held-out13: identifiers, references and talk about credentials.

No text here holds a secret (issue 20: identifiers without credential context are content).
Many sit beside words such as key, token, code, PIN or Passwort that do not introduce a value
that grants access. Invariant: every `{k:…}` value must survive scrubbing unchanged.
"""

from __future__ import annotations

DIGESTS = [
    "en|Release checklist: artifact sha256 {k:h13c_sha256}, built from commit {k:h13c_sha1}.",
    "de|Prüfsumme der ISO (sha256sum): {k:h13c_sha256}  debian-13-netinst.iso",
    "en|Image pinned by digest: registry.firma.example/api@{k:h13c_docker_digest}",
    "de|Container {k:h13c_container_id} ist nach dem Update neu gestartet, "
    "Commit {k:h13c_short_sha}.",
    "en|md5 of the uploaded invoice PDF: {k:h13c_md5} (matches the customer's copy).",
    'de|Lockfile-Eintrag: "integrity": "{k:h13c_npm_integrity}" für lodash {k:h13c_version}.',
    'en|<script src="/static/app.js" integrity="{k:h13c_sri}" crossorigin="anonymous">',
    'de|ETag der Antwort war "{k:h13c_etag}", danach 304 Not Modified.',
]

IDS = [
    "en|Request {k:h13c_uuid} failed with 502; trace {k:h13c_trace_id}, span {k:h13c_span_id}.",
    "de|Datensatz-ID {k:h13c_uuid_nodash} wurde doppelt angelegt, bitte zusammenführen.",
    "en|Tenant id {k:h13c_uuid_upper} belongs to {f:kunde}; subscription renewed.",
    "de|Job {k:h13c_ulid} hängt seit 03:00, Worker {k:h13c_pod}.",
    "en|Event {k:h13c_ksuid} was replayed twice by the queue.",
    "de|Mongo-Dokument {k:h13c_mongo_oid} hat kein Feld lieferdatum.",
    "en|Short link id {k:h13c_nanoid} is used in the flyer print run (public page).",
    "de|Video für das Onboarding: https://youtu.be/{k:h13c_youtube}",
    "en|Minutes are in https://docs.google.com/document/d/{k:h13c_gdoc_id}/edit (team drive).",
    "de|Cloudflare Ray-ID {k:h13c_cf_ray} aus der Fehlerseite, Kunde {f:kunde}.",
    "en|GitHub Actions run {k:h13c_run_id} failed at the lint step.",
    "de|Idempotenzschlüssel der Zahlung: {k:h13c_idem_key} (Retry nach Timeout).",
    "en|Payment {k:h13c_stripe_pi} for customer {k:h13c_stripe_cus} was refunded.",
    "de|Neue Instanz aus {k:h13c_ami}, Security-Group {k:h13c_sg_id}, Konto {k:h13c_aws_account}.",
]

COMMERCE = [
    "de|Bestellung {k:h13c_order_no} von {f:kunde}: Rechnung {k:h13c_invoice}, Paket {k:h13c_dhl}.",
    "en|UPS tracking {k:h13c_ups} for order {k:h13c_order_no}; signature required.",
    "de|Überweisung bitte an {k:h13c_iban}, Verwendungszweck {k:h13c_invoice}.",
    "en|Barcode on the pallet label: EAN {k:h13c_ean13}, customer {k:h13c_customer_no}.",
    "de|Dienstwagen FIN {k:h13c_vin}, nächste Inspektion im März.",
    "en|Replacement phone for {f:name_en}: IMEI {k:h13c_imei}, serial {k:h13c_serial}.",
    "de|Drucker im 2. OG: MAC {k:h13c_mac}, feste IP vergeben.",
    "en|Ticket {k:h13c_ticket}: {f:kunde} asks for a copy of invoice {k:h13c_invoice}.",
]

PUBLIC_MATERIAL = [
    "en|Add this to authorized_keys for Ole: {k:h13c_ssh_pub} ole@laptop",
    "de|Host-Key-Fingerprint von {k:h13c_host}: {k:h13c_ssh_fp} (ED25519), bitte beim ersten "
    "Verbinden vergleichen.",
    "en|My PGP key fingerprint: {k:h13c_gpg_fp} — encrypt mail to me with it.",
    "de|Zertifikat erneuert, Seriennummer {k:h13c_cert_serial}, gültig bis 2027.",
    "en|age recipient for the backup encryption (public): {k:h13c_age_recipient}",
    "de|WireGuard-Peer für das Büro:\n[Peer]\nPublicKey = {k:h13c_wg_pub}\nAllowedIPs = "
    "10.8.0.0/24\nEndpoint = vpn.firma.example:51820",
    'en|JWKS of the auth server (public keys):\n{"keys":[{"kty":"RSA","kid":"'
    '{k:h13c_short_sha}","use":"sig","e":"AQAB","n":"{k:h13c_jwks_n}"}]}',
    "de|Spenden bitte an die Vereinsadresse {k:h13c_btc_addr} (Bitcoin).",
    "en|Refund went out as transaction {k:h13c_eth_tx} to {k:h13c_eth_addr}.",
    'de|Logo für die Signatur: <img src="{k:h13c_png}">',
    "en|The API returned the report as gzip+base64: {k:h13c_gzip_b64}",
    "de|Anhang (PDF, base64) aus dem Mail-Export: {k:h13c_pdf_b64}",
]

CREDENTIAL_TALK = [
    "de|{f:name} hat ihr Passwort geändert; das neue hat sie nicht genannt und soll es auch nicht.",
    "en|Reminder for {f:name_en}: never paste tokens into tickets, use the vault link instead.",
    "de|Passwortrichtlinie bei {f:kunde}: mindestens 14 Zeichen, Wechsel alle 180 Tage.",
    "en|The token expired at 14:02; {k:h13c_login} re-authenticated via SSO without issues.",
    "de|Die PIN wurde nach drei Fehlversuchen gesperrt, der PUK-Brief kommt per Post.",
    "en|API key rotation for the mail provider is scheduled for next Tuesday, "
    "owner {k:h13c_login}.",
    "de|Fehlercode 0x80070005 beim Update, Zugriff verweigert (Ticket {k:h13c_ticket}).",
    "en|model settings: max_tokens=4096, temperature 0.2, tokenizer {k:h13c_version}.",
    "de|Primärschlüssel der Tabelle ist (mandant_id, beleg_nr), Index auf {k:h13c_login}.",
    "en|2FA is enabled for {k:h13c_login} with an authenticator app since November.",
    "de|Schlüssel 14 für den Serverraum hängt im Kasten am Empfang, Liste bei {f:name}.",
    "en|OAuth log: state={k:h13c_nanoid} code_challenge={k:h13c_pkce_challenge} method=S256",
    "de|CSP-Header: script-src 'self' 'nonce-{k:h13c_csp_nonce}'",
    "en|HTTP 401 invalid_token for request {k:h13c_uuid}; the client had an old config.",
    "de|Der Bestätigungscode wurde an {k:h13c_phone} geschickt, {f:name} hat ihn eingegeben.",
    "en|Password reset link sent to {f:name_en} ({k:h13c_login}); confirmed at 09:40.",
]

REFERENCES = [
    "en|DB_PASSWORD=${DB_PASSWORD}\nDB_HOST={k:h13c_host}\nDB_USER={k:h13c_login}",
    "de|password_file: /run/secrets/db_password  # Docker-Secret, Stack {k:h13c_pod}",
    'en|api_key = os.getenv("MISTRAL_API_KEY")  # set in deployment {k:h13c_short_sha}',
    "de|token: \"{{ lookup('env', 'CF_API_TOKEN') }}\"  # Ansible, Host {k:h13c_host}",
    "en|env:\n  - name: SMTP_PASSWORD\n    valueFrom:\n      secretKeyRef:\n"
    "        name: mail-creds\n"
    "        key: password\n# pod {k:h13c_pod}",
    'de|Zugang zum Router: Benutzer {k:h13c_login}, Passwort siehe KeePass-Eintrag "Router Büro".',
    'en|"password": "********" (masked in the export, user {k:h13c_login})',
    "de|restic --password-file ~/.config/restic/pw backup /srv (Snapshot {k:h13c_short_sha})",
    "en|secret ref: op://Infra/postgres-prod/password — resolved by run {k:h13c_run_id}.",
    "de|NPM_TOKEN kommt aus ${{ secrets.NPM_TOKEN }} im Workflow, Run {k:h13c_run_id}.",
    "en|arn:aws:secretsmanager:eu-central-1:{k:h13c_aws_account}:secret:prod/db-credentials is "
    "read by the task role.",
    "de|SMTP-Passwort: <wird vom Kunden nachgereicht>, Server {k:h13c_host}.",
]
