"""Secret templates of held-out13, part one: what agents keep about users, customers and teams.

Each template is `lang|text`; `{s:maker}` is a labelled secret (a careful reader would say it
grants access or must not be stored), `{k:maker}` content that must survive, `{f:name}` a
filler. Credential words vary (German and English, formal and chatty) and are sometimes a line
or a sentence away from the value. Invariant: every text holds at least one secret.
"""

from __future__ import annotations

USER_FACTS = [
    "de|{f:name} (Kundin seit 2019) hat heute angerufen: Sie kommt nicht mehr ins Online-Banking. "
    "Die neue PIN aus dem Brief der Sparkasse ist {s:h13_pin}, der Brief selbst ist im Altpapier. "
    "Kundennummer {k:h13c_customer_no}.",
    "de|Merken für {f:name}: Das Handy entsperrt man mit {s:h13_pin6} (hat sie mir im Chat "
    "geschrieben, weil die Enkelin es einrichten soll). IMEI laut Karton {k:h13c_imei}.",
    "en|Things {f:name_en} asked me to remember: gym locker 114, the Netflix login is his "
    "e-mail with {s:h13_chosen_pw} — he said his daughter will need it while he travels.",
    "de|Fürs Protokoll: {f:name} nutzt für den Laptop der Praxis das Kennwort {s:h13_chosen_pw}; "
    "Seriennummer des Geräts {k:h13c_serial}. Sie will es nach dem Urlaub ändern.",
    "en|{f:name_en}'s Proton account: recovery phrase (she read it out, I typed it):\n"
    "{s:h13_passphrase}\nShe keeps the printed copy in the kitchen drawer.",
    "de|Die Mailbox-PIN von {f:name} (Festnetz) lautet jetzt {s:h13_pin} — die alte ging nach "
    "dem Anbieterwechsel nicht mehr. Rufnummer {k:h13c_phone}.",
    "en|Note: {f:name_en} lost her SIM. Carrier support gave the PUK over the phone: "
    "{s:h13_puk}. New SIM is on order, reference {k:h13c_ticket}.",
    "de|{f:name} hat den KeePass-Tresor auf dem NAS. Master-Passwort (Satz aus Wörtern, "
    "klein geschrieben): {s:h13_passphrase}. NAS-Seriennummer {k:h13c_serial}.",
    "en|User preference: {f:name_en} wants the VeraCrypt container on the USB stick mounted at "
    "login; its password is {s:h13_generated_pw} (she asked me to keep it for her).",
    "de|Elterninfo {f:name}: Das iPad der Tochter hat Bildschirmzeit-Code {s:h13_pin}, "
    "die Apple-ID-Wiederherstellung läuft über {k:h13c_phone}.",
    "en|{f:name_en} set up iCloud mail in Thunderbird with an app-specific password: "
    "{s:h13_apple_app_pw}\n(The normal Apple ID password does not work there.)",
    "de|Für {f:name}s Nextcloud-Sync auf dem Zweitrechner wurde ein App-Passwort erzeugt: "
    "{s:h13_nextcloud_app_pw} — Gerätename im Webinterface: {k:h13c_host}.",
    "en|{f:name_en} printed the Microsoft account recovery code and asked me to keep a copy: "
    "{s:h13_ms_recovery}. Account is tied to order {k:h13c_order_no} (Surface purchase).",
    "de|{f:name} Google-Konto, Ersatzcodes (jeweils einmal nutzbar):\n1. {s:h13_backup_code}\n"
    "2. {s:h13_backup_code}\n3. {s:h13_backup_code}\nDer Rest ist schon verbraucht.",
]

