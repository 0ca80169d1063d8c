"""Templates of the second held-out set (seed 77149): measured once, never tuned on.

Written after the second development round, deliberately unlike it: memories as an agent
would note them from mails, chats, tickets, config files and shell sessions; secrets of
kinds the development rounds do not have (payment, social, CI platforms, framework config
files, Kubernetes secrets) and everyday passwords in prose; as content, identifiers and
national IDs of further countries, research and logistics codes, invite slugs and cursors.
"""

from __future__ import annotations

FILLERS: dict[str, list[str]] = {
    "colleague": ["Jonas", "Frau Petersen", "der Kollege aus der IT", "Priya", "Mo"],
    "system": ["Lexware", "das DATEV-Portal", "Personio", "HubSpot", "the NAS", "Jenkins"],
    "org": ["acme", "nordwind", "brainlabs"],
}

SECRETS: dict[str, list[str]] = {
    "platforms": [
        "en|Azure DevOps PAT (expires 2027-03): {s:h_azure_devops_pat}",
        "de|Jenkins-API-Token von {f:user}: {s:h_jenkins_token}",
        "en|Algolia admin API key {s:h_algolia_admin} - never ship it to the browser",
        "de|CONTENTFUL_MANAGEMENT_TOKEN={s:h_contentful}",
        "en|Dropbox access token for the backup script: {s:h_dropbox}",
        "de|Mollie Live-API-Key: {s:h_mollie}",
        "en|BRAINTREE_ACCESS_TOKEN={s:h_braintree}",
        "en|Twitter/X bearer token for the listener: {s:h_twitter_bearer}",
        "de|Facebook Page Access Token (läuft nicht ab): {s:h_facebook_token}",
        "en|Binance API secret {s:h_binance}",
        "de|Telegram api_hash {s:h_telegram_api_hash} (api_id {k:h_wikidata})",
        "en|CLOUDINARY_URL=cloudinary://{k:h_docker_image_id}:{s:h_cloudinary_secret}@{f:org}",
        "de|{f:colleague} hat mir den Slack-Token geschickt: {s:slack_token}",
        "en|OPENAI key from the team vault, pasted here for the demo: {s:openai_key}",
        "de|Stripe-Geheimschlüssel (live): {s:stripe_secret}",
    ],
    "configs": [
        "en|wp-config.php:\ndefine('AUTH_KEY', '{s:h_wp_salt}');\ndefine('DB_NAME', 'wp');",
        "de|application.properties:\nspring.datasource.url=jdbc:postgresql://{f:host}/crm\n"
        "spring.datasource.username={f:user}\nspring.datasource.password={s:h_spring_password}",
        "en|apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n"
        "  password: {s:h_k8s_secret_b64}",
        "de|kubeconfig:\nusers:\n- name: ci\n  user:\n    token: {s:h_kubeconfig_token}",
        "en|~/.git-credentials: https://{f:user}:{s:h_git_credential_token}@github.com",
        "de|~/.netrc\nmachine {f:host}\n  login {f:user}\n  password {s:h_spring_password}",
        "en|Dockerfile: ENV STRIPE_KEY={s:stripe_secret}",
        'de|PowerShell: $env:AWS_SECRET_ACCESS_KEY = "{s:aws_secret}"',
        "en|const apiKey = '{s:h_api_key_vendorless}'; // TODO move to env",
        'de|Go: os.Setenv("GITHUB_TOKEN", "{s:github_pat}")',
        "en|values.yaml:\nauth:\n  adminPassword: {s:password_strong}\n  replicas: 3",
        "de|deploy key im Helm-Chart:\n  sshKey: |\n    {s:h_ssh_key_in_yaml}",
        "en|[profile prod]\naws_access_key_id={s:aws_key_id}\naws_secret_access_key={s:aws_secret}",
        "de|set DB_PASS={s:h_snowflake_password} && python sync.py",
    ],
    "prose": [
        "de|Für {f:system} nehme ich ab jetzt {s:h_everyday_password}, das alte ist gesperrt.",
        "de|{f:colleague} meinte, das WLAN heißt Praxis-5G und das Passwort ist "
        "{s:h_everyday_password}",
        "de|Hab dir das Kennwort für {f:system} aufgeschrieben: {s:h_everyday_password}",
        "de|Zugangsdaten Elternportal — Nutzer {f:user}, PW {s:h_everyday_password}",
        "en|FYI the password we agreed on for {f:system} is {s:h_everyday_password}",
        "en|{f:colleague} changed the shared login password to {s:h_everyday_password} "
        "this morning",
        "en|Password for the Snowflake service user: {s:h_snowflake_password}",
        "de|Kennwort vom Router (Aufkleber unten): {s:password_strong}",
        "de|PIN vom Diensthandy ist {s:h_pin_spoken}, bitte nicht ändern.",
        "en|my bank card pin: {s:h_pin_spoken}",
        "de|Die Zugangs-PIN zum Serverraum lautet {s:h_pin_spoken}.",
        "en|Use {f:user} and password {s:h_snowflake_password} on {f:host}",
    ],
    "shell": [
        "en|$ sshpass -p '{s:h_snowflake_password}' ssh {f:user}@{f:host}",
        "de|curl -u elastic:{s:h_spring_password} https://es.{f:host}:9200/_cat/indices",
        "en|neo4j: bolt://neo4j:{s:h_spring_password}@{f:host}:7687",
        'de|psql "postgresql://{f:user}:{s:h_spring_password}@{f:host}:5432/dwh?sslmode=require"',
        "en|export GITHUB_TOKEN={s:github_pat}",
        'de|curl -H "Authorization: Bearer {s:jwt}" https://api.{f:host}/me',
    ],
    "mail": [
        "de|Von: {f:colleague}\nBetreff: Zugang\n\nHallo, dein Initialkennwort ist "
        "{s:h_everyday_password}."
        " Bitte nach dem ersten Login ändern.",
        "en|> On Mon, {f:colleague} wrote:\n> the API key is {s:h_api_key_vendorless}\nthanks!",
        "de|Ticket #4411: Kunde schickt versehentlich seine Kartennummer {s:card_number}",
        'en|Slack export: {"user": "U02", "text": "token is {s:h_api_key_vendorless}"}',
        "de|Notiz aus dem Call: Private Key liegt jetzt hier\n{s:private_key}",
        "en|Partner sent their webhook signing secret: {s:stripe_webhook}",
    ],
    "mixed": [
        "en|Order {k:h_amazon_order} was refunded; new Mollie key is {s:h_mollie}",
        "de|Container {k:h_container_no} verzollt, Login Zollportal {f:user} / {s:password_strong}",
        "en|Invoice for account {k:h_stripe_account}; live key {s:stripe_secret}",
        "de|Paper {k:h_doi} hochgeladen, Zugang zum Review-Portal: {s:h_everyday_password}",
    ],
}

