"""Secret templates of the seventh held-out set (judge7, seed 83471).

The author's idea of a memory service: what an *agent* writes down while it works for a
person or a team — its own tool-call traces and scratchpad, handoffs to other agents, facts
it keeps about its user, digests of an inbox, code review remarks, configs a user pasted,
signed links, CSV and Markdown rows, postmortems, transcripts of calls and dictation, chat
summaries. Slots: `{s:maker}` a secret (labelled by kind), `{k:maker}` content that must
survive, `{f:name}` an unlabelled filler. Negatives are in `heldout7_negatives`.
Invariant: a template's fixed text holds no credential value; every secret is a slot.
"""

from __future__ import annotations

from tests.data.scrub_eval.heldout7_negatives import CONTENT

__all__ = ["CONTENT", "FILLERS", "FRAMES", "SECRETS"]

FRAMES = [
    ("", ""),
    ("", ""),
    ("[auto-memory] ", ""),
    ("Merke: ", ""),
    ("Context carried over from the last session:\n", ""),
    ("## Notiz\n", ""),
    ("", "\n(source: chat)"),
    ("", "\n— gespeichert vom Assistenten"),
    ("memory/kind=observation\n", ""),
]

FILLERS = {
    "who": ["Jana", "Marc", "Aylin", "Tobias", "Frau Brandt", "Herr Okafor", "Priya", "Opa Heinz"],
    "org": ["nordwind", "kbx", "fahrradladen", "acme", "lumen-labs", "praxis-falk"],
    "team": ["platform", "billing", "data", "support", "web"],
    "akid": ["AKIA4XKQ7ZP2LMNB3RTY", "AKIA2HWJ6QDN8VCE5UFA", "AKIAZ7RM3KT9PYXB2GLD"],
    "wsid": ["T04QX7Z2K/B06AB1C2D3E", "T01HRN5PW/B07KLM9QX2T", "T09ZZ3YHC/B05EFG4H6JK"],
    "snowflake": ["1189342096754411520", "1204476630918287461", "1093850182347792394"],
    "pi": ["pi_3QxT7bLkdIwHu7ix0aR4mW2z", "pi_3PqA9cJmeKxGv2ly1bS5nX3y"],
}