CHAT = [
    "de|[09:14] {f:name}: kannst du mir den Zugang zum Ticketsystem nochmal schicken?\n"
    "[09:15] Support-Agent: Benutzer {k:h13c_login}, vorläufig {s:h13_generated_pw} — bitte "
    "beim ersten Login ändern.",
    "en|[slack #ops] Tarek: who has the Hetzner token? I need to resize the box\n"
    "[slack #ops] Aiko: `{s:h13_hcloud}` — it's the project-wide one, don't paste it in Jira",
    'de|Chat mit {f:name}, 16:02: "Das WLAN im Büro heißt jetzt Lindner-Gast, der Schlüssel ist '
    '{s:h13_wifi_key}, kannst du dir das merken? Den Zettel hab ich verloren."',
    "en|Dan (DM): the staging DB moved. mongo connection is "
    "mongodb+srv://app_rw:{s:h13_url_pw}@cluster0.x7kq2.mongodb.net/shop\n"
    "Dan (DM): ping me if it times out",
    "de|WhatsApp-Verlauf weitergeleitet von {f:name}:\n> Papa: Code vom Garagentor ist jetzt "
    "{s:h13_pin}, der alte geht nicht mehr\n> {f:name}: danke!",
    "en|#incident-4411 Priya: rotating the Postman key that leaked in the public workspace.\n"
    "Old one for the audit: {s:h13_postman}\nPriya: revoked at 10:41.",
    'de|Teams-Nachricht von {f:name}: "Hier der Groq-Key für den Prototyp, bitte nur lokal '
    'verwenden: {s:h13_groq}"',
    "en|Aiko: the shared Linear key for the triage bot is {s:h13_linear}\nTom: thx, added to "
    "the bot's env. Issue {k:h13c_ticket} can be closed.",
    'de|Aus dem Kundenchat (Acme Logistics), {f:name}: "Unser Shippo-Live-Key: '
    '{s:h13_shippo} — die Sendung {k:h13c_dhl} hängt seit Dienstag."',
    'en|Ms. Lindqvist wrote in the support chat: "our Mollie key is {s:h13_mollie}, the '
    'payment {k:h13c_stripe_pi} shows twice" (she mixed up the providers).',
    "de|Discord, #homelab, {f:name}: mein Plex-Token für die API-Abfrage ist "
    "{s:h13_plex}, falls du das Dashboard baust. Server {k:h13c_host}.",
    'en|Tom in #design: "figma personal token for the export script → {s:h13_figma}" '
    'Priya: "please rotate that after the sprint"',
]

TICKETS = [
    "de|Ticket {k:h13c_ticket} — Kunde {f:kunde}\nProblem: Import der Bestellungen schlägt "
    "fehl.\nAnalyse: Der hinterlegte Brevo-Schlüssel ({s:h13_brevo}) ist abgelaufen, Kunde "
    "hat einen neuen geschickt.",
    "en|SUP ticket {k:h13c_ticket}, customer {f:kunde}\nSteps tried: re-auth the HubSpot "
    "integration with the private app token {s:h13_hubspot}\nResult: 403 until scopes were "
    "added.",
    "de|Störung {k:h13c_ticket}: Newsletter geht nicht raus. Mailchimp-API-Key in der "
    "Shop-Konfiguration: {s:h13_mailchimp}. Liste {k:h13c_md5}.",
    "en|Escalation for {f:kunde}: Square payouts stopped. They pasted their production "
    "access token: {s:h13_square}\nLocation id in the dashboard: L{k:h13c_container_id}.",
    "de|Rückfrage zu Auftrag {k:h13c_order_no}: Der Händler hat uns für die Paketlabels den "
    "EasyPost-Produktivschlüssel gegeben:\n{s:h13_easypost}",
    "en|Bug {k:h13c_ticket}: Zendesk sync duplicates tickets.\nConfig dump from the customer:\n"
    "  subdomain: acme-help\n  email: it@acme.example/token\n  api_token: {s:h13_zendesk}",
    "de|Kunde {f:kunde} meldet: ClickUp-Automatisierung ist tot. Persönlicher Token laut "
    "Screenshot: {s:h13_clickup}. Workspace {k:h13c_run_id}.",
    "en|Ticket {k:h13c_ticket}: Contentful webhook fails. Customer sent the CMA token "
    "{s:h13_contentful} plus the space id {k:h13c_nanoid}.",
    "de|Vorgang {k:h13c_ticket}: Resend-Versand für {f:kunde} eingerichtet. API-Schlüssel "
    "{s:h13_resend}, Absender-Domain verifiziert.",
    "en|Support note {k:h13c_ticket}: {f:kunde}'s Okta integration. Their admin sent the header "
    "we should use:\nAuthorization: SSWS {s:h13_okta_ssws}",
]

