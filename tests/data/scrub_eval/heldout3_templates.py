"""Templates of the third held-out set (seed 31877), written by the judge track (issue 20,
session 4) from what agents' memories really hold: shell sessions, configs (.env, YAML, TOML,
JSON, INI), logs, chat, tickets, e-mails, code and Markdown, in German and English.

`SECRETS` texts hold at least one credential (`{s:…}`: its whole value must go) and often
content beside it (`{k:…}`: must survive); `CONTENT` texts (heldout3_negatives) hold none:
any change to them is a false positive. `{f:…}` values are neither (identifiers that are part
of a credential's surroundings, e.g. the workspace ids of a Slack webhook URL): not scored.
Measured once after the scrubber's freeze, never tuned on.
"""

from __future__ import annotations

from tests.data.scrub_eval.heldout3_negatives import CONTENT

__all__ = ["CONTENT", "FILLERS", "FRAMES", "SECRETS"]

FRAMES = [
    ("", ""),
    ("", ""),
    ("Notiz: ", ""),
    ("Aus dem Chat kopiert:\n", ""),
    ("From the incident channel:\n> ", ""),
    ("## Merken\n\n", "\n"),
    ("", "\n\n(gespeichert vom Agenten)"),
    ("Context for the next session: ", ""),
    ("```\n", "\n```"),
    ("Summary of the call:\n", "\n-- end"),
]

FILLERS = {
    "slack_t": ["T04QX8N2KJB", "T01HZ7M3Q5R"],
    "slack_b": ["B06R2M7PL1Z", "B05KD3W9XQE"],
    "akia": ["AKIAZ4RWQX7NBLM3TPQE", "AKIA5JH2KQWERT7YUVBN"],
    "twilio_sid": ["AC5f1e0b7c2d9a4e6f8b3c1d0e2f4a6b8c", "AC0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a"],
    "algolia_app": ["HX72KD9QPL", "Q4ZB8NW1RT"],
}

