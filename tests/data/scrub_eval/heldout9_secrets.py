"""Templates with secrets of held-out set 9 (judge9 track): `SECRETS[group]` is a list of
`lang|text` templates, slots `{s:maker}` (a labelled secret), `{k:maker}` (content to keep),
`{f:filler}`. Each group writes its kind in several layouts: inline prose, the value far from
its word or in a second paragraph, tables, key/value configs, code, logs, shell history,
quoted replies, and texts with two or more secrets.

Invariant: a `{s:…}` slot holds only the credential itself (the password of a URL, the body
of a PEM block, the last path piece of a webhook), so that a span scrubber and a whole-line
scrubber are scored alike; the labels are checked in `tests/unit/test_scrub_eval_labels.py`.
"""

from __future__ import annotations

SECRETS: dict[str, list[str]] = {
    "chat_prose": [
        "de|{f:who9} hat im Chat geschrieben, dass sie das Passwort für {f:svc9} gestern "
        "zurückgesetzt hat. Nach etwas Hin und Her wegen der VPN-Verbindung kam dann die "
        "Auflösung: es lautet jetzt {s:h9_human_password} – bitte nicht weitergeben.",
        "en|Quick recap from the call with {f:who9}: the staging DB password was rotated after "
        "the audit. We spent most of the hour on the migration plan, but for the record, the one "
        "we set yesterday is {s:h9_human_password}.",
        "en|pw for the shared {f:svc9} login → {s:h9_human_password}, user is {k:h9_login}",
        "de|Kurz notiert: Zugang {f:svc9}, Benutzer {k:h9_login}, und das Kennwort hat mir "
        "{f:who9} am Telefon diktiert – {s:h9_human_password}",
    ],
    "far_from_word": [
        "de|Kennwort für das Kundenportal?\n\nHab nachgeschaut. Es ist immer noch das vom "
        "Sommer, also:\n\n{s:h9_human_password}",
        "en|Regarding the password you asked about on Tuesday — after checking with IT and the "
        "vendor, and after they reset it twice because of the lockout policy, the final value "
        "is: {s:h9_human_password}",
        "de|Das Passwort vom Lohnportal wurde geändert. Die alte Variante mit dem Jahreszahl-"
        "Suffix gilt nicht mehr, die IT hat eine zufällige vergeben. Die neue lautet "
        "{s:h9_url_password}, Ablauf in 90 Tagen.",
    ],
    "second_paragraph": [
        "en|Retro notes: the deploy pipeline got faster after caching the wheels; the flaky "
        "test in billing remains. Action items went to {f:who9}.\n\nUnrelated, but before I "
        "forget: the Grafana admin password is now {s:h9_human_password}.",
        "de|Heute Vormittag Kundentermin bei {f:team9}, Thema Rechnungsexport. Sie wollen CSV "
        "statt PDF, Ticket {k:h9_ticket} ist angelegt.\n\nNoch was anderes: für den SFTP-Zugang "
        "des Kunden gilt Benutzer {k:h9_login}, Kennwort {s:h9_url_password}.",
        "en|Release {k:h9_semver} is out, changelog in the wiki.\n\nAlso: the registry token for "
        "the mirror job expired, I created a new one: {s:h9_gitlab_token}",
    ],
    "env_file": [
        "en|```env\nAPP_ENV=production\nDATABASE_URL=postgres://app:{s:h9_url_password}@"
        "{f:host9}:5432/app\nSTRIPE_SECRET_KEY={s:h9_stripe_live}\nLOG_LEVEL=info\n```",
        "de|.env vom Worker (Stand heute):\nOPENAI_API_KEY={s:h9_openai_key}\n"
        "REQUEST_TIMEOUT=30\nQUEUE_NAME=invoices",
        "en|export AWS_ACCESS_KEY_ID={s:h9_aws_key_id}\nexport AWS_SECRET_ACCESS_KEY="
        "{s:h9_aws_secret_key}\nexport AWS_DEFAULT_REGION=eu-central-1",
        "de|In der .env des Shops steht STRIPE_WEBHOOK_SECRET={s:h9_stripe_webhook} – der "
        "gehört eigentlich in den Parameter Store.",
    ],
    "yaml_config": [
        "en|values.yaml for the chart:\n```yaml\nredis:\n  host: {f:host9}\n  port: 6379\n  "
        'auth:\n    enabled: true\n    password: "{s:h9_redis_password}"\nimage:\n  tag: '
        "{k:h9_semver}\n```",
        "de|docker-compose-Ausschnitt:\nservices:\n  db:\n    image: postgres:16\n    "
        "environment:\n      POSTGRES_USER: shop\n      POSTGRES_PASSWORD: {s:h9_url_password}\n"
        "  mail:\n    environment:\n      SMTP_PASS: {s:h9_smtp_password}",
        "en|apiVersion: v1\nkind: Secret\nmetadata:\n  name: billing-db\ntype: Opaque\ndata:\n  "
        "password: {s:h9_k8s_b64}",
        "de|GitHub-Actions-Workflow, Schritt Deploy:\n- name: Deploy\n  env:\n    FLY_API_TOKEN: "
        "{s:h9_fly_token}\n  run: flyctl deploy --remote-only",
    ],
    "json_config": [
        'en|{"service": "{f:svc9}", "retries": 3, "oauth": {"client_id": "{k:h9_client_id}", '
        '"client_secret": "{s:h9_google_oauth_secret}"}}',
        'de|Gespeicherte Konfiguration (JSON):\n{\n  "endpoint": "https://api.{f:host9}/v2",\n'
        '  "apiKey": "{s:h9_sendgrid_key}",\n  "sender": "{k:h9_email}"\n}',
        'en|{\n  "type": "service_account",\n  "private_key": "-----BEGIN PRIVATE KEY-----\\n'
        '{s:h9_pkcs8_escaped}\\n-----END PRIVATE KEY-----\\n",\n  "client_email": '
        '"{k:h9_sa_email}"\n}',
        'de|~/.docker/config.json vom Build-Server: {"auths": {"ghcr.io": {"auth": '
        '"{s:h9_docker_auth}"}}}',
    ],
    "shell_history": [
        "en|$ history | tail -4\n  501  cd /srv/app\n  502  mysql -u root -p'{s:h9_url_password}' "
        "shop < dump.sql\n  503  sshpass -p '{s:h9_human_password}' ssh deploy@{f:host9}\n  504  "
        "ls -la",
        "de|Befehl, den ich für den Import benutzt habe:\ncurl -u {k:h9_login}:{s:h9_url_password}"
        " https://{f:host9}/api/import -F file=@kunden.csv",
        "en|ran: echo {s:h9_gitlab_token} | docker login registry.gitlab.com -u ci "
        "--password-stdin && docker push registry.gitlab.com/{k:h9_repo}:latest",
        "de|So hab ich mich angemeldet: gh auth login --with-token <<< {s:h9_github_classic}",
    ],
    "url_credentials": [
        "de|Die Verbindung zum Cluster: mongodb+srv://reporting:{s:h9_url_password}@cluster0."
        "{f:host9}/analytics?retryWrites=true",
        "en|amqp://worker:{s:h9_url_password}@{f:host9}:5672/%2F is what the consumer uses; the "
        "publisher reads the same from Vault.",
        "en|Alerts go to https://hooks.slack.com/services/{f:slackpath}/{s:h9_slack_hook_secret}"
        " (channel #ops-alerts).",
        "de|FTP vom Altsystem: ftp://lager:{s:h9_url_password}@ftp.{f:host9}/export/ – wird "
        "nächste Woche abgeschaltet.",
        "en|Upload URL with SAS: https://shopmedia.blob.core.windows.net/raw?sv=2022-11-02&ss=b"
        "&srt=o&sp=rw&se=2026-12-31&sig={s:h9_sas_sig}",
    ],
    "code_review": [
        "en|Review comment on PR #{k:h9_pr_number}: you hard-coded the key here →\n```python\n"
        'client = Anthropic(api_key="{s:h9_anthropic_key}")\n```\nPlease move it to the '
        "secret store.",
        "de|Im Diff von {f:who9} steht noch:\n- const token = process.env.HF_TOKEN\n+ const "
        'token = "{s:h9_hf_token}"\nDas muss vor dem Merge raus.',
        "en|Spotted in settings.py during review:\nSECRET_KEY = '{s:h9_django_key}'\nDEBUG = "
        "False\nALLOWED_HOSTS = ['{f:host9}']",
        "de|Code-Review {k:h9_ticket}: in tests/conftest.py liegt `GOOGLE_MAPS_KEY = "
        '"{s:h9_google_api_key}"` – bitte durch eine Fixture ersetzen.',
    ],
    "logs": [
        "en|2026-11-28T09:14:03Z INFO  request_id={k:h9_req_id} POST /v1/charge 200\n"
        "2026-11-28T09:14:03Z DEBUG outgoing headers: {'Authorization': 'Bearer "
        "{s:h9_opaque_bearer}', 'Content-Type': 'application/json'}",
        "de|Auszug aus dem Log des Exporters (Login fehlgeschlagen):\nERROR auth failed for "
        "user={k:h9_login} password={s:h9_human_password} host={f:host9}\nWARN retrying in 30s",
        "en|nginx access log line that leaked the token:\n10.0.3.7 - - [02/Dec/2026:07:55:12 "
        '+0000] "GET /hooks/deploy?token={s:h9_hex_secret64} HTTP/1.1" 204 0',
    ],
    "stack_trace": [
        'en|Traceback (most recent call last):\n  File "/app/sync.py", line 88, in run\n    '
        'conn = psycopg.connect("host={f:host9} user=sync password={s:h9_url_password} '
        'dbname=crm")\npsycopg.OperationalError: connection timeout expired',
        "de|Stacktrace aus Sentry (die Schlüssel stehen im toString des Clients):\n"
        "java.lang.IllegalStateException: upload failed\n  at de.shop.S3Uploader.put("
        "S3Uploader.java:41)\nCaused by: S3Client[accessKey={s:h9_aws_key_id}, secretKey="
        "{s:h9_aws_secret_key}, region=eu-central-1]",
    ],
    "tables": [
        "de|| Dienst | Benutzer | Passwort |\n|---|---|---|\n| Router | admin | "
        "{s:h9_human_password} |\n| NAS | {k:h9_login} | {s:h9_url_password} |",
        "en|| env | Stripe key |\n|-----|-----|\n| staging | {s:h9_stripe_test} |\n| prod | "
        "{s:h9_stripe_live} |",
        "en|Access matrix\nservice      user       secret\n-----------  ---------  ------\n"
        "npm          ci-bot     {s:h9_npm_token}\npypi         uploader   {s:h9_pypi_token}",
    ],
    "runbook": [
        "en|Runbook: restoring the ledger DB\n1. Stop the writer: `systemctl stop ledger-writer`"
        "\n2. Fetch the dump from the backup bucket\n3. Log in with the break-glass account "
        "`breakglass` — the password lives in the safe, current value "
        "{s:h9_human_password}\n4. Run `pg_restore -d ledger dump.pgc`",
        "de|Notfallhandbuch Serverraum:\n- Tür: Zahlencode {s:h9_pin}\n- Alarmanlage zuerst "
        "entschärfen, dann Licht\n- USV-Weboberfläche: Benutzer admin, Kennwort "
        "{s:h9_human_password}",
    ],
    "recovery_codes": [
        "en|GitHub 2FA recovery codes for the org-owner account (store offline!):\n"
        "{s:h9_recovery_code}\n{s:h9_recovery_code}\n{s:h9_recovery_code}\n{s:h9_recovery_code}",
        "de|Backup-Codes für das Microsoft-Konto von {f:who9}: {s:h9_recovery_code}, "
        "{s:h9_recovery_code} und {s:h9_recovery_code}. Zwei sind schon verbraucht.",
        "en|TOTP seed for the shared ops mailbox (add it to your authenticator app): "
        "{s:h9_totp_seed}",
        "de|otpauth://totp/Firma:{k:h9_email}?secret={s:h9_totp_seed}&issuer=Firma – den "
        "QR-Code habe ich danach gelöscht.",
    ],
    "pins": [
        "de|Die PIN der Firmenkreditkarte ist {s:h9_pin}, die Karte liegt im Tresor.",
        "en|SIM card of the on-call phone: PIN {s:h9_pin}, PUK {s:h9_puk}.",
        "de|Aus dem Chat: »welche Geheimzahl hat das Diensthandy?« – »{s:h9_pin}, wie immer«",
        "en|Alarm panel at the warehouse\n\nUser code (disarm): {s:h9_pin}\nEntry delay: thirty "
        "seconds",
    ],
    "wifi": [
        "de|Gäste-WLAN im Büro: SSID {k:h9_ssid}, Schlüssel {s:h9_wifi_psk}",
        'en|wpa_supplicant.conf on the kiosk:\nnetwork={\n  ssid="{k:h9_ssid}"\n  psk='
        '"{s:h9_wifi_psk}"\n}',
    ],
    "private_keys": [
        "en|Deploy key for the mirror job (read-only):\n-----BEGIN OPENSSH PRIVATE KEY-----\n"
        "{s:h9_openssh_body}\n-----END OPENSSH PRIVATE KEY-----",
        "de|Den alten TLS-Schlüssel lege ich hier ab, bis das Zertifikat erneuert ist:\n"
        "-----BEGIN RSA PRIVATE KEY-----\n{s:h9_rsa_body}\n-----END RSA PRIVATE KEY-----\n"
        "Danach löschen.",
        "en|sops age identity (the public part is fine to share, this one is not): "
        "{s:h9_age_secret}",
        "de|[Interface]\nPrivateKey = {s:h9_wg_private}\nAddress = 10.8.0.2/32\n\n[Peer]\n"
        "PublicKey = {k:h9_wg_pubkey}\nEndpoint = vpn.{f:host9}:51820\nAllowedIPs = 0.0.0.0/0",
    ],
    "http_headers": [
        'en|curl -H "Authorization: Bearer {s:h9_jwt}" https://api.{f:host9}/v1/me',
        "de|Der Partner schickt uns: Authorization: Basic {s:h9_basic_b64} – das ist deren "
        "Produktivzugang, also nicht in Tickets kopieren.",
        "en|Cookie header from the HAR file: Cookie: theme=dark; lang=de; sessionid="
        "{s:h9_session_cookie}",
        "de|Request an die Partner-API:\nGET /v3/stock HTTP/1.1\nHost: api.{f:host9}\n"
        "X-Api-Key: {s:h9_hex_api_key}\nAccept: application/json",
    ],
    "provider_prose": [
        "en|The Terraform run uses the DigitalOcean token {s:h9_do_token}; scope is read/write "
        "on the staging project.",
        "de|Shopify-Admin-Token für den Staging-Shop: {s:h9_shopify_token} (App »Lagerabgleich«).",
        "en|Telegram bot for build notifications — token {s:h9_telegram_bot}, chat id "
        "{k:h9_chat_id}.",
        "de|Linear-API-Key von {f:who9}: {s:h9_linear_key}",
        "en|Notion integration secret: {s:h9_notion_token}. The integration only sees the "
        "Runbooks page.",
        "de|Für die Jira-Automation nutzt der Bot diesen API-Token: {s:h9_atlassian_token}",
        "en|Postman API key of the QA team: {s:h9_postman_key} — revoke it when Laura leaves.",
        "de|Mailgun läuft mit {s:h9_mailgun_key}, Domain mg.{f:host9}.",
        "en|Vault token for the CI runner (TTL 30 days): {s:h9_vault_token}",
        "de|Discord-Bot für den Community-Server, Token: {s:h9_discord_token}",
        "en|Cloudflare API token (Zone.DNS edit) = {s:h9_cloudflare_token}",
        "en|Slack bot token of the standup app is {s:h9_slack_bot}; the app id stays the same.",
    ],
    "two_provider": [
        "en|Twilio: account SID {k:h9_twilio_sid}, auth token {s:h9_twilio_auth}. Messaging "
        "service unchanged.",
        "de|Azure-App-Registrierung »billing-sync«: Client-ID {k:h9_uuid}, geheimer "
        "Clientschlüssel {s:h9_azure_client_secret}, Mandant {k:h9_uuid}.",
        "en|Storage connection string: DefaultEndpointsProtocol=https;AccountName=shopmedia;"
        "AccountKey={s:h9_azure_storage_key};EndpointSuffix=core.windows.net",
        "de|In der ~/.npmrc des Build-Servers:\n//registry.npmjs.org/:_authToken={s:h9_npm_token}"
        "\nUnd der GitHub-Token daneben: {s:h9_github_fine}",
    ],
    "quoted_reply": [
        "en|> Can you send me the credentials for the test tenant?\n> Thanks, {f:who9}\n\nSure — "
        "user {k:h9_login}, password {s:h9_human_password}. It expires on Friday.",
        "de|Am Montag schrieb {f:who9}:\n> Hast du das neue Kennwort für den Drucker-Admin?\n\n"
        "Ja: {s:h9_human_password}\nGruß",
        "en|On Wed, {f:who9} wrote:\n> which key does the nightly export use?\nThis one, until "
        "we move it to the secret manager: {s:h9_openai_key}",
    ],
    "ticket": [
        "en|Ticket {k:h9_ticket} — customer cannot log in after reset.\nSteps: reset via admin "
        "panel; temporary password given on the phone: {s:h9_human_password}. Customer "
        "{k:h9_customer_id}.",
        "de|Ticket {k:h9_ticket}: Lieferant meldet abgelaufenen Zugang. Neuer API-Schlüssel laut "
        "Portal: {s:h9_hex_api_key}. Bestellung {k:h9_order} hängt daran.",
    ],
    "agent_memory": [
        "en|User prefers dark mode. User's GitLab token (they asked me to remember it for the CI "
        "setup): {s:h9_gitlab_token}. Project: {k:h9_repo}.",
        "de|Merken: Nutzer arbeitet im Team {f:team9}, bevorzugt kurze Antworten. Zugangsdaten "
        "für das Testsystem hat er mir gegeben – Login {k:h9_login}, Passwort "
        "{s:h9_human_password}.",
        "de|Präferenz des Nutzers: Antworten auf Deutsch. Er hat seinen Hugging-Face-Token "
        "hinterlegt, damit ich Modelle laden kann: {s:h9_hf_token}",
    ],
    "ini_toml": [
        'en|[database]\nhost = "{f:host9}"\nuser = "etl"\npassword = "{s:h9_url_password}"\n\n'
        '[sentry]\nenvironment = "prod"',
        "de|~/.pypirc von {f:who9}:\n[pypi]\nusername = __token__\npassword = {s:h9_pypi_token}",
        "en|my.cnf on the backup host:\n[client]\nuser=backup\npassword={s:h9_human_password}\n"
        "host={f:host9}",
        "de|LDAP-Bind für das Wiki: cn=svc-wiki,ou=services,dc=firma,dc=local mit "
        "{s:h9_human_password}",
    ],
    "passphrase": [
        "de|Neue Passphrase für den Passwort-Tresor der Buchhaltung: {s:h9_passphrase}",
        "en|Disk encryption passphrase of the backup laptop (asked at boot):\n\n"
        "    {s:h9_passphrase}",
        "de|redis.conf auf {f:host9}:\nbind 127.0.0.1\nrequirepass {s:h9_redis_password}\n"
        "maxmemory 2gb",
    ],
}
