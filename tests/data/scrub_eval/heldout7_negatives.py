"""Negative templates of the seventh held-out set (judge7, seed 83471): what an agent stores
that names credentials, shows identifiers, references, placeholders, code, personal data and
numbers — and holds no secret. By CONTRACT.md §8 every value here is content: it must come
back unchanged. `{k:maker}` values are the content a text marks as `keep`.

Invariant: no template holds a usable credential; a word such as password, token, key, PIN
or secret appears only as a name, a reference, a rule, a placeholder or in another meaning.
"""

from __future__ import annotations

CONTENT = {
    "no_value": [
        "de|Passwort für das Lohnportal wurde am {k:h7_date} zurückgesetzt; das neue kommt per"
        " Brief an {k:h7_street}.",
        "en|The user's GitHub token expired; she will create a new one herself. Do not ask for it"
        " in chat (ticket {k:h7_jira}).",
        "de|Zugangsdaten für den Shop liegen im Passwortmanager unter „Shop / Admin“ – nicht hier"
        " speichern. Kundennummer {k:h7_customer_no}.",
        "en|API key rotation for Stripe is scheduled for {k:h7_iso_date}; owner {k:h7_name}. The"
        " old key stays valid for 24 hours.",
        "de|Login: {k:h7_user}, Passwort: siehe Brief vom {k:h7_date}.",
        "en|password: same as the staging one (ask {k:h7_name}), user {k:h7_user}",
        "de|Der PIN-Brief für die neue Karte (endet auf {k:h7_last4}) kommt separat per Post.",
        "en|2FA recovery codes were regenerated on {k:h7_iso_date} and printed; the sheet is in"
        " the office safe, no copy in here.",
        "de|Kennwortrichtlinie ab {k:h7_date}: mindestens 14 Zeichen, keine Wiederverwendung der"
        " letzten 5, Ablauf nach 365 Tagen.",
        "en|Secret scanning alert {k:h7_ticket} closed as a false positive: commit {k:h7_commit}"
        " only renames a test fixture.",
        "de|SSO-Umstellung: ab {k:h7_date} kein lokales Passwort mehr für Grafana, Anmeldung nur"
        " über Entra ID ({k:h7_name} informiert).",
        "en|The OTP is 6 digits and valid for 30 seconds; clock drift on device {k:h7_serial}"
        " caused the failed logins.",
        "de|Kundschaft: {k:h7_name} hat das Passwort vergessen; Reset-Link ging an {k:h7_email},"
        " Vorgang {k:h7_ticket}.",
        "en|MFA device lost: backup codes were invalidated on {k:h7_iso_date}, new device enrolled"
        " by {k:h7_name}.",
        "de|Der Vault-Token des CI läuft alle 24 h ab und wird vom Runner {k:h7_pod} selbst"
        " erneuert.",
    ],
    "references": [
        "en|CI step: `npm publish` with `NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}` - run"
        " {k:h7_count} green.",
        "de|Im Helm-Chart: `valueFrom: secretKeyRef: {name: db-creds, key: password}`; Release"
        " {k:h7_version}.",
        'en|`export OPENAI_API_KEY=$(op read "op://Dev/OpenAI/credential")` is in the user\'s'
        " .zshrc since {k:h7_iso_date}.",
        'de|Platzhalter in der Vorlage: `password: "<CHANGE_ME>"` und `api_key: "DEIN_API_KEY"`;'
        " echte Werte setzt Ansible (Build {k:h7_short_commit}).",
        'en|Docs example: `curl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/items`'
        " - replace $TOKEN with your own. Page {k:h7_ticket}.",
        "de|Laut Doku beginnen Schlüssel mit `sk_live_` (live) bzw. `sk_test_` (Test) – Notiz zu"
        " {k:h7_jira}.",
        "en|The app reads the DB password from SSM parameter /billing/prod/db_password through"
        " the role {k:h7_arn}.",
        "de|`.env.example` enthält DATABASE_URL=postgres://user:password@localhost:5432/app – nur"
        " ein Beispiel, Commit {k:h7_short_commit}.",
        "en|Masked in the logs: `password=********`, `token=[REDACTED]` - the shipper's filter"
        " works (job {k:h7_ulid}).",
        "de|Terraform: `password = var.db_password` und `api_token ="
        ' data.vault_generic_secret.cf.data["token"]`; Plan mit {k:h7_count} Änderungen.',
        'en|The script prompts with `getpass.getpass("Vault token: ")` and never writes the'
        " answer to disk; PR {k:h7_ticket}.",
        "de|`kubectl create secret generic api-keys --from-env-file=.env.prod` im Namespace"
        " billing, Pod {k:h7_pod}.",
        "en|Secret lives in AWS Secrets Manager as `prod/checkout/stripe` (version stage"
        " AWSCURRENT, rotated {k:h7_iso_date}).",
        "de|Token-Variable im Workflow: `${{ github.token }}` reicht für Kommentare; Lauf"
        " {k:h7_count}.",
    ],
    "identifiers": [
        "en|Deployed image {k:h7_image_digest} to prod; commit {k:h7_commit}; rollout {k:h7_uuid}.",
        "de|Download geprüft: SHA-256 {k:h7_sha256} stimmt mit der Release-Seite überein (Version"
        " {k:h7_version}).",
        'en|Added to the landing page: <script src="https://cdn.example.net/app.js" integrity="'
        '{k:h7_sri}" crossorigin="anonymous"></script>',
        'de|package-lock.json: "integrity": "{k:h7_npm_integrity}" für lodash {k:h7_version}.',
        "en|Trace {k:h7_trace_id} shows the checkout span at 1.8 s; request {k:h7_request_id};"
        " pod {k:h7_pod}.",
        "de|Stripe: Kunde {k:h7_stripe_customer}, Zahlung {k:h7_stripe_payment_intent} über"
        " {k:h7_amount} erstattet.",
        "en|Plan: https://docs.google.com/document/d/{k:h7_gdoc_id}/edit - talk:"
        " https://youtu.be/{k:h7_youtube_id}",
        'de|Event-ID {k:h7_ulid}, ETag "{k:h7_etag}", Objekt exports/{k:h7_uuid_hex}.parquet',
        "en|The dataset is pinned at ipfs://{k:h7_cid}; anchoring transaction {k:h7_txid}.",
        "de|Container {k:h7_container} auf {k:h7_host} neu gestartet, Image {k:h7_image_digest}.",
        "en|Deploy key added: ssh-ed25519 {k:h7_ssh_pub} ci@build, fingerprint"
        " {k:h7_ssh_fingerprint}.",
        "de|WireGuard-Peer ergänzt: PublicKey = {k:h7_wg_public}, AllowedIPs = {k:h7_ipv4}/32.",
        "en|Screenshot the user sent, kept as thumbnail: {k:h7_png_b64}",
        "de|PGP-Schlüssel von {k:h7_name}: Fingerprint {k:h7_pgp_fingerprint}, öffentlich auf"
        " keys.openpgp.org.",
        "en|OAuth client of the desktop app: client_id {k:h7_oauth_client_id} (public client,"
        " PKCE, no client secret).",
        "de|CA-Zertifikat des Proxys (öffentlich):\n-----BEGIN CERTIFICATE-----\n{k:h7_cert_body}"
        "\n-----END CERTIFICATE-----",
        "en|Notion page {k:h7_uuid_hex}, Slack channel {k:h7_slack_channel} and {k:h7_jira} all"
        " link the launch checklist.",
        "de|Git LFS: oid sha256:{k:h7_sha256}, size {k:h7_count}; Commit {k:h7_short_commit}.",
        "en|Donation wallet shown on the website: {k:h7_eth_address} (public).",
        "en|Conversation {k:h7_uuid} continued from {k:h7_ulid}; summary attached.",
        "de|age-Empfänger für die Backups (öffentlich): {k:h7_age_public}, Repo {k:h7_jira}.",
        "en|Twilio account SID {k:h7_twilio_sid} sends the SMS; messaging service in region ie1.",
    ],
    "personal": [
        "de|Kundin {k:h7_name}, {k:h7_street}, Tel. {k:h7_phone}, E-Mail {k:h7_email} – bevorzugt"
        " Rückruf nachmittags.",
        "en|Payee for invoice {k:h7_invoice}: {k:h7_name}, IBAN {k:h7_iban}, amount {k:h7_amount}.",
        "de|Steuer-ID von {k:h7_name}: {k:h7_tax_id}; Krankenversichertennummer"
        " {k:h7_insurance_no}.",
        "en|New contact: {k:h7_name}, {k:h7_phone_us}, {k:h7_email}; met at the Berlin meetup.",
        "de|Fahrzeug {k:h7_plate}, FIN {k:h7_vin}, HU fällig am {k:h7_date}.",
        "en|Parcel {k:h7_tracking} for {k:h7_name} arrives on {k:h7_iso_date}.",
        "de|Geburtstag von {k:h7_name} am {k:h7_date}; Geschenkidee: Kochkurs.",
    ],
    "numbers": [
        "de|bestellung;sku;menge;betrag\n{k:h7_order};{k:h7_sku};3;{k:h7_amount}\n{k:h7_order};"
        "{k:h7_sku};1;{k:h7_amount}",
        "en|| order | customer | total |\n|---|---|---|\n| {k:h7_order} | {k:h7_customer_no} |"
        " {k:h7_amount} |",
        "de|Seriennummern der neuen Laptops: {k:h7_serial}, {k:h7_serial}, {k:h7_serial} (MAC"
        " {k:h7_mac}).",
        "en|Port plan on {k:h7_ipv4}: api 8443, metrics 9102, db 5432; VLAN {k:h7_count}.",
        "de|Ticket {k:h7_ticket}: Kunde meldet Fehlercode 0x80070005 beim Update auf"
        " {k:h7_version}.",
        "en|Build {k:h7_count} took 14 min; cache key linux-node-{k:h7_sha256}.",
        "de|Rechnung {k:h7_invoice} vom {k:h7_date}, Betrag {k:h7_amount}, Zahlungsziel 14 Tage.",
        "en|Meter readings: {k:h7_count} kWh on {k:h7_iso_date}, gas {k:h7_count} m³.",
    ],
    "other_meaning": [
        "en|User prefers short answers, no emojis, works in CET; the secret sauce of her team is"
        " the weekly demo ({k:h7_date}).",
        "de|Geheimtipp von {k:h7_name}: das Café in der {k:h7_street} hat den besten Kuchen.",
        "en|Primary key of the orders table is (tenant_id, order_id); partition key"
        " TENANT#{k:h7_uuid}.",
        "de|Der Nutzer möchte, dass ich mir nie Passwörter merke – nur, wo sie liegen. Notiert am"
        " {k:h7_date}.",
        "en|Slides for the talk 'The key to reliable agents' are in the drive folder"
        " {k:h7_gdoc_id}.",
        "de|Schlüsselübergabe der Wohnung {k:h7_street} am {k:h7_date} mit {k:h7_name}: drei"
        " Schlüssel, ein Chip.",
        "en|Session usage: {k:h7_count} input tokens, 200k context window, cost {k:h7_amount}.",
        "en|Rate limiter: token bucket of 100 tokens, refill 10/s; request {k:h7_request_id} was"
        " throttled.",
        "de|Büroschlüssel Nr. {k:h7_count} beim Empfang abholen; Ansprechpartnerin {k:h7_name}.",
    ],
    "code": [
        "en|```python\ndef login(user: str, password: str) -> Session:\n    token ="
        " auth.exchange(user, password)\n    return Session(token=token)\n```\nadded in"
        " {k:h7_short_commit}",
        "de|SQL-Migration: `ALTER TABLE users ADD COLUMN password_changed_at timestamptz;`"
        " (Ticket {k:h7_jira}).",
        'en|Form field: `<input type="password" name="password" autocomplete="new-password">` -'
        " issue {k:h7_ticket}.",
        'de|Log: `level=warn msg="invalid password" user={k:h7_user} ip={k:h7_ipv4} attempts=3`',
        "en|Log: `token refresh scheduled in 3600s for client {k:h7_uuid}`",
        "de|Test-Fixture: `assert check_password(hash, wrong) is False` – Zeile {k:h7_count}.",
        'en|Config schema: `api_key: str = Field(min_length=32, description="from env")` -'
        " {k:h7_short_commit}",
    ],
}
