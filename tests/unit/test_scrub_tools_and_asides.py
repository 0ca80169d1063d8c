"""Round 11 (texts written fresh for these tests, not from any corpus): passwords as a tool's
flag or a config directive, a password set apart after the sentence that names it (a dash, a
parenthesis, a colon at a line's end), TOTP seeds in base32, numbered lists of backup codes, a
Telegram token in the Bot API's URL - and the public or reference forms that stay: a JWT's
header alone, a value named a public key, `env:NAME`, a store's path.
"""

from __future__ import annotations

import base64
import json

import pytest

from tests.unit.scrub_cases import assert_kept, assert_removed

SECRETS = [
    ('sqlcmd -S sql02 -U sa -P {} -Q "select @@version"', "Wq8!zLm4Tr"),
    ("ipmitool -I lanplus -H 10.9.0.7 -U root -P {} power status", "Tv3kLq9zMw"),
    ("ldapwhoami -x -D uid=ci,ou=svc,dc=acme -w {}", "Hz7#pQ2vXn"),
    ("xfreerdp /v:term01 /u:ops /p:{} /cert:ignore", "Pk4!wZ8mRt"),
    ("mongodump --host rs0/db1 -u backup -p {} --out /srv/dump", "mX9qT2vLp7"),
    ("podman login quay.example -u robot -p {}", "Rb5!kN2wQz"),
    ("# redis.conf\nbind 0.0.0.0\nmasterauth {}\n", "jW7xQ2pLk9mZ"),
    ("slapd.conf:\n  rootpw   {}\n", "Zq3#Lm8vTx"),
    ("snmp-server community {} RW 10", "Nt6vPq2Lx9"),
    (
        "curl -s https://api.telegram.org/bot{}/getUpdates",
        "6123456789:AAH3kq9ZvLmP2xT7wQ4nR8sY1cB5dF0gJ6e",
    ),
    ("Backup-Codes für den Mailaccount:\n1. 7731 0942\n2. 5518 2267\n3. 0906 4415\n", "5518 2267"),
    ("Recovery codes\n- 4fkq-8mzp\n- 2vxn-7tlr\n", "2vxn-7tlr"),
    ("Authenticator setup, if the phone is lost: {} (issuer Hub)", "KQ4VTZ7MWLA2XJ5R"),
    ("2FA secret key: {}", "mfzw q4tl ob2x k5dj"),
    ("Das Kennwort hat Herr Lenz mir gestern am Telefon genannt – {}", "Weide#boot52"),
    ("The new wifi password—{}—works since Monday.", "Zebra!Kaffee77"),
    ("Sie hat ihr altes Kennwort mitgeschickt ({}), bitte zurücksetzen.", "mond5tern#7"),
    ("Das Kennwort für den Kiosk ist neu. Für Rückfragen:\n\n    {}\n\nDanke", "h0ls7ein9ku"),
    ("Passwort: nicht per Mail …\n… also gut, nur für heute: {}", "vRt8kQ2mWz"),
    ("Nobody could log in after the migration. That's {} until Monday.", "Qm8xVb2Lt7pZ"),
    ("Das Passwort hat sie geändert. Es lautet jetzt {} — nicht weitergeben.", "k0rn@bl4u77"),
    ("Für die Garage: Der Code am Tor ist unverändert {}.", "81735"),
    ('wpa_supplicant.conf:\nnetwork={{\n  ssid="Halle"\n  psk="{}"\n}}', "kiefer-moos-regen-turm"),
    ("Pasted from the onboarding doc: {}", "qzx_live_Hk3Vd9LmQ2wTz7Bx4Np6Rc8Yf1Gs5Jt0Ke"),
    ("Signed with the shared secret ({}); check HMAC-SHA256.", "8c1f4e7a9b2d5c0f3e6a9b1c4d7e0f2a"),
    ("LDAP-Bind fürs Wiki: cn=svc-wiki,ou=svc,dc=acme,dc=local mit {}", "Birke#moos41"),
    (
        'client = Client("AC0f1e2d3c4b5a69788796a5b4c3d2e1f0", "{}")',
        "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b",
    ),
    ("fb app token {}", "1308742762612587|Qm2xLk9vT3pW8zR4nY6bC1dF5gH"),
    ("Sourcegraph: {}", "sgp_9f3a1c7e5b2d8f40_7c1e9a3f5b2d8e4c6a0f1b3d5e7c9a2f4b6d8e0a"),
    ("Secret Key aus dem Emergency Kit: {}", "A3-QW7RT2-9KX4LM8ZP3V-Q2W4E-R6T8Y-U1I3O"),
    (
        "Ticket: Kunde hat im Ticket sein Kennwort mitgeschickt ({}), bitte ändern.",
        "&Kiefer#wald71",
    ),
    ("The replica login changed; the one we set today is {} (user ops).", "qmLXvBcRtW_kZp"),
    ("My bank PIN changed; the new one is {}.", "7293"),
    ("Das neue WLAN-Passwort lautet übrigens {}.", "Gartenzwerg#2025"),
    ("For the staging box I used {} as the root password.", "Tr4mpol!ne"),
    ("Die Geheimzahl meiner Kreditkarte ist {}.", "2719"),
    ("Door code for the back entrance changed to {} last week.", "5521"),
    ("Der Türcode wurde auf {} geändert.", "6612"),
    ("smtp.login('alerts@example.com', '{}')", "Hq8!zLm4Tr2"),
    ('var cred = new NetworkCredential("svc_backup", "{}");', "Vb7#kLq2Wm"),
    ('Connection c = DriverManager.getConnection(url, "app", "{}");', "Zt5!pQ8vRx"),
    ("await page.fill('#password', '{}');", "Lm3$kW9qTz"),
    ("mosquitto_pub -h broker -u sensor -P {} -t home/temp -m 21", "Qx4!vN8kLp"),
    ("openssl enc -aes-256-cbc -k {} -in a -out b", "Rk6#tM2wZq"),
    ("hier die Daten: mysql://report:{}@db01.internal:3306/bi", "XwJ!Bbg@ybm@#4?Y&^VRW"),
    ("~/.pgpass:\n10.20.3.17:5432:analytics:shop_rw:{}", "kqW#jtv#@_TJ&!zM"),
    ("Name        Benutzer    Kennwort\nRouter      admin       {}\n", "Falke!2291"),
    ("db_pass: {}", "k{{q}a)w$[z]nob(ed[m>-_$#tree}}"),
    ("Telegram api_hash {} (api_id 1234567)", "5c9e2b7a1f4d8e3c6b0a9f2e7d1c4b8a"),
    ("[10:02] Jana: wie war nochmal das wlan pw?\n[10:03] Tom: {}", "HausAmSee_2024"),
    ("Q: Zugangscode Haustür?\nA: {}", "7731"),
    (
        "VAULT_TOKEN={} vault kv get kv/shop",
        "hvs.CAESIJq8vTz01tfpWDv4neGwiAfU7u2jcyvlUMLWJcoRge1rlIF9TxQm3kB7",
    ),
]
CONTENT = [
    "mysql -u root -p shop < dump.sql",
    "mkdir -p /srv/app && docker run -p 8080:80 -w /srv/app nginx",
    'PasswordAuthentication no\nrequirepass ""\n',
    "Das Passwort-Reset-Ticket (INC40417) ist erledigt.",
    "Passwort-Richtlinie – ISO27001 verlangt 12 Zeichen.",
    "Das Passwort wurde zurückgesetzt.\nBuild: a8F3kLm2Q9\n",
    "Router-Kennwort steht im Tresor. IPv6-Präfix 2001:db8:5a1c:4410:9be2:3f01::1c7.",
    "Kennwort-Hinweis für die Übung:\n\nRaum: Regulatory--21\n",
    "docker run -e DB_PASSWORD=env:DB_PASSWORD -e TOKEN=env:API_TOKEN app:3",
    "`vault kv get -field=password kv/team/shop` liest den Wert, er steht nicht im Wiki.",
    "Build 5121 took 9 min; cache key linux-node-9b1c4d7e0f2a8c1f4e7a9b2d5c0f3e6a9b1c4d7e0f2a.",
    "Paket laut Lockfile: sha512-Hk3Vd9LmQ2wTz7Bx4Np6Rc8Yf1Gs5Jt0KeHk3Vd9LmQ2wTz7Bx4Np6Rc8Yf1==",
    "Payment intent pi_3MtwBwLkdIwHu7ix28a3tqPa succeeded, request req_8f7d6c5b4a39281706f5e4d3.",
    "Please add my key:\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKK27Q4lI1rgocL1gW/xjNY1jdUob3pSK a@b",
    "-----BEGIN PRIVATE KEY-----\nanything\n-----END PRIVATE KEY-----",
    "Das Passwort steht im Tresor. Rechnungsnummer: RE2024-118833",
    "Kennwort für den Kiosk neu gesetzt. Gerät:\nKIOSK-EG-04",
    "The password manager export finished. Archive:\nbackup_2024-11-30_Q4.zip",
    "Bitte das WLAN-Passwort ändern. Router-Modell:\nFRITZ!Box 7590",
    "snmp-server community public RO",
    "The PIN policy changed in 2024; the one rule is 1234 attempts.",
    "We use KeePassXC as the password manager.",
    "src/app.py:1234:12:E501:line-too-long",
    "password = settings.DB_PASSWORD  # read from the environment",
    "api_key = self.apiKey",
    "Q: Welcher Fehlercode kam?\nA: 0x80070005",
    "[10:02] Jana: Wer hat das Passwort geändert?\n[10:03] Tom: Markus, gestern.",
    "file_hash 487d16b94f7240290236c5189af7f476 (sha-1 of the upload)",
    'Access log: 10.0.0.5 - - [03/Dec/2026:10:00:00] "GET /login HTTP/1.1" 200',
    "access_token: 2026-12-03T10:00:00Z (issued), refreshed hourly",
    "curl -u <user:password> https://api.example.com/endpoint",
    "<password>X</password> is the element's name in the schema.",
    "Service     Port    Passwort-Hinweis\nweb         8080    siehe Tresor",
    'db = sqlite3.connect("shop.db")',
    'client.connect("mqtt.example.com", 1883)',
    "curl -k https://intranet.example/status",
    "see https://host.example:443?next=a@b.org",
    "Slack's docs show xoxb-12345-abcd234 as a sample.",
    "Die PIN wurde auf 4 Stellen geändert.",
    "The PIN was changed to 6 digits.",
    "Das Passwort wurde zurückgesetzt, neues Gerät:\nLenovo-T14s-Gen3",
    "Password reset done for the kiosk. Hostname: Kiosk3-Lobby",
    "Passwort geändert, Branch:\nfeature/pw-Reset2",
    "Anmeldung mit Passwort, Benutzer:\nAdminUser2",
    "Password for the wiki is in Vault. Vault path:\nkv/team/WikiAdmin2",
    '   curl -sL --user "$1:$2" "$3" > "$4"',
    "OpenPGP fingerprint: 3048 32FA 2671 D4DE 952D 8897 A6AF 42F4 4DCD 5E25 (2FA: YubiKey)",
]


def _jose_header() -> str:
    raw = json.dumps({"alg": "ES256", "typ": "JWT", "kid": "3f1c"}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


CONTENT += [
    f"Every token from that issuer begins with {_jose_header()}, only the header (alg, typ).",
    "Our public key for the tunnel is Jq1wK9vT3mZp7Lx2Rb5Nc8Hd4Fg6Ys0Ua1Ei3Ow9Qk7=, send yours.",
]


@pytest.mark.parametrize(("text", "value"), [*SECRETS, *((t, None) for t in CONTENT)])
def test_secrets_go_and_content_stays(text: str, value: str | None) -> None:
    """Each secret's layout loses the value (`None`: a content text that stays unchanged)."""
    if value is None:
        assert_kept(text)
    else:
        assert_removed(text, value)
