"""Templates of the sixth held-out set (judge6, seed 64219): texts an agent stores.

Session notes, pasted snippets, ticket summaries, configs, chats and logs, in German and
English. `SECRETS` hold at least one credential (`{s:h6_*}`); a credential's neighbours
(user names, hosts, services) are fillers (`{f:*}`), identifiers and personal data beside it
are content to keep (`{k:h6n_*}`). Negatives (`CONTENT`) are in `heldout6_negatives`.
"""

from __future__ import annotations

from tests.data.scrub_eval.heldout6_negatives import CONTENT

__all__ = ["CONTENT", "FILLERS", "FRAMES", "SECRETS"]

FRAMES = [
    ("", ""),
    ("Notiz nach der Session: ", ""),
    ("Session summary: ", ""),
    ("Aus dem Chat kopiert:\n", ""),
    ("> ", "\n(pasted by the user)"),
    ("Ticket-Zusammenfassung. ", " Status: offen."),
    ("", "\n-- end of log excerpt --"),
    ("Memo: ", " (merken)"),
]

FILLERS = {
    "h6user": ["jana.k", "deploy", "svc_backup", "admin", "m.weber", "reporting", "ci-bot"],
    "h6host": ["db.internal", "pg.prod.acme.example", "cache.lan", "erp.local", "mq.staging"],
    "h6svc": ["Jira", "das Lohnportal", "Grafana", "den Staging-Cluster", "Nextcloud", "DATEV"],
    "h6db": ["orders", "crm", "analytics", "brain", "billing"],
    "h6keyid": [
        "3f1c0a9e5d7b2c4e6f8a0b1c2d3e4f5a6b7c8d9e",
        "9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c",
    ],
    "h6slack": ["T01HQ7ZK3PL/B06R2M9XW4C", "T02AB3CD4EF/B07GH8IJ9KL", "T0ACME2026X/B0DEPLOYS01"],
}

