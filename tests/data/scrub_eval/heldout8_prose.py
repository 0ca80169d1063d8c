"""Secret templates of the eighth held-out set written as people write: chats, tickets, code
review, runbooks, handovers, tables and hand-laid-out notes, German and English. A template is
`lang|text`; `{s:maker}` is a secret (labelled), `{k:maker}` content that must survive,
`{f:name}` a filler. Many secrets sit far from their credential word or on their own line.
"""

from __future__ import annotations

PROSE = {
    "far_from_word": [
        "de|Hab gerade mit {f:who} telefoniert wegen dem Zugang zu {f:svc}. Das Passwort hat sie "
        "letzte Woche geändert, weil der alte Rechner weg ist, und sie meinte, wir sollen es "
        "nirgends im Wiki ablegen. Es lautet jetzt {s:h8_human_password} — bitte nur in den "
        "Tresor.",
        "en|Quick recap of the call with {f:who}: the vendor rotated the integration credentials "
        "on Monday because of the audit, and the old ones stopped working at noon. After some "
        "back and forth they sent the new one by text message, and it is {s:h8_api_key}. "
        "Ticket {k:h8_ticket} stays open until we confirm.",
        "de|Notiz Kiosk-PC Empfang: Benutzer ist {f:user}. Das Kennwort wurde beim letzten "
        "Einsatz von {f:who} neu gesetzt, weil der Bildschirm gesperrt war und niemand es "
        "wusste. Falls wieder jemand fragt:\n\n    {s:h8_human_password}\n\nGerätenummer "
        "{k:h8_sku}.",
        "en|About the staging database: nobody could log in after the restore, so {f:who} reset "
        "the app user this morning. I wrote down what she typed in, since the vault sync is "
        "broken until Thursday. That's {s:h8_db_password}. Restore job was {k:h8_uuid}.",
    ],
    "set_yesterday": [
        "en|@{f:who} the reporting login is unchanged, but the one we set yesterday for the "
        "replica is {s:h8_db_password} (user {f:user} on {f:host}).",
        "de|Für den Staging-Cluster gilt weiter das von gestern, also {s:h8_gitlab_pat}. Das "
        "alte aus der Pipeline {k:h8_short_sha} bitte löschen.",
        "en|Following up on our chat: the key you asked about isn't in the vault yet. Use this "
        "one for now — {s:h8_stripe_secret} — and I'll rotate it after release {k:h8_version}.",
    ],
    "ticket": [
        "de|[{k:h8_ticket}] Kunde meldet Login-Probleme bei {f:svc}\nBeschreibung: Der Kunde hat "
        "im Ticket sein aktuelles Kennwort mitgeschickt ({s:h8_human_password}), Bestellnummer "
        "{k:h8_order}. Bitte auffordern, es zu ändern.",
        "en|Ticket {k:h8_ticket} — Zapier integration broken\nReporter pasted the webhook "
        "config:\n  url: https://hooks.slack.com/services/T04QX7KD2/B07L2M9RZ1/"
        "{s:h8_slack_hook_secret}\n  channel: #alerts-{f:city}\nReassigned to platform.",
        "de|JIRA {k:h8_ticket}: Mailversand aus dem Shop schlägt fehl. Im Log steht der "
        "Mailgun-Schlüssel {s:h8_mailgun}, der ist laut Anbieter deaktiviert. Einen neuen "
        "besorgt {f:who}.",
    ],
    "code_review": [
        "en|Review of the settings PR: `config/settings.py` L42 hard-codes `SECRET_KEY = "
        '"{s:h8_django_secret}"` — please move it to the environment and rotate it, it has '
        "been in main since {k:h8_short_sha}.",
        "de|Code-Review {k:h8_ticket}: In `deploy/notify.ts` steht der Twilio-Auth-Token im "
        "Klartext (`const authToken = '{s:h8_twilio_auth}'`). Bitte über das Secret holen, der "
        "Rest sieht gut aus.",
        "en|nit: tests/fixtures/hf.py still contains a real-looking token ({s:h8_hf}). Even if "
        "it is revoked, please replace it with a dummy. Approving otherwise, head {k:h8_commit}.",
    ],
    "runbook": [
        "de|Runbook Notfallzugang Firewall ({f:host})\n1. Konsole über IPMI öffnen\n2. Benutzer: "
        "admin\n3. Kennwort aus dem Notfallumschlag: {s:h8_human_password}\n4. Danach sofort "
        "ändern und {k:h8_ticket} aktualisieren",
        "en|Runbook: rotate the Vault root token\n- current token (dies with the rotation): "
        "{s:h8_vault}\n- run `vault operator generate-root -init`\n- unseal shares are with "
        "{f:who} and the CTO\n- log the change under {k:h8_ticket}",
        "de|Wiederherstellung NAS: Die Schlüsseldatei liegt auf dem USB-Stick. Falls der weg "
        "ist, hilft die Passphrase\n\n  {s:h8_passphrase}\n\nSeriennummer des Geräts: {k:h8_sku}",
    ],
    "table": [
        "de|| Dienst | Benutzer | Passwort |\n|---|---|---|\n| Router | admin | "
        "{s:h8_human_password} |\n| Drucker | {f:user} | {s:h8_pin} |\n| NAS | backup | "
        "{s:h8_db_password} |\n\nStand: Inventar {k:h8_sku}",
        "en|| env | New Relic key | expires |\n|-----|-----|---------|\n| prod | {s:h8_newrelic} "
        "| next January |\n| staging | {s:h8_newrelic} | December |\n\nowner: {k:h8_email}",
        "en|Access sheet (from {f:who}'s handover)\nservice   login                        "
        "secret\nSentry    {k:h8_email}   {s:h8_sentry}\nLinear    {k:h8_email}   "
        "{s:h8_linear}\n",
    ],
    "human_password": [
        "de|Mama hat ein neues Passwort für ihr Mail-Postfach gewählt, damit sie es nicht "
        "vergisst: {s:h8_human_password}. Ihr Login ist {k:h8_login}.",
        "en|Set the family streaming password to {s:h8_human_password} (the old one leaked). "
        "Account e-mail stays {k:h8_email}.",
        "de|Neues Anmeldekennwort für den Laptop von {f:who}: {s:h8_passphrase}. "
        "Inventarnummer {k:h8_sku}.",
        "en|pw for the shared admin mailbox: {s:h8_human_password}\n(do not put this in ticket "
        "{k:h8_ticket})",
    ],
    "pin": [
        "de|Die PIN der neuen Firmenkreditkarte ist {s:h8_pin}, die Karte selbst liegt im "
        "Tresor. Rechnung {k:h8_invoice}.",
        "en|SIM card for the on-call phone: PIN {s:h8_pin}, PUK {s:h8_puk}. Phone inventory tag "
        "{k:h8_sku}.",
        "de|Alarmanlage Lager {f:city}: Scharfschalten mit Code {s:h8_pin}, dann Raute. "
        "Wartungsvertrag {k:h8_order}.",
        "en|The code for the key safe at the office door is {s:h8_pin} — we changed it after "
        "{f:who} left.",
    ],
    "recovery": [
        "en|GitHub recovery codes for the org owner account ({k:h8_login}):\n"
        "{s:h8_recovery_code}\n{s:h8_recovery_code}\n{s:h8_recovery_code}\n"
        "{s:h8_recovery_code}\nStore them offline!",
        "de|Backup-Codes für das Google-Konto von {f:who}:\n1. {s:h8_backup_digits}\n2. "
        "{s:h8_backup_digits}\n3. {s:h8_backup_digits}\nJeder Code funktioniert nur einmal.",
        "en|TOTP seed for the shared ops account, in case the phone dies: {s:h8_totp_seed} "
        "(issuer AcmeVPN, account {k:h8_email})",
        "de|2FA-Geheimnis für den Buchhaltungszugang: otpauth://totp/DATEV:{f:user}?secret="
        "{s:h8_totp_seed}&issuer=DATEV — der QR-Code liegt im Ordner {k:h8_uuid}.",
    ],
    "wifi_router": [
        "de|Gäste-WLAN im Büro {f:city}: SSID Acme-Gast, Schlüssel {s:h8_wifi_psk}. Router-MAC "
        "{k:h8_mac}.",
        'en|wpa_supplicant.conf from the kiosk:\nnetwork={\n    ssid="Lager-IoT"\n    psk="'
        '{s:h8_wifi_psk}"\n}\nDevice MAC {k:h8_mac}',
        "de|FRITZ!Box im Keller: Anmeldekennwort {s:h8_human_password}, WLAN-Netzwerkschlüssel "
        "{s:h8_wifi_psk}. IPv6-Präfix {k:h8_ipv6}.",
    ],
    "saas_prose": [
        "de|Shopify-Admin-Token des Testshops (nur lesend): {s:h8_shopify}. Produkt {k:h8_sku} "
        "ist dort angelegt.",
        "en|Discord bot for the community server — token {s:h8_discord}, the invite link is in "
        "the wiki. Build {k:h8_short_sha}.",
        "de|Signatur-Secret für den Endpunkt /hooks/stripe: {s:h8_stripe_webhook}. Letzte "
        "Zahlung {k:h8_stripe_object}.",
        "en|Atlassian API token for the Jira automation user (created {f:weekday}): "
        "{s:h8_atlassian} — automation rule {k:h8_ticket}.",
    ],
    "ai_keys": [
        "en|Note to self: the eval harness reads the key from the env, but in the notebook I "
        'pasted it directly: openai.api_key = "{s:h8_openai}". Run {k:h8_uuid}.',
        "de|Hugging-Face-Token für den privaten Modell-Download: {s:h8_hf}. Modell-Revision "
        "{k:h8_commit}.",
        "en|Claude API key for the support bot (prod workspace): {s:h8_anthropic}\nworkspace "
        "id: {k:h8_uuid}",
    ],
    "layout": [
        "de|Zugangsdaten Lohnportal\n\nBenutzername\n{k:h8_login}\n\nKennwort\n\n"
        "{s:h8_human_password}\n\nMandantennummer {k:h8_order}",
        "en|VPN (new)\n  server ....... vpn.acme.example\n  user ......... {f:user}\n  secret "
        "....... (below)\n\n  {s:h8_api_key}\n\nprofile {k:h8_uuid}",
        "de|Zugang Hosting-Panel:\nLogin: {k:h8_email}\nPasswort: steht nicht hier, sondern …\n"
        "… na gut, für den Notfall: {s:h8_db_password}",
        "en|Locker combination and laptop login for the new intern\n\nlocker 14\n"
        "  {s:h8_pin}\nlaptop ({k:h8_login})\n  {s:h8_human_password}",
    ],
}