SECRETS["agents"] = [
    "en|Memory: the user's GitLab token is {s:gitlab_pat}, use it for the mirror job.",
    "de|Merken: Maps-Schlüssel für die Filialkarte {s:google_api_key}",
    "en|User asked me to remember their Claude key {s:anthropic_key}",
    "de|npm-Publish-Token des Teams: {s:npm_token}",
    "en|Newsletter sends through SendGrid, key {s:sendgrid_key}",
    "de|Hugging-Face-Token (read): {s:hf_token}",
    "en|Authenticator seed for the shared admin: {s:totp_secret}",
    "de|Header für den Legacy-Endpunkt: Authorization: Basic {s:basic_auth}",
    'en|The vault unlock phrase is "{s:passphrase}"',
    "de|Der Nutzer hat sein Bankkennwort genannt: {s:h_everyday_password}",
    "en|Nutzer {f:user} shared the Wi-Fi: network Lab-5G, password {s:h_everyday_password}",
    "de|Aus dem Screenshot abgetippt: AWS Key {s:aws_key_id}, Secret {s:aws_secret}",
]
CONTENT: dict[str, list[str]] = {
    "national_ids": [
        "de|PESEL der polnischen Kollegin: {k:h_pesel}",
        "en|Swedish personnummer {k:h_personnummer}",
        "de|CPR-Nummer (Dänemark): {k:h_cpr}",
        "en|PAN card {k:h_pan_india}, Aadhaar {k:h_aadhaar}",
        "de|CPF des brasilianischen Lieferanten: {k:h_cpf}",
        "en|SIN {k:h_sin_canada} for the Canadian contractor",
        "de|NIF (Portugal): {k:h_nif_pt}",
    ],
    "bank_and_contact": [
        "en|Pay the Warsaw office to {k:h_iban_more}",
        "de|Konto in Italien: {k:h_iban_more}",
        "en|Reach {f:colleague} on {k:h_phone_more}",
        "de|Telefon der Niederlassung: {k:h_phone_more}",
        "en|Office address: {k:h_address_more}",
        "de|Rechnungsadresse: {f:person}, {k:h_address_more}",
        "de|IBAN {k:iban}, Ansprechpartner {f:person}, {k:phone}",
    ],
    "research_logistics": [
        "en|ORCID {k:h_orcid}, DOI {k:h_doi}",
        "de|Container {k:h_container_no} liegt in Hamburg",
        "en|Amazon order {k:h_amazon_order} arrives Thursday",
        "de|PayPal-Transaktion {k:h_paypal_txn}",
        "en|Connected Stripe account {k:h_stripe_account}",
        "de|Wikidata-Eintrag {k:h_wikidata}",
    ],
    "tech_ids": [
        "en|docker image {k:h_docker_image_id} is 1.2 GB",
        "de|npm shasum {k:h_npm_shasum}",
        "en|KMS key id {k:h_kms_key_id}",
        "de|Server hat die IPv6 {k:h_ipv6}",
        "en|Invite link: https://app.example.com/join/{k:h_random_slug}",
        "de|Cursor für die nächste Seite: {k:h_b64_json_blob}",
        "en|next_page_token={k:h_b64_json_blob}",
        "de|Freigabe-ID {k:h_random_slug}",
        "en|git tree {k:sha1}",
        "de|Artefakt-Digest {k:sha256}",
    ],
    "talk": [
        "en|We use a token bucket with 100 tokens per minute.",
        "de|Die Passwort-Richtlinie verlangt 12 Zeichen und eine Zahl.",
        "en|The key to the server room is at the front desk.",
        "de|Schlüssel für Raum 204 liegt beim Empfang.",
        "en|Rotate the API keys before the audit on Friday.",
        "de|Das Kennwort bekommst du von {f:colleague} persönlich.",
        "en|Secrets live in Vault, path secret/data/{f:org}/prod.",
        "de|GitHub Actions: ${{ secrets.DEPLOY_KEY }} wird im Workflow gesetzt.",
        "en|The PIN letter arrives separately by post.",
        "de|Pin 13 am Arduino ist die LED.",
        "en|Passwords must not be stored in memories, please.",
        "de|Neues Passwort angefordert, Mail kommt gleich.",
    ],
    "configs_clean": [
        "en|values.yaml:\nreplicas: 3\nimage: {f:org}/api:{k:semver}\nresources:\n  cpu: 500m",
        "de|application.properties:\nserver.port=8080\nspring.datasource.url=jdbc:postgresql://"
        "{f:host}/crm",
        "en|.env.example:\nAPI_KEY=your-api-key-here\nDB_PASSWORD=${DB_PASSWORD}",
        "de|kubectl get secret db -o yaml  # zeigt nur die Namen der Felder",
        'en|{"level":"info","msg":"login ok","user":"{f:user}","trace_id":"{k:trace_id}"}',
        "en|CSV: id,name,phone\n1,{f:person},{k:h_phone_more}",
    ],
}

CONTENT["agent_notes"] = [
    "en|User prefers invoices as PDF to {k:email}.",
    "de|Nutzer wohnt in {k:h_address_more}, Geburtstag {k:birth_date}.",
    "en|Customer reference {k:h_random_slug} belongs to {f:person}.",
    "de|Steuer-ID des Nutzers: {k:tax_id}",
    "en|Flight LH{k:pin} lands 14:35; booking {k:h_paypal_txn}",
    "de|Kennzeichen {k:license_plate}, Fahrgestellnummer {k:vin}",
    "en|User's employer VAT number is on file; IBAN {k:h_iban_more}.",
    "de|Sendungsverfolgung {k:tracking_number}, Bestellung {k:order_number}",
    "en|The commit that broke the build: {k:sha1}",
    "de|Nutzer-ID im CRM: {k:uuid_dashed}",
]

FRAMES: list[tuple[str, str]] = [
    ("", ""),
    ("", ""),
    ("", ""),
    ("Aus dem Chat: ", ""),
    ("Memo: ", ""),
    ("", " (weitergeleitet)"),
    ("", "\nLG"),
    ("TODO: ", ""),
]
