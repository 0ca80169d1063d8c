"""Templates of the second development round (seed 61423; the scrubber may be tuned on it).

Same slot syntax as `dev_templates` (`{s:maker}` secret, `{k:maker}` content that must
survive, `{f:filler}`); makers from `secrets_r2`/`content_r2` (and the first round's). What
the first round lacks: more vendors, secrets inside JSON/YAML/TOML/HCL/INI, URLs with tokens,
passwords in everyday prose (de/en), and as content: cloud resource names, integrity hashes,
fingerprints, booking and tax codes, personal data of AT/CH/FR/NL/GB/ES/IT/US.
"""

from __future__ import annotations

FILLERS: dict[str, list[str]] = {
    "bucket": ["acme-exports", "brain-backups", "reports-eu"],
    "group": ["6f1c0b7e-2d4a-4e5b-9c8d-7a6b5c4d3e2f", "0b9a8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d"],
    "tool": ["Bitwarden", "KeePass", "dem Passwortmanager", "1Password"],
}

SECRETS: dict[str, list[str]] = {
    "cloud": [
        'en|{\n  "type": "service_account",\n  "project_id": "acme-prod",\n  "private_key_id": '
        '"{k:notion_page_id}",\n  "private_key": "{s:gcp_sa_private_key_json}",\n  '
        '"client_email": "ci@acme-prod.iam.gserviceaccount.com"\n}',
        "en|AZURE_CLIENT_SECRET={s:azure_client_secret}",
        "de|Client-Secret der App-Registrierung in Entra: {s:azure_client_secret} "
        "(läuft in 24 Monaten ab)",
        "en|SAS link: https://{f:bucket}.blob.core.windows.net/exports/q3.csv?sv=2022-11-02&ss=b"
        "&srt=o&sp=r&se=2026-12-31T00:00:00Z&sig={s:azure_sas_sig}",
        "en|doctl auth init --access-token {s:digitalocean_token}",
        "de|DigitalOcean-Token für Terraform: {s:digitalocean_token}",
        "en|CLOUDFLARE_API_TOKEN={s:cloudflare_token}",
        "de|Cloudflare API-Token (Zone DNS edit): {s:cloudflare_token}",
        "en|Alibaba Cloud AccessKey ID {s:alibaba_key_id}, secret {s:aws_secret}",
        "en|https://{f:bucket}.s3.eu-central-1.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-"
        "SHA256&X-Amz-Credential={s:aws_key_id}%2F20261201%2Feu-central-1%2Fs3%2Faws4_request&X-Amz-"
        "Expires=3600&X-Amz-Signature={s:s3_presigned_signature}",
        'de|terraform.tfvars:\ndo_token = "{s:digitalocean_token}"\nregion = "fra1"',
        "en|credentials.tfrc.json has the token {s:terraform_token}",
    ],
    "saas": [
        "en|DD_API_KEY={s:datadog_api_key}",
        "de|Datadog API-Key für den Agent: {s:datadog_api_key}",
        "en|NEW_RELIC_API_KEY={s:newrelic_key}",
        "en|SENTRY_DSN=https://{s:sentry_dsn_key}@o{k:snowflake}.ingest.sentry.io/4504",
        "de|Sentry Auth-Token für die Release-Uploads: {s:sentry_auth_token}",
        "en|Grafana service account token: {s:grafana_token}",
        "de|Jira/Confluence API-Token von {f:user}: {s:atlassian_token}",
        "en|NOTION_TOKEN={s:notion_token}",
        "de|Airtable Personal Access Token: {s:airtable_pat}",
        "en|supabase login --token {s:supabase_token}",
        "de|Postman-API-Key {s:postman_key}",
        "en|FIGMA_TOKEN={s:figma_token}",
        "en|PULUMI_ACCESS_TOKEN={s:pulumi_token}",
        "de|Brevo (Sendinblue) API-Schlüssel: {s:brevo_key}",
        "en|Mailchimp API key {s:mailchimp_key} for the newsletter list",
        "en|SQUARE_ACCESS_TOKEN={s:square_token}",
        "de|Mapbox Secret Token (nur Backend): {s:mapbox_secret}",
        "en|FCM legacy server key: {s:firebase_server_key}",
        "de|Okta API-Token für den SCIM-Sync: {s:okta_token}",
        "en|Twilio account {k:twilio_sid}, API secret {s:twilio_api_secret}",
    ],
    "ai": [
        "en|GROQ_API_KEY={s:groq_key}",
        "de|Replicate-Token für die Bildgenerierung: {s:replicate_token}",
        "en|Perplexity key: {s:perplexity_key}",
        "en|XAI_API_KEY={s:xai_key}",
        "de|Mistral API-Key: {s:mistral_key}",
        'en|client = OpenAI(api_key="{s:openai_service_key}")',
        'de|anthropic.Anthropic(api_key="{s:anthropic_key}") im Notebook von {f:person}',
    ],
    "git": [
        "en|The GitHub App installation token {s:github_other_token} expires in an hour.",
        "de|OAuth-Token aus `gh auth token`: {s:github_other_token}",
        "en|gitlab-runner register --token {s:gitlab_runner_token}",
        "en|SLACK_APP_TOKEN={s:slack_app_token}",
        "en|Stripe test key for staging: {s:stripe_test_key}",
    ],
    "webhooks": [
        "en|Discord alerts: https://discord.com/api/webhooks/1187654321098765432/{s:discord_webhook_token}",
        "de|Discord-Bot-Token: {s:discord_bot_token}",
        "en|Teams webhook: https://acme.webhook.office.com/webhookb2/{f:group}@{f:group}"
        "/IncomingWebhook/{s:teams_webhook_secret}/{f:group}",
        "de|Google-Chat-Webhook: https://chat.googleapis.com/v1/spaces/AAAA{k:b62_short}/messages"
        "?key={s:google_api_key}&token={s:urlsafe_token}",
    ],
    "oauth": [
        "en|Authorization: Bearer {s:google_oauth_access}",
        "de|Refresh-Token vom Google-Login: {s:google_refresh_token}",
        "en|id_token={s:jwt_rs256}",
        "de|Im Local Storage lag access_token: {s:jwt_rs256}",
        "en|Cookie: sessionid={s:session_cookie}; csrftoken={s:b62_key}",
        "de|Session-Cookie connect.sid={s:session_cookie}",
    ],
    "app_secrets": [
        "en|SECRET_KEY='{s:django_secret}'",
        "de|.env von Laravel:\nAPP_NAME=Shop\nAPP_KEY={s:laravel_app_key}\nAPP_DEBUG=false",
        "en|JWT_SECRET={s:jwt_signing_secret}",
        "de|NEXTAUTH_SECRET={s:jwt_signing_secret}",
        'en|settings.toml:\n[auth]\nsigning_key = "{s:jwt_signing_secret}"\nissuer = "acme"',
        "en|SOPS age key: {s:age_secret_key}",
    ],
    "private_keys": [
        "en|{f:person}'s signing key:\n{s:pgp_private_key}",
        "de|Verschlüsselter Schlüssel (Passwort separat):\n{s:encrypted_private_key}",
        'en|{"id": "deploy", "key": "{s:gcp_sa_private_key_json}"}',
    ],
    "connections": [
        "en|amqp://{f:user}:{s:password_db}@rabbit.{f:host}:5672/vhost",
        "de|Die Replika: mysql://{f:user}:{s:password_db}@{f:host}:3306/shop",
        "en|SQLALCHEMY_DATABASE_URI=postgresql+psycopg2://{f:user}:{s:password_db}@{f:host}/app",
        "de|rediss://default:{s:password_db}@redis.{f:host}:6380",
        "en|mongodb://{f:user}:{s:password_db}@mongo1.{f:host},mongo2.{f:host}/?replicaSet=rs0",
        "en|Driver={ODBC Driver 18};Server={f:host};Uid={f:user};Pwd={s:password_db};",
        "de|~/.pgpass: {f:host}:5432:crm:{f:user}:{s:password_db}",
        "en|sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
        'username="{f:user}" password="{s:password_db}";',
        "de|FTP für den Druckdienstleister: ftp://{f:user}:{s:password_db}@ftp.{f:host}/upload",
        "en|sqlplus {f:user}/{s:password_db}@{f:host}:1521/ORCL",
        "de|docker-compose.yml:\n  environment:\n    POSTGRES_USER: {f:user}\n"
        "    POSTGRES_PASSWORD: {s:password_db}",
        "en|LDAP bind: binddn cn={f:user},dc=acme,dc=example bindpw {s:password_db}",
    ],
    "prose_passwords": [
        "de|Mein neues Passwort für {f:svc} ist {s:password_prose}, bitte merken.",
        "de|Das Kennwort lautet jetzt {s:password_prose} (Groß-/Kleinschreibung beachten).",
        "de|{f:person} hat das Root-Passwort auf {s:password_prose} geändert.",
        "de|Zugang zum Vereinskonto: Benutzername {f:user}, Kennwort {s:password_prose}",
        "de|Fürs Protokoll: Datenbankpasswort = {s:password_db}",
        "de|Das Master-Passwort von {f:tool} ist {s:password_prose}.",
        "de|Initialpasswort für neue Mitarbeitende: {s:password_prose}",
        "en|My password for {f:svc} is now {s:password_prose}.",
        "en|{f:person} said the admin pw is {s:password_prose} until Monday.",
        "en|Login details: username {f:user}, password {s:password_prose}",
        "en|new pass for the shared mailbox -> {s:password_prose}",
        "en|The root password on {f:host} got reset to {s:password_prose}",
    ],
    "codes": [
        "de|Backup-Codes für 2FA: {s:recovery_code}, {s:recovery_code}",
        "en|recovery code for the GitHub org: {s:recovery_code}",
        "de|Kartenprüfnummer (CVC) der Firmenkarte: {s:cvv}",
        "en|The CVV on the back of the travel card is {s:cvv}.",
        "de|Der Code der Alarmanlage ist {s:pin}.",
        "en|the gate code is {s:pin}",
    ],
    "mixed": [
        "en|Role {k:aws_arn} assumed with key {s:aws_key_id} / {s:aws_secret}",
        "de|Rechnung {k:invoice_number}: Login fürs Portal {f:user} / {s:password_prose}",
        "en|Ticket {k:jira_key}: rotated the Datadog key, new one is {s:datadog_api_key}",
        "de|Pod {k:k8s_pod} liest DB_PASSWORD={s:password_db}",
        "en|Image digest {k:lfs_oid}; registry token {s:github_other_token}",
        "de|Für {f:person} ({k:iban_intl}) gilt das Portal-Passwort {s:password_prose}.",
    ],
}

