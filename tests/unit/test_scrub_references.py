"""References, placeholders and identifiers beside a credential word stay; records whose
syntax names a secret lose it (issue 20, session 5: the classes held-out5 and the public
documentation blocks showed). Texts are written fresh for these tests."""

from __future__ import annotations

import pytest

from shared.scrubbing import scrub

# A reference, a placeholder, a digest or prose beside a credential word: nothing changes.
KEPT = {
    "yaml_secret_tag": "wifi:\n  ssid: !secret home_ssid\n  password: !secret home_wifi_pw\n",
    "ansible_vault_tag": "ansible_become_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n",
    "psql_variable": "ALTER ROLE shop WITH PASSWORD :'shop_pw'; -- set by \\set before",
    "psql_bare_variable": "CREATE ROLE etl LOGIN PASSWORD :etl_secret;",
    "getpass_call": 'api_token = getpass.getpass("Token: ")  # never stored',
    "function_call": "password = prompt_secret('db')",
    "shell_variable": 'if [ "$input" != $password ]; then exit 1; fi',
    "template_pipe": '{{ printf "%s:%s" .user .password | b64enc | quote }}',
    "cli_help_type": "      --password string        registry password or identity token",
    "schema_type": "properties:\n  password: string\n  username: string",
    "go_struct": "    Password: opts.Password,\n    TLSConfig: &tls.Config{MinVersion: 2},",
    "redis_acl_rule": "ACL SETUSER mirror on >mirrorpass +psync +replconf -@all",
    "env_var_table": (
        "| Variable | Meaning |\n|---|---|\n| TOKEN_FILE | AZURE_FEDERATED_TOKEN_PATH |"
    ),
    "prose_deprecated": "[DEPRECATION WARNING]: option 'password' is deprecated, use 'secret'.",
    "prose_and_or": "Rotating the password and/or the vault id of an encrypted file",
    "prose_are_ignored": "the passwords you pass on the command line are being ignored here.",
    "prompt_then_prose": "$ docker login registry.local\nPassword:\nLogin succeeded",
    "vault_accessor": "vault token lookup\ntoken_accessor hmac_Kd81Lw2Pq0ZsRt\n",
    "commit_after_schema": (
        "ALTER TABLE accounts ADD COLUMN password_hash text;\n"
        "-- migration 3f2b9c1d8e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c"
    ),
    "digest_after_comment": (
        'token = os.environ["HF_TOKEN"]  # model revision '
        "5d1e0f3c2b4a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"
    ),
    "digest_label_key": "image: registry.local/app@sha256:" + "ab12" * 16,
}


@pytest.mark.parametrize("name", sorted(KEPT))
def test_references_identifiers_and_prose_beside_a_credential_word_stay(name: str) -> None:
    text = KEPT[name]
    assert scrub(text).text == text


# A record whose syntax names the secret: the secret goes, the record's other fields stay.
REMOVED = {
    "sql_identified_by": ("CREATE USER 'crm'@'10.%' IDENTIFIED BY 'w8!Kd-p2Qz';", "w8!Kd-p2Qz"),
    "mysql_identified_with": (
        "ALTER USER 'bi' IDENTIFIED WITH caching_sha2_password BY 'Lm3#rT9vYq';",
        "Lm3#rT9vYq",
    ),
    "sql_settings_tuple": (
        "Tabelle config: ('smtp_password', 'Kastanie77!'), ('shop_name', 'Laden')",
        "Kastanie77!",
    ),
    "kubeconfig_client_key": (
        "  user:\n    client-key-data: LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk1IY0NBUUVFSUZz"
        "c2RmZ2hqa2w=\n",
        "LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk1IY0NBUUVFSUZz",
    ),
    "openvpn_static_key": (
        "<secret>\n-----BEGIN OpenVPN Static key V1-----\n9c0e1f2a3b4c5d6e7f8091a2b3c4d5e6\n"
        "0f1e2d3c4b5a69788796a5b4c3d2e1f0\n-----END OpenVPN Static key V1-----\n</secret>",
        "9c0e1f2a3b4c5d6e7f8091a2b3c4d5e6",
    ),
    "card_check_number": (
        "Firmenkreditkarte 4929 1234 5678 9012, gültig bis 04/28, Prüfnummer 731.",
        "731",
    ),
    "decoded_command_output": (
        "$ kubectl get secret grafana -o jsonpath='{.data.admin-password}' | base64 --decode\n"
        "Xq7;mP0=vLr2\n",
        "Xq7;mP0=vLr2",
    ),
    "user_token_in_api_call": (
        "Der Nightly-Job ruft die API mit ci-bot:11a9f3e07c5d4b2a8e6f1d0c9b8a7f6e5d auf.",
        "11a9f3e07c5d4b2a8e6f1d0c9b8a7f6e5d",
    ),
}


@pytest.mark.parametrize("name", sorted(REMOVED))
def test_a_record_whose_syntax_names_the_secret_loses_it(name: str) -> None:
    text, secret = REMOVED[name]
    assert secret not in scrub(text).text


LOOK_ALIKES = {
    "pem_certificate_base64": "client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1J"
    "SUJrVENCK3dJSkFLSGhZc2E=",
    "inspection_number": "TÜV-Bericht 2026: Prüfnummer 4471 ohne Mängel, nächste Prüfung 2028.",
    "digest_pair": "pinned commit:4be1c0d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8 in the lockfile",
    "decode_without_secret": "$ echo aGVsbG8gd29ybGQ= | base64 -d\nhello-world-again\n",
}


@pytest.mark.parametrize("name", sorted(LOOK_ALIKES))
def test_look_alikes_of_those_records_stay(name: str) -> None:
    text = LOOK_ALIKES[name]
    assert scrub(text).text == text
