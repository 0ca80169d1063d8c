"""Templates of the fourth held-out scrub set (seed 40613), written by the judge4 track.

Other document types than the earlier sets: runbooks, Jira comments, Slack exports, Terraform
and Ansible, crash dumps, password-manager exports, onboarding mails, SMS, voice-call
transcripts. `{s:…}` slots are secrets (scored), `{k:…}` content that must survive, `{f:…}`
fillers (not scored). Labelling: a credential's non-secret neighbours (user names, hosts,
account ids) are fillers; personal data and identifiers are content; card numbers and one-time
codes are credentials. Negatives (`CONTENT`) are in `heldout4_negatives`.
"""

from __future__ import annotations

from tests.data.scrub_eval.heldout4_negatives import CONTENT

__all__ = ["CONTENT", "FILLERS", "FRAMES", "SECRETS"]

FRAMES = [
    ("", ""),
    ("Gemerkt: ", ""),
    ("From the runbook:\n", ""),
    ("> ", ""),
    ("Zusammenfassung der Sitzung: ", " (Ende der Zusammenfassung)"),
    ("<memory>\n", "\n</memory>"),
    ("- ", ""),
    ("Kontext aus dem Jira-Kommentar:\n", ""),
    ("Agent note, 2026-11-28: ", ""),
]

FILLERS = {
    "team": ["Plattform", "Payments", "the SRE rotation", "Buchhaltung", "Team Nord"],
    "city": ["Leipzig", "Graz", "Basel", "Bremen", "Linz"],
    "acct": ["acme-prod", "northwind", "kanzlei-west", "shop-eu"],
}

