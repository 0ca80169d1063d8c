"""Secret templates of the eighth held-out set in machine layouts: env files, YAML, JSON, INI
and dotfiles, shell history, stack traces, log lines, URLs with credentials, HTTP headers,
private keys, CI settings and long mixed notes. Same slot syntax as `heldout8_prose`.
"""

from __future__ import annotations

CONFIGS = {
    "env_file": [
        "en|# .env.production ({f:svc})\nNODE_ENV=production\nPORT=8080\nDATABASE_URL="
        "postgresql://app:{s:h8_db_password}@{f:host}:5432/app\nSTRIPE_SECRET_KEY="
        "{s:h8_stripe_secret}\nRELEASE_SHA={k:h8_commit}\nLOG_LEVEL=info",
        "de|Das ist die .env vom Worker, die {f:who} mir geschickt hat:\n\nAWS_REGION="
        "eu-central-1\nAWS_ACCESS_KEY_ID={s:h8_aws_key_id}\nAWS_SECRET_ACCESS_KEY="
        "{s:h8_aws_secret}\nEXPORT_BUCKET=brain-exports-{k:h8_short_sha}",
        "en|export OPENAI_API_KEY={s:h8_openai}\nexport ANTHROPIC_API_KEY={s:h8_anthropic}\n"
        "export MODEL=claude-sonnet\n# run id {k:h8_uuid}",
    ],
    "yaml": [
        "en|apiVersion: v1\nkind: Secret\nmetadata:\n  name: payments-db\n  uid: {k:h8_uuid}\n"
        "type: Opaque\nstringData:\n  username: payments\n  password: {s:h8_db_password}\n",
        "de|Compose-Datei vom NAS ({f:host}):\n\nservices:\n  db:\n    image: postgres:16@"
        "{k:h8_docker_digest}\n    environment:\n      POSTGRES_USER: nas\n      "
        'POSTGRES_PASSWORD: "{s:h8_db_password}"\n  grafana:\n    environment:\n      '
        "GF_SECURITY_ADMIN_PASSWORD: '{s:h8_human_password}'\n",
        "en|# group_vars/prod.yml (not vaulted yet!)\nsmtp_host: mail.acme.example\nsmtp_user: "
        "noreply\nsmtp_password: {s:h8_db_password}\nsendgrid_api_key: {s:h8_sendgrid}\n"
        "release_tag: v{k:h8_version}",
    ],
    "json": [
        'en|{"type": "service_account", "project_id": "brain-eval", "private_key": '
        '"-----BEGIN PRIVATE KEY-----\\n{s:h8_pkcs8_escaped}\\n-----END PRIVATE KEY-----\\n", '
        '"client_email": "sync@brain-eval.iam.gserviceaccount.com", "owner": "{k:h8_email}"}',
        "de|Antwort vom Token-Endpunkt (für {k:h8_ticket} festgehalten):\n"
        '{"access_token": "{s:h8_jwt}", "token_type": "Bearer", "expires_in": 3600, '
        '"refresh_token": "{s:h8_google_refresh}"}',
        'en|{"name": "billing-sync", "owner": "{k:h8_email}", "credentials": {"client_id": '
        '"{k:h8_uuid}", "client_secret": "{s:h8_google_oauth_secret}"}, "schedule": "0 3 * * *"}',
    ],
    "shell_history": [
        "en|history | tail\n  501  cd ~/src/brain\n  502  git pull\n  503  export GITHUB_TOKEN="
        "{s:h8_github_classic}\n  504  gh pr checkout 7731\n  505  mysql -h {f:host} -u {f:user}"
        " -p'{s:h8_db_password}' reporting\n  506  exit",
        "de|Damit hab ich das Backup vom alten Server gezogen:\n$ sshpass -p "
        "'{s:h8_human_password}' rsync -av {f:user}@{f:host}:/srv/backup/ ./backup/\n$ sha256sum"
        " backup.tar.zst\n{k:h8_sha256}  backup.tar.zst",
        "en|$ docker login registry.acme.example -u ci -p {s:h8_docker_pat}\n$ curl -s -H "
        '"Authorization: Bearer {s:h8_do_token}" https://api.digitalocean.com/v2/droplets | jq '
        "'.droplets[].id'\n$ kubectl rollout restart deploy/{k:h8_pod}",
    ],
    "stack_trace": [
        'en|Traceback (most recent call last):\n  File "/app/sync.py", line 88, in <module>\n    '
        "conn = psycopg.connect(dsn)\npsycopg.OperationalError: connection failed: FATAL:  "
        'password authentication failed for user "etl"\n  dsn = \'postgresql://etl:'
        "{s:h8_db_password}@{f:host}:5432/warehouse'\nrequest_id={k:h8_uuid_hex}",
        "de|Fehler beim Start von {f:svc} (Build {k:h8_short_sha}):\norg.springframework.beans."
        "factory.BeanCreationException: Error creating bean 'mailSender'\n\tat org.spring"
        "framework.beans.factory.support.AbstractBeanFactory.getBean(AbstractBeanFactory.java:"
        "208)\nCaused by: jakarta.mail.AuthenticationFailedException: 535 5.7.8 Authentication "
        "failed; spring.mail.password={s:h8_db_password}",
        "en|UnhandledPromiseRejection: HttpError: Bad credentials\n    at /srv/bot/node_modules/"
        "@octokit/request/dist-node/index.js:86:21\n  request: { headers: { authorization: "
        "'token {s:h8_github_fine}' }, url: 'https://api.github.com/repos/acme/brain/issues' }\n"
        "  x-github-request-id: {k:h8_aws_request_id}",
    ],
    "log_lines": [
        "de|Auszug aus dem Proxy-Log, bevor wir das Header-Logging abgeschaltet haben:\n"
        "2026-11-30T08:14:07Z INFO upstream=payments status=200 dur=41ms trace={k:h8_trace_id}\n"
        "2026-11-30T08:14:07Z DEBUG headers={'X-Api-Key': '{s:h8_api_key}', 'Accept': "
        "'application/json'}",
        "en|worker-3 | 11:02:55 WARN telegram send failed, retrying (url=https://api.telegram."
        "org/bot{s:h8_telegram}/sendMessage, msg={k:h8_nanoid})",
        "en|Nov 29 23:41:10 gw01 openvpn[812]: AUTH: user {f:user} supplied password "
        "'{s:h8_human_password}' (rejected)\nNov 29 23:41:12 gw01 openvpn[812]: session "
        "{k:h8_uuid} closed",
    ],
    "url_credentials": [
        "de|Repo-Spiegel eingerichtet: git remote add mirror https://oauth2:{s:h8_gitlab_pat}"
        "@gitlab.acme.example/infra/brain.git — Commit {k:h8_commit} ist drüben.",
        "en|Download link for the export (expires Friday): https://brainexports.blob.core."
        "windows.net/exports/{k:h8_uuid_hex}.zip?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-05T18:"
        "00:00Z&sig={s:h8_azure_sas_sig}",
        "de|Die Redis-Verbindung im Worker ist rediss://default:{s:h8_db_password}@{f:host}:6380"
        "/0, die Queue heißt jobs-{k:h8_short_sha}.",
        "en|Grafana embed for the wall screen: https://grafana.acme.example/d/{k:h8_nanoid}/"
        "latency?orgId=1&kiosk&auth_token={s:h8_grafana}",
    ],
    "private_key": [
        "en|deploy key for {f:host}, fingerprint {k:h8_ssh_fpr}:\n-----BEGIN RSA PRIVATE KEY---"
        "--\n{s:h8_rsa_pem_body}\n-----END RSA PRIVATE KEY-----",
        "de|Hier der Schlüssel für den Jump-Host, bitte als ~/.ssh/id_ed25519 ablegen:\n-----"
        "BEGIN OPENSSH PRIVATE KEY-----\n{s:h8_openssh_body}\n-----END OPENSSH PRIVATE KEY-----"
        "\nDer öffentliche Teil ist ssh-ed25519 {k:h8_ssh_ed25519_pub} jump",
        "en|TLS key for the internal ingress (ticket {k:h8_ticket}):\n-----BEGIN EC PRIVATE KEY"
        "-----\n{s:h8_ec_pem_body}\n-----END EC PRIVATE KEY-----",
        "de|Backup-Verschlüsselung mit age: Empfänger ist der öffentliche Schlüssel aus dem "
        "Wiki, der geheime liegt hier: {s:h8_age_secret}. Backup-Lauf {k:h8_uuid}.",
    ],
    "cloud": [
        "en|~/.aws/credentials on the build box:\n[default]\naws_access_key_id = "
        "{s:h8_aws_key_id}\naws_secret_access_key = {s:h8_aws_secret}\naws_session_token = "
        "{s:h8_aws_session_token}\nregion = eu-central-1\n# role {k:h8_arn}",
        "de|Connection-String vom Storage-Account für den Export-Job: DefaultEndpointsProtocol="
        "https;AccountName=brainexports;AccountKey={s:h8_azure_account_key};EndpointSuffix=core."
        "windows.net — Job-ID {k:h8_uuid}",
        "en|Databricks: the workspace token for the nightly job is {s:h8_databricks}; the job "
        "itself is {k:h8_uuid_hex}.",
        "de|Heroku-API-Key für das alte Deployment: {s:h8_heroku}. App-Release {k:h8_version}.",
    ],
    "http_headers": [
        "en|Reproduce with:\ncurl -X POST https://api.acme.example/v1/sync \\\n  -H "
        "'Authorization: Bearer {s:h8_jwt}' \\\n  -H 'Idempotency-Key: {k:h8_urlsafe_id}' \\\n"
        '  -d \'{"since": "2026-11-01"}\'',
        "de|Der Webhook vom Lieferanten schickt `Authorization: Basic {s:h8_basic_auth}` mit — "
        "das ist deren Zugang zu unserem Endpunkt. Lieferung {k:h8_order}.",
        "en|Copied from devtools (request {k:h8_uuid}):\nGET /admin/reports HTTP/2\nHost: "
        "admin.acme.example\nCookie: theme=dark; sessionid={s:h8_session_cookie}\nX-Api-Key: "
        "{s:h8_api_key}",
        "de|API-Aufruf für den Kartendienst: GET https://maps.googleapis.com/maps/api/geocode/"
        "json?address=Berlin&key={s:h8_google_api} — Antwort-ID {k:h8_nanoid}.",
    ],
    "dotfiles": [
        "en|~/.npmrc\n//registry.npmjs.org/:_authToken={s:h8_npm}\n@acme:registry=https://npm."
        "acme.example/\n# lockfile {k:h8_sha256}",
        "de|~/.pypirc auf dem Release-Rechner:\n[pypi]\nusername = __token__\npassword = "
        "{s:h8_pypi}\n\nZuletzt veröffentlicht: {k:h8_version}",
        "en|~/.netrc\nmachine api.heroku.com\n  login {k:h8_email}\n  password {s:h8_heroku}\n"
        "machine git.heroku.com\n  login {k:h8_email}\n  password {s:h8_heroku}",
        "de|pgpass-Eintrag für das Reporting: {f:host}:5432:reporting:{f:user}:"
        "{s:h8_db_password} — die Datei liegt unter ~/.pgpass, Rechte 0600. Ticket {k:h8_ticket}.",
    ],
    "ci_settings": [
        "en|GitHub Actions secrets we set during the migration (delete after {k:h8_ticket}!):\n"
        "CLOUDFLARE_API_TOKEN: {s:h8_cloudflare}\nFERNET_KEY: {s:h8_fernet_key}\n"
        "SQUARE_ACCESS_TOKEN: {s:h8_square}",
        "de|In der Jenkins-Konsole stand beim fehlgeschlagenen Build {k:h8_short_sha}: `+ git "
        "clone https://x-access-token:{s:h8_github_app}@github.com/acme/infra.git` — das Token "
        "ist kurzlebig, trotzdem das Log löschen.",
        "en|SendGrid key for transactional mail was regenerated: {s:h8_sendgrid}; template id "
        "{k:h8_uuid}.",
        "de|WireGuard-Konfiguration für den Laptop ({k:h8_ticket}):\n[Interface]\nPrivateKey = "
        "{s:h8_wg_private}\nAddress = 10.8.0.7/32\n\n[Peer]\nPublicKey = {k:h8_wg_public}\n"
        "Endpoint = vpn.acme.example:51820\nAllowedIPs = 10.8.0.0/24",
    ],
    "long_mixed": [
        "en|Incident review {k:h8_ticket} — payments outage on {f:weekday}\n\nTimeline\n- 09:12 "
        "alerts fire for the checkout service (pod {k:h8_pod}), p95 above 4 s.\n- 09:20 {f:who}"
        " finds the connection pool exhausted; the database had been restored from snapshot "
        "{k:h8_aws_resource} overnight and the app user lost its grants.\n- 09:41 grants "
        "restored. For the record, the temporary password we used to get in was "
        "{s:h8_db_password}; it has since been rotated.\n- 10:05 traffic normal. Release "
        "{k:h8_version} (commit {k:h8_commit}) carries the fix.\n\nFollow-ups\n1. Alert on "
        "pool saturation.\n2. The payment provider key that was pasted into the war-room chat "
        "({s:h8_stripe_secret}) must be rolled — owner {k:h8_email}.\n3. Document the restore "
        "procedure.",
        "de|Übergabe an {f:who}, bevor ich in Elternzeit gehe\n\nDas Monitoring läuft auf "
        "{f:host}, das Dashboard ist {k:h8_nanoid}. Die Bots: Der Slack-Bot benutzt "
        "{s:h8_slack_bot}, der Telegram-Bot für die Lagerhalle {s:h8_telegram}. Offene Tickets:"
        " {k:h8_ticket} (Druckertreiber) und {k:h8_ticket} (Zertifikat). Für den Serverraum: "
        "Der Code am Schloss ist unverändert {s:h8_pin}. Rechnungen vom Hoster kommen an "
        "{k:h8_email}, IBAN für Erstattungen {k:h8_iban}. Viel Erfolg!",
        "en|Notes from the vendor onboarding call ({f:city}, {f:weekday})\n\nThey expose a REST"
        " API; each request needs a key in the X-Partner-Key header. Our sandbox key is "
        "{s:h8_api_key} and production will be issued after the security review. Webhooks are "
        "signed with a shared secret ({s:h8_hex_secret}); verify with HMAC-SHA256. Their "
        "order ids look like {k:h8_order}, shipment ids like {k:h8_tracking}. Contact: "
        "{k:h8_email}. Next call after {k:h8_ticket} is done.",
    ],
}
