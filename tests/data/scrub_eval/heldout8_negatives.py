"""Negative templates of the eighth held-out set, technical part: texts without any secret that
are full of what looks like one — digests, commit ids, UUIDs, request and idempotency ids,
base64 images and blobs, public keys and fingerprints, JWT headers, lockfile hashes, cloud
resource ids. Every template marks its look-alikes as `{k:…}`: they must survive unchanged.
"""

from __future__ import annotations

TECHNICAL = {
    "digests": [
        "en|Release {k:h8_version} artifacts:\n{k:h8_sha256}  brain-linux-amd64.tar.gz\n"
        "{k:h8_sha256}  brain-darwin-arm64.tar.gz\nVerify with `sha256sum -c SHA256SUMS`.",
        "de|Image für das Rollout gepinnt: ghcr.io/acme/brain@{k:h8_docker_digest} (statt "
        ":latest). Änderung in {k:h8_ticket}.",
        "en|md5 of the uploaded file is {k:h8_md5}, which matches the ETag {k:h8_etag} that S3 "
        "returned.",
        "de|Prüfsumme der ISO laut Downloadseite: SHA-256 {k:h8_sha256}. Bei mir kam dasselbe "
        "raus, also passt.",
    ],
    "commits": [
        "en|git log --oneline\n{k:h8_short_sha} fix token refresh race in session middleware\n"
        "{k:h8_short_sha} bump fastmcp to {k:h8_version}\n{k:h8_short_sha} docs: explain the "
        "password reset flow",
        "de|Der Bug kam mit Commit {k:h8_commit} rein (Merge von {f:who}), der Revert ist "
        "{k:h8_commit}.",
        "en|Bisected the flaky login test: good at {k:h8_short_sha}, bad at {k:h8_short_sha}. "
        "The culprit is {k:h8_commit}, which changed the cookie parser.",
        "de|Cherry-pick von {k:h8_commit} auf release/{k:h8_version} erledigt, CI-Lauf "
        "{k:h8_uuid}.",
    ],
    "uuids": [
        "de|Kunde {k:h8_uuid} hat zwei Konten; das zweite ({k:h8_uuid}) wurde am Montag "
        "zusammengeführt.",
        "en|Tenant ids affected by the migration bug: {k:h8_uuid_hex}, {k:h8_uuid_hex}, "
        "{k:h8_uuid_hex}. All three are repaired.",
        "de|Log-Auszug:\n2026-11-28 10:12:44 INFO job={k:h8_uuid} state=done rows=18234\n"
        "2026-11-28 10:12:45 INFO job={k:h8_uuid} state=queued",
        "en|Terraform state lineage is {k:h8_uuid}, serial 412. The stale lock has id "
        "{k:h8_uuid}; only force-unlock it once nobody is applying.",
    ],
    "request_ids": [
        "en|Payments API call for order {k:h8_order}: POST /v1/charges with Idempotency-Key: "
        "{k:h8_urlsafe_id}. A retry with the same key returned the first result.",
        "de|Jede Anfrage bekommt bei uns `uuid4().hex` als Korrelations-ID, z. B. "
        "{k:h8_uuid_hex}; im Gateway-Log taucht sie als X-Request-ID auf.",
        "en|Support asked for the request id of the failed upload: {k:h8_urlsafe_id} (made with "
        "secrets.token_urlsafe, only used for tracing).",
        "de|Trace-Kontext aus dem Header: traceparent: {k:h8_trace_id}; dazu passt das "
        "Sentry-Event {k:h8_sentry_event}.",
    ],
    "images_blobs": [
        'en|Inline logo for the e-mail template: <img src="data:image/png;base64,{k:h8_png_b64}" '
        'alt="Acme">',
        "de|Das Icon liegt als Data-URI im CSS: background-image: url(data:image/png;base64,"
        "{k:h8_png_b64});",
        'en|{"attachment": {"filename": "scan-{k:h8_short_sha}.bin", "encoding": "base64", '
        '"data": "{k:h8_blob_b64}"}}',
        "de|Der Cursor für die nächste Seite ist {k:h8_blob_b64} — das ist nur Base64 des "
        "letzten Sortierschlüssels und darf ins Log.",
    ],
    "ssh_public": [
        "en|Add my laptop to the bastion please:\nssh-ed25519 {k:h8_ssh_ed25519_pub} {k:h8_email}",
        "de|authorized_keys vom Build-Server:\nssh-rsa {k:h8_ssh_rsa_pub} ci@build01\n"
        "ssh-ed25519 {k:h8_ssh_ed25519_pub} {k:h8_login}@laptop",
        "en|Host key changed warning on {f:host}: the new fingerprint is {k:h8_ssh_fpr} "
        "(ED25519). {f:who} confirmed it is the reinstalled machine.",
        "de|Öffentlicher Deploy-Key für das Repo (nur Lesezugriff): ssh-ed25519 "
        "{k:h8_ssh_ed25519_pub} deploy@brain. Der private Teil liegt nur auf dem Runner.",
    ],
    "wireguard_public": [
        "de|Neuer Peer für {f:who}:\n[Peer]\nPublicKey = {k:h8_wg_public}\nAllowedIPs = "
        "10.8.0.23/32\nPersistentKeepalive = 25",
        "en|wg show on the gateway:\npeer: {k:h8_wg_public}\n  endpoint: 203.0.113.7:51820\n  "
        "latest handshake: 1 minute, 2 seconds ago\npeer: {k:h8_wg_public}\n  latest handshake:"
        " 3 hours ago",
        "en|Our server public key for the site-to-site tunnel is {k:h8_wg_public}; please send "
        "us yours and the subnet you want routed.",
    ],
    "pgp": [
        "en|My PGP key: fingerprint {k:h8_pgp_fpr}, key id {k:h8_pgp_keyid}. Please encrypt the "
        "contract to it.",
        'de|Signaturprüfung der Release-Datei ok: gpg: Good signature from "Brain Release '
        '<release@acme.example>", Primärschlüssel-Fingerabdruck: {k:h8_pgp_fpr}',
        "de|Für den Schlüsseltausch beim Treffen: meine Key-ID ist {k:h8_pgp_keyid}, der "
        "Fingerabdruck steht auf der Visitenkarte ({k:h8_pgp_fpr}).",
    ],
    "jwt_header_prose": [
        "en|Why every token from that issuer starts the same: the first segment, "
        "{k:h8_jwt_header}, is only the base64url-encoded header (alg and typ). Payload and "
        "signature are what differ.",
        "de|Hinweis für die Doku: Ein JWT besteht aus drei Teilen. Der erste, hier "
        "{k:h8_jwt_header}, ist nur der Base64url-kodierte Header mit Algorithmus und Typ — "
        "geheim ist daran nichts.",
        "en|Debugging the verifier: the kid in header {k:h8_jwt_header} was not in the JWKS we "
        "had cached (ETag {k:h8_etag}). Refreshing the JWKS fixed it.",
    ],
    "lockfiles": [
        'en|"node_modules/lodash": {\n  "version": "4.17.21",\n  "resolved": "https://registry.'
        'npmjs.org/lodash/-/lodash-4.17.21.tgz",\n  "integrity": "{k:h8_sri}"\n}',
        "de|go.sum-Konflikt nach dem Rebase: github.com/acme/brain-sdk v{k:h8_version} "
        "{k:h8_go_sum} — einfach `go mod tidy` laufen lassen.",
        'en|poetry.lock entry:\n[[package]]\nname = "httpx"\nversion = "{k:h8_version}"\nfiles'
        ' = [\n    {file = "httpx-0.27.0-py3-none-any.whl", hash = "sha256:{k:h8_sha256}"},\n]',
    ],
    "cloud_ids": [
        "en|Launched {k:h8_aws_resource} from {k:h8_aws_resource} in {k:h8_aws_resource}; "
        "instance role {k:h8_arn}.",
        "de|CloudTrail-Eintrag: requestID {k:h8_aws_request_id}, Quelle {k:h8_arn}, Ereignis "
        "PutObject.",
        "en|kubectl get pods\nNAME                         READY   STATUS\n{k:h8_pod}   1/1     "
        "Running\n{k:h8_pod}   0/1     CrashLoopBackOff\n{k:h8_pod}   1/1     Running",
        "de|Snapshot {k:h8_aws_resource} vom Volume {k:h8_aws_resource} ist fertig, Dauer 14 "
        "Minuten.",
    ],
    "sortable_ids": [
        "en|Event ids from the outbox: {k:h8_ulid}, {k:h8_ulid}, {k:h8_ulid} — all three were "
        "delivered twice.",
        "de|Segment-Nachricht {k:h8_ksuid}, Mongo-Dokument {k:h8_objectid}, Anhang {k:h8_nanoid}.",
        "en|messageId={k:h8_ksuid} correlationId={k:h8_uuid_hex} status=ACK",
    ],
    "certificates": [
        "de|Zertifikat für *.acme.example erneuert, Seriennummer {k:h8_cert_serial}, "
        "SHA-256-Fingerabdruck {k:h8_sha256}. Gültig bis März.",
        "en|openssl x509 -noout -serial -fingerprint\nserial={k:h8_cert_serial}\nSHA1 "
        "Fingerprint={k:h8_cert_serial}",
        'en|S3 returned ETag "{k:h8_etag}" for upload {k:h8_uuid}; multipart uploads carry a '
        "part-count suffix, so it is no plain MD5.",
    ],
    "network": [
        "de|Netzwerkinventar: Switch {k:h8_mac} an Port 12, Drucker {k:h8_mac}, Präfix "
        "{k:h8_ipv6}.",
        "en|Grafana dashboard {k:h8_nanoid}, panel 4: p95 at 310 ms since deploy {k:h8_short_sha}.",
        "en|The cache key was {k:h8_md5} and the cached value's digest {k:h8_sha256}; both "
        "changed after the schema bump.",
        "de|Lizenzdatei-Prüfsumme {k:h8_sha256} und Hardware-ID {k:h8_uuid_hex} an den "
        "Hersteller geschickt.",
    ],
}
