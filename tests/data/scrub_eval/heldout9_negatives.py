"""Templates without secrets of held-out set 9 (judge9 track): `CONTENT[group]` is a list of
`lang|text` templates full of what looks like a secret but is content under CONTRACT §8 —
digests, UUIDs with and without dashes, commit ids, public keys and fingerprints, base64
images, JWT headers, order/ticket/account references, login names, request ids, schema and
field declarations that name "password"/"token", placeholders, docs about credentials.

Invariant: no template holds a credential value; every template keeps at least one `{k:…}`
value that must survive unchanged (a changed text is a false positive).
"""

from __future__ import annotations

CONTENT: dict[str, list[str]] = {
    "hashes": [
        "en|Release {k:h9_semver} built from commit {k:h9_sha1}; the tarball's SHA-256 is "
        "{k:h9_sha256}.",
        "de|Prüfsummen der Lieferung (sha256sum):\n{k:h9_sha256}  rechnungen_2026-11.zip\n"
        "{k:h9_sha256}  lieferscheine_2026-11.zip",
        "en|Image pinned by digest: ghcr.io/acme/api@{k:h9_docker_digest}",
        "de|Der Bug kam mit {k:h9_commit_short} rein und ist mit {k:h9_commit_short} behoben "
        "(Revert von {f:who9}).",
        'en|S3 returned ETag "{k:h9_md5}" for the upload; it matched the local md5.',
        "de|git bisect endet bei {k:h9_sha1}, davor war {k:h9_sha1} noch grün.",
    ],
    "uuids": [
        "en|Tenant {k:h9_uuid} was migrated; the batch job id was {k:h9_uuid_hex}.",
        "de|Bitte Datensatz {k:h9_uuid} und {k:h9_uuid} zusammenführen, Dublette aus dem "
        "CRM-Import.",
        'en|{"level":"info","msg":"order placed","request_id":"{k:h9_req_id}","order":'
        '"{k:h9_order}","latency_ms":41}',
        "en|Retry the POST with the same dedupe id {k:h9_idem_key}, otherwise the payment "
        "provider books the charge twice.",
        "de|Korrelations-ID aus dem Fehlerbericht: {k:h9_idem_key}. Der Kunde hat den Export "
        "zweimal gestartet.",
        "en|Sentry event {k:h9_uuid_hex} groups 14 crashes, first seen on {k:h9_date}.",
    ],
    "public_keys": [
        "en|Please add my key to authorized_keys on the bastion:\n{k:h9_ssh_pubkey}",
        "de|WireGuard-Peer für das Büro Hamburg:\n[Peer]\nPublicKey = {k:h9_wg_pubkey}\n"
        "AllowedIPs = 10.8.0.0/24\nEndpoint = vpn.{f:host9}:51820",
        "en|Signing key fingerprint for release tags: {k:h9_pgp_fpr} (uid release-bot)",
        "de|Öffentlicher age-Schlüssel für sops: {k:h9_age_pub} – den dürfen alle haben.",
        "en|Host key check: ED25519 key fingerprint is {k:h9_ssh_fpr}. Compare it before you "
        "type yes.",
        "en|cloud-init:\nusers:\n  - name: deploy\n    ssh_authorized_keys:\n      - "
        "{k:h9_rsa_pubkey}",
        "de|Der öffentliche Schlüssel des Kollegen {f:who9} für den Git-Server lautet "
        "{k:h9_ssh_pubkey}",
    ],
    "blobs": [
        "en|Logo as data URI for the email template: data:image/png;base64,{k:h9_png_b64}",
        'de|Der Anhang kam base64-kodiert im Webhook an: "content": "{k:h9_pdf_b64}" (PDF, '
        "zwei Seiten).",
        "en|The JWT header is just base64url JSON: {k:h9_jwt_header} decodes to alg, typ and the "
        "kid of the signing key — it says which key signed, it carries no secret.",
        'de|Favicon inline im HTML: <img src="data:image/png;base64,{k:h9_png_b64}" alt="">',
    ],
    "business_codes": [
        "de|Bestellung {k:h9_order}, Artikel {k:h9_sku} (3 Stück), Rechnung {k:h9_invoice}. "
        "Versand mit UPS, Sendungsnummer {k:h9_tracking}.",
        "en|Refund for order {k:h9_order} approved; customer {k:h9_customer_id}, payment intent "
        "{k:h9_pi_id}.",
        "de|Bitte auf das Konto {k:h9_iban} überweisen, Verwendungszweck {k:h9_invoice}.",
        "en|| SKU | qty | order |\n|---|---|---|\n| {k:h9_sku} | 12 | {k:h9_order} |\n| "
        "{k:h9_sku} | 4 | {k:h9_order} |",
        "de|Reklamation zu {k:h9_order}: Artikel {k:h9_sku} kam beschädigt an, Gutschrift läuft "
        "über {k:h9_invoice}.",
    ],
    "logins": [
        "de|Neue Kollegin: {f:who9}, Login {k:h9_login}, Mail {k:h9_email}. Rechte wie "
        "{k:h9_login}.",
        "en|Accounts to disable after offboarding: {k:h9_login}, {k:h9_login}, {k:h9_login}.",
        "en|git log shows {k:h9_email} as the author of {k:h9_commit_short}.",
        "de|Der Benutzername für das Testsystem ist {k:h9_login}; das Passwort setzt jeder beim "
        "ersten Login selbst.",
    ],
    "schema_fields": [
        "en|```sql\nCREATE TABLE users (\n  id uuid PRIMARY KEY,\n  login text NOT NULL,\n  "
        "password_hash text NOT NULL,\n  api_token_last4 char(4),\n  created_at timestamptz\n);"
        "\n```\nmigration {k:h9_migration_id}",
        "de|Pydantic-Modell für den Login-Endpunkt:\nclass LoginIn(BaseModel):\n    username: "
        "str\n    password: SecretStr\n    otp: str | None = None\nTicket {k:h9_ticket}.",
        "en|OpenAPI: bearerAuth is type http, scheme bearer, bearerFormat JWT; the field "
        "`access_token` in the response is a string. See {k:h9_ticket}.",
        "de|Formularfelder: »Benutzername«, »Passwort«, »Passwort wiederholen«. Validierung laut "
        "{k:h9_ticket}: mindestens zwölf Zeichen.",
        "en|interface Credentials {\n  username: string;\n  password: string;\n  token?: "
        "string;\n}\n// added in {k:h9_commit_short}",
    ],
    "placeholders": [
        "en|.env.example:\nDATABASE_URL=postgres://app:<password>@localhost:5432/app\n"
        "STRIPE_SECRET_KEY=sk_live_...\nOPENAI_API_KEY=$OPENAI_API_KEY\n# see {k:h9_ticket}",
        "de|Vorlage für die Kunden-Mail: »Ihr Benutzername lautet {{benutzer}}, Ihr Passwort "
        "erhalten Sie per SMS.« (Kunde {k:h9_customer_id})",
        "en|password: ***\ntoken: ********\n(both masked in the export of {k:h9_order})",
        "de|Das Standardkennwort der Geräte ist »changeme«, es muss bei der Einrichtung geändert "
        "werden. Seriennummer {k:h9_serial}.",
        "en|helm upgrade shop ./chart --set auth.password=$REDIS_PASSWORD --set image.tag="
        "{k:h9_semver}",
        "de|API_TOKEN=<hier eintragen>\nBASE_URL=https://api.{f:host9}\nTENANT={k:h9_uuid}",
    ],
    "credential_docs": [
        "en|How to rotate the Stripe key: create a restricted key in the dashboard, store it "
        "under payments/stripe in the secret store, redeploy, then revoke the old one. Owner: "
        "{k:h9_login}.",
        "de|Passwortrichtlinie: mindestens 14 Zeichen, keine Wiederverwendung der letzten fünf, "
        "Wechsel nur bei Verdacht. Gilt ab Release {k:h9_semver}.",
        "en|The token is read from the TOKEN env var at start; if it is missing, the service "
        "exits with code 78. Tracking issue {k:h9_ticket}.",
        "de|Wo liegen die Zugangsdaten? Im Tresor unter »Infrastruktur/Datenbanken«, nicht im "
        "Wiki. Frag {k:h9_login}, wenn du keinen Zugriff hast.",
        "en|PIN policy for the new card readers: six digits, three attempts, then the card is "
        "locked. Rollout ticket {k:h9_ticket}.",
        "de|Die Wiederherstellungscodes werden bei der Einrichtung von 2FA einmal angezeigt und "
        "sollen offline liegen; Anleitung in {k:h9_ticket}.",
    ],
    "tech_ids": [
        "en|traceparent: {k:h9_traceparent} (the slow span is the call to the tax service)",
        "de|Pod {k:h9_pod_name} hängt in CrashLoopBackOff auf Node {k:h9_node}, Image "
        "{k:h9_docker_digest}.",
        "en|Role {k:h9_arn} in account {k:h9_aws_account}; AWS request id {k:h9_aws_reqid}.",
        "de|Build {k:h9_build_id} auf Runner {k:h9_uuid_hex} fehlgeschlagen, Artefakt "
        "{k:h9_s3_path}.",
        "en|Printer in room 2.14: MAC {k:h9_mac}, IPv6 {k:h9_ipv6}, serial {k:h9_serial}.",
        "de|Seriennummer des Zertifikats: {k:h9_x509_serial}, gültig bis 2027-03-01.",
    ],
    "plain_configs": [
        "en|```yaml\nserver:\n  port: 8080\nfeature_flags:\n  new_checkout: true\n"
        'request_id_header: X-Request-Id\ncache_prefix: "{k:h9_cache_prefix}"\n```',
        "de|.env ohne Geheimnisse:\nAPP_ENV=staging\nLOG_LEVEL=debug\nBUILD_SHA={k:h9_sha1}\n"
        "TENANT_ID={k:h9_uuid}",
        'en|{"password_min_length": 12, "token_ttl_seconds": 3600, "release": "{k:h9_semver}", '
        '"commit": "{k:h9_sha1}"}',
        "de|[service]\nname = {k:h9_service_name}\nreplicas = 3\nimage_digest = "
        "{k:h9_docker_digest}",
        "en|Brand colours for the invoice PDF: primary {k:h9_color}, accent {k:h9_color}.",
    ],
    "shell_plain": [
        "en|$ history\n  311  git checkout -b {k:h9_branch}\n  312  git cherry-pick {k:h9_sha1}\n"
        "  313  kubectl rollout restart deploy/api",
        "de|Ich habe `psql -h {f:host9} -U {k:h9_login} -W` benutzt (das Passwort wird "
        "interaktiv abgefragt) und dann den Index {k:h9_index_name} neu aufgebaut.",
        "en|docker pull ghcr.io/acme/worker@{k:h9_docker_digest} && docker run --rm -e "
        "API_TOKEN worker:latest",
        "de|ssh-keygen -lf ~/.ssh/id_ed25519.pub zeigt {k:h9_ssh_fpr} – passt zum Eintrag im "
        "Git-Server.",
    ],
    "stack_plain": [
        'en|Traceback (most recent call last):\n  File "/srv/app/payments.py", line 212, in '
        "capture\n    token = payload['token']\nKeyError: 'token'\nrequest {k:h9_req_id}",
        "de|NullPointerException in PasswordResetService.sendMail(PasswordResetService.java:57)"
        " – tritt auf, wenn {k:h9_login} keine E-Mail hinterlegt hat.",
        "en|botocore.exceptions.NoCredentialsError: Unable to locate credentials\n  while "
        "uploading {k:h9_s3_path}",
    ],
    "chat_plain": [
        "de|{f:who9} fragt, ob jemand das Passwort für den Testdrucker kennt. Niemand wusste es, "
        "also haben wir es über die Weboberfläche zurückgesetzt; das neue liegt im Tresor. "
        "Gerät {k:h9_serial}.",
        "en|I told the user I can't store their password; they will use the password manager. "
        "Their login is {k:h9_login}.",
        "en|The API key rotation is done for all services except {k:h9_service_name}; that one "
        "still reads the old key from the config map.",
        "de|Merken: Der Nutzer möchte, dass Tokens nie in Notizen landen. Sein Repo ist "
        "{k:h9_repo}, Standardbranch {k:h9_branch}.",
        "en|Meeting notes {k:h9_date}: discussed moving secrets to Vault; decision: yes, owner "
        "{k:h9_login}, deadline end of quarter.",
    ],
    "quoted_plain": [
        "en|> did you get the token?\nYes, it's in 1Password now under CI / registry. Ticket "
        "{k:h9_ticket} can be closed.",
        "de|Am Dienstag schrieb {f:who9}:\n> Brauchst du noch den Zugang?\n\nNein danke, ich habe "
        "eigene Zugangsdaten bekommen. Meine Kennung ist {k:h9_login}.",
        "en|On Fri, {f:who9} wrote:\n> which commit broke the login page?\n\n{k:h9_sha1}, the "
        "one that bumped the session library.",
    ],
    "tables_plain": [
        "de|| Host | IP | Commit |\n|---|---|---|\n| {f:host9} | {k:h9_ipv4} | "
        "{k:h9_commit_short} |\n| backup | {k:h9_ipv4} | {k:h9_commit_short} |",
        "en|| user | last login | 2FA |\n|---|---|---|\n| {k:h9_login} | 2026-11-30 | yes |\n| "
        "{k:h9_login} | 2026-12-01 | no |",
        "de|Schlüsselverzeichnis (nur öffentliche Teile):\nName      Fingerprint\nrelease   "
        "{k:h9_pgp_fpr}\nbackup    {k:h9_pgp_fpr}",
    ],
    "urls_plain": [
        "en|Dashboard: https://grafana.{f:host9}/d/{k:h9_dash_uid}/api-latency?orgId=1&from=now-6h",
        "de|Details im Ticketsystem: https://{f:host9}/tickets/{k:h9_ticket} (Kunde "
        "{k:h9_customer_id}).",
        "en|Git remote: git@github.com:{k:h9_repo}.git, branch {k:h9_branch}",
        "de|Die Rechnung liegt unter https://portal.{f:host9}/rechnungen/{k:h9_invoice}.pdf, "
        "Login wie immer über SSO.",
    ],
    "long_notes": [
        "de|Übergabe an {f:who9} (Urlaubsvertretung):\n\n1. Der Nightly-Export schreibt nach "
        "{k:h9_s3_path}.\n2. Wenn er hängt: Pod {k:h9_pod_name} löschen, er startet neu.\n3. "
        "Zugangsdaten stehen im Tresor, nicht hier.\n4. Offene Tickets: {k:h9_ticket}, "
        "{k:h9_ticket}.\n\nDanke!",
        "en|Incident summary {k:h9_date}\n\nImpact: checkout errors for 14 minutes.\nCause: "
        "deploy of {k:h9_commit_short} changed the session cookie name; old sessions were "
        "rejected.\nFix: rollback, then {k:h9_commit_short}.\nFollow-up: {k:h9_ticket}. No "
        "credentials were exposed.",
        "de|Architektur-Notiz: Der Auth-Service gibt JWTs aus (RS256, Header wie "
        "{k:h9_jwt_header}), Gültigkeit 15 Minuten. Refresh-Tokens liegen gehasht in der "
        "Tabelle tokens. Schlüsselrotation monatlich, aktuelle kid im JWKS-Endpunkt.",
    ],
    "lookalikes_de": [
        "de|Anfrage-ID {k:h9_req_id}, Sitzung abgelaufen nach 30 Minuten – der Nutzer "
        "{k:h9_login} muss sich neu anmelden.",
        "de|Das Paket {k:h9_tracking} ist unterwegs; Rückfragen bitte mit Bestellnummer "
        "{k:h9_order}.",
        "de|Die Vorgangsnummer lautet {k:h9_idem_key} – bitte bei jeder Rückfrage angeben.",
        "de|Commit {k:h9_sha1} signiert mit dem Schlüssel {k:h9_pgp_fpr}.",
        "de|Konto für Erstattungen: {k:h9_iban} (Kundennummer {k:h9_customer_id}).",
        "de|Neue Laptops: Seriennummern {k:h9_serial} und {k:h9_serial}, MAC {k:h9_mac}.",
        "de|Twilio-Konto {k:h9_twilio_sid} gehört zur Abteilung Kundenservice; Zugang nur über "
        "SSO.",
        "de|Der Telegram-Kanal für Ausfälle hat die ID {k:h9_chat_id}, der Bot ist im Tresor "
        "dokumentiert.",
        "de|OAuth-Client der Web-App: {k:h9_client_id} (öffentlich, steht auch im "
        "Frontend-Bundle).",
    ],
}