CONTENT: dict[str, list[str]] = {
    "cloud_ids": [
        "en|The deploy role is {k:aws_arn}.",
        "de|Instanz {k:aws_resource_id} läuft in eu-central-1",
        "en|kubectl logs {k:k8s_pod} -n prod",
        "de|Ressource: {k:azure_subscription}",
        "en|Branch {k:git_branch} is ready for review",
        "de|Bucket s3://{f:bucket}/exports/{k:ulid}.parquet",
    ],
    "record_ids": [
        "en|Mongo document {k:object_id} has the wrong status",
        "de|Event-ID {k:ulid} im Log gefunden",
        "en|segment id {k:ksuid}",
        "de|Kurz-ID {k:nanoid} im Link",
        "en|Post it in {k:slack_channel_id}, please.",
        "de|Discord-Nachricht {k:snowflake} angepinnt",
        "en|Spec doc: https://docs.google.com/document/d/{k:google_doc_id}/edit",
        "de|Notion-Seite {k:notion_page_id}",
        "en|Salesforce account {k:salesforce_id}",
        "de|Siehe {k:jira_key}, Analytics-Property {k:analytics_id}",
        "en|short link https://acme.example/r/{k:b62_short}",
    ],
    "digests": [
        "en|sha512sum: {k:sha512}",
        'de|<script src="/app.js" integrity="{k:sri_hash}" crossorigin="anonymous"></script>',
        "en|Host key fingerprint is {k:ssh_host_fingerprint}.",
        "de|Zertifikat-Thumbprint {k:cert_thumbprint}",
        "en|ETag: {k:etag}",
        "de|Build-Artefakt {k:asset_name}, Prüfsumme {k:sha256}",
        "en|oid {k:lfs_oid}",
        "de|Hash der Datei im Archiv: {k:md5}",
    ],
    "codes": [
        "de|Buchungscode {k:booking_code}, Abflug 07:40",
        "en|PNR {k:booking_code} for the Berlin trip",
        "de|Rechnung {k:invoice_number} ist bezahlt",
        "en|Use coupon {k:coupon_code} at checkout.",
        "de|Sendung {k:dhl_tracking} liegt in der Filiale",
        "en|ISIN {k:isin}, 20 shares",
        "de|LEI der Gesellschaft: {k:lei}",
        "en|BIC {k:bic}",
        "de|USt-IdNr. {k:vat_id}, {k:register_number} Amtsgericht Köln",
    ],
    "personal_intl": [
        "de|Konto in Österreich/Schweiz: {k:iban_intl}",
        "en|Refund to IBAN {k:iban_intl} (BIC {k:bic})",
        "de|{f:person} ist unter {k:phone_intl} erreichbar.",
        "en|Office phone {k:phone_intl}",
        "de|Neue Adresse: {k:address_intl}",
        "en|ship to {k:address_intl}",
        "de|Steuernummer beim Finanzamt: {k:steuernummer}",
        "de|AHV-Nummer von {f:person}: {k:ahv_number}",
        "en|EIN {k:us_ein} on the 1099",
        "en|codice fiscale {k:codice_fiscale}",
        "de|DNI der spanischen Kollegin: {k:dni}",
        "en|BSN {k:bsn} for the Dutch payroll",
        "en|UTR {k:uk_utr} for the self assessment",
        "de|Personalnummer {k:employee_id}, geboren am {k:date_de}",
    ],
    "credential_talk": [
        "de|Das Passwort für {f:svc} liegt in {f:tool}, nicht hier.",
        "en|Remember to rotate the Datadog API key next week.",
        "de|Der Token ist abgelaufen, {f:person} stellt einen neuen aus.",
        "en|Password policy: 14 characters, no reuse of the last 5.",
        "de|Bitte keine Passwörter in Tickets schreiben.",
        "en|The secret is stored in AWS Secrets Manager under prod/db.",
        "de|Kennwort zurückgesetzt, {f:person} bekommt es per Telefon.",
        "en|Client secret expires on 2026-12-31, renew in Entra.",
        "de|PIN vergessen: Sperre nach drei Fehlversuchen.",
        "en|Set SENTRY_DSN in the environment, not in code.",
    ],
}

