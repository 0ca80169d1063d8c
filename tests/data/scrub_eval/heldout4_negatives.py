"""Negative templates of the fourth held-out scrub set (seed 40613): texts with no secret.

The same document types as the secret templates (runbooks, Jira, Slack exports, Terraform,
Ansible, crash dumps, password-manager talk, onboarding, SMS, calls), full of identifiers,
digests, personal data, references to secrets (vault variables, `op://` paths, masked values)
and credential talk without a credential. Any change to such a text is a false positive; every
`{k:…}` value must survive.
"""

from __future__ import annotations

CONTENT = {
    "runbook": [
        "en|Runbook: roll back to commit {k:h4k_commit} with `git revert`, then redeploy build "
        "{k:h4k_build}.",
        "de|Runbook Datenbank: Snapshot vor dem Update, Image {k:h4k_ami}, Security Group "
        "{k:h4k_sg}.",
        "en|Step 3: verify the host key fingerprint {k:h4k_ssh_fingerprint} before the first ssh "
        "login.",
        "de|Schritt 2: Das Passwort kommt aus {k:h4k_op_ref}, niemals in die Shell-History tippen.",
        "en|If the token expired, run `vault token renew` on {f:host} - never paste the token "
        "itself into the ticket.",
        "de|Container-Image pinnen: registry.example/app@{k:h4k_sha256} (Version {k:h4k_version}).",
    ],
    "jira": [
        "en|{k:h4k_jira}: customer {k:h4k_customer} reports a double charge of {k:h4k_amount}, "
        "order {k:h4k_order}.",
        "de|Kommentar zu {k:h4k_jira}: Reproduziert mit Request-ID {k:h4k_request_id}, Fix in "
        "{k:h4k_version}.",
        "en|{k:h4k_jira} closed as duplicate of {k:h4k_jira}; the API key was rotated by "
        "{f:person} yesterday.",
        "de|{k:h4k_jira}: Passwort-Reset für {f:person} durchgeführt, neues Kennwort telefonisch "
        "übermittelt.",
        "en|Blocked on {k:h4k_jira}: waiting for the security team to issue a new client secret.",
    ],
    "slack": [
        'en|{"type":"message","user":"U02ABCD","ts":"{k:h4k_slack_ts}","text":"deploy of '
        '{k:h4k_commit} is green"}',
        'de|{"ts":"{k:h4k_slack_ts}","text":"Wer hat das Token für den Export? Bitte per '
        '1Password teilen, nicht hier."}',
        "en|[#oncall] {f:person}: paging you about {k:h4k_jira}, pod uid {k:h4k_k8s_uid} keeps "
        "restarting",
        "de|[#allgemein] {f:person}: Flug {k:h4k_flight} nach {f:city} gebucht, Buchungscode "
        "{k:h4k_booking}",
        "en|[#security] {f:person}: reminder - passwords go into the vault, tokens expire after "
        "90 days",
    ],
    "terraform": [
        'en|resource "aws_db_instance" "main" {\n  password = var.db_password\n  '
        'vpc_security_group_ids = ["{k:h4k_sg}"]\n}',
        'de|data "aws_ami" "base" { owners = ["self"] }  # ergibt {k:h4k_ami}',
        "en|secret_string = data.aws_secretsmanager_secret_version.db.secret_string  # read at "
        "plan time, sg {k:h4k_sg}",
        'de|module "vpc" { source = "./vpc" cidr = "10.20.0.0/16" }  # Subnetz {k:h4k_sg}',
        "en|terraform output: db_endpoint = {f:host}, base_ami = {k:h4k_ami}, sensitive outputs "
        "hidden",
        'en|lock file: hashes = ["h1:{k:h4k_stack_hash}", "zh:{k:h4k_commit}"]',
    ],
    "ansible": [
        'en|group_vars/db.yml:\n  ansible_user: deploy\n  ansible_ssh_pass: "{{ '
        'vault_db_ssh_pass }}"\n  ansible_host: {k:h4k_ipv4}',
        'de|host_vars/mail.yml: smtp_relay_password: "{{ '
        "lookup('community.general.onepassword', 'SMTP') }}\" # siehe {k:h4k_jira}",
        "en|ansible-playbook site.yml --ask-vault-pass --limit {f:host}",
        "de|Inventar: {k:h4k_ipv4} (MAC {k:h4k_mac}) gehört zum Team {f:team}.",
    ],
    "crash": [
        "en|Segmentation fault at {k:h4k_address} in libssl.so.3, thread {k:h4k_stack_hash}",
        "de|Absturz im Worker: Request-ID {k:h4k_request_id}, Adresse {k:h4k_address}, Version "
        "{k:h4k_version}",
        "en|Traceback: KeyError: 'password' in settings.py line 41 (the key is missing, not "
        "leaked), request {k:h4k_request_id}",
        "de|Fehler 401 beim Aufruf: Authorization-Header fehlte, Trace {k:h4k_request_id}",
        "en|npm ERR! integrity checksum failed: wanted {k:h4k_integrity}",
    ],
    "password_manager": [
        "en|name,url,username,password\nRouter,http://{k:h4k_ipv4},admin,********",
        "de|Bitwarden: Eintrag 'Lohnportal' verschoben, Passwort liegt unter {k:h4k_op_ref}.",
        "en|KeePass: master password changed by {f:person}, recovery sheet in the safe in "
        "{f:city}.",
        "de|Passwortmanager-Export gelöscht, Prüfsumme der Datei {k:h4k_sha256}.",
    ],
    "onboarding": [
        "de|Willkommen, {f:person}! Dein Start-Passwort bekommst du per SMS an {k:h4k_phone}.",
        "en|Welcome {f:person}! Your buddy is {f:person} ({k:h4k_email}); laptop plate "
        "{k:h4k_plate} for the garage.",
        "de|Onboarding: Gehalt auf IBAN {k:h4k_iban}, Geburtsdatum {k:h4k_date}, Kundennummer "
        "{k:h4k_customer}.",
        "en|Onboarding checklist: enable 2FA, store recovery codes offline, never share your "
        "password. Buddy: {f:person}.",
    ],
    "sms": [
        "de|SMS von DHL: Ihre Sendung {k:h4k_tracking} wird heute zugestellt.",
        "en|SMS: Your booking {k:h4k_booking} for flight {k:h4k_flight} is confirmed.",
        "de|SMS: Wir rufen Sie unter {k:h4k_phone} zurück. Bitte nennen Sie niemals Ihre PIN.",
        "en|Text from the bank: we will never ask you for a one-time code by phone. Questions: "
        "{k:h4k_phone}.",
    ],
    "voice": [
        "de|Transkript Anruf: Kunde nennt Bestellnummer {k:h4k_order} und Betrag {k:h4k_amount}, "
        "Rückruf an {k:h4k_phone}.",
        "en|Call transcript: caller {f:person} asked to reset the password; identity checked via "
        "date of birth {k:h4k_date}.",
        "de|Sprachnachricht von {f:person}: Treffen in {f:city}, Kennzeichen {k:h4k_plate}.",
        "en|Voicemail: hi, it's {f:person}, call me back on {k:h4k_phone} about invoice "
        "{k:h4k_order}.",
    ],
    "config": [
        "en|config/credentials.yml.enc is encrypted; the master key lives only in the deploy "
        "secret store of {f:team}.",
        "de|.env.example: APP_KEY=\nDB_PASSWORD=\nDB_HOST={k:h4k_ipv4}\nMAIL_PASSWORD=",
        "en|Embedded logo: {k:h4k_image_b64}",
        "de|GPG-Schlüssel-ID {k:h4k_gpg_keyid} für die Release-Signatur, öffentlich im Keyserver.",
        'en|package-lock: "integrity": "{k:h4k_integrity}" for version {k:h4k_version}',
    ],
    "mail": [
        "de|Betreff: Rechnung {k:h4k_order}\nHallo {f:person}, bitte überweisen Sie "
        "{k:h4k_amount} auf {k:h4k_iban}.",
        "en|Subject: access request\nHi, please grant {k:h4k_email} read access to the "
        "dashboards. Thanks!",
        "de|Betreff: Zugang\nDie Zugangsdaten schicke ich dir getrennt über Signal, nicht per "
        "Mail. Gruß, {f:person}",
        "en|Subject: release {k:h4k_version}\nTagged {k:h4k_commit}, image {k:h4k_sha256}.",
    ],
}
