"""Templates with secrets of held-out set 11 (judge11 track): `SECRETS[group]` is a list of
`lang|text` templates; slots `{s:maker}` (a labelled secret), `{k:maker}` (content to keep),
`{f:filler}`. Written as an assistant keeps memories: facts about its user, chat excerpts,
tickets, handovers, pasted configs and code, logs, HTTP traces, connection strings, codes
for doors, SIMs and accounts; German and English.

Invariant: a `{s:…}` slot holds only the credential itself (the password of a URL, the body of a
PEM block, the token part of a webhook), so a span scrubber and a line scrubber are scored alike.
"""

from __future__ import annotations

SECRETS: dict[str, list[str]] = {
    "user_facts": [
        "en|Fact about the user: {f:who11} keeps the household Nextcloud; her app password for "
        "the phone sync is {s:h11_generated_password} (she asked me to remember it).",
        "de|Merke: {f:who11} benutzt für das Elster-Zertifikat die PIN {s:h11_banking_pin}, "
        "die Zertifikatsdatei liegt im Ordner Steuern.",
        "en|User's preference: travel bookings go to {k:h11_email}. The airline account "
        "password is {s:h11_chosen_password}, loyalty number not known yet.",
        "de|Zum Nutzer gespeichert: neues Handy, SIM-PIN {s:h11_sim_pin}, PUK "
        "{s:h11_puk}. Vertrag läuft über {f:svc11}.",
    ],
    "chat": [
        "en|[10:42] {f:who11}: can you log into the router for me\n[10:43] {f:who11}: admin / "
        "{s:h11_chosen_password}\n[10:43] assistant: logged in, firmware is current.",
        "de|{f:who11}: hab dir das WLAN für Gäste eingerichtet\n{f:who11}: Netz heißt Gartenhaus,"
        " Schlüssel {s:h11_wifi_psk}\nassistant: Danke, ist notiert.",
        "en|> what's the bot token again?\nit's {s:h11_telegram_bot} — the bot is "
        "@{f:bot11}, don't paste it in the group",
        "de|Ausschnitt aus dem Teamchat:\n„Den Discord-Bot hab ich neu verbunden, Token: "
        "{s:h11_discord_bot}“\n„Super, läuft wieder.“",
    ],
    "tickets": [
        "en|{k:h11_ticket} — Integration broken after key rotation.\nResolution: replaced the "
        "SendGrid key in the worker with {s:h11_sendgrid_key}; mails flow again since "
        "{k:h11_date}.",
        "de|Ticket {k:h11_ticket}: Kunde kann sich nicht anmelden. Temporäres Kennwort "
        "vergeben: {s:h11_generated_password} – muss beim ersten Login geändert werden.",
        "en|Support case {k:h11_ticket}\nCustomer pasted their Mailgun key into the form "
        "({s:h11_mailgun_key}). We told them to revoke it.",
        "de|Störung {k:h11_ticket} behoben. Ursache: abgelaufenes Runner-Token. Neu "
        "registriert mit {s:h11_gitlab_runner_token}, Runner läuft auf {f:host11}.",
    ],
    "handover": [
        "en|Handover for the weekend on-call:\n- Pager escalations go to {f:who11}\n- Vault "
        "root token (break glass only): {s:h11_vault_token}\n- Grafana service account: "
        "{s:h11_grafana_sa_token}\n- Runbook index: {k:h11_harmless_url}",
        "de|Übergabe an {f:who11}:\n1. Deploys laufen über Pulumi, Token {s:h11_pulumi_token}\n"
        "2. Terraform Cloud: {s:h11_tfc_token}\n3. Offene Tickets: {k:h11_ticket}, "
        "{k:h11_ticket}",
        "en|Notes before my leave: the Tailscale auth key for new office devices is "
        "{s:h11_tailscale_authkey} (reusable, expires in a month). Exit node is "
        "{f:host11}.",
    ],
    "env_files": [
        "en|.env of the invoice service:\nNODE_ENV=production\nPORT=8080\nANTHROPIC_API_KEY="
        "{s:h11_anthropic_key}\nINVOICE_BUCKET=invoices-eu\nTRACE_SAMPLE=0.1",
        "de|Produktiv-.env (bitte nicht committen):\nOPENAI_API_KEY={s:h11_openai_project_key}\n"
        "HF_TOKEN={s:h11_hf_token}\nMODEL_CACHE=/var/cache/models",
        "en|export LINEAR_API_KEY={s:h11_linear_key}\nexport NOTION_TOKEN={s:h11_notion_token}\n"
        "export SYNC_INTERVAL=15m",
        "de|In der .env steht DIGITALOCEAN_TOKEN={s:h11_do_token}, das Droplet heißt {f:host11}.",
    ],
    "yaml_toml": [
        "en|```yaml\nintegrations:\n  figma:\n    token: {s:h11_figma_pat}\n    team: design-"
        "system\n  jira:\n    email: {k:h11_email}\n    api_token: {s:h11_atlassian_token}\n```",
        'de|config.toml des Shop-Syncs:\n[shopify]\nstore = "laden-nord"\naccess_token = '
        '"{s:h11_shopify_token}"\n\n[stripe]\nrestricted_key = "{s:h11_stripe_restricted}"',
        "en|GitHub Actions step:\n- name: Publish\n  env:\n    NUGET_API_KEY: "
        "{s:h11_nuget_key}\n  run: dotnet nuget push out/*.nupkg",
        "de|docker-compose.override.yml:\nservices:\n  worker:\n    environment:\n      "
        "STRIPE_WEBHOOK_SECRET: {s:h11_stripe_webhook_secret}\n      QUEUE: webhooks",
    ],
    "json_ini": [
        'en|credentials.json of the sync tool: {"installed": {"client_id":'
        ' "{k:h11_client_id}", "client_secret": "{s:h11_google_client_secret}", '
        '"refresh_token": "{s:h11_google_refresh_token}"}}',
        'de|appsettings.Production.json:\n{\n  "AzureAd": {\n    "TenantId": "'
        '{k:h11_azure_tenant}",\n    "ClientSecret": "{s:h11_azure_client_secret}"\n  }\n}',
        "en|~/.aws/credentials\n[billing]\naws_access_key_id = {s:h11_aws_key_id}\n"
        "aws_secret_access_key = {s:h11_aws_secret}\nregion = eu-central-1",
        "de|~/.pypirc vom Release-Rechner:\n[pypi]\nusername = __token__\npassword = "
        "{s:h11_pypi_token}",
    ],
    "code": [
        'en|```python\nclient = WebClient(token="{s:h11_slack_bot}")\nclient.chat_postMessage'
        '(channel="{k:h11_slack_channel}", text="deploy done")\n```',
        "de|Im Skript von {f:who11} steht der Schlüssel hart drin:\n```js\nconst maps = new "
        "MapClient({ accessToken: '{s:h11_mapbox_secret}' });\n```",
        "en|settings.py still has SECRET_KEY = '{s:h11_django_secret}' — move it to the "
        "environment before the audit.",
        'de|```go\napp := slack.New(botToken, slack.OptionAppLevelToken("'
        '{s:h11_slack_app_token}"))\n```\nDas App-Level-Token gehört in den Secret Store.',
    ],
    "logs": [
        "en|2026-11-30T08:14:02Z DEBUG http: GET /v2/me Authorization: Bearer {s:h11_jwt} "
        "trace={k:h11_trace_id}",
        "de|Log vom Importjob (Fehler beim Login):\nINFO  connecting as sync\nDEBUG "
        "password={s:h11_url_safe_password}\nERROR 401 from upstream",
        "en|worker-3 | npm ERR! 403 Forbidden - token {s:h11_npm_token} lacks publish rights "
        "for @acme/ui",
        "de|Aus dem CI-Log kopiert: `docker login -u builder -p {s:h11_docker_pat} "
        "registry.firma.example` – Login Succeeded",
    ],
    "http": [
        "en|curl -s https://api.example.com/v1/reports \\\n  -H 'Authorization: Basic "
        "{s:h11_basic_auth}' \\\n  -H 'Accept: text/csv'",
        "de|Request aus den DevTools:\nGET /konto/uebersicht HTTP/2\nCookie: __Host-sid="
        "{s:h11_session_cookie}; lang=de\nX-Request-Id: {k:h11_uuid}",
        "en|The Twilio call that works: curl -u {k:h11_twilio_sid}:{s:h11_twilio_auth_token} "
        "https://api.twilio.com/2010-04-01/Accounts/{k:h11_twilio_sid}/Messages.json",
        "de|Die Anfrage an Maps ging mit ?key={s:h11_gcp_api_key}&region=de raus, der Key ist "
        "nicht eingeschränkt.",
    ],
    "urls": [
        "en|DATABASE_URL=postgresql://ledger:{s:h11_url_safe_password}@{f:host11}:5432/"
        "ledger?sslmode=require",
        "de|Mongo-Verbindung für die Auswertung: mongodb+srv://analyst:{s:h11_url_safe_password}"
        "@cluster0.kq3xz.mongodb.net/reports",
        "en|Celery broker: amqps://tasks:{s:h11_url_safe_password}@{f:host11}/prod — same "
        "credentials as the staging vhost.",
        "de|Cache: rediss://default:{s:h11_url_safe_password}@{f:host11}:6380/0",
        "en|Discord webhook for release notes: https://discord.com/api/webhooks/"
        "{k:h11_discord_channel}/{s:h11_discord_webhook_token}",
        "de|Signierter Download-Link (läuft morgen ab): https://files.s3.eu-central-1."
        "amazonaws.com/export.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=86400&"
        "X-Amz-Signature={s:h11_signed_url_sig}",
        "en|Share link for the auditors: https://acct.blob.core.windows.net/audit/report.pdf?"
        "sv=2024-08-04&se=2026-12-31&sr=b&sp=r&sig={s:h11_azure_sas_sig}",
    ],
    "connection_strings": [
        "en|Storage connection string: DefaultEndpointsProtocol=https;AccountName=archivewest;"
        "AccountKey={s:h11_azure_storage_key};EndpointSuffix=core.windows.net",
        "de|Temporäre Zugangsdaten aus `aws sts assume-role` (eine Stunde gültig):\n"
        "AccessKeyId: {s:h11_aws_key_id}\nSecretAccessKey: {s:h11_aws_secret}\nSessionToken: "
        "{s:h11_aws_session_token}",
        "en|heroku config shows HEROKU_API_KEY={s:h11_heroku_key_uuid} for the deploy app.",
    ],
    "keys": [
        "en|The deploy key of the docs site (private half, sorry):\n-----BEGIN OPENSSH PRIVATE "
        "KEY-----\n{s:h11_openssh_private_body}\n-----END OPENSSH PRIVATE KEY-----",
        "de|Aus der alten Ablage, der Schlüssel vom Zahlungs-Gateway:\n-----BEGIN RSA PRIVATE "
        "KEY-----\n{s:h11_rsa_private_body}\n-----END RSA PRIVATE KEY-----",
        "en|wg0.conf on the laptop:\n[Interface]\nPrivateKey = {s:h11_wg_private_key}\nAddress"
        " = 10.66.0.7/32\n\n[Peer]\nPublicKey = {k:h11_wg_public_key}",
        "de|Backup-Verschlüsselung mit age; der Identitätsschlüssel ist {s:h11_age_secret_key}"
        " (liegt sonst nur auf dem Stick).",
        "en|config/master.key for the Rails app is {s:h11_rails_master_key}; credentials.yml."
        "enc was last edited in {k:h11_short_sha}.",
    ],
    "codes": [
        "de|Hintereingang Praxis: Türcode {s:h11_door_code}, danach die Raute drücken.",
        "en|GitHub recovery codes of {f:who11}'s account:\n{s:h11_github_recovery}\n"
        "{s:h11_github_recovery}\n{s:h11_github_recovery}\n(more in the safe)",
        "de|Für die Authenticator-App: otpauth://totp/Firma:{k:h11_login}?secret="
        "{s:h11_totp_seed}&issuer=Firma",
        "en|The SIM for the alarm system: PIN {s:h11_sim_pin}. If it locks, PUK is {s:h11_puk}.",
        "de|Onlinebanking der Eltern: Anmeldename {k:h11_login}, PIN {s:h11_banking_pin}. "
        "TAN kommt aufs Handy.",
        "en|Bitwarden master passphrase for the family vault: {s:h11_passphrase_dashes}",
    ],
    "far_word": [
        "en|About the SFTP account the accountant uses: I rotated it this morning after the "
        "phishing mail, and {f:who11} confirmed the new one works. It's {s:h11_generated_password}"
        " now.",
        "de|Zum Zugang für das Lohnbüro: {f:who11} hat das Kennwort heute früh neu gesetzt, "
        "nachdem der alte Laptop weg war. Neu ist {s:h11_chosen_password}.",
        "en|What's the CircleCI token? Found it in the project settings. {s:h11_circleci_token}",
        "de|Die Wiederherstellungs-Passphrase des Laptops haben wir abfotografiert. Steht da:"
        "\n\n{s:h11_passphrase_dashes}",
    ],
    "tables": [
        "en|| system | user | password |\n|---|---|---|\n| NAS | {k:h11_login} | "
        "{s:h11_generated_password} |\n| printer | admin | {s:h11_chosen_password} |",
        "de|Zugänge Büro (Stand {k:h11_date}):\nDienst;Benutzer;Kennwort\nFritzbox;;"
        "{s:h11_chosen_password}\nKamera;{k:h11_login};{s:h11_url_safe_password}",
        "en|Keys of the apps, as the spreadsheet has them:\napp,owner,key\nalerts,{f:who11},"
        "{s:h11_github_app_token}\nbilling,{f:who11},{s:h11_stripe_restricted}",
    ],
    "shell_and_tools": [
        "de|Für den Build-Server: `export GITHUB_TOKEN={s:h11_github_fine_pat}` – nur "
        "Lesezugriff auf das Doku-Repo.",
        "en|.netrc on the CI box:\nmachine git.firma.example\n  login {k:h11_login}\n  "
        "password {s:h11_generated_password}",
        'de|Postman-Umgebung exportiert: {"key": "hfToken", "value": "{s:h11_hf_token}", '
        '"enabled": true}',
        "en|git remote -v\norigin  https://x-access-token:{s:h11_github_app_token}@github.com/"
        "acme/site.git (fetch)",
        "en|kubeconfig of the CI user:\nusers:\n- name: ci\n  user:\n    token: {s:h11_jwt}",
        "de|So sichert {f:who11} den Server: sshpass -p '{s:h11_chosen_password}' rsync -a "
        "/srv backup@{f:host11}:/pool",
    ],
    "spoken": [
        "en|Voice memo, transcribed: okay so the alarm code for the shop is {s:h11_door_code},"
        " and the key box uses the same.",
        "de|Sprachnachricht von {f:who11}, abgetippt: das Passwort für den Drucker-Admin ist "
        "{s:h11_chosen_password}, großes erstes Zeichen.",
    ],
}
