"""Templates of the fifth held-out set (seed 55291, judge5 track): texts with secrets.

Document types an agent is handed and stores: support tickets and customer chat, meeting
minutes, router/NAS/smart-home setup notes, CI logs (GitHub Actions, GitLab, Jenkins),
Kubernetes manifests and `kubectl` output, Docker Compose files, SQL dumps and psql sessions,
HTTP transcripts (Postman, curl -v, devtools "copy as fetch"), mobile banking and 2FA, personal
paperwork (insurance, tax portal, alarm system, car, parcel lockers), home office and VPN,
printed recovery sheets, shell history, notebooks. Labels: `{s:…}` a credential (scored),
`{k:…}` content that must survive (identifiers, digests, personal data), `{f:…}` a
credential's neighbours (user names, login e-mails and ids, hosts, account ids: neither scored
nor kept, since a scrubber may fairly take a login together with its password).
The texts without secrets are in `heldout5_negatives` (CONTENT).
"""

from __future__ import annotations

from tests.data.scrub_eval.heldout5_negatives import CONTENT

__all__ = ["CONTENT", "FILLERS", "FRAMES", "SECRETS"]

FRAMES = [
    ("", ""),
    ("", ""),
    ("Kontext aus dem Ticket: ", ""),
    ("The user pasted this during the session:\n", ""),
    ("Merke für später — ", ""),
    ("[Notiz 2026-11-28] ", ""),
    ("### Fakten\n- ", "\n"),
    ("Aus dem Chatverlauf kopiert:\n", "\n(Ende der Kopie)"),
    ("(from the user's notes app) ", ""),
    ("Worked on this today. ", " Follow up next week."),
]

FILLERS = {
    "user": ["jkoch", "deploy", "svc-ci", "admin", "b.schuster", "ops", "nina"],
    "dbuser": ["app", "shop_rw", "reporting", "keycloak", "wiki"],
    "host": ["db-prod-2.int.example.net", "10.20.3.17", "nas.fritz.box", "pg.shop.example"],
    "cluster": ["cluster0.x7kqz", "shop-eu.ab12c", "analytics.q9wlm"],
    "org": ["acme-gmbh", "schuster-it", "ops-team", "heimnetz"],
    "repo": ["webshop", "infra", "billing-api", "mobile-app", "docs"],
    "ssid": ["FRITZ!Box 7590 QK", "Vodafone-4F2A", "Heimnetz-5G", "o2-WLAN83", "Gast"],
    "akid": ["AKIAZ4QX7NMB3R2T6YWK", "AKIA5HVW2PLKJ8QX3MDE"],
    "twsid": ["AC3f9e0c2b7a4d18e6c5b9a0f1e2d3c4b5", "AC0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a"],
    "team": ["T04J7QK2M", "T0258XYZA"],
    "chan": ["B05RT8UVW1Q", "B06AA1BB2CC"],
    "snowflake": ["1187342251236798464", "1209384756102938475"],
    "expiry": ["08/28", "11/27", "03/29", "06/30"],
    "bank": ["Sparkasse", "Volksbank", "DKB", "ING", "Commerzbank"],
    "login_id": ["K4418203", "KD-7730192", "schuster.b", "100293847"],
    "login_mail": [
        "b.schuster@gmx.de",
        "familie.koch@web.de",
        "it@acme.example",
        "nina.f@posteo.de",
    ],
    "agent": ["Kai", "Miriam", "Support-Team", "Deniz"],
}