SECRETS = {
    "tool_trace": [
        'en|Tool call log (http.request): {"method":"GET","url":"https://api.github.com/repos/'
        '{f:org}/infra/actions/runs","headers":{"Authorization":"token {s:h7_github_classic}"}}'
        " -> 200, request {k:h7_request_id}",
        "en|Observation after step 4: calling OpenAI with the key {s:h7_openai_project} from the"
        " user's .env worked; the model answered in 2.1 s. Trace {k:h7_trace_id}.",
        "de|Werkzeugaufruf `send_mail` fehlgeschlagen (401). Verwendeter SendGrid-Key:"
        " {s:h7_sendgrid}. Nächster Versuch nach Rückfrage bei {f:who}; Vorgang {k:h7_jira}.",
        'en|{"tool":"shell","cmd":"curl -s -H \'PRIVATE-TOKEN: {s:h7_gitlab_pat}\' '
        'https://gitlab.{f:org}.example/api/v4/projects/{k:h7_count}/pipelines","exit":0}',
        "de|Schritt 2 der Aufgabe: `huggingface-cli login --token {s:h7_huggingface}` ausgeführt,"
        " danach Modell-Download (Revision {k:h7_commit}).",
        "en|Agent scratchpad: Anthropic key for the eval harness is {s:h7_anthropic} (the user"
        " pasted it on {k:h7_date}); use it only for batch {k:h7_ulid}.",
        "en|Jupyter cell output:\nIn [3]: os.environ['WEBHOOK_SIGNING_SECRET']\n"
        "Out[3]: '{s:h7_webhook_hex}'\nkernel {k:h7_uuid}",
        "de|`printenv | grep -i token` auf {k:h7_pod}:\nGITHUB_TOKEN={s:h7_github_classic}\n"
        "CI_JOB_TOKEN=[MASKED]\nRUNNER_ID={k:h7_count}",
        "de|Aufruf im Log: GET /v2/orders?access_token={s:h7_bearer_opaque}&page=2 -> 200"
        " ({k:h7_count} Bestellungen)",
    ],
    "handoff": [
        "de|Übergabe an den Billing-Agenten: Stripe-Live-Key {s:h7_stripe_secret}, Kunde"
        " {k:h7_stripe_customer}, offene Zahlung {k:h7_stripe_payment_intent}, Erstattung über"
        " {k:h7_amount}.",
        "en|Handoff -> deploy-agent: Tailscale auth key {s:h7_tailscale} for the new runner"
        " (node runner-{k:h7_container}); reusable, expires in 90 days.",
        "en|Handoff note: Vault token {s:h7_vault} (policy read-only, TTL 24h), path"
        " secret/data/{f:team}/db. Ticket {k:h7_jira}.",
        "de|An den Support-Agenten: wichtig ist nur der Slack-Bot-Token {s:h7_slack_bot} für"
        " Kanal {k:h7_slack_channel}.",
        "en|Passing to research-agent: Groq key {s:h7_groq}; LangSmith key {s:h7_langsmith} for"
        " tracing run {k:h7_ulid}.",
    ],
    "user_fact": [
        "de|{f:who} merkt sich nichts: ihr Netflix-Passwort ist {s:h7_pw_human}, Login"
        " {k:h7_email}.",
        "en|User preference: log into the router at {k:h7_ipv4} as admin with password"
        " {s:h7_pw_leet} without asking again.",
        'de|Der Nutzer sagt, sein WLAN heißt "FritzBox-{k:h7_last4}" und der Schlüssel lautet'
        " {s:h7_pw_wifi}.",
        "de|Die PIN seiner Girocard (IBAN {k:h7_iban}) ist {s:h7_pin4}. Nicht weitergeben.",
        "en|The front door code of the building is {s:h7_door_code}; the parcel box is"
        " next to it (tracking {k:h7_tracking}).",
        "de|Alarmanlage im Ferienhaus ({k:h7_street}): Code zum Scharf- und Unscharfschalten"
        " {s:h7_pin6}.",
        "en|The user's Apple ID app-specific password for Thunderbird is"
        " {s:h7_apple_app_pw} (created {k:h7_iso_date}).",
        "de|Ihr Kennwort für ELSTER lautet „{s:h7_pw_passphrase_de}“, Steuer-ID {k:h7_tax_id}.",
        'en|She told me the passphrase of the encrypted backup disk: "{s:h7_pw_passphrase_en}".'
        " Disk serial {k:h7_serial}.",
        "de|Mama hat die neue SIM-Karte: PUK {s:h7_puk}, Rufnummer {k:h7_phone}.",
    ],
    "inbox": [
        "de|Posteingang: Mail von PayPal – „Ihr Sicherheitscode lautet {s:h7_otp6}. Er ist 10"
        " Minuten gültig.“ Außerdem Rechnung {k:h7_invoice} über {k:h7_amount}.",
        "en|Inbox digest: GitHub sent the verification code {s:h7_otp6} for a sign-in from a new"
        " device; Dependabot opened {k:h7_ticket}.",
        "de|Mail der Bank: chipTAN für die Überweisung an {k:h7_name} ({k:h7_iban}): {s:h7_otp6}",
        'en|SMS the user forwarded: "Your Microsoft account security code is {s:h7_otp6}" - from'
        " {k:h7_phone_us}",
    ],
    "review": [
        "en|Review comment on PR {k:h7_ticket}: line 42 hardcodes `STRIPE_WEBHOOK_SECRET ="
        ' "{s:h7_stripe_webhook}"` - move it to SSM before merging {k:h7_short_commit}.',
        "de|Code-Review: in `settings.py` steht `SECRET_KEY = '{s:h7_django_secret}'` – bitte aus"
        " der Umgebung lesen. Branch feature/{k:h7_jira}.",
        "en|Diff under review:\n-    client = Client({k:h7_twilio_sid}, "
        '"{s:h7_twilio_auth}")\n+    client = Client(sid, os.environ["TWILIO_AUTH_TOKEN"])',
        "de|Review: `config/master.key` ist mit eingecheckt ({s:h7_rails_master}); Commit"
        " {k:h7_commit} muss aus der Historie.",
        "en|PR {k:h7_ticket} adds an .npmrc with `//registry.npmjs.org/:_authToken={s:h7_npm}` -"
        " rejected, CI has its own secret.",
        'de|Review-Anmerkung: `FERNET_KEY = b"{s:h7_fernet}"` in tasks.py, Zeile'
        " {k:h7_count}. Gehört in den Secret-Store.",
    ],
    "config": [
        "en|User's ~/.aws/credentials:\n[{f:team}]\naws_access_key_id = {f:akid}\n"
        "aws_secret_access_key = {s:h7_aws_secret}\nregion = eu-central-1",
        "de|WireGuard-Konfiguration vom Laptop:\n[Interface]\nPrivateKey = "
        "{s:h7_wireguard_private}\nAddress = 10.8.0.2/24\n\n[Peer]\nPublicKey = {k:h7_wg_public}"
        "\nEndpoint = vpn.{f:org}.example:51820",
        'en|docker config.json on the build box: {"auths":{"registry.{f:org}.example":{"auth":'
        '"{s:h7_basic_b64}"}}} (runner {k:h7_container})',
        "de|`.env` des Kundenprojekts:\nDATABASE_URL=postgres://app:{s:h7_pw_url}@{k:h7_host}:5432"
        "/shop\nREDIS_URL=redis://default:{s:h7_pw_url}@{k:h7_host}:6379/0",
        "en|Laravel .env the user pasted:\nAPP_KEY={s:h7_laravel_key}\nAPP_URL=https://{f:org}"
        ".example\n# deployed {k:h7_short_commit}",
        "de|Azure-Speicher für Belege: DefaultEndpointsProtocol=https;AccountName=belege"
        "{k:h7_count};AccountKey={s:h7_azure_storage_key};EndpointSuffix=core.windows.net",
        'en|Service account file the user uploaded: {"type":"service_account","project_id":"'
        '{f:org}-prod","private_key":"-----BEGIN PRIVATE KEY-----\\n{s:h7_pkcs8_json}\\n-----END'
        ' PRIVATE KEY-----\\n","client_id":"{k:h7_client_number}"}',
        "en|~/.ssh/id_ed25519 pasted by mistake:\n-----BEGIN OPENSSH PRIVATE KEY-----\n"
        "{s:h7_openssh_body}\n-----END OPENSSH PRIVATE KEY-----\nused for {k:h7_host}",
        "de|Signierschlüssel für Release-Pakete (privat!):\n-----BEGIN PGP PRIVATE KEY BLOCK-----"
        "\n\n{s:h7_pgp_private_body}\n-----END PGP PRIVATE KEY BLOCK-----\nFingerprint"
        " {k:h7_pgp_fingerprint}",
        "en|EC key of the payment terminal API:\n-----BEGIN EC PRIVATE KEY-----\n{s:h7_ec_key_body}"
        "\n-----END EC PRIVATE KEY-----\nterminal {k:h7_serial}",
        "de|sops/age im Repo: privater Schlüssel {s:h7_age_secret}, öffentlicher"
        " {k:h7_age_public}.",
        "en|kubeconfig user entry:\nusers:\n- name: ci\n  user:\n    token: {s:h7_jwt}\n"
        "cluster server https://{k:h7_ipv4}:6443",
        "en|~/.pypirc:\n[pypi]\nusername = __token__\npassword = {s:h7_pypi}\n# for {f:org}-tools"
        " {k:h7_version}",
        'en|credentials.tfrc.json: {"credentials":{"app.terraform.io":{"token":'
        '"{s:h7_terraform_cloud}"}}} - machine {k:h7_host}',
        "de|GitHub-Runner: feingranulares Token {s:h7_github_fine} für {f:org}/website, läuft am"
        " {k:h7_date} ab.",
        'en|ngrok.yml:\nversion: "2"\nauthtoken: {s:h7_ngrok}\ntunnels:\n  web:\n    proto: http\n'
        "    addr: {k:h7_port}",
        "de|Datadog-Agent auf {k:h7_host}: `DD_API_KEY={s:h7_datadog_api}` in"
        " /etc/datadog-agent/environment.",
        "en|The newsletter export job uses the Mailchimp API key {s:h7_mailchimp}; audience"
        " {k:h7_container}.",
        "de|SMTP für den Newsletter: Server {k:h7_host}, Port 587, Benutzer newsletter, Passwort"
        " {s:h7_pw_random}",
        "en|Analytics connection: mongodb+srv://reporting:{s:h7_pw_url}@cluster0."
        "{k:h7_container}.mongodb.net/analytics",
    ],
    "links": [
        "en|Download link the user shared (valid 7 days): https://{f:org}-exports.s3.eu-central-1"
        ".amazonaws.com/reports/{k:h7_iso_date}.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date="
        "20261201T101500Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature="
        "{s:h7_aws_presign_sig}",
        "de|SAS-Link der Belegablage: https://belege.blob.core.windows.net/eingang?sv=2022-11-02"
        "&ss=b&srt=co&sp=rl&se=2026-12-31T23:59:59Z&sig={s:h7_azure_sas_sig} (Ordner"
        " {k:h7_invoice})",
        "en|Incoming webhook for #alerts: https://hooks.slack.com/services/{f:wsid}/"
        "{s:h7_slack_webhook_secret} (channel {k:h7_slack_channel})",
        "de|Discord-Webhook des Vereinsservers: https://discord.com/api/webhooks/{f:snowflake}/"
        "{s:h7_discord_webhook_token} – Kanal #termine, angelegt {k:h7_date}",
        'en|Saved Playwright storageState for the admin panel: {"cookies":[{"name":"sessionid",'
        '"value":"{s:h7_session_django}","domain":"admin.{f:org}.example","httpOnly":true}]}'
        " (user {k:h7_user})",
        "de|HAR-Auszug vom Login: `Cookie: connect.sid={s:h7_session_express}; lang=de` an"
        " /api/konto/{k:h7_customer_no}",
        "en|otpauth URI from the 2FA setup screen: otpauth://totp/{f:org}:{k:h7_email}?secret="
        "{s:h7_totp_seed}&issuer={f:org}&digits=6",
        "de|Checkout-Test: Client-Secret {f:pi}_secret_{s:h7_stripe_client_secret} für Bestellung"
        " {k:h7_order}",
        'en|Command the user ran: curl -u "admin:{s:h7_pw_random}" https://{k:h7_host}/api/v1/'
        "backup",
    ],
    "table": [
        "de|Zugangsliste aus dem Onboarding (CSV):\nsystem;benutzer;passwort;notiz\nShop-Admin;"
        "{k:h7_user};{s:h7_pw_random};seit {k:h7_date}\nNAS;admin;{s:h7_pw_leet};Raum 2.04",
        "en|| service | login | secret |\n|---|---|---|\n| Grafana | {k:h7_user} |"
        " {s:h7_grafana_sa} |\n| New Relic | ops | {s:h7_newrelic} |",
        "de|Tabelle Geräte Büro: Drucker (MAC {k:h7_mac}) Admin-PIN {s:h7_pin6}; Beamer"
        " ({k:h7_serial}) ohne PIN.",
        "en|Rows from the user's sheet: provider=Resend, key={s:h7_resend}, owner={k:h7_email};"
        " provider=Replicate, key={s:h7_replicate}, owner=same",
    ],
    "incident": [
        "en|Postmortem {k:h7_jira}: the leaked Postman key {s:h7_postman} sat in a public"
        " collection; revoked 09:14, audit trace {k:h7_trace_id}.",
        "de|Störungsbericht: Im Log von {k:h7_pod} stand der DigitalOcean-Token"
        " {s:h7_digitalocean} im Klartext. Rotation noch offen.",
        "en|Security note: the Mapbox secret token {s:h7_mapbox_secret} shipped in Android build"
        " {k:h7_version}; replace it with a public token.",
        "de|Nachbetrachtung: Sentry-Token {s:h7_sentry_user} wurde in Issue {k:h7_ticket}"
        " gepostet.",
    ],
    "voice": [
        "de|Transkript Anruf mit {f:who}: „…das neue Passwort für den Kassenserver ist"
        " {s:h7_pw_season}, großes S vorne…“ Kasse {k:h7_serial}.",
        'en|Voice memo: "ok so the bitlocker recovery key for the finance laptop is'
        ' {s:h7_bitlocker}, asset tag {k:h7_serial}"',
        "de|Diktat: Kreditkarte endet auf {k:h7_last4}, CVC {s:h7_cvc}, gültig bis 09/28.",
        "en|Call summary: the customer ({k:h7_email}) read me her recovery codes:"
        " {s:h7_recovery_code}, {s:h7_recovery_code}, {s:h7_recovery_code}.",
        "de|Backup-Codes für das Google-Konto von Opa (abgetippt): {s:h7_backup_digits} ·"
        " {s:h7_backup_digits} · {s:h7_backup_digits}",
        "de|Anruf {f:who}: Seed-Phrase der Hardware-Wallet lautet {s:h7_mnemonic}; Adresse"
        " {k:h7_eth_address}.",
    ],
    "chat": [
        "en|Chat summary #{f:team}: Priya shared the Linear API key {s:h7_linear} so the agent can"
        " file issues, and a Figma token {s:h7_figma} for exports.",
        "de|Teams-Chat: Notion-Integration-Secret {s:h7_notion}, Datenbank {k:h7_uuid_hex}.",
        'en|From the thread: "here is the Shopify admin token {s:h7_shopify}" - store {f:org},'
        " test order {k:h7_order}.",
        "de|Chat: „Kennwort vom LDAP-Bind-User ist {s:h7_pw_random}“ (cn=svc-ldap,ou=dienste,"
        "dc={f:org},dc=de auf {k:h7_host})",
        "en|DM summary: Telegram bot token {s:h7_telegram_bot} for the delivery bot, chat id"
        " {k:h7_count}.",
        "en|Atlassian API token for the Jira automation: {s:h7_atlassian} (account {k:h7_email}).",
        "de|Cloudflare-API-Token mit DNS-Rechten für Zone {k:h7_trace_id}: {s:h7_cloudflare}",
        "en|Pinecone key {s:h7_pinecone} and Supabase access token {s:h7_supabase}, both for the"
        " RAG demo on {k:h7_iso_date}.",
        "de|Google OAuth: Client-ID {k:h7_oauth_client_id}, Client-Secret"
        " {s:h7_google_client_secret}",
        'en|Azure app registration "mail-sync": client secret value {s:h7_azure_client_secret}'
        " (secret ID {k:h7_uuid}, expires {k:h7_iso_date}).",
        "en|`heroku authorizations:create -d ci` printed Token: {s:h7_heroku_uuid} - for app"
        " {f:org}-api, release {k:h7_version}",
    ],
}
