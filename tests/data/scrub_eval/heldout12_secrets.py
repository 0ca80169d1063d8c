"""Templates with secrets of held-out set 12 (judge11 track, the round's judge): `SECRETS[group]`
is a list of `lang|text` templates; slots `{s:maker}` (a labelled secret), `{k:maker}` (content
to keep), `{f:filler}`. Situations held-out11 has not: forwarded mails, calendar entries, meeting
minutes, spreadsheets, SQL sessions, Terraform and Helm, systemd and cron, PowerShell and Windows
shells, notebooks, API-client exports, Java/.NET settings, package-manager files, home
automation and network gear, wallets, phone and parcel codes; German and English.

Invariant: a `{s:…}` slot holds only the credential itself (the password of a URL or a JDBC
string, the body of a PEM block, the token part of a link), so span and line scrubbers are
scored alike.
"""

from __future__ import annotations

SECRETS: dict[str, list[str]] = {
    "mail": [
        "de|---------- Weitergeleitete Nachricht ----------\nVon: IT-Service <{k:h12_mail}>\n"
        "Betreff: Ihr Zugang\n\nGuten Tag, Ihr Benutzername lautet {k:h12_username}, das "
        "Startkennwort {s:h12_random_password}. Bitte ändern Sie es nach der ersten Anmeldung.",
        "en|From: billing@vendor.example\nSubject: API access\n\nHere is the key you requested "
        "for the reporting endpoint: {s:h12_datadog_api_key}\nIt is scoped to read-only "
        "metrics.",
        "de|Mail von {f:person12}: „Anbei die Zugangsdaten für die Cloud-Ablage: Application Key"
        " {s:h12_b2_app_key}, Bucket steuer-archiv.“",
        "en|The reset mail said: sign in with this link within 15 minutes — "
        "https://app.example.io/auth/magic?token={s:h12_magic_link_token}&email={k:h12_mail}",
    ],
    "calendar_minutes": [
        "en|Calendar: Quarterly review with the bank\nDial-in: +49 30 xxx\nMeeting password: "
        "{s:h12_person_password}\nOrganizer: {k:h12_mail}",
        "de|Protokoll Jour fixe {k:h12_case_no}\n- Monitoring: Dynatrace-Token für die "
        "Agents ist {s:h12_dynatrace_token}\n- Nächster Termin nach dem Release {k:h12_version}",
        "en|Minutes, infra sync:\n* {f:person12} rotated the Splunk HEC token, new one is "
        "{s:h12_splunk_hec}\n* nobody objected to moving the index",
        "de|Aus dem Meeting: Die Elastic-Anbindung nutzt jetzt den API-Schlüssel "
        "{s:h12_elastic_api_key} (nur Schreibrechte auf logs-*).",
    ],
    "spreadsheet": [
        "de|Export aus der Tabelle 'Zugänge Verein':\nDienst\tLogin\tKennwort\nKassenbuch\t"
        "{k:h12_username}\t{s:h12_person_password}\nWebseite\t{k:h12_username}\t"
        "{s:h12_random_password}",
        'en|"service","key","owner"\n"mailchimp","{s:h12_mailchimp_key}","marketing"\n'
        '"brevo","{s:h12_brevo_key}","marketing"',
        "en|Row 14 of the ops sheet: Hetzner | project web | API token {s:h12_hetzner_token} "
        "| expires never",
    ],
    "sql": [
        "en|psql> CREATE ROLE reporting LOGIN PASSWORD '{s:h12_plain_password}';\nCREATE ROLE\n"
        "psql> GRANT SELECT ON ALL TABLES IN SCHEMA public TO reporting;",
        "de|Für die Replikation angelegt:\nALTER USER replicator WITH PASSWORD "
        "'{s:h12_random_password}';",
        "en|mysql> CREATE USER 'shop'@'%' IDENTIFIED WITH caching_sha2_password BY "
        "'{s:h12_plain_password}';",
    ],
    "terraform_helm": [
        'en|terraform.tfvars (do not commit):\nregion         = "eu-central-1"\n'
        'cloudflare_key = "{s:h12_cloudflare_global_key}"\nsupabase_token = '
        '"{s:h12_supabase_token}"',
        "de|helm upgrade --install api ./chart --set db.password={s:h12_plain_password} --set "
        "image.tag={k:h12_version}",
        "en|values-prod.yaml:\nneon:\n  apiKey: {s:h12_neon_key}\nplanetscale:\n  password: "
        "{s:h12_planetscale_password}\nreplicas: 3",
        'de|Im State stand im Klartext: "consul_token": "{s:h12_consul_token}" – State '
        "liegt jetzt verschlüsselt.",
    ],
    "systemd_cron": [
        'en|/etc/systemd/system/exporter.service\n[Service]\nEnvironment="DOPPLER_TOKEN='
        '{s:h12_doppler_token}"\nExecStart=/usr/local/bin/exporter',
        "de|crontab -l\n15 2 * * * PGPASSWORD={s:h12_plain_password} pg_dump -h db -U backup "
        "kunden > /backup/kunden.sql",
        "en|cloudflared service install {s:h12_cloudflare_tunnel}",
    ],
    "windows": [
        "en|PS> $pw = ConvertTo-SecureString '{s:h12_random_password}' -AsPlainText -Force\n"
        "PS> New-LocalUser -Name {k:h12_username} -Password $pw",
        "de|Laufwerk verbinden: net use Z: \\\\nas\\daten /user:buero {s:h12_person_password} "
        "/persistent:yes",
        "en|Azure DevOps PAT for the build agent config: {s:h12_azure_devops_pat}",
        "de|BitLocker ist aus, aber der FileVault-Wiederherstellungsschlüssel vom MacBook ist "
        "{s:h12_filevault_key}.",
    ],
    "notebook_clients": [
        'en|In [4]: client = Groq(api_key="{s:h12_groq_key}")\nIn [5]: client.models.list()',
        'de|Notebook-Zelle:\n```python\nos.environ["REPLICATE_API_TOKEN"] = '
        '"{s:h12_replicate_token}"\n```',
        'en|Postman export, collection auth: {"type": "apikey", "apikey": [{"key": "value", '
        '"value": "{s:h12_postman_key}"}]}',
        'de|Insomnia-Umgebung: {"base_url": "https://api.perplexity.ai", "token": '
        '"{s:h12_perplexity_key}"}',
        "en|HAR entry: request header authorization: Bearer {s:h12_hass_token} (from the "
        "Home Assistant dashboard)",
    ],
    "java_dotnet": [
        "en|application-prod.properties:\nspring.datasource.url=jdbc:postgresql://db:5432/shop\n"
        "spring.datasource.username=shop\nspring.datasource.password={s:h12_plain_password}",
        "de|JDBC-URL aus dem Support-Fall: jdbc:mysql://db.intern:3306/erp?user=erp&password="
        "{s:h12_plain_password}&useSSL=true",
        "en|Connection string in web.config: Server=sql01;Database=Orders;User Id=web;Password="
        "{s:h12_plain_password};Encrypt=True",
        "de|Service Bus: Endpoint=sb://bus-nord.servicebus.windows.net/;SharedAccessKeyName="
        "RootManageSharedAccessKey;SharedAccessKey={s:h12_servicebus_key}",
        "en|~/.m2/settings.xml:\n<server>\n  <id>releases</id>\n  <username>deployer"
        "</username>\n  <password>{s:h12_plain_password}</password>\n</server>",
    ],
    "package_files": [
        "de|~/.git-credentials vom alten Laptop:\nhttps://{k:h12_username}:{s:h12_gitlab_pat}"
        "@gitlab.com",
        "en|Publishing the gem from CI: GEM_HOST_API_KEY={s:h12_rubygems_key} gem push "
        "pkg/ledger-tools.gem",
        "de|.npmrc im Projekt: //artifactory.firma.example/api/npm/:_authToken={s:h12_jfrog_token}",
        "en|Deploy token for the package registry (read_package_registry): username "
        "gitlab+deploy-token-{k:h12_case_no}, token {s:h12_gitlab_deploy_token}",
        "de|Sonar im Pipeline-Skript: sonar-scanner -Dsonar.token={s:h12_sonar_token} "
        "-Dsonar.projectKey=shop",
    ],
    "saas_tokens": [
        "en|Stripe for the club shop: publishable key in the page, secret key "
        "{s:h12_stripe_secret} only on the server.",
        "de|Square-Kasse im Café: Access Token {s:h12_square_token}, Standort Innenstadt.",
        "en|braintree gateway config: {s:h12_braintree_token}",
        "de|Resend für die Newsletter-Mails, Key {s:h12_resend_key}; Postmark bleibt für "
        "Transaktionsmails (Server-Token {s:h12_postmark_token}).",
        "en|Airtable automation uses the personal access token {s:h12_airtable_pat}.",
        "de|HubSpot-Private-App-Token: {s:h12_hubspot_pat}",
        "en|Contentful delivery is public, but the management token {s:h12_contentful_pat} "
        "can write, keep it out of the frontend.",
        "de|Dropbox-Token für den Scanner-Upload (läuft in vier Stunden ab): {s:h12_dropbox_token}",
    ],
    "dev_tokens": [
        "en|GitHub CLI stored an OAuth token in hosts.yml: oauth_token: {s:h12_github_oauth}",
        "de|Bitbucket-App-Passwort für den Spiegel-Job: {s:h12_bitbucket_app_password}",
        "en|Slack user token of the archive bot (has admin scope!): {s:h12_slack_user}",
        "de|Alert-Webhook: https://hooks.slack.com/services/{k:h12_slack_team}/"
        "{k:h12_slack_hook_id}/{s:h12_slack_hook_secret}",
        "en|Sentry auth token for source map uploads: {s:h12_sentry_user_token}",
        "de|New-Relic-User-Key {s:h12_newrelic_user_key}, Account {k:h12_case_no}",
        "en|Buildkite agent uses {s:h12_buildkite_token} to call the REST API; Jenkins "
        "still has the API token {s:h12_jenkins_token} for user {k:h12_username}.",
        "de|Okta-API-Token für die Benutzer-Synchronisation: SSWS {s:h12_okta_token}",
    ],
    "cloud_keys": [
        'en|aws sts get-session-token output:\n"AccessKeyId": "{s:h12_aws_temp_key_id}",\n'
        '"SecretAccessKey": "{s:h12_aws_temp_secret}"',
        "de|SES-SMTP-Zugang: Server email-smtp.eu-central-1.amazonaws.com, Benutzer "
        "{k:h12_alnum_ref}, Kennwort {s:h12_ses_smtp_password}",
        "en|Alibaba OSS for the China mirror: AccessKey ID {s:h12_alibaba_key_id}, "
        "AccessKey Secret {s:h12_alibaba_secret}",
        "de|Webhook der Azure Function: https://fn-belege.azurewebsites.net/api/ingest?code="
        "{s:h12_azure_function_code}",
        "en|kubeadm join 10.0.0.10:6443 --token {s:h12_k8s_bootstrap} "
        "--discovery-token-ca-cert-hash {k:h12_wheel_hash}",
        "de|Vault-Unseal-Schlüssel 1 von 3: {s:h12_vault_unseal} (die anderen haben "
        "{f:person12} und die Geschäftsführung)",
    ],
    "keys_wallets": [
        "en|-----BEGIN EC PRIVATE KEY-----\n{s:h12_ec_private_body}\n-----END EC PRIVATE KEY-----",
        "de|PuTTY-Schlüssel vom Windows-Rechner (Rest abgeschnitten):\nPuTTY-User-Key-File-3: "
        "ssh-ed25519\nEncryption: none\nComment: {k:h12_username}\nPrivate-Lines: 1\n"
        "{s:h12_putty_private_lines}",
        "en|Wallet export for the test account, private key {s:h12_eth_private_key} (address "
        "in the ops sheet).",
        "de|Nostr-Schlüssel: öffentlich {k:h12_npub}, privat {s:h12_nostr_nsec}",
        "en|Paper wallet backup (WIF): {s:h12_btc_wif}",
    ],
    "cookies": [
        "en|Copied from the browser to reproduce the bug: Cookie: PHPSESSID="
        "{s:h12_session_id}; theme=dark",
        "de|Set-Cookie: laravel_session={s:h12_laravel_session}; path=/; secure; httponly",
    ],
    "home_network": [
        "de|Mosquitto für die Heizung: mqtt_user heizung, mqtt_password {s:h12_person_password}",
        "en|Switch config: snmp-server community {s:h12_snmp_community} RW",
        "de|Router-Einwahl (PPPoE) des Anbieters: Anschlusskennung {k:h12_serial}, "
        "Kennwort {s:h12_random_password}",
        "en|WIFI:T:WPA;S:Werkstatt;P:{s:h12_random_password};; — printed as a QR code on the "
        "fridge",
        "de|Matrix-Bot der Familie, Access-Token {s:h12_matrix_token}",
        "en|Twitch chat bot login: oauth:{s:h12_twitch_oauth}",
    ],
    "personal_codes": [
        "de|Mailbox-PIN vom Diensthandy: {s:h12_voicemail_pin}",
        "en|Parcel locker pickup: locker station at the station, code {s:h12_locker_code}, "
        "valid seven days.",
        "de|Die PIN vom Personalausweis (Online-Ausweis) ist {s:h12_id_card_pin}; die "
        "Geheimnummer vom Brief ist vernichtet.",
        "en|Hotel safe in room {k:h12_case_no} is set to {s:h12_safe_combo}.",
        "de|SMS von der Bank: Ihr Freigabecode lautet {s:h12_sms_otp}. Teilen Sie ihn niemandem"
        " mit.",
        "en|iCloud app-specific password for the mail client: {s:h12_apple_app_password}",
    ],
    "passphrases": [
        "en|KeePass database master passphrase (written down for the estate folder): "
        "{s:h12_word_passphrase}",
        "de|Die Passphrase für den Schlüsselbund lautet „{s:h12_word_passphrase}“ – "
        "Kleinschreibung, Leerzeichen dazwischen.",
        "en|Okay, typed it back to confirm: {s:h12_person_password}. That is the password for "
        "the tax portal.",
        "de|{f:person12} am Telefon: „Schreib mit, das neue Passwort für die Buchhaltung: "
        "{s:h12_random_password}.“",
    ],
}