SECRETS: dict[str, list[str]] = {
    "support": [
        "de|Ticket {k:h5k_ticket}: Kundin {k:h5k_name} ({k:h5k_email}) kommt nicht ins "
        "Kundenportal. Sie hat "
        "uns ihr Passwort geschickt, damit wir es prüfen: {s:h5_password_human} — bitte sofort "
        "zurücksetzen und sie auf den Passwortmanager hinweisen.",
        "en|Customer chat, {k:h5k_ticket}\ncustomer: hi, my login still fails. the password I set "
        "yesterday was {s:h5_password_name}\n{f:agent}: Thanks! Please never send passwords here, "
        "I have triggered a reset to {k:h5k_email}.",
        'de|Support-Chat Shop: Herr {k:h5k_name} schrieb "meine Zugangsdaten: Benutzer '
        "{f:login_id}, "
        "Kennwort {s:h5_password_weak}\". Bestellung {k:h5k_order} hängt im Status 'bezahlt'.",
        "en|Zendesk ticket {k:h5k_ticket} (priority high): customer attached their API key so we "
        "can "
        "reproduce the 401: {s:h5_api_key_hex}. Account {k:h5k_customer}, plan Business.",
    ],
    "minutes": [
        "de|Protokoll Teamrunde {k:h5k_date}\nAnwesend: {k:h5k_name}, {k:h5k_name}\nTOP 2 "
        "Monitoring: "
        "Grafana Service Account neu angelegt, Token {s:h5_grafana_sa} liegt vorerst hier, "
        "bis Vault steht.\nTOP 3 Urlaubsplanung: offen.",
        "en|Meeting notes {k:h5k_date}, release sync\n- attendees: {k:h5k_name}, {k:h5k_name}\n- "
        "decided: "
        "SendGrid key for the newsletter is {s:h5_sendgrid} (rotate after launch)\n- next: "
        "{k:h5k_ticket}",
        "en|Minutes, infra weekly: Terraform Cloud team token for the {f:org} org: "
        "{s:h5_tfc_token}. "
        "Owner {k:h5k_name}. Action item {k:h5k_ticket}: move it into the CI variables.",
    ],
    "iot": [
        "de|Einrichtung FRITZ!Box bei Eltern ({k:h5k_address}):\nWLAN {f:ssid}\nWLAN-Schlüssel: "
        "{s:h5_wifi_psk}\nFritz-Kennwort vom Aufkleber: {s:h5_sticker_password}\nSeriennummer "
        "{k:h5k_serial}",
        "en|NAS setup (Synology DS920+, serial {k:h5k_serial}, MAC {k:h5k_mac}): admin account "
        "{f:user}, "
        "password {s:h5_password_human}. DSM {k:h5k_firmware}, QuickConnect off.",
        'en|esphome:\n  name: garage-door\napi:\n  encryption:\n    key: "{s:h5_esphome_key}"\n'
        'ota:\n  password: "{s:h5_password_random}"\nwifi:\n  ssid: "{f:ssid}"\n  password: '
        '"{s:h5_wifi_psk}"',
        "de|Home Assistant: Long-Lived Access Token für das Wandtablet ({k:h5k_ipv4}): "
        "{s:h5_hass_token}",
        "en|tinytuya scan result for the living-room plug: id {k:h5k_trace}, ip {k:h5k_ipv4}, "
        "local_key "
        "{s:h5_tuya_local_key}, version 3.3",
    ],
    "ci": [
        "en|Run actions/checkout@v4\n  with:\n    repository: {f:org}/{f:repo}\n    token: "
        "{s:h5_github_fine}\nRun ID {k:h5k_run_id}, commit {k:h5k_commit}",
        "en|GitLab CI job {k:h5k_pipeline_id} failed:\n$ curl -X POST --fail -F "
        "token={s:h5_gitlab_trigger} "
        "-F ref=main https://gitlab.example.com/api/v4/projects/412/trigger/pipeline\ncurl: (22) "
        "The requested URL returned error: 404",
        "de|Jenkins-Job 'nightly' (Build #{k:h5k_build}) ruft die API mit "
        "{f:user}:{s:h5_jenkins_token} "
        "auf; das steht so im Jenkinsfile, sollte in die Credentials.",
        "en|Registered the self-hosted runner:\n./config.sh --url "
        "https://github.com/{f:org}/{f:repo} "
        "--token {s:h5_github_runner} --labels linux,x64\nRunner version {k:h5k_version}",
        "de|Alter GitLab-Runner neu registriert mit dem Registrierungstoken "
        "{s:h5_gitlab_runner_reg}; "
        "Executor docker, Pipeline {k:h5k_pipeline_id} läuft wieder grün.",
        "en|SonarQube step prints the token in debug mode: -Dsonar.token={s:h5_sonar_token} "
        "-Dsonar.projectKey={f:repo} (build {k:h5k_build})",
        "en|codecov upload from the laptop: CODECOV_TOKEN={s:h5_codecov_uuid} ./codecov -f "
        "coverage.xml (commit {k:h5k_short_sha})",
        "de|In .npmrc des Release-Jobs steht //registry.npmjs.org/:_authToken={s:h5_npm_token} — "
        "Artefakt {k:h5k_digest} wurde damit veröffentlicht.",
        "en|twine upload failed on runner {k:h5k_run_id}: TWINE_USERNAME=__token__ "
        "TWINE_PASSWORD={s:h5_pypi_token}",
        "de|Azure DevOps PAT für die Pipeline-Agents (läuft am {k:h5k_date} ab): "
        "{s:h5_azure_devops_pat}",
    ],
    "k8s": [
        "en|apiVersion: v1\nkind: Secret\nmetadata:\n  name: shop-db\n  uid: {k:h5k_uuid}\ntype: "
        "Opaque\n"
        "data:\n  username: YXBw\n  password: {s:h5_k8s_secret_b64}",
        "en|$ kubectl -n argocd get secret argocd-initial-admin-secret -o "
        'jsonpath="{.data.password}" '
        "| base64 -d\n{s:h5_password_random}",
        "de|kubectl create token deployer -n ci --duration=8760h ergab:\n{s:h5_k8s_sa_token}\n"
        "Damit läuft der Deploy aus dem Runner.",
        "en|users:\n- name: {f:user}@prod\n  user:\n    client-certificate: "
        "/home/{f:user}/.kube/prod.crt\n"
        "    client-key-data: {s:h5_kube_client_key}",
        "en|$ kubectl create secret generic stripe --from-literal=STRIPE_KEY={s:h5_stripe_live} "
        "-n payments\nsecret/stripe created",
        "de|Helm-Installation: helm upgrade --install grafana grafana/grafana --set "
        "adminPassword='{s:h5_password_human}' -n monitoring (Release-Revision {k:h5k_build})",
    ],
    "compose": [
        "en|services:\n  db:\n    image: postgres:16@{k:h5k_digest}\n    environment:\n      "
        "POSTGRES_USER: {f:dbuser}\n      POSTGRES_PASSWORD: {s:h5_password_random}\n    volumes:\n"
        "      - pgdata:/var/lib/postgresql/data",
        "en|  minio:\n    image: minio/minio\n    environment:\n      MINIO_ROOT_USER: {f:user}\n"
        '      MINIO_ROOT_PASSWORD: {s:h5_minio_secret}\n    ports:\n      - "9001:9001"',
        "de|docker-compose.override.yml vom Kollegen:\n  app:\n    environment:\n      - "
        "JWT_SECRET={s:h5_jwt_secret_hex}\n      - APP_KEY=base64:{s:h5_app_key_b64}",
        'en|~/.docker/config.json on the build box:\n{"auths": {"registry.gitlab.com": '
        '{"auth": "{s:h5_docker_auth}"}}}',
    ],
    "sql": [
        "en|-- Dump of shop_prod, {k:h5k_date}\nCREATE USER '{f:dbuser}'@'%' IDENTIFIED BY "
        "'{s:h5_password_random}';\nGRANT SELECT, INSERT ON shop.* TO '{f:dbuser}'@'%';",
        "de|psql-Sitzung:\nshop=# ALTER ROLE {f:dbuser} WITH PASSWORD '{s:h5_password_human}';\n"
        "ALTER ROLE\nshop=# SELECT pg_current_wal_lsn();\n {k:h5k_lsn}",
        "en|~/.pgpass on the reporting "
        "VM:\n{f:host}:5432:analytics:{f:dbuser}:{s:h5_password_pgpass}",
        "de|Verbindung fürs Reporting: "
        "postgresql://{f:dbuser}:{s:h5_password_url}@{f:host}:5432/shop"
        "?sslmode=require ({k:h5k_row_count} Zeilen in orders)",
        "en|Atlas cluster string: "
        "mongodb+srv://{f:user}:{s:h5_password_url}@{f:cluster}.mongodb.net/"
        "app?retryWrites=true",
        "de|Im Dump steht die Tabelle settings mit ('mail_smtp_password', '{s:h5_password_human}') "
        "und ('shop_id', '{k:h5k_customer}').",
        "de|Redis im Staging: redis-cli -h {f:host} -a '{s:h5_password_random}' info keyspace",
    ],
    "http": [
        "en|Postman console:\nPOST https://api.example.com/v2/orders\nAuthorization: Bearer "
        "{s:h5_bearer_jwt}\nX-Request-Id: {k:h5k_uuid}\n201 Created (312 ms)",
        'en|fetch("https://portal.example.de/api/me", {\n  "headers": {\n    "cookie": '
        '"PHPSESSID={s:h5_session_php}; lang=de"\n  },\n  "method": "GET"\n});',
        "de|curl -v Mitschnitt:\n> GET /api/v1/reports HTTP/2\n> Authorization: Basic "
        "{s:h5_basic_auth}\n< HTTP/2 200\n< etag: {k:h5k_etag}",
        "en|Copied from devtools: Cookie: _shop_session={s:h5_session_rails}; cart={k:h5k_order}",
        "de|Die Stripe-Webhook-Signatur prüfen wir mit {s:h5_stripe_whsec}; Event "
        "{k:h5k_request_id} "
        "kam doppelt an.",
        "en|Request that works in Insomnia: GET /v1/search?q=router&key={s:h5_google_api} "
        "(trace {k:h5k_trace})",
        "en|Slack alert webhook: https://hooks.slack.com/services/{f:team}/{f:chan}/"
        "{s:h5_slack_hook_secret}",
        "de|Discord-Webhook für Deploy-Meldungen: https://discord.com/api/webhooks/{f:snowflake}/"
        "{s:h5_discord_hook_token}",
        "en|sessionid={s:h5_session_django}; csrftoken is set too — that's the admin session I "
        "used "
        "to reproduce {k:h5k_ticket}.",
    ],
    "banking": [
        "de|Neue Girokarte der {f:bank}: PIN {s:h5_pin4}. IBAN {k:h5k_iban} bleibt gleich.",
        "de|Online-Banking {f:bank}: Anmeldename {f:login_id}, PIN {s:h5_pin5}.",
        "en|The bank sent the code {s:h5_otp_code} to confirm the transfer of {k:h5k_amount} to "
        "{k:h5k_name}; it expires in 5 minutes.",
        "de|Kreditkarte für die Firmenreisen: {s:h5_card_number}, gültig bis {f:expiry}, "
        "Prüfnummer {s:h5_cvc}. Abrechnung an {k:h5k_email}.",
        "en|Google sign-in code: {s:h5_otp_google} (someone tried to log in from a new device)",
        "de|App-PIN der Banking-App auf dem neuen Handy (IMEI {k:h5k_imei}): {s:h5_pin6}",
        "de|Neue SIM, Kartennummer {k:h5k_iccid}: PIN {s:h5_pin4}, PUK {s:h5_puk}.",
    ],
    "lifeadmin": [
        "de|ELSTER: Aktivierungscode aus dem Brief ist {s:h5_elster_code}, Steuernummer "
        "{k:h5k_steuernummer}. Zertifikatspasswort: {s:h5_password_name}",
        "de|Versicherung ({k:h5k_policy}): Login fürs Kundenportal {f:login_mail}, Passwort "
        "{s:h5_password_human}",
        "de|Alarmanlage Haus: Scharf/unscharf mit Code {s:h5_alarm_code}, Notfallkontakt "
        "{k:h5k_name} {k:h5k_phone}.",
        "en|Packstation pickup code for order {k:h5k_order}: {s:h5_locker_code} (Postnummer "
        "{k:h5k_postnummer}, Packstation 112)",
        "de|Auto ({k:h5k_plate}): Die Werkstatt hat die PIN der Connected-Drive-App auf "
        "{s:h5_pin4} "
        "gesetzt. FIN {k:h5k_vin}.",
        "en|Landlord's portal: user {f:login_mail}, password {s:h5_password_weak}; meter "
        "{k:h5k_meter}.",
    ],
    "vpn": [
        "en|[Interface]\nPrivateKey = {s:h5_wireguard_private}\nAddress = 10.8.0.6/32\n\n[Peer]\n"
        "PublicKey = {k:h5k_wg_public}\nEndpoint = vpn.example.net:51820",
        "de|FRITZ!Box-VPN fürs Homeoffice: IPsec, Shared Secret {s:h5_passphrase}, Benutzer "
        "{f:user}, Passwort {s:h5_password_human}.",
        "en|<tls-auth>\n-----BEGIN OpenVPN Static key V1-----\n{s:h5_openvpn_static}\n"
        "-----END OpenVPN Static key V1-----\n</tls-auth>",
        "en|Home office laptop: BitLocker is on; VeraCrypt container password {s:h5_passphrase}.",
    ],
    "recovery": [
        "en|GitHub recovery codes (printed, in the "
        "drawer):\n{s:h5_recovery_gh}\n{s:h5_recovery_gh}\n"
        "{s:h5_recovery_gh}\n{s:h5_recovery_gh}",
        "de|Google-Backup-Codes für {f:login_mail}: {s:h5_backup_digits}, {s:h5_backup_digits}, "
        "{s:h5_backup_digits}",
        "en|Apple ID recovery key: {s:h5_apple_recovery} — keep offline.",
        "de|1Password Emergency Kit: Secret Key {s:h5_onepassword_secret}, E-Mail {f:login_mail}.",
        "en|Ledger wallet recovery phrase (written on the card): {s:h5_seed_phrase}",
        "de|Authenticator-Export: "
        "otpauth://totp/Shop:{f:login_mail}?secret={s:h5_totp_seed}&issuer=Shop",
    ],
    "shell": [
        "en|  412  export GITHUB_TOKEN={s:h5_github_classic}\n  413  gh repo clone "
        "{f:org}/{f:repo}\n"
        "  414  git log -1 --format=%H\n{k:h5k_commit}",
        "en|history | grep aws\n 1021  aws configure set aws_access_key_id {f:akid}\n 1022  aws "
        "configure set aws_secret_access_key {s:h5_aws_secret}",
        "de|Aus der zsh-History: PGPASSWORD='{s:h5_password_random}' pg_dump -h {f:host} -U "
        "{f:dbuser} shop > dump.sql",
        "en|$ doctl auth init -t {s:h5_digitalocean}\nValidating token... OK",
        "en|$ export VAULT_TOKEN={s:h5_vault_token}\n$ vault kv get secret/shop/db\n===== "
        "Metadata =====\n"
        "created_time  {k:h5k_date}T09:12:44Z",
        "de|Im Terminal: git remote set-url origin https://oauth2:{s:h5_gitlab_pat}@gitlab.com/"
        "{f:org}/{f:repo}.git",
        'en|$ curl -s https://api.cloudflare.com/client/v4/user/tokens/verify -H "Authorization: '
        'Bearer {s:h5_cloudflare_token}"\n{"success":true, "result":{"id":"{k:h5k_trace}"}}',
        "de|sudo mount -t cifs //{f:host}/scans /mnt/scans -o 'username={f:user},password="
        "{s:h5_password_human},vers=3.0'",
        "en|twilio profiles:add --account-sid {f:twsid} --auth-token {s:h5_twilio_auth}",
        'en|$ curl -H "Authorization: Bearer {s:h5_dropbox}" '
        "https://api.dropboxapi.com/2/users/get_current_account",
    ],
    "notebook": [
        'en|# cell 3\nimport openai\nclient = openai.OpenAI(api_key="{s:h5_openai_svc}")\n'
        "# Out[3]: run {k:h5k_uuid}",
        "en|!huggingface-cli login --token {s:h5_hf_token}\n# model revision {k:h5k_commit}",
        'en|import wandb\nwandb.login(key="{s:h5_wandb_key}")\nwandb.init(project="churn", '
        'id="{k:h5k_short_sha}")',
        'de|kaggle.json aus dem Notebook-Ordner: {"username":"{f:user}","key":"{s:h5_kaggle_key}"}',
        'en|client = anthropic.Anthropic(api_key="{s:h5_anthropic}")  # TODO env var',
        'en|Colab: os.environ["DD_API_KEY"] = "{s:h5_datadog_api}"  # dataset {k:h5k_sha256}',
        'de|Notebook-Zelle für Push-Tests: FCM_SERVER_KEY = "{s:h5_firebase_server}"',
        'en|jira = JIRA(server="https://{f:org}.atlassian.net", basic_auth=("{f:login_mail}", '
        '"{s:h5_atlassian}"))',
        'de|Bot für die Familiengruppe: TELEGRAM_TOKEN = "{s:h5_telegram_bot}"',
        'en|slack_sdk.WebClient(token="{s:h5_slack_bot}").chat_postMessage(channel="#alerts", '
        "text=run_id)",
        'en|flow = InstalledAppFlow.from_client_config({"installed": {"client_id": '
        '"{k:h5k_pipeline_id}-abc.apps.googleusercontent.com", "client_secret": '
        '"{s:h5_google_oauth_secret}"}})',
    ],
}