SECRETS = {
    "forge": [
        "en|$ git remote set-url origin https://{s:h3_github_classic}@github.com/acme/brain.git\n"
        "# push works again, see {k:h3_jira}",
        "de|Hab dir für die Pipeline einen Fine-grained Token angelegt, läuft 90 Tage: "
        "{s:h3_github_fine} (nur Contents: read)",
        "en|GITLAB_TOKEN={s:h3_gitlab}  # release job only, ticket {k:h3_jira}",
        "de|git clone https://ci-bot:{s:h3_bitbucket}@bitbucket.org/acme/infra.git",
        "en|//registry.npmjs.org/:_authToken={s:h3_npm}\n# publishing {k:h3_version} from CI",
        "de|~/.pypirc\n[pypi]\n  username = __token__\n  password = {s:h3_pypi}",
        "en|export HF_TOKEN={s:h3_huggingface}\nhuggingface-cli download acme/reranker "
        "--revision {k:h3_commit}",
    ],
    "chat_and_bots": [
        "en|slack:\n  bot_token: {s:h3_slack_bot}\n  channel: {k:h3_slack_channel}",
        "de|Webhook für #alerts: https://hooks.slack.com/services/{f:slack_t}/{f:slack_b}/"
        "{s:h3_slack_hook_secret} – bitte nicht weitergeben",
        "de|Bot-Token vom Community-Discord: {s:h3_discord_bot} — Server-ID {k:h3_snowflake}",
        "en|Telegram alert bot @acme_alerts_bot, token {s:h3_telegram}",
        "de|Twilio fürs SMS-Gateway: Account SID {f:twilio_sid}, Auth Token {s:h3_twilio_token}. "
        "Absender ist {k:h3_phone}",
    ],
    "payments": [
        "en|.env.production\nSTRIPE_SECRET_KEY={s:h3_stripe_live}\n"
        "STRIPE_WEBHOOK_SECRET={s:h3_stripe_whsec}\n# test customer: {k:h3_stripe_customer}",
        "de|Für das Reporting-Skript nur den Restricted Key nehmen: {s:h3_stripe_restricted} "
        "(darf nur Charges lesen).",
        "en|SQUARE_ACCESS_TOKEN={s:h3_square}\nSQUARE_ENVIRONMENT=production",
        "de|Shopify Admin-API-Token für den Shop acme-moebel: {s:h3_shopify} (read_orders). "
        "Testbestellung war {k:h3_order_code}",
        "de|Firmenkarte für die SaaS-Abos: {s:h3_card_number}, gültig bis 09/29, CVC {s:h3_cvc}",
    ],
    "ai_and_cloud": [
        'en|client = OpenAI(api_key="{s:h3_openai}")  # TODO env var before merging {k:h3_jira}',
        "de|Anthropic-Key fürs Eval-Notebook: {s:h3_anthropic} – Limit 50 $ im Monat",
        'en|curl "https://maps.googleapis.com/maps/api/geocode/json?address=Alexanderplatz+Berlin'
        '&key={s:h3_google_api}"',
        "en|DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey={s:h3_azure_storage};"
        "EndpointSuffix=core.windows.net",
        "de|App-Registrierung „brain-sync“: Client-ID {k:h3_uuid}, Verzeichnis {k:h3_uuid}, "
        "geheimer Clientschlüssel {s:h3_azure_client_secret}",
        "de|~/.aws/credentials\n[prod]\naws_access_key_id = {f:akia}\n"
        "aws_secret_access_key = {s:h3_aws_secret}",
        "en|Download link (valid 1h): https://acme-exports.s3.eu-central-1.amazonaws.com/q4.csv"
        "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={f:akia}%2F20261201%2Feu-central-1"
        "%2Fs3%2Faws4_request&X-Amz-Date=20261201T101500Z&X-Amz-Expires=3600"
        "&X-Amz-SignedHeaders=host&X-Amz-Signature={s:h3_s3_signature}",
        "de|SAS-URL für den Upload: https://acmebackup.blob.core.windows.net/dumps?sv=2022-11-02"
        "&ss=b&srt=co&sp=rwlac&se=2026-12-31T23:59:59Z&spr=https&sig={s:h3_azure_sas_sig}",
        "en|doctl auth init --access-token {s:h3_digitalocean}",
        "de|CF_API_TOKEN={s:h3_cloudflare}  # DNS bearbeiten, Zone-ID {k:h3_md5}",
        'en|{\n  "type": "service_account",\n  "project_id": "acme-analytics",\n'
        '  "private_key_id": "{k:h3_commit}",\n'
        '  "private_key": "-----BEGIN PRIVATE KEY-----\\n{s:h3_pem_escaped}'
        '\\n-----END PRIVATE KEY-----\\n",\n'
        '  "client_email": "etl@acme-analytics.iam.gserviceaccount.com"\n}',
    ],
    "saas": [
        "en|Postmark server token: {s:h3_uuid_secret}\nLast bounce id {k:h3_uuid}, stream outbound",
        "de|heroku config:set HEROKU_API_KEY={s:h3_uuid_secret} -a acme-staging",
        "en|Jira API token for the sync script (user {k:h3_email}): {s:h3_atlassian}",
        "de|Notion-Integration „Wiki-Export“ – Secret {s:h3_notion}; Datenbank {k:h3_uuid_hex}",
        "en|SENDGRID_API_KEY={s:h3_sendgrid}\nMAIL_FROM={k:h3_email}",
        'en|mailchimp.setConfig({ apiKey: "{s:h3_mailchimp}" });',
        "de|Algolia App-ID {f:algolia_app}, Admin-API-Key {s:h3_algolia_admin} – der "
        "Search-Only-Key steht schon im Frontend",
        "en|datadog:\n  apiKey: {s:h3_datadog}\n  site: datadoghq.eu\n  clusterName: prod-eu-1",
        "en|Grafana service account token for the dashboard exporter: {s:h3_grafana_sa}",
        "de|Mapbox-Secret-Token (Downloads:Read) für den iOS-Build: {s:h3_mapbox}",
        "en|curl -H 'Authorization: SSWS {s:h3_okta}' https://acme.okta.com/api/v1/users?limit=25",
        "de|export PULUMI_ACCESS_TOKEN={s:h3_pulumi}\npulumi stack select acme/prod",
        "en|$ vault login {s:h3_vault}\nSuccess! You are now authenticated.",
        'en|credentials "app.terraform.io" {\n  token = "{s:h3_terraform_cloud}"\n}',
    ],
    "keys_and_tokens": [
        "en|deploy key of the old box:\n-----BEGIN RSA PRIVATE KEY-----\n{s:h3_pem_body}\n"
        "-----END RSA PRIVATE KEY-----",
        "de|Der Key vom Jump-Host (id_ed25519):\n-----BEGIN OPENSSH PRIVATE KEY-----\n"
        "{s:h3_openssh_body}\n-----END OPENSSH PRIVATE KEY-----",
        "en|# created: 2026-11-03T10:12:44+01:00\n{s:h3_age}",
        "de|[Interface]\nPrivateKey = {s:h3_wireguard_private}\nAddress = 10.8.0.2/24\n\n[Peer]\n"
        "PublicKey = {k:h3_wireguard_public}\nEndpoint = vpn.acme.example:51820",
        'en|curl -H "Authorization: Bearer {s:h3_jwt}" https://api.acme.example/v1/me',
        "de|Der Webhook schickt `Authorization: Basic {s:h3_basic_auth}` mit, siehe {k:h3_jira}",
        "en|apiVersion: v1\nkind: Secret\nmetadata:\n  name: pg-credentials\ntype: Opaque\ndata:\n"
        "  username: cG9zdGdyZXM=\n  password: {s:h3_k8s_b64}",
        "de|2FA fürs Admin-Konto neu eingerichtet: otpauth://totp/Acme:admin?"
        "secret={s:h3_totp_seed}&issuer=Acme",
        "en|GitHub recovery codes for the ops account:\n{s:h3_recovery_code}\n"
        "{s:h3_recovery_code}\n{s:h3_recovery_code}\n{s:h3_recovery_code}",
        "de|curl 'https://intranet.acme.example/api/export' -H 'Cookie: sessionid="
        "{s:h3_session_cookie}'",
        "en|SECRET_KEY = '{s:h3_django_secret}'\nDEBUG = False\n"
        "ALLOWED_HOSTS = ['brain.acme.example']",
        "en|http GET https://api.internal.example/v2/reports X-Api-Key:{s:h3_api_key_hex} "
        "X-Request-Id:{k:h3_uuid}",
    ],
    "passwords": [
        "de|Das WLAN-Passwort im Büro ist jetzt {s:h3_password_human}, das alte gilt ab Montag "
        "nicht mehr.",
        "en|Mum's Netflix login: {k:h3_email} / {s:h3_password_human}",
        "de|Hallo {k:h3_name},\n\nIhr vorläufiges Kennwort lautet: {s:h3_password_random}\n"
        "Bitte ändern Sie es bei der ersten Anmeldung.\n\nViele Grüße\nIT-Service",
        "en|DATABASE_URL=postgres://app:{s:h3_url_password}@db.internal:5432/brain",
        "de|mongodb+srv://reporting:{s:h3_url_password}@cluster0.ab12c.mongodb.net/analytics"
        "?retryWrites=true",
        "en|REDIS_URL=redis://:{s:h3_url_password}@cache-2.lan:6379/0",
        "en|$ mysql -h {f:host} -u root -p{s:h3_password_random} shop < dump.sql",
        "de|ssh admin@{f:host} – pw ist {s:h3_password_random}, sudo geht ohne",
        "de|spring.mail.host=smtp.acme.example\nspring.mail.username=noreply\n"
        "spring.mail.password={s:h3_password_random}",
        "en|storePassword={s:h3_password_random}\nkeyAlias=upload\nkeyPassword={s:h3_password_random}",
        "en|GPG passphrase of the backup key (fingerprint {k:h3_gpg_fingerprint}): "
        "{s:h3_passphrase}",
        "de|Das Gäste-WLAN heißt Acme-Guest, das Passwort ist {s:h3_passphrase}",
        "de|Login fürs Elternportal der Schule: {k:h3_email}, Passwort {s:h3_password_human}",
        "en|| system | user | password |\n|---|---|---|\n| NAS | admin | {s:h3_password_random} |\n"
        "| router | root | {s:h3_password_human} |",
    ],
    "pins_and_codes": [
        "de|Die PIN für die neue EC-Karte ist {s:h3_pin4}. Die Karte liegt im Schreibtisch.",
        "en|SIM card of the test phone: PIN {s:h3_pin4}, PUK {s:h3_puk}",
        "de|Tresor im Lager: Code {s:h3_door_code}, bitte nach der Inventur ändern",
        "en|door code for the back entrance of the office is {s:h3_door_code}",
        "de|WLAN-Schlüssel der FRITZ!Box im Keller: {s:h3_wifi_fritz}",
        "de|PIN der Banking-App: {s:h3_pin6} (nur für Notfälle, Papa)",
    ],
}
