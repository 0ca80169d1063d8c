"""Templates of the third development round (seed 52817; the scrubber may be tuned on it).

Same slot syntax as `dev_templates` (`{s:maker}` secret, `{k:maker}` content that must
survive, `{f:filler}`); makers from `dev3_values`/`dev3_content` and the older rounds. What
the first two rounds lack: the layouts people really paste (env files, INI/TOML/YAML/JSON,
docker-compose and k8s manifests, shell history, `curl -H`, CI logs, stack traces that dump
headers, Markdown tables with a password column, chat in German and English), connection URIs
of more engines and brokers, secrets beside words other than "password"/"token"
(Zugangsdaten, Kennung, PIN/PUK, Passphrase, Geheimnis, "the key is"), keys wrapped over two
lines and quoted values; as content: national ids of more countries, public client ids, lock
and trace hashes, ticket/version strings, German prose with numbers, and talk about secrets
that holds none ("the key is to ...", "Zugangsdaten kommen per Post").
"""

from __future__ import annotations

FILLERS: dict[str, list[str]] = {
    "db": ["orders", "crm_prod", "analytics", "brain"],
    "acct": ["acmeprod", "stbrainexports", "datalake01"],
}

SECRETS: dict[str, list[str]] = {
    "env_files": [
        "en|# .env.production\nNODE_ENV=production\nDATABASE_URL=postgres://app:{s:password_db}@"
        "{f:host}:5432/{f:db}\nNETLIFY_AUTH_TOKEN={s:netlify_token}",
        "de|Aus der .env vom Staging:\nVERCEL_TOKEN={s:vercel_token}\nVERCEL_ORG_ID=team_acme",
        'en|export HCLOUD_TOKEN="{s:hetzner_token}"',
        "en|LINODE_TOKEN={s:linode_token}\nLINODE_REGION=eu-central",
        "de|In der .envrc steht noch SONAR_TOKEN={s:sonar_token}",
        "en|AZURE_OPENAI_API_KEY={s:azure_openai_key}\nAZURE_OPENAI_ENDPOINT=https://acme-oai"
        ".openai.azure.com/",
        "en|OPENROUTER_API_KEY={s:openrouter_key}",
        "de|WANDB_API_KEY={s:wandb_key} (Account von {f:person})",
        "en|RESEND_API_KEY={s:resend_key}",
        "en|export AWS_SESSION_TOKEN={s:aws_session_token}",
    ],
    "configs": [
        "de|~/.my.cnf auf {f:host}:\n[client]\nuser=root\npassword={s:chat_password}",
        'en|~/.cargo/credentials.toml\n[registry]\ntoken = "{s:crates_token}"',
        'en|pyproject:\n[tool.poetry.http-basic.internal]\nusername = "ci"\n'
        'password = "{s:password_db}"',
        'de|kaggle.json: {"username":"jkoch","key":"{s:kaggle_key}"}',
        'en|~/.docker/config.json:\n{"auths": {"registry.acme.example": '
        '{"auth": "{s:docker_auth_b64}"}}}',
        "en|application.properties:\nspring.datasource.url=jdbc:mysql://{f:host}:3306/{f:db}\n"
        "spring.datasource.username=app\nspring.datasource.password={s:password_db}",
        "en|settings.xml: <server><id>nexus</id><username>deploy</username><password>"
        "{s:shell_password}</password></server>",
        'de|appsettings.json → "ConnectionStrings": {"Default": "Server={f:host};Database='
        '{f:db};User Id=sa;Password={s:password_db};"}',
        "en|gradle.properties:\nossrhUsername=acme\nossrhPassword={s:chat_password}",
        "de|In der php-Konfig: $db_pass = '{s:shell_password}';",
        "en|[azure]\nstorage_connection = DefaultEndpointsProtocol=https;AccountName={f:acct};"
        "AccountKey={s:azure_account_key};EndpointSuffix=core.windows.net",
    ],
    "manifests": [
        "en|apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-creds\ntype: Opaque\ndata:\n"
        "  username: YXBw\n  password: {s:k8s_secret_b64}",
        "de|docker-compose.yml:\n  db:\n    image: postgres:16\n    environment:\n      - "
        "POSTGRES_USER=app\n      - POSTGRES_PASSWORD={s:chat_password}",
        "en|kubectl create secret generic api --from-literal=apiKey={s:algolia_admin_key} -n prod",
        'de|Helm values:\nauth:\n  rootPassword: "{s:shell_password}"\n  replicaCount: 2',
        "en|    env:\n      - name: CIRCLE_TOKEN\n        value: {s:circleci_token}",
        "en|Service Bus: Endpoint=sb://acme-bus.servicebus.windows.net/;SharedAccessKeyName="
        "RootManageSharedAccessKey;SharedAccessKey={s:azure_servicebus_key}",
    ],
    "shell": [
        "en|$ mysql -h {f:host} -u root -p'{s:shell_password}' {f:db}",
        "de|History vom Jump-Host:\n  512  PGPASSWORD={s:password_db} psql -h {f:host} -U app",
        "en|docker login -u ci-bot -p {s:docker_pat} registry.acme.example",
        "en|az login --service-principal -u 0b9a8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d -p "
        "{s:azure_client_secret} --tenant acme.onmicrosoft.com",
        "de|7z a -p{s:chat_password} backup.7z ./export",
        "en|smbclient //fileserver/share -U {f:user}%{s:chat_password}",
        "en|gsutil hmac: access id {s:gcp_hmac_access_id}, secret {s:gcp_hmac_secret}",
        "de|vault operator unseal {s:vault_unseal_key}",
        "en|tailscale up --authkey={s:tailscale_key}",
    ],
    "http": [
        'en|curl -H "Authorization: Bearer {s:hubspot_token}" https://api.hubapi.com/crm/v3/objects',
        "de|curl -s -H 'X-Algolia-API-Key: {s:algolia_admin_key}' -H 'X-Algolia-Application-Id: "
        "LX4RTA9Q2P' https://lx4rta9q2p.algolia.net/1/indexes",
        'en|curl --header "PRIVATE-TOKEN: {s:gitlab_pat}" https://gitlab.acme.example/api/v4/projects',
        'en|curl -u "api:{s:mailgun_key}" https://api.eu.mailgun.net/v3/mg.acme.example/messages',
        "de|Aufruf: curl https://api-m.paypal.com/v1/oauth2/token "
        '-u "AcmeClient:{s:auth0_client_secret}"',
        "en|http GET https://api.dropboxapi.com/2/users/get_current_account "
        "'Authorization:Bearer {s:dropbox_token}'",
    ],
    "logs": [
        'en|Traceback (most recent call last):\n  File "sync.py", line 88, in push\n'
        "requests.exceptions.HTTPError: 401 for url https://api.contentful.com/spaces\n"
        "request headers: {'User-Agent': 'python-requests/2.32', 'Authorization': 'Bearer "
        "{s:contentful_token}'}",
        "de|CI-Log, Schritt 4:\n+ npm config set //registry.npmjs.org/:_authToken {s:npm_token}\n"
        "+ npm publish --access public",
        "en|2026-11-30 09:14:02 DEBUG botocore: headers={'X-Amz-Security-Token': "
        "'{s:aws_session_token}'}",
        "en|##[group]Run twine upload dist/*\nTWINE_USERNAME: __token__\n"
        "TWINE_PASSWORD: {s:pypi_token}",
        "de|Jenkins hat das Secret ins Log geschrieben: "
        "BITBUCKET_APP_PASSWORD={s:bitbucket_app_password}",
        "en|ERROR connect failed: amqp://orders:{s:password_url}@{f:host}:5672/prod (timeout)",
    ],
    "uris": [
        "en|mongodb+srv://reporting:{s:password_url}@cluster0.ab1cd.mongodb.net/{f:db}?retryWrites=true",
        "de|Redis: rediss://default:{s:password_url}@{f:host}:6380/0",
        "en|jdbc:postgresql://{f:host}:5432/{f:db}?user=etl&password={s:password_db}&ssl=true",
        "en|CLICKHOUSE_URL=clickhouse://default:{s:password_url}@{f:host}:9000/{f:db}",
        "de|Broker: nats://worker:{s:password_url}@{f:host}:4222",
        "en|ES_URL=https://elastic:{s:password_url}@{f:host}:9200",
        "en|sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
        'username="svc-stream" password="{s:password_db}";',
        "de|mssql: Server=tcp:{f:host},1433;Initial Catalog={f:db};User ID=report;Password="
        "{s:shell_password};Encrypt=True",
        "en|PlanetScale: mysql://k3v9xq:{s:planetscale_password}@aws.connect.psdb.cloud/{f:db}",
        "en|Cosmos: AccountEndpoint=https://acme-cosmos.documents.azure.com:443/;AccountKey="
        "{s:azure_cosmos_key};",
    ],
    "tables": [
        "de|| Dienst | Benutzer | Passwort |\n|---|---|---|\n| Grafana | admin | "
        "{s:chat_password} |\n| NAS | {f:user} | {s:shell_password} |",
        "en|| system | login | secret |\n|---|---|---|\n| Kaggle | jkoch | {s:kaggle_key} |",
        "de|Zugänge:\n- Router: admin / {s:chat_password}\n- Drucker: keins",
    ],
    "chat_de": [
        "de|Die Zugangsdaten für {f:svc}: Kennung {f:user}, Kennwort {s:chat_password}",
        "de|[09:12] tom: die PIN fürs Tablet ist {s:pin_code}",
        "de|SIM-Karte: PIN {s:pin_code}, PUK {s:sim_puk}",
        "de|Passphrase für den Backup-Schlüssel: {s:word_passphrase}",
        "de|Geheimnis für den Webhook: {s:webhook_secret}",
        "de|Der Schlüssel lautet {s:ibm_cloud_api_key}, bitte in den Tresor legen.",
        "de|Login beim Steuerberater-Portal ist {f:user}, das Kennwort {s:chat_password}",
        "de|Unser WLAN-Schlüssel lautet {s:word_passphrase}",
        "de|Mollie API-Schlüssel für den Shop: {s:mollie_key}",
        "de|Braintree-Zugang (Produktion): {s:braintree_token}",
    ],
    "chat_en": [
        "en|[15:40] sam: the key is {s:scaleway_secret}, it's for the object storage",
        "en|hey, the login for {f:svc} is {f:user} and the pass is {s:chat_password}",
        "en|Backblaze app key: {s:backblaze_app_key} (keyID 005a1b2c3d4e0000000003)",
        "en|Here's the Tencent SecretId {s:tencent_secret_id}, don't share it",
        "en|DigitalOcean Spaces secret: {s:do_spaces_secret}",
        "en|My 1Password service account token: {s:onepassword_sa_token}",
        "en|Fly deploy token: {s:fly_token}",
        "en|shared secret for the Shopify app is {s:shopify_shared_secret}",
        "en|Square OAuth application secret {s:square_oauth_secret}",
        "en|Sentry user auth token {s:sentry_user_token} (scope project:releases)",
        "en|Razorpay key_id rzp_live_4Xk2Lm9QpR7sTu, key_secret {s:razorpay_secret}",
        "en|DeepL auth key {s:deepl_key}",
        "en|PagerDuty REST key: {s:pagerduty_key}",
        "en|Postmark server token {s:postmark_token} for transactional mail",
        "en|Mailjet API secret {s:mailjet_secret}",
        "en|Azure DevOps PAT (Code read): {s:azure_devops_pat}",
    ],
    "wrapped": [
        "en|OPENAI key (copied from the terminal, it wrapped):\n{s:split_api_key}",
        "de|Der Key ging über zwei Zeilen:\n{s:split_api_key}\nbitte zusammensetzen.",
    ],
}