SECRETS = {
    "provider_tokens": [
        "de|Für das Deployment-Skript habe ich den AWS-Schlüssel hinterlegt: "
        "aws_access_key_id = {s:h6_aws_access_key}, aws_secret_access_key = {s:h6_aws_secret} "
        "(Konto {k:h6n_account_id}).",
        "en|~/.aws/credentials for the backup job:\n[backup]\n"
        "aws_access_key_id={s:h6_aws_access_key}"
        "\naws_secret_access_key={s:h6_aws_secret}\nregion=eu-central-1",
        "en|User pasted their GitHub token so I could open the PR: {s:h6_github_classic}. "
        "PR refers to commit {k:h6n_commit}.",
        "de|Neuer fine-grained PAT für das Repo brain-infra, läuft 90 Tage: {s:h6_github_fine}",
        "en|GITLAB_TOKEN={s:h6_gitlab_pat} # used by the release pipeline, see {k:h6n_ticket}",
        "de|Slack-Bot für #alerts: Token {s:h6_slack_bot}, Kanal {k:h6n_slack_channel}.",
        "en|Incoming webhook for the deploy channel: https://hooks.slack.com/services/"
        "{f:h6slack}/{s:h6_slack_webhook_secret}",
        "en|stripe:\n  secret_key: {s:h6_stripe_live}\n"
        "  customer_for_tests: {k:h6n_stripe_customer}",
        "de|Restricted Key nur für Reports (lesen): {s:h6_stripe_restricted}; Zahlung "
        "{k:h6n_stripe_payment_intent} war der Auslöser.",
        "en|export OPENAI_API_KEY={s:h6_openai}\npython eval.py --run {k:h6n_run_id}",
        "de|Der Nutzer hat seinen Anthropic-Key in den Chat kopiert: {s:h6_anthropic} – bitte "
        "nicht wieder anzeigen.",
        "en|Maps embed broke because the key was restricted to the wrong referrer. Key: "
        "{s:h6_google_api}",
        "en|.npmrc on the build box:\n//registry.npmjs.org/:_authToken={s:h6_npm}",
        "de|~/.pypirc für den Upload:\n[pypi]\nusername = __token__\npassword = {s:h6_pypi}",
        "en|SendGrid key for the newsletter sender (order {k:h6n_order}): {s:h6_sendgrid}",
        "de|Twilio: Account SID steht im Wiki, der Auth Token ist {s:h6_twilio_auth}.",
        'en|Login response contained access_token "{s:h6_jwt}" for user {k:h6n_email}.',
        "de|Connection String für den Blob-Speicher: DefaultEndpointsProtocol=https;"
        "AccountName=acmebackup;AccountKey={s:h6_azure_account_key};EndpointSuffix=core.windows.net",
        "en|HF_TOKEN={s:h6_hf_token} is needed to pull the gated model.",
        "de|DigitalOcean API-Token für Terraform: {s:h6_digitalocean}",
        "en|Telegram bot for on-call pings: bot token {s:h6_telegram_bot}",
        "de|Mailgun-Key (alt, vor der Rotation) war {s:h6_mailgun}.",
        "en|Shopify admin API access token: {s:h6_shopify} (shop product {k:h6n_product_code}).",
        "de|docker login -u {f:h6user} --password {s:h6_docker_pat} registry.acme.example",
        "en|VAULT_TOKEN={s:h6_vault_token} vault kv get secret/brain/{f:h6db}",
        "de|sops-Schlüssel der Staging-Umgebung:\n# created: 2026-11-02\n{s:h6_age_key}",
        "en|Datadog agent config: api_key: {s:h6_datadog_api}, site: datadoghq.eu",
        "de|Der Partner schickt uns den Header X-Api-Key: {s:h6_generic_api_key} – gilt für "
        "Kunde {k:h6n_customer}.",
        'en|curl -H "Authorization: Bearer {s:h6_bearer_opaque}" https://api.partner.example/v2/'
        "orders/{k:h6n_uuid}",
        "en|settings.py still has SECRET_KEY = '{s:h6_django_secret}' - move it to the env.",
        'en|service-account.json (excerpt): {"type": "service_account", '
        '"private_key_id": "{f:h6keyid}", "private_key": "{s:h6_gcp_private_key}", '
        '"client_email": '
        '"brain@acme.iam.gserviceaccount.com"}',
        "de|Der Download-Link aus dem Chat: https://acme-exports.s3.eu-central-1.amazonaws.com/"
        "report.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={s:h6_aws_access_key}"
        "%2F20261201%2Feu-central-1%2Fs3%2Faws4_request&X-Amz-Signature={s:h6_presigned_signature}",
        "en|Magic login link the user got by mail: https://app.acme.example/login?token="
        "{s:h6_magic_link_token}",
        "de|Im Log steht der ganze Header: Authorization: Basic {s:h6_basic_auth} (Request "
        "{k:h6n_traceparent})",
        "en|apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\ndata:\n  "
        "password: {s:h6_k8s_secret_b64}",
    ],
    "passwords": [
        "de|Zugang zu {f:h6svc}: Benutzer {f:h6user}, Passwort {s:h6_pw_strong}",
        "en|The password for {f:h6svc} is {s:h6_pw_strong}, user {f:h6user}.",
        "de|Sie sagt, ihr Passwort sei immer noch {s:h6_pw_weak} – sollte sie ändern.",
        "en|My wife's Netflix password is {s:h6_pw_weak_bang} lol, don't tell her",
        "de|Passphrase für den Schlüsselbund: {s:h6_pw_passphrase}",
        "en|KeePass master passphrase (he asked me to remember it): {s:h6_pw_passphrase}",
        "en|DATABASE_URL=postgresql://{f:h6user}:{s:h6_pw_urlsafe}@{f:h6host}:5432/{f:h6db}",
        "de|Die App verbindet sich mit mysql://{f:h6user}:{s:h6_pw_percent}@{f:h6host}/{f:h6db}"
        "?charset=utf8mb4",
        "en|redis://default:{s:h6_pw_urlsafe}@{f:h6host}:6379/0 is the cache for session storage",
        "de|amqp://{f:h6user}:{s:h6_pw_percent}@{f:h6host}:5672/ – die Queue für Rechnungen",
        "en|mongodb+srv://{f:h6user}:{s:h6_pw_percent}@cluster0.acme.mongodb.net/{f:h6db}",
        "de|WLAN im Büro: SSID Acme-Gast, Kennwort {s:h6_pw_wifi}",
        "en|WIFI:T:WPA;S:Acme-Lab;P:{s:h6_pw_wifi};; (QR code content from the whiteboard)",
        "de|.env\nPOSTGRES_USER={f:h6user}\nPOSTGRES_PASSWORD={s:h6_pw_strong}\nPOSTGRES_DB={f:h6db}",
        "en|mysql -u {f:h6user} -p'{s:h6_pw_strong}' -h {f:h6host} {f:h6db}",
        "de|curl -u '{f:h6user}:{s:h6_pw_strong}' https://{f:h6host}/api/export",
        "en|git clone https://{f:h6user}:{s:h6_gitlab_pat}@gitlab.acme.example/infra/brain.git",
        "de|~/.netrc\nmachine {f:h6host} login {f:h6user} password {s:h6_pw_strong}",
        "en|~/.pgpass line: {f:h6host}:5432:{f:h6db}:{f:h6user}:{s:h6_pw_strong}",
        'de|smtp:\n  host: mail.acme.example\n  user: {f:h6user}\n  pass: "{s:h6_pw_strong}"',
        'en|Chat: "new pw for the router admin is {s:h6_pw_weak_bang}, set it yesterday"',
        "de|Kunde {k:h6n_name} hat am Telefon sein Kennwort genannt: {s:h6_pw_weak}. Rückruf unter "
        "{k:h6n_phone}.",
        'en|config.json: {"db": {"host": "{f:h6host}", "user": "{f:h6user}", '
        '"password": "{s:h6_pw_strong}"}}',
        "de|Das Initialpasswort für den neuen Mitarbeiter {k:h6n_name} lautet {s:h6_pw_strong}.",
    ],
    "pins_and_codes": [
        "de|Die PIN der Firmenkreditkarte ist {s:h6_pin}, Karte liegt im Safe.",
        "en|Her phone unlock PIN: {s:h6_pin}. She wants me to remind her to change it.",
        "de|SIM-Karte gesperrt, PUK laut Brief: {s:h6_puk}",
        "en|The 2FA code from the SMS was {s:h6_otp}; login went through.",
        "de|Bestätigungscode für die Überweisung: {s:h6_otp} (gilt fünf Minuten)",
        "en|GitHub recovery codes, keep them safe:\n{s:h6_recovery_code}\n{s:h6_recovery_code}\n"
        "{s:h6_recovery_code}\n{s:h6_recovery_code}",
        "de|Backup-Codes für das Google-Konto von {k:h6n_name}: {s:h6_backup_code}, "
        "{s:h6_backup_code}, {s:h6_backup_code}",
        "en|otpauth://totp/Acme:{f:h6user}?secret={s:h6_totp_seed}&issuer=Acme",
        "de|Das TOTP-Geheimnis (falls die App weg ist): {s:h6_totp_seed}",
        "en|Garage door code is {s:h6_pin}, alarm disarm code the same plus a hash.",
    ],
    "keys_cookies_cards": [
        "en|Deploy key for the mirror (private half, do not commit):\n{s:h6_openssh_private}",
        "de|Der alte Server-Schlüssel aus /etc/ssl/private/server.key:\n{s:h6_rsa_private}",
        "en|ec key pasted into the chat by mistake:\n{s:h6_ec_private}\nuser asked to forget it",
        "de|Cookie aus den DevTools: sessionid={s:h6_session_cookie}; Path=/; HttpOnly",
        "en|Repro: curl -b 'JSESSIONID={s:h6_jsessionid}' https://{f:h6host}/admin/users",
        "en|Set-Cookie: connect.sid={s:h6_connect_sid}; Path=/; HttpOnly; Secure",
        "de|Karte für die Hotelbuchung: {s:h6_card_number}, gültig bis 09/28, Prüfziffer "
        "{s:h6_card_cvc}, Inhaber {k:h6n_name}",
        "en|Customer read their card over chat: {s:h6_card_number} exp 11/27 CVV {s:h6_card_cvc}",
        "de|Kartennummer {s:h6_card_number} wurde im Support-Ticket {k:h6n_ticket} unmaskiert "
        "gespeichert.",
    ],
}