CONFIGS = [
    "en|Customer {f:kunde} — their .env for the shop worker (sent by mail):\n"
    "APP_ENV=production\nAPP_URL=https://shop.example\nSTRIPE_RESTRICTED_KEY="
    "{s:h13_stripe_restricted}\nSTRIPE_WEBHOOK_SECRET={s:h13_webhook_secret}\nLOG_LEVEL=info",
    "de|docker-compose.yml aus dem Projekt Lagerapp (vom Kunden):\nservices:\n  db:\n"
    "    image: mariadb:11\n    environment:\n      MARIADB_ROOT_PASSWORD: {s:h13_generated_pw}\n"
    "      MARIADB_DATABASE: lager",
    "en|~/.aws/credentials on the build box (from the handover):\n[prod-deploy]\n"
    "aws_access_key_id = AKIA4QZ7R2XKJ3M6PLWE\naws_secret_access_key = {s:h13_aws_secret}\n"
    "region = eu-central-1",
    "de|Kafka-Client-Konfiguration für das Reporting:\nbootstrap.servers=kafka-1.intern:9093\n"
    "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=org.apache."
    'kafka.common.security.scram.ScramLoginModule required username="reporting" '
    'password="{s:h13_url_pw}";',
    'en|appsettings.Production.json of the customer portal:\n{\n  "ConnectionStrings": {\n'
    '    "Main": "Server=tcp:sql-portal.database.windows.net,1433;Database=portal;User ID='
    'portal_app;Password={s:h13_url_pw};Encrypt=True"\n  }\n}',
    "de|Storage-Anbindung der Belegablage:\nDefaultEndpointsProtocol=https;AccountName="
    "belegarchiv;AccountKey={s:h13_azure_storage_key};EndpointSuffix=core.windows.net",
    "en|settings.py excerpt from the legacy intranet (we took over hosting):\n"
    "DEBUG = False\nSECRET_KEY = '{s:h13_django_secret}'\nALLOWED_HOSTS = ['intranet.example']",
    "de|Kamal-Deploy, .kamal/secrets des Kunden:\nRAILS_MASTER_KEY={s:h13_rails_master}\n"
    "KAMAL_REGISTRY_PASSWORD={s:h13_github_pat}",
    "en|config/jwt.yaml for the booking API:\nissuer: booking.example\n"
    'signing_secret: "{s:h13_jwt_secret}"\nttl_minutes: 30',
    "de|pyproject/CI: Sonar-Analyse in der Pipeline\nsonar.host.url=https://sonar.intern\n"
    "sonar.projectKey=lagerapp\nsonar.token={s:h13_sonar}",
    "en|Grafana alert exporter, values.yaml:\ngrafana:\n  url: https://grafana.ops.example\n"
    "  serviceAccountToken: {s:h13_grafana_sa}\n  folderUid: {k:h13c_nanoid}",
    "de|terraform.tfvars vom Kunden (gehört eigentlich nicht ins Repo):\n"
    'do_token = "{s:h13_do_token}"\nregion   = "fra1"\nimage    = "ubuntu-24-04-x64"',
    'en|~/.terraformrc on Ole\'s laptop:\ncredentials "app.terraform.io" {\n'
    '  token = "{s:h13_tfc_token}"\n}',
    "de|Firebase-Altkonfiguration der App (Cloud Messaging, Legacy):\n"
    "FCM_SERVER_KEY={s:h13_firebase_fcm}\nPROJECT_NUMBER={k:h13c_aws_account}",
]
