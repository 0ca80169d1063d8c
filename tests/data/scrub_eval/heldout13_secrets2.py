"""Secret templates of held-out13, part two: shell sessions, logs, home IT and key material.

Same format and invariant as `heldout13_secrets`: every text holds at least one labelled secret.
"""

from __future__ import annotations

SHELL_AND_LOGS = [
    "en|Ole's shell history on the jump host (for the audit):\n  312  ldapsearch -H "
    "ldaps://dc1.intern -D 'cn=svc-scan,ou=svc,dc=firma' -w '{s:h13_url_pw}' -b dc=firma\n"
    "  313  exit",
    "de|Verlauf aus der Sitzung bei {f:kunde}:\n$ mysql -u root -p{s:h13_url_pw} -h "
    "127.0.0.1 lager\nmysql> SHOW TABLES;",
    'en|Pasted from the CI log (job {k:h13c_run_id}):\n+ curl -s -H "Authorization: Basic '
    '{s:h13_basic_auth}" https://nexus.intern/service/rest/v1/status\n{"status":"ok"}',
    'de|~/.docker/config.json auf dem Runner:\n{\n  "auths": {\n    "registry.firma.example"'
    ': {\n      "auth": "{s:h13_docker_auth}"\n    }\n  }\n}',
    "en|.npmrc of the frontend repo (private registry):\nregistry=https://npm.intern.example/\n"
    "//npm.intern.example/:_auth={s:h13_npm_auth}\nalways-auth=true",
    "de|Tailscale auf dem neuen Pi eingerichtet:\n$ sudo tailscale up --auth-key="
    "{s:h13_tailscale} --hostname {k:h13c_host}",
    "en|ngrok on the demo laptop:\n$ ngrok config add-authtoken {s:h13_ngrok}\nAuthtoken saved "
    "to configuration file.",
    "de|Router-Konfiguration (Cisco) aus der Filiale:\nhostname FIL-07\nusername admin "
    "privilege 15 password 0 {s:h13_chosen_pw}\nip domain-name filiale.intern",
    "en|/etc/ipsec.secrets on the branch gateway:\n203.0.113.7 198.51.100.20 : PSK "
    '"{s:h13_ipsec_psk}"',
    "de|hostapd.conf vom Werkstatt-AP:\ninterface=wlan0\nssid=Werkstatt\nwpa=2\n"
    "wpa_passphrase={s:h13_wifi_key}\nwpa_key_mgmt=WPA-PSK",
    "en|Mikrotik export, wireguard part:\n/interface wireguard add listen-port=13231 name=wg0 "
    'private-key="{s:h13_wg_private}"',
    "de|Log der Nachtsicherung (Ausschnitt), {k:h13c_pod}:\nWARN restic: using RESTIC_PASSWORD="
    "{s:h13_passphrase} from environment\nINFO snapshot {k:h13c_short_sha} saved",
    'en|Gateway access log line we kept for the bug:\n10.2.0.7 - - "GET /api/v2/export?'
    'token={s:h13_mastodon}&format=csv HTTP/1.1" 200 {k:h13c_run_id}',
]

