"""Templates of the held-out set: written apart from the development templates (other wording,
other layouts - JSON, tables, mails, chat), with a few kinds the development set lacks.

The scrubber is never tuned on this set: it is measured once before any change and once at
the end. Syntax as in `dev_templates`.
"""

from __future__ import annotations

SECRETS: dict[str, list[str]] = {
    "password": [
        "de|Hallo {f:person}, dein vorläufiges Kennwort lautet {s:password_strong} - bitte beim "
        "ersten Login ändern.",
        "de|| System | Benutzer | Passwort |\n|---|---|---|\n"
        "| {f:svc} | {f:user} | {s:password_word} |",
        "de|Für den Kiosk-Rechner: Anmeldung als {f:user} mit {s:password_weak} als Passwort.",
        "de|PASSWORD: {s:password_strong}",
        "de|Root-Kennwort vom alten Server war {s:password_word}, der neue hat ein anderes.",
        'en|{"username": "{f:user}", "password": "{s:password_strong}"}',
        "en|hey, can you try logging in with {f:user} and password {s:password_word}?",
        "en|pwd={s:password_strong}",
        "en|Temp password for {f:person}: {s:password_weak} (expires Friday)",
        "en|sshpass -p '{s:password_strong}' ssh {f:user}@{f:host}",
        "en|The password I picked for the shared mailbox is {s:password_word}.",
    ],
    "wifi": [
        "de|WLAN-Schlüssel fürs Lager: {s:wifi_key}",
        "en|guest wifi password is {s:wifi_key}",
    ],
    "passphrase": [
        "en|unlock the keystore with the passphrase {s:passphrase}",
        'de|Die Passphrase für den Tresor-Export: "{s:passphrase}"',
    ],
    "pin": [
        "de|Neue Karten-PIN: {s:pin}",
        "en|PIN for the door keypad: {s:pin}",
        "de|PIN vom Diensthandy ist {s:pin}",
    ],
    "connection": [
        'en|SQLALCHEMY_DATABASE_URI = "mysql+pymysql://{f:user}:{s:password_url}@{f:host}/shop"',
        "de|Broker: amqp://{f:user}:{s:password_url}@{f:host}:5672/",
        'en|psql "host={f:host} dbname=app user={f:user} password={s:password_url}"',
        "de|Verbindungszeichenfolge: Data Source={f:host};Initial Catalog=Lohn;User ID={f:user};"
        "Password={s:password_url}",
    ],
    "aws": [
        'en|{"AccessKeyId": "{s:aws_key_id}", "SecretAccessKey": "{s:aws_secret}"}',
        "de|Zugangsschlüssel der IAM-Rolle: {s:aws_key_id} / geheimer Schlüssel {s:aws_secret}",
        "en|AWS_ACCESS_KEY_ID: {s:aws_key_id}",
        "de|aws configure -> secret access key eingegeben: {s:aws_secret}",
    ],
    "providers": [
        "en|token for the homebrew tap: {s:github_pat}",
        "de|Personal Access Token (GitHub, nur repo-Scope): {s:github_pat}",
        "en|gitlab-runner register --registration-token {s:gitlab_pat}",
        "de|Der Slack-Token vom Standup-Bot ist {s:slack_token}",
        "en|webhook_url: https://hooks.slack.com/services/{s:slack_webhook}",
        'en|stripe.api_key = "{s:stripe_secret}"',
        "de|Signing-Secret vom Stripe-Webhook: {s:stripe_webhook}",
        "en|using {s:openai_key} for the batch job",
        "de|ANTHROPIC_API_KEY: {s:anthropic_key}",
        'en|const MAPS_KEY = "{s:google_api_key}";',
        "de|OAuth-Client-Secret (Google): {s:google_client_secret}",
        "en|npm config set //registry.npmjs.org/:_authToken {s:npm_token}",
        "en|[pypi]\nusername = __token__\npassword = {s:pypi_token}",
        "de|Docker-Hub-Zugangstoken: {s:docker_pat}",
        "en|huggingface-cli login --token {s:hf_token}",
        "de|SENDGRID_API_KEY={s:sendgrid_key}",
        "de|Twilio: Account {k:twilio_sid}, Auth-Token {s:twilio_auth_token}",
        "de|Storage-Verbindung: DefaultEndpointsProtocol=https;AccountName=lagerdaten;"
        "AccountKey={s:azure_account_key}",
        "en|Shopify admin token {s:shopify_token}",
        "de|Mailgun-Key: {s:mailgun_key}",
        "en|LINEAR_API_KEY={s:linear_key}",
        "de|Doppler Service-Token: {s:doppler_token}",
        "en|vault login {s:vault_token}",
    ],
    "headers": [
        'en|headers = {"Authorization": "Bearer {s:jwt}"}',
        "de|Bearer-Token für die Abnahme-Umgebung: {s:jwt}",
        'en|-H "Authorization: Basic {s:basic_auth}"',
        "de|Auth-Header: Bearer {s:b62_key}",
        "en|x-api-key: {s:hex_key}",
    ],
    "keys": [
        "en|id_ed25519 of the jump host (do not share):\n{s:private_key}",
        "de|Privater Schlüssel des TLS-Zertifikats:\n{s:private_key}",
    ],
    "generic": [
        "de|Unser Zugangsschlüssel für die Wetter-API: {s:hex_key}",
        'en|{"apiKey": "{s:hex_key}", "region": "eu"}',
        "en|SECRET_KEY = '{s:urlsafe_token}'",
        "de|Webhook-Signatur-Secret: {s:urlsafe_token}",
        "en|encryption key: {s:b64_key}",
        "de|Schlüssel für die Verschlüsselung der Backups: {s:b64_key}",
        "en|the vendor gave us this API key: {s:uuid_key}",
        "de|API-Token (Partnerportal) {s:uuid_key}",
        "en|APP_SECRET={s:b62_key}",
        "de|Das Geheimnis für die Signatur lautet {s:b62_key}.",
    ],
    "card": [
        "en|card: {s:card_number} exp 11/27",
        "de|Bitte mit der Kreditkarte {s:card_number} bezahlen.",
    ],
    "totp": [
        "de|TOTP-Secret für das Admin-Konto: {s:totp_secret}",
        "en|MFA secret key {s:totp_secret} (add it to the authenticator)",
    ],
    "mixed": [
        "en|Rolled back to {k:sha1}; the new API key is {s:hex_key}.",
        "de|Kunde {k:email} hat das Passwort {s:password_word} bekommen.",
        "en|Order {k:order_number}: paid by card {s:card_number}",
        "de|Container {k:container_id} läuft mit DB-Passwort {s:password_url}",
    ],
}