CONTENT["layouts"] = [
    'en|{"bucket": "{f:bucket}", "region": "eu-central-1", "kms_key_arn": "{k:aws_arn}"}',
    "de|.env (ohne Geheimnisse):\nAPP_ENV=production\nLOG_LEVEL=info\nREGION=eu-central-1\n"
    "FEATURE_FLAGS=search,ledger",
    "en|2026-11-30T08:12:44Z INFO request_id={k:uuid_hex} user={f:user} status=200 took=41ms",
    "de|| Kunde | IBAN | Telefon |\n|---|---|---|\n| {f:person} | {k:iban_intl} | {k:phone_intl} |",
    'en|package-lock: "integrity": "{k:sri_hash}"',
    'de|terraform.tfvars:\nregion = "fra1"\nimage = "ubuntu-24-04-x64"\n'
    'droplet_id = "{k:snowflake}"',
    "en|[14:03] ben: deployed {k:short_sha} to {k:k8s_pod}",
    "de|Der Webhook zeigt auf https://hooks.example.com/in/{k:nanoid}, Signatur per HMAC.",
    "en|token_type=Bearer expires_in=3600 scope=read:orders",
    "de|API-Version 2024-06-20, Ratenlimit 100 Anfragen pro Minute, Key-ID {k:ulid}",
    "en|The key ID in the JWKS is {k:notion_page_id}; keys rotate monthly.",
    "de|Git-Tag v{k:semver}, Commit {k:sha1}",
]
CONTENT["personal_more"] = [
    "en|{f:person}, {k:address_intl}, {k:phone_intl}",
    "de|Rückruf an {f:person} unter {k:phone_intl} wegen Vertrag {k:long_number}",
    "en|Tax: EIN {k:us_ein}, VAT {k:vat_id}",
    "de|Bankverbindung: {k:iban_intl}, {k:bic}",
    "en|Employee {k:employee_id} moved to {k:address_intl}",
    "de|Codice fiscale von {f:person}: {k:codice_fiscale}",
    "en|Dutch BSN {k:bsn}, Spanish DNI {k:dni}",
    "de|Geburtsdatum {k:date_de}, Steuernummer {k:steuernummer}",
    "en|Mobile {k:phone_e164}, email {k:email}",
    "de|Lieferadresse: {k:address_intl} (Hinterhaus)",
    "en|AHV {k:ahv_number}; UTR {k:uk_utr}",
    "de|Kundin {f:person}, Kundennummer {k:long_number}, IBAN {k:iban}",
]

FRAMES: list[tuple[str, str]] = [
    ("", ""),
    ("", ""),
    ("Merke: ", ""),
    ("", " — bitte nicht weitergeben."),
    ("Note to self: ", ""),
    ("> ", ""),
    ("[14:02] anna: ", ""),
    ("", "\n-- \nGesendet vom Handy"),
]