SECRETS = {
    "runbook": [
        "en|Runbook step 4: export GITHUB_TOKEN={s:h4_gh_oauth} before running the release "
        "script on {f:host}.",
        "de|Runbook Failover: 1. VPN an 2. `vault login -method=token {s:h4_vault_batch}` 3. "
        "Rolle ops-admin wählen.",
        "en|If the nightly sync stalls, restart it with DATABRICKS_TOKEN={s:h4_databricks} and "
        "page {f:team}.",
        "de|Notfallzugang Tailscale für neue Knoten: `tailscale up --authkey {s:h4_tailscale}` "
        "(läuft im März ab).",
        "en|Recovery for the laptop of {f:person}: BitLocker recovery key {s:h4_bitlocker}, key "
        "ID starts with {k:h4k_stack_hash}.",
        "de|Kubeadm join auf dem neuen Worker: kubeadm join {k:h4k_ipv4}:6443 --token "
        "{s:h4_kubeadm_token} --discovery-token-unsafe-skip-ca-verification",
    ],
    "jira": [
        "en|{k:h4k_jira}: repro works with the admin token {s:h4_shopify_admin}, please rotate "
        "it after the fix.",
        "de|Kommentar zu {k:h4k_jira}: Der Jenkins-API-Token für {f:user} ist "
        "{s:h4_jenkins_token}, damit triggert der Job.",
        "en|Ticket {k:h4k_jira} - Postman collection shared, the API key in the env is "
        "{s:h4_postman}.",
        "de|{k:h4k_jira} erledigt. Neuer Linear-Key für die Integration: {s:h4_linear} (alter "
        "widerrufen).",
        "en|Reopened {k:h4k_jira}: New Relic user key {s:h4_newrelic} returns 403 since build "
        "{k:h4k_build}.",
    ],
    "slack": [
        'en|{"type":"message","user":"U04QX1","ts":"{k:h4k_slack_ts}","text":"here is the bot '
        'user token xoxp for the export job: {s:h4_slack_user}"}',
        'de|{"ts":"{k:h4k_slack_ts}","text":"Socket-Mode App-Token für den Bot: {s:h4_slack_app} '
        'bitte nicht weitergeben"}',
        "en|[#deploys] {f:person}: ngrok authtoken for the demo tunnel is {s:h4_ngrok}, use it "
        "until Friday",
        "de|[#infra] {f:person}: Docker Hub PAT für CI: {s:h4_docker_pat} – läuft auf den "
        "Account {f:acct}",
        "en|[#ci] {f:person}: `docker login -u {f:user} -p {s:h4_docker_pat}` worked, the old "
        "PAT is revoked",
        "en|[#support] {f:person}: Mailgun legacy key {s:h4_mailgun} is still used by the ticket "
        "mailer",
    ],
    "terraform": [
        'en|provider "databricks" {\n  host  = "https://{f:acct}.cloud.databricks.com"\n  token '
        '= "{s:h4_databricks}"\n}',
        "de|# terraform.tfvars (nicht einchecken!)\ndb_password = "
        '"{s:h4_password_strong}"\nregion      = "eu-central-1"',
        'en|resource "aws_db_instance" "main" {\n  username = "app"\n  password = '
        '"{s:h4_password_typed}"\n  vpc_security_group_ids = ["{k:h4k_sg}"]\n}',
        'de|variable "planetscale_password" { default = "{s:h4_planetscale}" }  # TODO in den '
        "Secret Manager",
        'en|backend config for {f:acct}: secret_key = "{s:h4_aws_secret}" for bucket '
        "tf-state-{f:acct}",
    ],
    "ansible": [
        "en|group_vars/db.yml:\n  ansible_user: deploy\n  ansible_ssh_pass: "
        "{s:h4_password_typed}\n  ansible_host: {k:h4k_ipv4}",
        "de|host_vars/mail.yml\nsmtp_relay_user: noreply\nsmtp_relay_password: "
        "'{s:h4_password_strong}'",
        "en|The ansible-vault password for the prod inventory is {s:h4_vault_password}; file "
        ".vault_pass is gitignored.",
        "de|Playbook läuft mit `ansible-playbook site.yml -e brevo_api_key={s:h4_brevo}` – bitte "
        "in den Vault verschieben.",
    ],
    "crash": [
        'en|Traceback (most recent call last):\n  File "sync.py", line 88, in '
        "push\nrequests.exceptions.HTTPError: 401 for url "
        "https://api.figma.com/v1/files?token={s:h4_figma}",
        "de|Crash-Dump Worker {k:h4k_address}: env DOPPLER_TOKEN={s:h4_doppler} PID 4411 SIGSEGV",
        "en|core dumped at {k:h4k_address}\nheaders: {'Proxy-Authorization': 'Basic "
        "{s:h4_basic_b64}', 'Accept': '*/*'}",
        "en|panic: auth failed for sentry cli\n  SENTRY_AUTH_TOKEN={s:h4_sentry_user}\n  "
        "goroutine 1 [running]",
        "de|Fehlerprotokoll: Cookie connect.sid={s:h4_connect_sid} abgelehnt, Request-ID "
        "{k:h4k_request_id}",
        "en|Unhandled rejection: AWS session expired, token was {s:h4_aws_session}",
    ],
    "password_manager": [
        "en|name,url,username,password\nRouter,http://192.168.178.1,admin,{s:h4_password_strong}",
        "de|Bitwarden-Export (Auszug): Eintrag 'Lohnportal', Benutzer {f:user}, Passwort "
        "{s:h4_password_typed}, Notiz: Sachbearbeitung",
        "en|KeePass entry 'Azure storage prod': AccountKey={s:h4_azure_account_key}",
        "de|1Password-Eintrag Mailserver: Benutzername postmaster, Kennwort "
        "{s:h4_password_strong}, Website {f:host}",
        "en|exported vault item: "
        '{"login":{"username":"{f:user}","password":"{s:h4_password_typed}"},"name":"VPN"}',
    ],
    "onboarding": [
        "de|Willkommen an Bord, {f:person}! Dein Start-Passwort für das Intranet ist "
        "{s:h4_password_typed}, bitte beim ersten Login ändern.",
        "de|Zugang Ferienwohnung in {f:city}: Schlüsselbox am Eingang, Code {s:h4_keybox_code}, "
        "WLAN-Schlüssel {s:h4_wifi_psk}.",
        "en|Hi {f:person}, welcome! Your temporary GitLab deploy token is {s:h4_gitlab_deploy} - "
        "swap it for your own next week.",
        "de|Onboarding-Mail: WLAN 'Gäste-{f:city}' Schlüssel {s:h4_wifi_psk}. Drucker im 2. OG.",
        "en|Onboarding checklist: register the runner with `gitlab-runner register --token "
        "{s:h4_gitlab_runner}`.",
        "de|Für das Mail-Programm brauchst du ein App-Passwort: {s:h4_app_password} (Google "
        "Workspace, nur für Thunderbird).",
    ],
    "sms": [
        "de|SMS von DeinBank: Ihr Bestätigungscode lautet {s:h4_sms_code}. Geben Sie ihn niemals "
        "weiter.",
        "en|SMS: Your verification code is {s:h4_sms_code}. It expires in 10 minutes.",
        "de|SMS von Mama: die neue Online-Banking-PIN ist {s:h4_banking_pin}, schreib sie dir auf",
        "en|Text from IT: the Vonage API secret for the SMS gateway is {s:h4_vonage_secret}, key "
        "id in the wiki",
    ],
    "voice": [
        "de|Transkript Anruf Hotline: Kundin: ... ja, die Karten-PIN ist {s:h4_spoken_pin}, hab "
        "ich doch gesagt. Agent: Bitte nennen Sie mir die niemals.",
        "en|Call transcript (support): Caller: my app password is {s:h4_apple_app_password}. "
        "Agent: thanks, I'll reset it now.",
        "de|Sprachnachricht von {f:person}: Das Passwort für den Server ist "
        "{s:h4_password_typed}, Groß-S am Anfang.",
        "en|Call notes with {f:person}: the door keypad code for the server room is "
        "{s:h4_keybox_code}, changes monthly.",
        "en|Voicemail transcript: hey it's {f:person}, the card is {s:h4_card_amex}, use it for "
        "the booking {k:h4k_booking}.",
    ],
    "config": [
        "en|config/master.key contains {s:h4_rails_master} - the staging one, not prod.",
        "de|.env vom Laravel-Projekt: APP_KEY={s:h4_laravel_key}\nAPP_ENV=production",
        "en|FERNET_KEY={s:h4_fernet} (airflow.cfg on {f:host})",
        "de|Gem-Push vom Build-Server: GEM_HOST_API_KEY={s:h4_rubygems} gem push dist/app.gem",
        "en|.github token for the app bot: {s:h4_gh_server}, expires in one hour",
        "de|Helm values.yaml für {f:team}:\npostgresql:\n  auth:\n    password: "
        "{s:h4_password_strong}",
        'en|wpa_supplicant.conf:\nnetwork={\n  ssid="{f:acct}-office"\n  '
        'psk="{s:h4_password_typed}"\n}',
        "de|supabase login mit Token {s:h4_supabase_pat} auf dem Build-Agent",
        "en|OPENAI_API_KEY={s:h4_openai_project}",
        "de|Admin-Key der Anthropic-Organisation: {s:h4_anthropic_admin} (nur für die Abrechnung).",
        "en|maps widget key: {s:h4_gcp_key} (restricted to *.{f:acct}.example)",
    ],
    "mail": [
        "de|Betreff: Zugang Datenbank\nHallo {f:person}, hier die Daten: "
        "mysql://report:{s:h4_password_strong}@{f:host}:3306/bi\nGruß",
        "en|Subject: queue creds\namqp://worker:{s:h4_password_typed}@{f:host}:5672/ - rotate "
        "after the migration",
        "de|Betreff: Refresh-Token\nDer Refresh-Token des Service-Accounts: {s:h4_jwt_refresh}",
        "en|Subject: API access\nUse X-Auth-Token: {s:h4_uuid_token} for the partner endpoint.",
    ],
    "keys": [
        "en|Key for the signing box:\n{s:h4_ec_key}",
        "de|Privater PGP-Schlüssel von {f:person} (Backup):\n{s:h4_pgp_key}",
    ],
}