CONTENT: dict[str, list[str]] = {
    "national_ids": [
        "de|Numéro de sécurité sociale der französischen Kollegin: {k:fr_nir}",
        "en|Belgian national number {k:be_rrn} on the contract",
        "de|SV-Nummer von {f:person}: {k:at_svnr}",
        "en|Czech birth number {k:cz_rodne}",
        "en|PPS number {k:ie_pps} for Revenue",
        "de|Finnische Henkilötunnus {k:fi_hetu}",
        "en|Norwegian fødselsnummer {k:no_fnr}",
        "en|TFN {k:au_tfn} for the Sydney payroll",
        "de|CURP des mexikanischen Partners: {k:mx_curp}",
        "en|CNPJ of the Brazilian subsidiary: {k:br_cnpj}",
        "de|T.C. Kimlik No {k:tr_tckn}",
        "de|Steuer-ID {k:de_steuer_id}, Rentenversicherungsnummer {k:de_rvnr}",
    ],
    "contacts": [
        "de|{f:person} erreichst du unter {k:phone_more}.",
        "en|New office: {k:address_more}",
        "de|Lieferung an {k:address_more}, Tel. {k:phone_more}",
        "en|| name | phone | address |\n|---|---|---|\n| {f:person} | {k:phone_more} | "
        "{k:address_more} |",
        "de|Rechnungsadresse: {f:person}, {k:address_more}, Kundennr. {k:ticket_id}",
    ],
    "public_ids": [
        "en|OAuth client id (public): {k:google_client_id}",
        "de|GitHub-App Client-ID {k:github_client_id}",
        "en|Apple Team ID {k:apple_team_id}, bundle de.acme.brain",
        "de|AWS-Konto {k:aws_account_id}, Region eu-central-1",
        "en|Bluesky account {k:did_plc}",
        "de|Playlist: https://www.youtube.com/playlist?list={k:yt_playlist}",
        "en|Stripe object {k:stripe_ids} is in the dispute queue",
        "en|metadata.uid: {k:k8s_uid}",
    ],
    "hashes": [
        "en|requests==2.32.3 --hash={k:pip_hash}",
        "de|go.sum: golang.org/x/net v0.31.0 {k:go_sum_hash}",
        "en|traceparent: {k:traceparent}",
        "de|Transaktion {k:bitcoin_txid} hat 6 Bestätigungen",
        "en|image: ghcr.io/acme/api@{k:docker_digest}",
        "de|Commit {k:sha1} behebt {k:ticket_id}",
        "en|The sha256 of the ISO is {k:sha256}.",
    ],
    "versions": [
        "en|Upgraded to {k:version_string} last night, no regressions.",
        "de|Kernel {k:version_string} auf {f:host}, Neustart am Sonntag",
        "en|Ticket {k:ticket_id}: fixed in {k:version_string}",
        "de|Change {k:ticket_id} genehmigt, Rollout Version {k:version_string}",
    ],
    "prose_numbers": [
        "de|Am 3. März haben wir 1.250,00 € überwiesen, Aktenzeichen {k:aktenzeichen}.",
        "de|Flurstück 123/4, Grundbuch Blatt 5678, Termin beim Notar am 12.01. um 9:30.",
        "de|Die Besprechung ist in Raum 2.014, Gebäude B, 3. OG — Durchwahl -4711.",
        "de|Wir sind 42 Leute, 7 Teams, Budget 180.000 € für 2027.",
        "en|Flight LH 2034 departs 07:40 from gate B44, seat 17C.",
        "de|Zählerstand Strom 048213 kWh, Wasser 00731 m³ (abgelesen am 30.11.).",
    ],
    "talk": [
        "en|The key is to keep the migration small and reversible.",
        "de|Die Zugangsdaten bekommst du per Post, nicht per Mail.",
        "de|Der Schlüssel liegt beim Hausmeister, Schlüsselübergabe am 3.12.",
        "en|Passphrase must have at least five words; use the generator in 1Password.",
        "de|Das bleibt unser Geheimnis bis zur Weihnachtsfeier.",
        "de|Benutzerkennung ist {f:user}, das Passwort setzt die IT zurück.",
        "en|PIN reset is done via the bank app; never write the PIN down.",
        "de|PUK vergessen? Steht auf der Karte vom Mobilfunkanbieter.",
        "en|Rotate the Hetzner token and the Vercel token before the audit.",
        "de|Tokens laufen nach 90 Tagen ab; der CI-Job erinnert eine Woche vorher.",
    ],
    "clean_layouts": [
        "en|# .env.example\nDATABASE_URL=postgres://app:${DB_PASSWORD}@localhost:5432/app\n"
        "NETLIFY_AUTH_TOKEN=\nLOG_LEVEL=debug",
        "de|docker-compose.yml:\n  db:\n    environment:\n      - POSTGRES_PASSWORD_FILE="
        "/run/secrets/db_password",
        "en|apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: api\n  uid: {k:k8s_uid}\ndata:\n"
        "  LOG_LEVEL: info\n  REGION: eu-central-1",
        'en|curl -H "Authorization: Bearer $HUBSPOT_TOKEN" https://api.hubapi.com/crm/v3/objects',
        "de|| Dienst | Benutzer | Passwort |\n|---|---|---|\n| Grafana | admin | (im Tresor) |",
        "en|2026-11-30 09:14:02 INFO sync finished traceparent={k:traceparent} items=412",
        "de|[client]\nuser=report\npassword=\nhost={f:host}",
        "en|mongodb+srv://cluster0.ab1cd.mongodb.net/{f:db} (credentials come from Vault)",
        "en|$ git log --oneline -2\n{k:short_sha} Fix retry\n{k:short_sha} Bump {k:version_string}",
        "de|Bild eingefügt: data:image/png;base64,{k:base64_image}",
    ],
}

FRAMES: list[tuple[str, str]] = [
    ("", ""),
    ("", ""),
    ("Notiz: ", ""),
    ("", "\n(aus dem Team-Chat)"),
    ("FYI ", ""),
    ("```\n", "\n```"),
    ("[Slack #ops] ", ""),
    ("", " — danke!"),
]