HOME_AND_TEAM = [
    'de|Übergabe Team Infra an {f:name}:\n- Hetzner-Projekt "kunden-prod": API-Token '
    "{s:h13_hcloud}\n- Netlify (Landingpages): {s:h13_netlify}\n- Rest im Tresor.",
    "en|Handover notes for the data team:\n* Databricks workspace token: {s:h13_databricks}\n"
    "* New Relic user key: {s:h13_newrelic}\n* dashboards: see {k:h13c_gdoc_id}",
    "de|Projekt KI-Suche, Zugänge fürs Team:\nHugging Face (Lesezugriff): {s:h13_hf_token}\n"
    "Replicate: {s:h13_replicate}\nPerplexity: {s:h13_perplexity}",
    "en|LLM gateway secrets (staging), moved to Vault next week:\nOPENAI_API_KEY="
    "{s:h13_openai_svcacct}\nANTHROPIC_ADMIN_KEY={s:h13_anthropic_admin}",
    "de|Notion-Integration für das Wiki: interner Integrations-Token {s:h13_notion}, "
    "Datenbank-ID {k:h13c_uuid_nodash}.",
    "en|Airtable base for the events team — PAT with data.records:read: {s:h13_airtable_pat}\n"
    "Base id app{k:h13c_nanoid}.",
    "de|Gitea-Zugriff für den Build-Bot: https://ci-bot:{s:h13_gitea_token}@git.intern/"
    "lager/app.git (Commit {k:h13c_sha1} ist der letzte grüne).",
    "en|Bitbucket app password for the mirror job: {s:h13_bitbucket_app}\n(user: mirror-bot, "
    "repo scope only)",
    "de|Azure DevOps: PAT für das Release-Skript von {f:name}, gültig bis März: "
    "{s:h13_azure_devops_pat}",
    "en|JFrog reference token for Gradle (team Android): {s:h13_jfrog_ref}\nArtifact "
    "{k:h13c_sha256} is the signed release.",
    "de|Pulumi-Zugang Team Plattform: PULUMI_ACCESS_TOKEN={s:h13_pulumi}\nStack: firma/prod",
    "en|Doppler service token for the prod config of the billing app: {s:h13_doppler}",
    "de|PlanetScale-Passwort für den Branch main (nur einmal angezeigt!): {s:h13_planetscale_pw}",
    "en|Datadog for {f:kunde}: DD_API_KEY={s:h13_datadog_api} (site datadoghq.eu). Trace we "
    "looked at: {k:h13c_trace_id}.",
    "de|Sentry-Token für das Release-Skript (Benutzer-Token): {s:h13_sentry_user}",
    "en|Alibaba Cloud OSS for the China shop: AccessKeyId LTAI5tQ9xKp2Wm7Rz3Vb, AccessKeySecret "
    "{s:h13_alibaba_secret}",
    "de|Scaleway-Objektspeicher: SCW_ACCESS_KEY=SCWB7K2M9XQ4R8T1VZ5N, SCW_SECRET_KEY="
    "{s:h13_scaleway_secret}",
    "en|~/.netrc on the old deploy box:\nmachine api.heroku.com\n  login ops@firma.example\n"
    "  password {s:h13_heroku_key}",
    "de|Google-Workspace-Skript von {f:name}: client_secret {s:h13_gcp_oauth_secret}, "
    "refresh_token {s:h13_google_refresh}",
    "en|Matrix bridge bot for the team room: access token {s:h13_matrix}",
    "de|Twitter/X-Bot der Pressestelle: Bearer-Token {s:h13_twitter_bearer}",
    "en|Dropbox short-lived token from the migration script output: {s:h13_dropbox}",
    "de|Authenticator-Einrichtung für {f:name}: Einrichtungsschlüssel (statt QR-Code)\n"
    "{s:h13_totp_seed}\nKonto: {k:h13c_login}",
    "en|Session cookie copied from the browser to reproduce the bug (user {k:h13c_login}):\n"
    "laravel_session={s:h13_session_cookie}",
]

KEYS = [
    "de|Schlüssel für den Deploy-User auf {k:h13c_host} (vom Kunden per Mail):\n"
    "{s:h13_openssh_key}",
    "en|The webhook signer's key, pasted by Dan so I can test locally:\n{s:h13_ec_key}",
    "de|PuTTY-Schlüsseldatei von {f:name}, Ausschnitt:\nPuTTY-User-Key-File-3: ssh-ed25519\n"
    "Encryption: none\nPrivate-Lines: 1\n{s:h13_putty_private}",
    "en|MetaMask export for the test wallet of the events team (private key): "
    "{s:h13_eth_private}\nAddress: {k:h13c_eth_addr}",
]
