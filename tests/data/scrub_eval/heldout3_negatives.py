"""Texts without any credential of the third held-out set (seed 31877): the identifiers,
digests, encoded images, codes, versions, numbers and personal data agents' memories hold,
in the layouts they arrive in (git and docker output, logs, lock files, tables, mails,
tickets, meeting notes), plus talk about credentials and placeholders that name none.
Every `{k:…}` value must survive, and the text must come back unchanged (CONTRACT §8:
identifiers without a credential context are content)."""

from __future__ import annotations

CONTENT = {
    "digests": [
        "en|commit {k:h3_commit}\nAuthor: {k:h3_name} <{k:h3_email}>\n"
        "Date:   Mon Nov 30 14:02:11 2026 +0100\n\n    Fix retry window for ledger bookings "
        "({k:h3_jira})",
        "de|Fix ist in {k:h3_short_sha} drin, Release {k:h3_version} geht morgen raus.",
        "en|{k:h3_sha256}  brain-linux-amd64.tar.gz",
        "de|Checksumme (MD5) der Exportdatei: {k:h3_md5} — stimmt mit dem Quellsystem überein.",
        'en|EXPECTED_SHA256 = "{k:h3_sha256}"  # pinned installer, bump with the next release',
        "en|image: ghcr.io/acme/brain@{k:h3_docker_digest}",
        "en|CONTAINER ID   IMAGE         STATUS\n{k:h3_container_id}   brain:{k:h3_version}   "
        "Up 3 hours",
        'en|"node_modules/lodash": {\n  "version": "4.17.21",\n  "integrity": "{k:h3_sri}"\n}',
        'en|HTTP/1.1 304 Not Modified\nETag: "{k:h3_md5}"\nCache-Control: max-age=3600',
        "de|Mein GPG-Fingerprint zum Prüfen der Releases: {k:h3_gpg_fingerprint}",
    ],
    "ids": [
        "en|2026-11-30T09:14:55.123Z INFO request_id={k:h3_uuid} path=/api/memory status=201 "
        "duration_ms=38",
        "de|Vorgangsnummer beim Support: {k:h3_uuid_hex}, Rückmeldung bis Freitag.",
        "en|Event ids are ULIDs now, e.g. {k:h3_ulid}; they sort by creation time.",
        "en|traceparent: {k:h3_trace_parent}",
        "de|Sentry-Event {k:h3_sentry_event}: KeyError in ledger.parse, nur bei Storno.",
        "en|KMS key {k:h3_uuid} encrypts the exports bucket (alias/brain-exports).",
        "de|Die Lambda läuft unter {k:h3_arn}, der Account-Umzug ist für Q1 geplant.",
        "de|Nach dem Lasttest {k:h3_ec2_id} und {k:h3_ec2_id} beendet.",
        "en|$ kubectl get pods -n prod\nNAME                          READY   STATUS\n"
        "{k:h3_pod}   1/1     Running\n{k:h3_pod}   0/1     CrashLoopBackOff",
        "de|Bitte im Kanal {k:h3_slack_channel} posten, nicht per DM.",
        "en|Banned user {k:h3_snowflake} for spam, message {k:h3_snowflake} deleted.",
        "en|OAuth client ID (public, it goes into the frontend): {k:h3_google_client_id}",
        "en|Refund issued for {k:h3_stripe_object}, customer {k:h3_stripe_customer}, "
        "amount {k:h3_amount}",
        "en|The bug: sessions expire after 30 minutes even with remember-me. Repro with user "
        "{k:h3_snowflake}.",
    ],
    "encoded": [
        "en|![architecture]({k:h3_png_uri})",
        'de|<img alt="Logo" src="data:image/jpeg;base64,{k:h3_jpeg_b64}">',
        'en|{"items": [], "has_more": true, "next_cursor": "{k:h3_cursor}"}',
        "en|authorized_keys on the build box:\nssh-ed25519 {k:h3_ssh_ed25519_pub} jana@laptop",
        "de|[Peer]\nPublicKey = {k:h3_wireguard_public}\nAllowedIPs = 10.8.0.0/24\n"
        "Endpoint = vpn.acme.example:51820",
        "en|Donations for the meetup: {k:h3_eth_address} (Ethereum mainnet only)",
        "de|Das Onboarding-Video: https://youtu.be/{k:h3_youtube} – ab Minute 4 wird es "
        "interessant.",
        "en|Spec is in https://docs.google.com/document/d/{k:h3_gdoc}/edit — comments welcome",
    ],
    "devices_and_codes": [
        "en|Printer on floor 3 has MAC {k:h3_mac}, reserve 10.0.3.40 for it in DHCP.",
        "en|The new office prefix is {k:h3_ipv6}/64.",
        "de|MacBook für Ines, Seriennummer {k:h3_serial}, Garantie bis 2028.",
        "de|Artikel: Akku-Bohrschrauber, EAN {k:h3_ean13}, Lagerplatz R3-12",
        "en|Book for the reading group: ISBN {k:h3_isbn13}",
        "de|| SKU | Menge | Preis |\n|---|---|---|\n| {k:h3_sku} | 12 | 19,90 € |\n"
        "| {k:h3_sku} | 3 | 249,00 € |",
        "de|USB-C-Docks bestellt, Amazon-Bestellung {k:h3_amazon_order}, kommen Donnerstag.",
        "de|Bestellnummer {k:h3_order_code}, Rechnung {k:h3_invoice}, Sendung {k:h3_tracking}",
        "de|Dienstwagen {k:h3_license_plate} steht bis Mittwoch in der Werkstatt.",
        "en|Charged to the card ending {k:h3_masked_card}; receipt forwarded to finance.",
    ],
    "versions_and_numbers": [
        "en|Bumped fastmcp to {k:h3_version} and boto3 to {k:h3_version}; pydantic stays.",
        "en|requirements.txt\nrequests==2.32.3\nnumpy==2.1.3\nuvicorn[standard]==0.32.1\n"
        "# locked at {k:h3_short_sha}",
        "de|{k:h3_jira}: Export-Button hängt bei über 10.000 Einträgen. Repro in Staging, "
        "Priorität hoch.",
        "en|lastModified: {k:h3_epoch_ms} (ms since epoch), the cache was invalidated after it",
        "de|Im Oktober 1.284 neue Nutzer, Umsatz {k:h3_amount}, Churn 3,4 %. Ziel für Q4: 1.500.",
        "de|Protokoll 01.12.\n- Release {k:h3_version} am 08.12.\n- {k:h3_jira} blockiert\n"
        "- Raum 4.12, 14:30 Uhr\n- 3 von 5 Tests grün",
        "en|Standup: p95 went from 412 ms to 188 ms after the index change; 2 of 7 alarms "
        "are still flapping, error rate 0.03 % ({k:h3_jira}).",
    ],
    "personal": [
        "de|Ansprechpartnerin beim Kunden: {k:h3_name}, {k:h3_email}, Tel. {k:h3_phone}",
        "en|Ship the replacement to {k:h3_name}, {k:h3_address}",
        "de|Neue Mitarbeiterin {k:h3_name}, geb. {k:h3_birthday}, Steuer-ID {k:h3_tax_id}, "
        "RV-Nummer {k:h3_pension_number}",
        "de|Überweisung an {k:h3_name}, IBAN {k:h3_iban}, BIC {k:h3_bic}, "
        "Verwendungszweck {k:h3_invoice}",
        "de|Krankenversichertennummer von Papa: {k:h3_health_insurance} (TK)",
        "de|Personalausweisnummer für die Hotelbuchung: {k:h3_id_card}",
        "de|USt-IdNr. des Lieferanten: {k:h3_vat_id}, unsere Kundennummer dort "
        "{k:h3_customer_number}",
        "en|W-9 for the contractor: {k:h3_name}, SSN {k:h3_ssn}",
        "en|From: {k:h3_name} <{k:h3_email}>\nSubject: Moving house\n\nMy new address from "
        "January is {k:h3_address}, mobile stays {k:h3_phone}.",
    ],
    "credential_talk": [
        "en|Set OPENAI_API_KEY=<your-key-here> and STRIPE_SECRET_KEY=${STRIPE_SECRET_KEY} in "
        ".env.local; never commit the real values ({k:h3_jira}).",
        "de|Passwort fürs Lohnportal wurde zurückgesetzt, der neue Zugang kommt per Brief. Bis "
        "dahin ist keine Anmeldung möglich. Vorgang {k:h3_jira}",
        "en|Reminder: rotate the GitHub deploy token and the Stripe restricted key before the "
        "audit ({k:h3_jira}).",
        "en|- name: Publish {k:h3_version}\n  run: npm publish\n  env:\n"
        "    NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}",
        "de|PIN dreimal falsch eingegeben, Karte gesperrt. Die neue PIN kommt in 5 Werktagen "
        "per Post. Karte {k:h3_masked_card}",
        "de|Der Token-Endpunkt antwortet mit 401, wenn der Client das Secret im Body statt im "
        "Header schickt. Ticket {k:h3_jira}.",
        "en|password: ${DB_PASSWORD}\nuser: ${DB_USER}\nhost: db.internal\n# see {k:h3_jira}",
        "de|Wir speichern Passwörter nur als Argon2id-Hash; das Klartext-Passwort sieht "
        "niemand ({k:h3_jira}).",
    ],
}
