"""Texts without a secret of the fifth held-out set (CONTENT): the same document types as the
secret templates, with what makes them hard — random-looking identifiers and digests, masked
values and references to secrets (`${{ secrets.X }}`, `secretKeyRef`, `***`, `*_FILE`),
credential talk without a credential, placeholders, and personal data that is content, not
a credential. Every template has a random `{k:…}` slot, so its four texts differ.
Changing any of these texts is a false positive.
"""

from __future__ import annotations

CONTENT: dict[str, list[str]] = {
    "support": [
        "de|Ticket {k:h5k_ticket}: Kundin {k:h5k_name} hat ihr Passwort vergessen. Link zum "
        "Zurücksetzen an {k:h5k_email} geschickt; bitte nie nach dem alten Passwort fragen.",
        'en|Customer chat: "I can\'t find my API key anywhere" — {f:agent}: "You can create a new '
        'one under Settings → API; the old one stays valid until you revoke it." Account '
        "{k:h5k_customer}.",
        "de|Rückruf bei {k:h5k_name}, Tel. {k:h5k_phone}, wegen Bestellung {k:h5k_order}: "
        "Paket liegt in der Filiale, Sendungsnummer {k:h5k_tracking}.",
        "en|Ticket {k:h5k_ticket} closed: the 2FA code did not arrive because the phone number on "
        "file was old; updated to {k:h5k_phone}.",
        'de|Kunde {k:h5k_customer} meldet: "Token abgelaufen" beim Login. Ursache war die '
        "Uhrzeit am Gerät; Session-Timeout steht auf 30 Minuten.",
        "en|Refund of {k:h5k_amount} for order {k:h5k_order} approved by {k:h5k_name}; the "
        "customer's IBAN on file is {k:h5k_iban}.",
    ],
    "minutes": [
        "de|Protokoll {k:h5k_date}: Beschlossen, alle Zugangsdaten ins Vault zu ziehen. "
        "Verantwortlich {k:h5k_name}, Termin Ende des Monats, Ticket {k:h5k_ticket}.",
        "en|Meeting notes {k:h5k_date}: password rotation policy — 90 days for service accounts, "
        "never for passphrases of users. Owner {k:h5k_name}.",
        "de|Jour fixe: Die neue Passwortrichtlinie verlangt mindestens 12 Zeichen; Kollegin "
        "{k:h5k_name} schreibt die Schulungsfolien. Raum {k:h5k_room}.",
        "en|Retro {k:h5k_date}: the leaked-token incident of last month ({k:h5k_ticket}) was a "
        "false alarm, the string was a commit hash ({k:h5k_short_sha}).",
    ],
    "iot": [
        "de|FRITZ!Box bei Eltern eingerichtet: FRITZ!OS {k:h5k_firmware}, MAC {k:h5k_mac}, "
        "WLAN-Passwort bleibt das vom Aufkleber (liegt im Schrank, nicht hier notiert).",
        "en|NAS (serial {k:h5k_serial}) moved to {k:h5k_ipv4}; the admin password is in the "
        "password manager under 'NAS'.",
        "en|esphome:\n  name: garage-door\napi:\n  encryption:\n    key: !secret api_key\nwifi:\n"
        "  ssid: !secret wifi_ssid\n  password: !secret wifi_password\n# board rev {k:h5k_version}",
        "de|Home Assistant läuft auf {k:h5k_ipv4}:8123, Version {k:h5k_firmware}; Zigbee-Stick "
        "an USB, IEEE-Adresse {k:h5k_mac}.",
        "en|tinytuya found device id {k:h5k_trace} at {k:h5k_ipv4}, but local_key is empty until "
        "the wizard runs.",
    ],
    "ci": [
        "en|Run actions/checkout@v4\n  with:\n    token: ${{ secrets.GITHUB_TOKEN }}\n"
        "Run ID {k:h5k_run_id}, ref {k:h5k_commit}",
        'en|Run echo "$DEPLOY_KEY" | wc -c\n***\n41\nRun {k:h5k_run_id} finished in 2m 13s',
        "de|GitLab-Pipeline {k:h5k_pipeline_id}: Job 'deploy' nutzt $CI_JOB_TOKEN; maskierte "
        "Variable PROD_DB_PASSWORD erscheint im Log als [MASKED].",
        "en|Jenkins build #{k:h5k_build}: withCredentials([string(credentialsId: 'sonar-token', "
        "variable: 'SONAR_TOKEN')]) { sh 'mvn sonar:sonar' } — token printed as ****",
        "en|Docker image pushed: registry.gitlab.com/acme/webshop@{k:h5k_digest} (commit "
        "{k:h5k_short_sha})",
        "en|npm notice integrity: sha512-{k:h5k_sri}\nnpm notice version: {k:h5k_version}",
        "en|::add-mask::$TOKEN was missing, so we added it; run {k:h5k_run_id} now shows *** in "
        "place "
        "of the value.",
    ],
    "k8s": [
        "en|$ kubectl describe secret shop-db -n prod\nName:         shop-db\nType:  "
        "Opaque\n\nData\n"
        "====\npassword:  24 bytes\nusername:  3 bytes\n(resourceVersion {k:h5k_resource_version})",
        "en|env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: "
        "shop-db\n"
        "        key: password\n# pod {k:h5k_pod}",
        "de|kubectl get pods -n checkout:\n{k:h5k_pod}   1/1   Running   0   3h12m\n"
        "{k:h5k_pod}   0/1   CrashLoopBackOff   7   3h12m",
        "en|metadata:\n  name: api\n  uid: {k:h5k_uuid}\n  resourceVersion: "
        '"{k:h5k_resource_version}"\n'
        "spec:\n  serviceAccountName: deployer",
        "en|$ kubectl get events\nWarning  Failed  pod/{k:h5k_pod}  Failed to pull image "
        '"ghcr.io/acme/api@{k:h5k_digest}": unauthorized',
    ],
    "compose": [
        "en|services:\n  db:\n    image: postgres:16@{k:h5k_digest}\n    environment:\n"
        "      POSTGRES_PASSWORD_FILE: /run/secrets/db_password\n    secrets:\n      - db_password",
        "de|docker compose ps:\n{k:h5k_container}   shop-web-1   Up 2 hours   "
        "0.0.0.0:{k:h5k_port}->80/tcp",
        "en|.env.example in the repo:\nPOSTGRES_USER=app\nPOSTGRES_PASSWORD=\n"
        "JWT_SECRET=<openssl rand -hex 32>\n"
        "# copied from commit {k:h5k_short_sha}",
        "de|Compose-Datei nutzt ${MINIO_ROOT_PASSWORD:?bitte setzen}; Container {k:h5k_container} "
        "startet ohne die Variable nicht.",
        "en|docker login ghcr.io -u ci-bot --password-stdin < token.txt\nLogin Succeeded "
        "(image {k:h5k_digest})",
    ],
    "sql": [
        "en|-- Dump of shop_prod, {k:h5k_date}\nINSERT INTO orders (id, customer, total) VALUES "
        "({k:h5k_row_count}, '{k:h5k_customer}', 129.90);",
        "de|psql-Sitzung:\nshop=# SELECT count(*) FROM sessions WHERE expires < now();\n count\n"
        "-------\n {k:h5k_row_count}",
        "en|shop=# \\du\n Role name | Attributes\n-----------+------------\n app       | Password "
        "valid "
        "until infinity\n(checkpoint at {k:h5k_lsn})",
        "de|Verbindung fürs Reporting: postgresql://app@{k:h5k_ipv4}:5432/shop?sslmode=require; "
        "Passwort kommt aus ~/.pgpass.",
        "en|CREATE TABLE users (id uuid PRIMARY KEY, email text, password_hash text NOT NULL);\n"
        "-- migration {k:h5k_commit}",
        "de|Im Dump der Tabelle customers: ('{k:h5k_name}', '{k:h5k_email}', '{k:h5k_birthdate}').",
        "en|ALTER ROLE app WITH PASSWORD :'new_password'; -- value comes from \\set, run "
        "{k:h5k_date}",
    ],
    "http": [
        "en|Postman console:\nGET https://api.example.com/v2/orders?cursor={k:h5k_cursor}\n"
        "X-Request-Id: {k:h5k_uuid}\n200 OK (88 ms)",
        'de|curl -v Mitschnitt:\n< HTTP/2 401\n< www-authenticate: Bearer error="invalid_token"\n'
        "< x-request-id: {k:h5k_request_id}",
        "en|Postman collection uid {k:h5k_postman_uid}; its auth type is Bearer with "
        "{{access_token}} from the environment.",
        "en|Response headers: etag: {k:h5k_etag}, traceparent: 00-{k:h5k_trace}-{k:h5k_span}-01",
        "en|Stripe event {k:h5k_request_id} arrived twice; signature verification passed both "
        "times, so idempotency is the fix.",
        "de|Authorization: Bearer <TOKEN> im Header ergänzen, dann antwortet /v1/reports mit 200 "
        "(Trace {k:h5k_trace}).",
    ],
    "banking": [
        "de|Girokarte bei der {f:bank} neu bestellt; PIN kommt separat per Post. IBAN "
        "{k:h5k_iban}, "
        "BIC {k:h5k_bic}.",
        "en|Transfer of {k:h5k_amount} to {k:h5k_name} confirmed with pushTAN; reference "
        "{k:h5k_mandate}.",
        "de|Kreditkarte endet auf {k:h5k_last4}, Abrechnung am 15.; Karte ist für Online-Zahlungen "
        "freigeschaltet.",
        "de|SEPA-Lastschrift: Mandatsreferenz {k:h5k_mandate}, Gläubiger {k:h5k_name}, "
        "Betrag {k:h5k_amount}.",
        "en|The banking app asked for a new 6-digit PIN after the update; chose one, not noted "
        "here. "
        "Device IMEI {k:h5k_imei}.",
        "de|Neue SIM-Karte, Kartennummer {k:h5k_iccid}; PIN und PUK stehen auf dem Kartenbrief "
        "im Ordner.",
    ],
    "lifeadmin": [
        "de|ELSTER: Transferticket der Einkommensteuer {k:h5k_transfer_ticket}, Steuer-ID "
        "{k:h5k_steuer_id}, übermittelt am {k:h5k_date}.",
        "de|Versicherung {k:h5k_policy}: Beitrag {k:h5k_amount} jährlich, Ansprechpartnerin "
        "{k:h5k_name}.",
        "en|Alarm system serviced on {k:h5k_date}; the installer reset the master code, the new "
        "one "
        "is in the safe.",
        "de|Paket {k:h5k_tracking} liegt in der Packstation 112; Postnummer {k:h5k_postnummer}, "
        "Abholcode kommt per App.",
        "de|Auto {k:h5k_plate}, FIN {k:h5k_vin}: TÜV fällig im März, Werkstatt {k:h5k_phone}.",
        "en|Tax portal: my tax number is {k:h5k_steuernummer}, office Munich; login is by "
        "certificate file, password manager entry 'ELSTER'.",
        "en|Parents' address for the insurance form: {k:h5k_address}, born {k:h5k_birthdate}.",
    ],
    "vpn": [
        "en|[Peer]\nPublicKey = {k:h5k_wg_public}\nAllowedIPs = 10.8.0.0/24\nEndpoint = "
        "vpn.example.net:51820",
        "de|Homeoffice-VPN: Anmeldung per Zertifikat und Authenticator-App; Hostkey-Fingerprint "
        "{k:h5k_ssh_fpr}.",
        "en|ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 {k:h5k_ssh_fpr} {k:h5k_email} (ED25519)",
        "de|OpenVPN-Profil importiert; tls-auth liegt als Datei ta.key daneben. Server "
        "{k:h5k_ipv4}.",
        "en|VPN dropped at {k:h5k_date} 09:14; reconnecting asked for the password again, "
        "which IT says is expected after 12 hours.",
    ],
    "recovery": [
        "de|Wiederherstellungscodes für GitHub ausgedruckt und im Ordner 'Versicherungen' "
        "abgelegt ({k:h5k_date}).",
        "en|Printed the Emergency Kit for {k:h5k_email}; the secret key field was left blank "
        "on purpose and filled in by hand.",
        "de|Seed-Phrase der Hardware-Wallet steht auf der Stahlplatte im Tresor; "
        "Wallet-Seriennummer "
        "{k:h5k_serial}.",
        "de|Backup-Codes neu erzeugt, die alten sind ungültig. Konto {k:h5k_email}.",
    ],
    "shell": [
        "en|  412  gh auth login --with-token < ~/.config/gh/token\n  413  git log -1 --format=%H\n"
        "{k:h5k_commit}",
        "de|history | grep aws\n 1021  aws sso login --profile prod\n 1022  aws s3 ls "
        "s3://backup-{k:h5k_short_sha}",
        "en|$ sha256sum backup.tar.zst\n{k:h5k_sha256}  backup.tar.zst",
        "de|Aus der zsh-History: pg_dump -h {k:h5k_ipv4} -U app shop > dump.sql (Passwort per "
        "~/.pgpass)",
        "en|$ vault login -method=oidc\nSuccess! You are now authenticated.\ntoken_accessor "
        "{k:h5k_request_id}",
        "de|git remote -v zeigt git@gitlab.com:acme/webshop.git; SSH-Key-Fingerprint "
        "{k:h5k_ssh_fpr}.",
        "de|sudo mount -t cifs //nas/scans /mnt/scans -o credentials=/root/.smbcred,vers=3.0 "
        "(Freigabe seit {k:h5k_date})",
    ],
    "notebook": [
        "en|# cell 3\nimport os, openai\nclient = "
        'openai.OpenAI(api_key=os.environ["OPENAI_API_KEY"])\n'
        "# Out[3]: run {k:h5k_uuid}",
        "en|!huggingface-cli download acme/churn-model --revision {k:h5k_commit}",
        'de|Notebook-Zelle: df = pd.read_csv("orders.csv"); df.shape → ({k:h5k_row_count}, 14)',
        "en|wandb: Syncing run {k:h5k_short_sha}; view at https://wandb.ai/acme/churn/runs/"
        "{k:h5k_short_sha}",
        'en|token = getpass.getpass("HF token: ")  # asked at runtime, dataset {k:h5k_sha256}',
        "de|ISBN für die Literaturliste im Notebook: {k:h5k_isbn}; Artikelnummer {k:h5k_sku}.",
    ],
}