CONTENT: dict[str, list[str]] = {
    "hex_digest": [
        "en|md5sum says {k:md5}",
        "de|Hashwert des Installers: {k:sha256}",
        "en|expected sha256 {k:sha256} but got {k:sha256}",
        "de|Der Fingerabdruck des Exports ist {k:sha1}.",
        "de|Dateien mit Inhalt {k:md5} sind Duplikate",
        "de|{k:sha256} ist der Wert aus der Release-Notiz.",
    ],
    "commit": [
        "de|Regression kam mit {k:sha1} rein.",
        "en|merged as {k:short_sha}, thanks!",
        "de|Stand {k:short_sha} läuft auf Staging.",
    ],
    "uuid": [
        "en|tenant {k:uuid_dashed} asked for an export",
        "de|Die Fehlermeldung nannte {k:uuid_hex} als Anfrage.",
        "en|the webhook delivery {k:uuid_hex} was retried 3 times",
        "de|Idempotenz-Schlüssel {k:uuid_hex} doppelt verwendet",
        "en|event id: {k:request_id}",
    ],
    "urlsafe_id": [
        "en|Invite link: https://meet.example.com/j/{k:urlsafe_id}",
        "de|Die Upload-Session {k:urlsafe_id} ist abgelaufen.",
        "en|record {k:urlsafe_id} was merged into another one",
        "de|Ordner im Drive: https://drive.google.com/drive/folders/{k:drive_file_id}",
        "en|Video: https://youtu.be/{k:youtube_id}",
        "de|Nachricht {k:urlsafe_id} im Postfach gelöscht.",
    ],
    "base64_image": [
        "de|Logo als Data-URI: data:image/jpeg;base64,{k:base64_image}",
        'en|{"thumbnail": "{k:base64_image}"}',
        "de|Das Foto kam so im JSON an: {k:base64_image}",
        "en|payload (base64):\n{k:base64_blob}",
    ],
    "product_code": [
        "en|Part no. {k:product_code} fits the 2019 model",
        "de|Inventarnummer {k:serial_number} gehört zum Beamer.",
        "en|ISBN-13 {k:ean13}",
        "de|Ersatzteil {k:product_code} ist bestellt, Lieferung mit {k:tracking_number}",
        "en|Amazon order {k:order_number} arrived damaged",
    ],
    "platform_id": [
        "de|Zahlung {k:stripe_object_id} ist in Stripe als erstattet markiert.",
        "en|Airtable base {k:airtable_id} holds the leads",
        "de|Das Image hat den Digest {k:docker_digest}.",
        "en|docker logs {k:container_id}",
        "de|CID auf IPFS: {k:ipfs_cid}",
        "en|Span {k:trace_id} took 4.2 s",
        "de|Nachricht über Twilio, SID {k:twilio_sid}",
        "en|distribution id {k:cloudfront_id}",
        "de|Short-Link-Kennung {k:b62_id}",
        "en|AWS request {k:aws_request_id} hit the throttle",
    ],
    "public_key": [
        "en|add this to authorized_keys: {k:ssh_public_key}",
        "de|PGP-Fingerabdruck von {f:person}: {k:gpg_fingerprint}",
        "de|Wallet-Adresse: {k:eth_address}",
    ],
    "network": [
        "en|the AP {k:mac_address} got {k:ip_address} from DHCP",
    ],
    "credential_talk": [
        "en|Passwords must not contain the user name.",
        "de|{f:person} hat das Passwort für {f:svc} zurückgesetzt.",
        "en|The API key expired yesterday, I requested a new one.",
        "de|Token-Budget pro Anfrage: 4000",
        "en|Key takeaway from the retro: ship smaller changes.",
        "de|Die PIN wurde dreimal falsch eingegeben, Karte gesperrt.",
        "en|She keeps the secret recipe in her head.",
        "de|Zugangsdaten kommen per Post, nicht per Mail.",
        "en|auth service deployed {k:semver}",
        "de|Bitte die Version {k:semver} pinnen.",
        "en|The passport photo must be 35 x 45 mm.",
    ],
    "personal": [
        "en|Contact: {f:person}, {k:email}, {k:phone}",
        "de|Lieferadresse: {k:address}",
        "en|refund to IBAN {k:iban}",
        "de|{f:person}, geboren am {k:birth_date}",
        "en|tax id {k:tax_id} (Germany)",
        "de|SV-Nummer von {f:person}: {k:social_insurance}",
        "en|{f:person}'s passport: {k:passport_number}",
        "de|Ausweisnummer {k:id_card_number} liegt in Kopie vor.",
        "de|Versichertennummer der Krankenkasse {k:health_insurance}",
        "en|Plate number {k:license_plate}",
        "en|Social Security Number: {k:us_ssn}",
        "de|NI-Nummer (UK) {k:uk_nino}",
        "en|driving licence no. {k:drivers_license}",
        "de|Fahrgestellnummer {k:vin}",
        "de|Telefon {f:person}: {k:phone}",
    ],
}

FRAMES: list[tuple[str, str]] = [
    ("", ""),
    ("", ""),
    ("> ", ""),
    ("Re: ", ""),
    ("- ", ""),
    ("", "\n\nViele Grüße\nJana"),
    ("Meeting 12.3.: ", ""),
    ("", " — cheers"),
]
