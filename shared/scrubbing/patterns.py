"""The secret patterns, as data: one table, one row per shape of secret.

A row: kind, regex (the secret is its group `v`..`v5`, else the whole match), a sample text
whose `⟦marked⟧` part the row must remove (templates, see `model`), lowercase needles (the row
runs only if one occurs in the lowered text; anchored rows try their regex only at them) and
a validator that confirms a candidate (default: the placeholder guard `checks.token_body`).

Order is priority: when two rows find the same span, the earlier row's kind is reported.
Private keys, provider tokens and URLs come before the password and generic context rules.
The kinds are short English identifiers; the tests assert every row's sample.
"""

from __future__ import annotations

import re

from shared.scrubbing import bare_checks, checks, code_checks, prose_checks
from shared.scrubbing import context as c
from shared.scrubbing import record_checks as r
from shared.scrubbing import tool_checks as t
from shared.scrubbing.model import SecretPattern, row

__all__ = ["PATTERNS", "SecretPattern"]

_I = re.IGNORECASE
_END = r"(?![A-Za-z0-9_-])"
_PEM = r"-----BEGIN[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----"
_PEM_END = r"-----END[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----"
_NL = r"(?:\s|\\[nr])"
_KV = r"[\"']?(?:\s*\([^()\n]{0,40}\))?\s*(?:[:=]|=>|\s(?:ist|is|lautet)\s)\s*[\"']?"
_HEX_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_PW = c.PW_ANCHORS
_WH = r"[\w-]"
_WD = r"[\w.]"
_AN = r"[A-Za-z0-9]"
_B64_END = r"(?![A-Za-z0-9/+=_\-~]|\.[A-Za-z0-9])"


def _nb(n: int, cls: str = r"\w") -> str:
    """Placed after an n-character prefix: the prefix does not continue a word (`cls`).

    A lookbehind written after the literal prefix keeps the regex engine's fast literal scan;
    the same lookbehind in front of the prefix makes every position of the text a try.
    """
    return rf"(?<!{cls}[\s\S]{{{n}}})"


_GEN = c.SECRET_ANCHORS
_QUERY_KEYS = (
    "token", "access_token", "auth_token", "api_key", "apikey", "key", "secret", "client_secret",
    "x-amz-signature", "x-goog-signature", "signature",
)  # fmt: skip

# fmt: off
PATTERNS: tuple[SecretPattern, ...] = (
    # --- private keys ------------------------------------------------------------------------
    row("private_key", rf"{_PEM}(?:(?!-----)[\s\S]){{0,20000}}{_PEM_END}",
        "Key:\n⟦-----BEGIN RSA PRIVATE KEY-----\nMIIE{b64}\n{b64}==\n"
        "-----END RSA PRIVATE KEY-----⟧\nDanke", ("private key",), check=r.pem_block),
    row("private_key",
        rf"{_PEM}(?:{_NL}{{0,8}}+(?:[A-Za-z0-9+/=]{{16,4096}}+|(?:Proc-Type|DEK-Info|Version"
        rf"|Comment|Hash): [^\n\\]{{0,200}}+)){{1,400}}+"
        rf"(?:{_NL}{{1,8}}+[A-Za-z0-9+/]{{1,15}}+={{0,2}}(?=[\"'\s\\]|$))?",
        'JSON: {"private_key": "⟦-----BEGIN PRIVATE KEY-----\\nMIIEv{b64}\\n{b60}⟧" (gekürzt)',
        ("private key",), check=None),
    row("private_key",
        rf"Private-Lines:\s{{0,8}}+\d{{1,4}}+{_NL}{{1,8}}+"
        rf"(?P<v>[A-Za-z0-9+/=]{{16,4096}}+(?:{_NL}{{1,8}}+[A-Za-z0-9+/=]{{16,4096}}+){{0,400}}+)",
        "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\n⟦AAAAI{b43}⟧\nPrivate-MAC: 00",
        ("private-lines",), check=None),
    row("age_secret_key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
        "age key for backups: ⟦AGE-SECRET-KEY-1{c58}⟧", ("age-secret-key-1",)),
    row("wireguard_key", r"(?i:PrivateKey)\s*=\s*(?P<v>[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=)",
        "[Interface]\nPrivateKey = ⟦{b42}A=⟧\nAddress = 10.0.0.2/32", ("privatekey",),
        anchored=True),
    # --- cloud and provider tokens -----------------------------------------------------------
    row("aws_access_key",
        r"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)" + _nb(4, "[A-Za-z0-9]")
        + r"[A-Z0-9]{16}" + _END, "AWS-Zugang für den Export: ⟦AKIA{u16}⟧ (Region eu-central-1)",
        ("akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "apka")),
    row("aws_secret_key",
        r"(?i:aws[_\- ]?secret[_\- ]?(?:access[_\- ]?)?key|secret[_\- ]?access[_\- ]?key"
        rf"|aws[_\- ]?secret){_KV}(?P<v>[A-Za-z0-9/+]{{40}})(?![A-Za-z0-9/+=])",
        "aws_secret_access_key = ⟦{b40}⟧", ("aws", "secret"), anchored=True),
    row("aws_secret_key",
        r"(?:AKIA|ASIA)[A-Z0-9]{16}[\s,;:/|\"']{1,5}+(?:[A-Za-z][\w-]{0,20}+[\s:=/\"']{1,5}+){0,3}"
        r"(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        "Keys: AKIA{u16} / ⟦{b40}⟧", ("akia", "asia"), check=checks.generic_value),
    row("aws_session_token",
        r"(?:FwoGZXIvYXdz|IQoJb3JpZ2lu)" + _nb(12, "[A-Za-z0-9/+]") + r"[A-Za-z0-9/+=]{60,}",
        "AWS_SESSION_TOKEN=⟦IQoJb3JpZ2luX2Vj{b180}⟧", ("fwogzxivyxdz", "iqojb3jpz2lu")),
    row("alibaba_access_key", rf"LTAI{_nb(4, _AN)}[A-Za-z0-9]{{12,20}}{_END}",
        "Alibaba AccessKey ID ⟦LTAI{a20}⟧", ("ltai",)),
    row("tencent_secret_id", rf"AKID{_nb(4, _AN)}[A-Za-z0-9]{{32}}{_END}",
        "Tencent SecretId ⟦AKID{a32}⟧", ("akid",)),
    row("gcp_hmac_key", rf"GOOG1{_nb(5, _AN)}[A-Z0-9]{{50,60}}{_END}",
        "HMAC access id ⟦GOOG1E{u55}⟧", ("goog1",)),
    row("deepl_key", rf"(?<![\w-]){_HEX_UUID}:fx(?![\w])",
        "DEEPL_AUTH_KEY=⟦{h8}-{h4}-{h4}-{h4}-{h12}:fx⟧", (":fx",)),
    row("google_api_key", rf"AIza{_nb(4, _WH)}[0-9A-Za-z_\-]{{35}}{_END}",
        "Maps key ⟦AIza{w35}⟧ im Frontend", ("aiza",)),
    row("google_oauth_secret", rf"GOCSPX-{_nb(7, _WH)}[A-Za-z0-9_\-]{{28}}{_END}",
        "client secret ⟦GOCSPX-{w28}⟧", ("gocspx-",)),
    row("google_oauth_token", rf"ya29\.{_nb(5, _WH)}[0-9A-Za-z_\-]{{30,}}{_END}",
        "access token ⟦ya29.{w120}⟧", ("ya29.",)),
    row("azure_connection_string",
        r"(?i:AccountKey|SharedAccessKey|SharedSecret|PrimaryKey|SecondaryKey)\s*=\s*"
        r"(?P<v>[A-Za-z0-9+/]{20,}={0,2})",
        "DefaultEndpointsProtocol=https;AccountName=brainstore;AccountKey=⟦{b86}==⟧;"
        "EndpointSuffix=core.windows.net",
        ("accountkey", "sharedaccesskey", "sharedsecret", "primarykey", "secondarykey"),
        anchored=True),
    row("azure_sas_token", r"sig=(?<!\w....)(?P<v>[A-Za-z0-9%+/]{30,}(?:%3D|=){0,2})",
        "SAS: https://x.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig=⟦{a43}%3D⟧", ("sig=",)),
    row("azure_client_secret",
        r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.\-]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}(?![A-Za-z0-9_~.-])",
        "Entra App Secret: ⟦{a3}8Q~{a34}⟧", ("q~",), window=(5, 40)),
    row("github_pat",
        r"g(?<!\wg)(?:hp_[A-Za-z0-9]{36}|ithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})" + _END,
        "GitHub PAT: ⟦ghp_{a36}⟧", ("ghp_", "github_pat_")),
    row("github_oauth", rf"gho_{_nb(4)}[A-Za-z0-9]{{36}}{_END}",
        "oauth ⟦gho_{a36}⟧", ("gho_",)),
    row("github_app_token", rf"gh[us]_{_nb(4)}[A-Za-z0-9]{{36}}{_END}",
        "https://x-access-token:⟦ghs_{a36}⟧@github.com/org/repo.git", ("ghs_", "ghu_")),
    row("github_refresh_token", rf"ghr_{_nb(4)}[A-Za-z0-9]{{36,76}}{_END}",
        "refresh ⟦ghr_{a76}⟧", ("ghr_",)),
    row("gitlab_token",
        r"(?:gl(?<![\w-]gl)(?:pat|dt|rt|ptt|soat|cbt|imt|ft|oas)-[A-Za-z0-9_\-.]{20,}"
        r"|GR1348941[A-Za-z0-9_\-]{20})" + _END, "GitLab ⟦glpat-{w20}⟧",
        ("glpat-", "gldt-", "glrt-", "glptt-", "glsoat-", "glcbt-", "glimt-", "glft-", "gloas-",
         "gr1348941")),
    row("slack_token", rf"x(?<![\w-]x)(?:ox[abposre](?:\.xox[a-z])?|app)-[A-Za-z0-9-]{{10,}}{_END}",
        "Bot: ⟦xoxb-{d12}-{d13}-{a24}⟧", ("xox", "xapp-"), check=code_checks.slack_value),
    row("slack_webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/(?P<v>[A-Za-z0-9/_\-]{20,})",
        "Webhook https://hooks.slack.com/services/⟦T{u8}/B{u10}/{a24}⟧", ("hooks.slack.com",)),
    row("discord_webhook",
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/"
        r"(?P<v>\d{17,20}/[A-Za-z0-9_\-]{60,68})",
        "https://discord.com/api/webhooks/⟦{d18}/{w68}⟧", ("discord",)),
    row("teams_webhook",
        r"\.webhook\.office\.com/webhookb2/[^\s/]{1,200}+/IncomingWebhook/(?P<v>[0-9a-f]{32})",
        "https://acme.webhook.office.com/webhookb2/{h8}@{h8}/IncomingWebhook/⟦{h32}⟧/{h8}",
        ("incomingwebhook",)),
    row("discord_token",
        r"[MNO](?<![\w-][MNO])[A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}"
        + _END,
        "Bot-Token ⟦{discord}.{w6}.{w38}⟧", check=checks.discord_value, min_run=59),
    # The Bot API's URL carries the token right after `bot` (`api.telegram.org/bot<token>/`).
    row("telegram_bot_token",
        rf"(?:(?<![\w:])|(?<=/bot))\d{{8,10}}:AA[A-Za-z0-9_\-]{{33}}{_END}",
        "Telegram bot: ⟦{d10}:AA{w33}⟧", (":aa",), window=(11, 40)),
    row("stripe_live", rf"[sr]k_(?:live|prod)_{_nb(8)}[A-Za-z0-9]{{20,247}}{_END}",
        "Stripe ⟦sk_live_{a24}⟧", ("_live_", "_prod_")),
    # Vendors' documented token forms (as gitleaks' rules describe them).
    row("facebook_token", rf"EAA{_nb(3, _AN)}[A-Za-z0-9]{{100,400}}{_END}",
        "Graph API: ⟦EAAM{a120}⟧", ("eaa",), min_run=103),
    row("facebook_token", r"(?<![\w|])\d{15,16}\|[A-Za-z0-9_\-]{27,40}(?![\w-])",
        "app token ⟦1308742762612587|{w27}⟧", ("|",), min_run=43),
    row("flyio_token",
        rf"(?:FlyV1 )?fm[12][ar]?_{_nb(4, _AN)}[A-Za-z0-9+/]{{100,}}={{0,3}}"
        r"(?:,fm[12][ar]?_[A-Za-z0-9+/]{20,}={0,3}){0,4}"
        rf"|fo1_{_nb(4, _AN)}[\w-]{{43}}{_END}",
        "FLY_API_TOKEN=⟦fm2_{b120}⟧", ("fm1", "fm2", "fo1_")),
    row("sourcegraph_token",
        rf"sgp_{_nb(4, _AN)}(?:[a-fA-F0-9]{{16}}_|local_)?[a-fA-F0-9]{{40}}{_END}",
        "Sourcegraph ⟦sgp_{h16}_{h40}⟧", ("sgp_",)),
    row("intra42_secret", rf"s-s4t2(?:ud|af)-{_nb(9, _AN)}[a-f0-9]{{64}}{_END}",
        "42 API: ⟦s-s4t2ud-{h64}⟧", ("s-s4t2",)),
    row("onepassword_secret_key",
        rf"A3-{_nb(3, _AN)}[A-Z0-9]{{6}}-(?:[A-Z0-9]{{11}}|[A-Z0-9]{{6}}-[A-Z0-9]{{5}})"
        rf"-[A-Z0-9]{{5}}-[A-Z0-9]{{5}}-[A-Z0-9]{{5}}{_END}",
        "1Password Secret Key ⟦A3-{u6}-{u11}-{u5}-{u5}-{u5}⟧", ("a3-",)),
    row("stripe_test", rf"[sr]k_test_{_nb(8)}[A-Za-z0-9]{{20,247}}{_END}",
        "Stripe test ⟦sk_test_{a99}⟧", ("_test_",)),
    row("stripe_webhook_secret", rf"whsec_{_nb(6)}[A-Za-z0-9+/=]{{24,}}{_END}",
        "endpoint secret ⟦whsec_{a32}⟧", ("whsec_",)),
    row("anthropic_key",
        rf"sk-ant-{_nb(7, _WH)}(?:api|admin|oat|ort|sid)\d{{2}}-[A-Za-z0-9_\-]{{80,120}}{_END}",
        "ANTHROPIC_API_KEY=⟦sk-ant-api03-{w93}AA⟧", ("sk-ant-",)),
    row("openai_key",
        rf"sk-{_nb(3, _WH)}(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{{20,}}{_END}",
        "OpenAI: ⟦sk-proj-{w156}⟧", ("sk-",), check=checks.token_random),
    row("npm_token", rf"npm_{_nb(4)}[A-Za-z0-9]{{36}}{_END}",
        "//registry.npmjs.org/:_authToken=⟦npm_{a36}⟧", ("npm_",)),
    row("pypi_token", rf"pypi-AgE{_nb(8, _WH)}[A-Za-z0-9_\-]{{50,}}{_END}",
        "PyPI: ⟦pypi-AgEIcHlwaS5vcmc{w120}⟧", ("pypi-age",)),
    row("twilio_key", rf"SK{_nb(2, _AN)}[0-9a-fA-F]{{32}}{_END}",
        "Twilio API key ⟦SK{h32}⟧", ("sk",)),
    row("twilio_key",
        rf"(?i:twilio)[^\n]{{0,40}}?(?i:auth[_\- ]?token|token|secret){_KV}"
        r"(?P<v>[0-9a-f]{32})(?![0-9a-f])", "TWILIO_AUTH_TOKEN=⟦{h32}⟧", ("twilio",),
        anchored=True),
    # The auth token beside its Account SID in one call or line (`Client("AC…", "<hex32>")`).
    row("twilio_key",
        r"AC(?<![\w]AC)[0-9a-f]{32}[\"']?[ \t]{0,4}+[,:;/][ \t]{0,4}+[\"']?(?P<v>[0-9a-f]{32})"
        r"(?![0-9a-zA-Z])",
        "client = Client(\"AC{h32}\", \"⟦{h32}⟧\")", ("ac",)),
    row("sendgrid_key", rf"SG\.{_nb(3, _WD)}[A-Za-z0-9_\-]{{22}}\.[A-Za-z0-9_\-]{{43}}{_END}",
        "SendGrid ⟦SG.{w22}.{w43}⟧", ("sg.",)),
    row("mailgun_key", r"key-(?<![\w-]key-)[0-9a-f]{32}(?![0-9a-zA-Z])",
        "Mailgun ⟦key-{h32}⟧", ("key-",)),
    row("mailgun_key",
        r"[0-9a-f](?<![0-9a-f-][0-9a-f])[0-9a-f]{31}-[0-9a-f]{8}-[0-9a-f]{8}(?![0-9a-f-])",
        "Mailgun ⟦{h32}-{h8}-{h8}⟧", ("-",), min_run=50),
    row("mailchimp_key", r"(?<![0-9a-f])[0-9a-f]{32}-us\d{1,2}(?![\w])",
        "Mailchimp ⟦{h32}-us21⟧", ("-us",), window=(33, 8)),
    row("shopify_token", r"shp(?<!\wshp)(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![\w])",
        "Shopify Admin ⟦shpat_{h32}⟧", ("shpat_", "shpca_", "shppa_", "shpss_")),
    row("vault_token", rf"hv[sbr]\.{_nb(4, _WD)}[A-Za-z0-9_\-]{{24,}}{_END}",
        "VAULT_TOKEN=⟦hvs.{w90}⟧", ("hvs.", "hvb.", "hvr.")),
    row("vault_token", r"s\.(?<![\w.]s\.)[A-Za-z0-9]{24}(?![\w.])",
        "root token ⟦s.{a24}⟧", ("s.",), check=checks.generic_value),
    row("docker_auth", r"\"auth\"\s*:\s*\"(?P<v>[A-Za-z0-9+/]{8,}={0,2})\"",
        '{"auths": {"ghcr.io": {"auth": "⟦{basic}⟧"}}}', ('"auth"',),
        check=checks.user_colon_password_b64),
    row("docker_pat", rf"dckr_{_nb(5)}(?:pat|oat)_[A-Za-z0-9_\-]{{27,}}{_END}",
        "docker login -u ci --password-stdin <<< ⟦dckr_pat_{w27}⟧", ("dckr_",)),
    row("hf_token", rf"hf_{_nb(3)}[A-Za-z0-9]{{30,40}}{_END}", "HF_TOKEN=⟦hf_{L34}⟧", ("hf_",)),
    row("digitalocean_token", r"do[opr]_v1_(?<!\w.{7})[a-f0-9]{64}(?![\w])",
        "DO ⟦dop_v1_{h64}⟧", ("_v1_",)),
    row("linear_key", rf"lin_{_nb(4)}(?:api|oauth)_[A-Za-z0-9]{{40}}{_END}",
        "Linear ⟦lin_api_{a40}⟧", ("lin_",)),
    row("atlassian_token", rf"AT[AC]TT3{_nb(6, _WH)}[A-Za-z0-9_\-=]{{150,250}}{_END}",
        "Jira API token ⟦ATATT3xFfGF0{w170}=0A1B2C3D⟧", ("atatt3", "atctt3")),
    row("sentry_dsn",
        r"https?://(?P<v>[0-9a-f]{32}(?::[0-9a-f]{32})?)@[\w.\-]*sentry[\w.\-]*/\d+",
        "SENTRY_DSN=https://⟦{h32}⟧@o4504.ingest.sentry.io/45091", ("sentry",)),
    row("sentry_token", rf"sntr(?:ys|yu)_{_nb(7)}[A-Za-z0-9+/=_\-]{{40,}}{_END}",
        "Sentry ⟦sntrys_{b120}⟧", ("sntry",)),
    row("heroku_key", rf"HRKU-{_nb(5, _WH)}[A-Za-z0-9_\-]{{20,}}{_END}",
        "Heroku ⟦HRKU-AA{w58}⟧", ("hrku-",)),
    row("heroku_key",
        rf"(?i:heroku)[\w\s.\-]{{0,30}}?(?i:api[_\-. ]?key|token|key){_KV}(?P<v>{_HEX_UUID})",
        "HEROKU_API_KEY=⟦{h8}-{h4}-{h4}-{h4}-{h12}⟧", ("heroku",), anchored=True),
    row("databricks_token", r"dapi(?<!\wdapi)[a-f0-9]{32}(?:-\d)?(?![\w])",
        "Databricks ⟦dapi{h32}⟧", ("dapi",)),
    row("firebase", rf"AAAA{_nb(4, _WH)}[A-Za-z0-9_\-]{{7}}:APA91b[A-Za-z0-9_\-]{{100,}}{_END}",
        "FCM server key ⟦AAAA{w7}:APA91b{w134}⟧", ("apa91b",)),
    row("datadog_key",
        r"(?i:DD_API_KEY|DD_APP_KEY|DD_APPLICATION_KEY|DD-API-KEY|DD-APPLICATION-KEY"
        rf"|datadog[\w\s.\-]{{0,20}}?(?:api|app|application)[_\-. ]?key){_KV}"
        r"(?P<v>[a-f0-9]{40}|[a-f0-9]{32})(?![a-f0-9])",
        "DD_API_KEY=⟦{h32}⟧", ("dd_", "dd-", "datadog"), anchored=True),
    row("new_relic_key",
        r"(?:NR(?<![\w-]NR)(?:AK-[A-Z0-9]{27}|JS-[a-f0-9]{19}|II-[A-Za-z0-9_\-]{32})"
        r"|[a-f0-9](?<![\w-][a-f0-9])[a-f0-9]{35}NRAL)" + _END,
        "New Relic ⟦NRAK-{u27}⟧", ("nrak-", "nrjs-", "nrii-", "nral")),
    row("square_token",
        r"(?:sq0(?<![\w-]sq0)(?:atp|csp)-[0-9A-Za-z_\-]{22,43}|EAAA(?<![\w-]EAAA)"
        r"[A-Za-z0-9_\-+=]{60})" + _END,
        "Square ⟦sq0csp-{w43}⟧", ("sq0", "eaaa")),
    row("postman_key", r"PMAK-(?<![\w-]PMAK-)[a-f0-9]{24}-[a-f0-9]{34}(?![\w])",
        "Postman ⟦PMAK-{h24}-{h34}⟧", ("pmak-",)),
    row("grafana_token",
        r"gl(?<!\wgl)(?:sa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|c_[A-Za-z0-9+/]{32,}={0,2})" + _END,
        "Grafana ⟦glsa_{a32}_{h8}⟧", ("glsa_", "glc_")),
    row("terraform_token",
        rf"(?<![\w])[A-Za-z0-9]{{14}}\.atlasv1\.[A-Za-z0-9_\-=]{{60,70}}{_END}",
        "TFC ⟦{a14}.atlasv1.{w67}⟧", (".atlasv1.",), window=(15, 80)),
    row("pulumi_token", r"pul-(?<![\w-]pul-)[a-f0-9]{40}(?![\w])", "Pulumi ⟦pul-{h40}⟧", ("pul-",)),
    row("supabase_key",
        rf"sb(?<!\wsb)(?:p_[a-f0-9]{{40}}|_secret_[A-Za-z0-9_\-]{{20,}}){_END}",
        "Supabase ⟦sbp_{h40}⟧", ("sbp_", "sb_secret_")),
    row("replicate_token", rf"r8_{_nb(3)}[A-Za-z0-9]{{37}}{_END}",
        "Replicate ⟦r8_{a37}⟧", ("r8_",)),
    row("groq_key", rf"gsk_{_nb(4)}[A-Za-z0-9]{{48,56}}{_END}", "Groq ⟦gsk_{a52}⟧", ("gsk_",)),
    row("notion_token",
        rf"(?:ntn_{_nb(4)}[0-9]{{11}}[A-Za-z0-9]{{35}}|secret_{_nb(7)}[A-Za-z0-9]{{43}}){_END}",
        "Notion ⟦ntn_{d11}{a35}⟧", ("ntn_", "secret_")),
    row("mapbox_token", rf"sk\.eyJ{_nb(6)}[A-Za-z0-9_\-]{{20,}}\.[A-Za-z0-9_\-]{{20,}}{_END}",
        "Mapbox ⟦sk.eyJ1Ijoi{w40}.{w22}⟧", ("sk.eyj",)),
    row("doppler_token",
        r"dp\.(?<!\wdp\.)(?:pt|st|ct|sa|scim|audit)\.(?:[a-z0-9_-]{1,20}\.)?[A-Za-z0-9]{40,44}"
        + _END, "Doppler ⟦dp.st.{a43}⟧", ("dp.",)),
    row("onepassword_token", rf"ops_eyJ{_nb(7)}[A-Za-z0-9_\-+/=]{{100,}}{_END}",
        "OP_SERVICE_ACCOUNT_TOKEN=⟦ops_eyJ{w200}⟧", ("ops_eyj",)),
    row("okta_token", rf"SSWS{_nb(4)}\s+(?P<v>[A-Za-z0-9_\-]{{40,42}}){_END}",
        "Authorization: SSWS ⟦{w42}⟧", ("ssws",)),
    row("totp_secret",
        r"otpauth://(?:totp|hotp)/[^\s?/]{0,200}+\?(?:[^\s&?/]{0,200}+&){0,16}?"
        r"secret=(?P<v>[A-Za-z2-7]{16,256}+)",
        "otpauth://totp/Portal:max?secret=⟦{z32}⟧&issuer=Portal", ("otpauth://",)),
    row("jwt",
        rf"eyJ{_nb(3, _WH)}[A-Za-z0-9_\-]{{8,}}\.[A-Za-z0-9_\-]{{8,}}(?:\.[A-Za-z0-9_\-]*){{1,3}}"
        + _END,
        "Session: ⟦{jwt}⟧", ("eyj",), check=checks.jwt_value),
    # --- credentials in URLs, connection strings, headers, command lines; cards -------------
    row("url_credentials",
        r"(?<![\w+.\-])[A-Za-z][A-Za-z0-9+.\-]{1,30}://[^\s:/?#\[\]\"'<>]*:(?P<v>[^\s/\"'<>]+)@"
        r"(?=[A-Za-z0-9\[\]_~%.\-]+(?:[:/?#\s\"'<>,;)]|$))",
        "DATABASE_URL=postgres://app:⟦Ab$!*@9xQ{a8}⟧@db.internal:5432/brain", ("://",),
        check=checks.url_password, window=(32, 320)),
    row("url_credentials",
        r"(?<=[?&;])(?P<key>password|passwd|pwd|pass|passwort|kennwort)=(?P<v>[^&\s#;\"'<>]+)",
        "jdbc:mysql://db:3306/app?user=app&password=⟦Zz9!{a12}⟧&ssl=true",
        ("pass", "pwd", "kennwort"), check=checks.password_value, flags=_I, anchored=True),
    row("url_credentials", r"(?:^|;)\s*(?:Password|Pwd)\s*=\s*(?P<v>[^;\s\"']+)",
        "Server=tcp:sql.example.net,1433;User ID=sa;Password=⟦Q7!{a14}⟧;Encrypt=True",
        ("password", "pwd"), check=checks.password_value, flags=_I, window=(8, 200)),
    row("url_credentials",
        r"(?<=[?&])(?P<key>token|access_token|auth_token|api_key|apikey|key|secret|client_secret"
        r"|x-amz-signature|x-goog-signature|signature)=(?P<v>[^&\s#\"'<>]+)",
        "https://api.example.com/v1/export?format=csv&api_key=⟦{a32}⟧", _QUERY_KEYS,
        check=checks.generic_value, flags=_I, anchored=True),
    row("bearer_token",
        r"(?i:\bbearer(?:[- ]?token)?(?:\s*[:=]|\s+(?:is|ist|lautet))?)\s+"
        r"(?P<v>[A-Za-z0-9\-._~+/]{16,}=*)",
        "Authorization: Bearer ⟦{w40}⟧", ("bearer",), check=checks.generic_value, anchored=True),
    row("bearer_token",
        r"(?i:authorization)\s*[:=]\s*[\"']?(?i:token|apikey|api-key)\s+"
        r"(?P<v>[A-Za-z0-9\-._~+/:=]{16,})",
        "Authorization: Token ⟦{a40}⟧", ("authorization",), check=checks.generic_value,
        anchored=True),
    row("basic_auth", r"(?i:\bbasic)\s+(?P<v>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])",
        "Authorization: Basic ⟦{basic}⟧", ("basic",), check=checks.user_colon_password_b64,
        anchored=True),
    row("basic_auth",
        r"-(?<!\S-)(?:u|-user)\s{0,8}+[\"']?[^\s:\"']{1,200}+:(?P<v>[^\s\"']{1,200}+)",
        "curl -u admin:⟦Hx7!{a10}⟧ https://api.example.com", ("-u", "--user"),
        check=checks.url_password),
    row("credit_card",
        r"\d(?<![\w.,\-/]\d)(?<!\d[ -]\d)(?:\d{3}([ -]?)\d{4}\1\d{4}\1\d{4}"
        r"|\d{3}([ -]?)\d{6}\2\d{4,5}|\d{12,18})(?!\d)(?![ -]\d)",
        "Firmenkarte: ⟦{card}⟧, gültig bis 09/27", check=checks.credit_card),
    row("session_cookie", c.SESSION_COOKIE, "Cookie: sessionid=⟦{d4}{l28}⟧; theme=dark",
        c.SESSION_ANCHORS, check=code_checks.session_value, window=(24, 540)),
    row("password", c.PGPASS_LINE, "~/.pgpass: db01.internal:5432:crm:app:⟦Zq8_{a14}⟧",
        check=code_checks.field_password, min_run=16),
    row("password", c.ORACLE_LOGIN, "sqlplus app/⟦Q7r{a12}⟧@db01:1521/ORCL", c.ORACLE_ANCHORS,
        check=checks.password_value, flags=_I, anchored=True),
    row("password", c.PW_TOOL, "mysql -u root -p'⟦p4ss!{a8}⟧' -h db01",
        ("mysql", "mariadb", "redis-cli", "sshpass", "keydb-cli", "7z", "rar", "zip"),
        check=t.db_tool_password),
    row("password", t.TOOL_FLAG, "sqlcmd -S db01 -U sa -P ⟦Hq8x{a8}⟧ -Q 'select 1'",
        t.TOOL_FLAG_ANCHORS, check=t.tool_flag_password, anchored=True),
    row("password", t.LDAP_BIND, "LDAP-Bind: cn=svc,ou=services,dc=acme,dc=local mit ⟦Tanne#{d2}x⟧",
        t.LDAP_BIND_ANCHORS, check=t.set_password, anchored=True),
    row("password", t.CREDENTIAL_CALL, "smtp.login('alerts@example.com', '⟦Hq8!{a8}⟧')",
        t.CREDENTIAL_CALL_ANCHORS, check=t.call_password, flags=_I, window=(0, 300)),
    row("password", t.FORM_FILL, "await page.fill('#password', '⟦Hq8!{a8}⟧');",
        (".fill(", ".type("), check=t.set_password, anchored=True),
    row("password", t.DIRECTIVE, "redis.conf:\nbind 127.0.0.1\nrequirepass ⟦{a24}⟧\n",
        t.DIRECTIVE_ANCHORS, check=t.directive_password, window=(24, 240)),
    row("password", c.PW_COMMAND, "htpasswd -b /etc/nginx/.htpasswd admin ⟦Hq8x{a8}⟧",
        c.PW_COMMAND_ANCHORS, check=checks.password_value, anchored=True),
    row("password", c.PW_ECHO_STDIN, "echo '⟦Hq8x{a8}⟧' | docker login -u ci --password-stdin",
        ("--password-stdin",), check=checks.password_value),
    row("password", c.WIFI_QR, "WIFI:T:WPA;S:Buero;P:⟦Falke#{d4}⟧;;", ("wifi:",),
        check=checks.password_value),
    row("password", c.HTTP_AUTH_TUPLE, "requests.get(url, auth=('admin', '⟦Hq8#{a8}⟧'))",
        ("auth",), check=checks.password_value),
    row("recovery_code", c.BITLOCKER_KEY,
        "BitLocker-Wiederherstellungsschlüssel: ⟦{d6}-{d6}-{d6}-{d6}-{d6}-{d6}-{d6}-{d6}⟧",
        ("bitlocker", "recovery", "wiederherstell"), check=None, min_run=55),
    row("password", c.SMB_USER, "smbclient //nas/share -U backup%⟦Kx9#mP2q⟧",
        ("-u",), check=checks.password_value),
    row("password", c.ATTR_SETTING, '<add key="SmtpPassword" value="⟦Hq8x{a8}⟧" />',
        ("value",), check=code_checks.attr_secret, flags=_I, window=(110, 220)),
    row("password", c.PW_CLI, "mysqladmin --password=⟦Tr0ub4dor&3⟧ status", ("--",),
        check=checks.password_value, flags=_I),
    row("password", c.PW_XML, "<dbPassword>⟦P4ss!{a8}⟧</dbPassword>",
        ("pass", "kennwort"), check=code_checks.tag_password, flags=_I),
    # --- records whose syntax names the secret (`record_checks`) ---
    row("password", r.SQL_IDENTIFIED, "CREATE USER 'app'@'%' IDENTIFIED BY '⟦Hq8#{a10}⟧';",
        ("identified",), check=r.sql_password, flags=_I),
    row("password", r.SQL_SETTING, "INSERT INTO settings VALUES ('smtp_password', '⟦Pine{a6}!⟧');",
        ("pass", "secret", "token", "key", "kennwort"), check=r.sql_password, flags=_I),
    row("private_key", r.PEM_BASE64,
        "client-key-data: ⟦LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo{b40}⟧",
        ("ls0tls1crudjti",), check=r.pem_base64),
    row("private_key", r.OPENVPN_STATIC,
        "-----BEGIN OpenVPN Static key V1-----\n⟦{h32}\n{h32}⟧\n-----END OpenVPN Static key"
        " V1-----",
        ("openvpn static key",), check=r.openvpn_static),
    row("credit_card", r.CARD_CHECK, "Karte 4111 1111 1111 1111, gültig bis 09/27, CVC ⟦{d3}⟧",
        ("cvc", "cvv", "cid", "prüfnummer", "prüfziffer", "sicherheitscode", "security code",
         "verification code", "card code"),
        check=r.card_check, flags=_I),
    row("password", r.DECODED_LINE,
        "$ kubectl get secret db -o jsonpath='{.data.password}' | base64 -d\n⟦Hq8#{a12}⟧",
        ("base64",), check=r.decoded_line),
    row("generic_secret", r.LOGIN_HEX, "Der Job ruft die API mit deploy:⟦11{h32}⟧ auf.",
        check=r.login_hex),
    # --- context rules: passwords, PINs, phrases, generic secrets (anchored at their keys) ---
    row("password", c.PW_STRONG, "Das WLAN-Passwort lautet ⟦Sommer2024!⟧.", _PW,
        check=checks.password_value, flags=_I, anchored=True),
    row("password", c.PW_CODE, "my_password_super_secure = \"⟦Kx9#mP2q{a6}⟧\"", ("pass", "pwd"),
        check=checks.password_value, flags=_I, anchored=True),
    row("password", c.PW_WEAK, "the password is ⟦hunter2024⟧, don't share it", _PW,
        check=checks.password_like, flags=_I, anchored=True),
    row("password", c.PW_CHANGED, "Passwort geändert auf ⟦Winter#2025⟧", _PW,
        check=checks.password_like, flags=_I, anchored=True),
    row("password", c.PW_AUF, "Das Passwort wurde auf ⟦Start123!⟧ zurückgesetzt.", _PW,
        check=checks.password_value, flags=_I, anchored=True),
    row("password", c.PW_BARE, "Portal-Zugang max, Passwort ⟦Kx9#mP2q⟧, Rückfragen an Lea.",
        _PW, check=checks.password_bare, flags=_I, anchored=True),
    row("password", c.PW_LOOSE, "Passwort steht im Ticket: ⟦Kx9#mP2q⟧", _PW,
        check=prose_checks.loose_password, flags=_I, anchored=True),
    row("password", c.PW_WITH, "Login mit dem Passwort ⟦Kx9#mP2q⟧ hat geklappt.", _PW,
        check=checks.password_like, flags=_I, window=(48, 240)),
    row("password", prose_checks.REFERENT,
        "Das Passwort wurde rotiert. Die neue lautet ⟦Kx9#mP2q{a6}⟧, bitte nicht weitergeben.",
        prose_checks.REFERENT_ANCHORS, check=prose_checks.referent_password, flags=_I,
        anchored=True),
    row("password", prose_checks.ANSWER,
        "Hast du das neue Kennwort für den Drucker?\n\nJa: ⟦Dachs{d3}*SONNE⟧\nGruß", ("?",),
        check=prose_checks.answered_secret, flags=_I, anchored=True),
    row("password", prose_checks.APPOSITION,
        "und das Kennwort hat mir Frau Aydin am Telefon diktiert – ⟦Falke*{d2}hafen⟧",
        prose_checks.STRONG_ANCHORS, check=prose_checks.apposed_password, flags=_I,
        anchored=True),
    row("password", prose_checks.COLON_TAIL,
        "Das Kennwort wurde neu gesetzt. Falls jemand fragt:\n\n    ⟦bl@ub{d2}r{d4}⟧\n",
        prose_checks.STRONG_ANCHORS, check=prose_checks.colon_tail_password, window=(0, 300)),
    row("password", c.PW_INVERTED, "⟦Hamburg#77⟧ ist das neue Passwort", ("pass", "kennwort"),
        check=checks.password_like, flags=_I, window=(120, 12)),
    row("password", c.CREDENTIAL_PAIR, "Zugangsdaten: admin / ⟦Sommer2024!⟧", c.PAIR_ANCHORS,
        check=checks.password_bare, flags=_I, anchored=True),
    row("password", c.ACCOUNT_SLASH_VALUE, "Für Jira: jana.k / ⟦Kx9#mP2qL⟧ bis SSO geht",
        (" / ",), check=code_checks.slash_password, window=(44, 70)),
    row("password", c.TABLE_CELL,
        "| Dienst | Login | Passwort |\n|---|---|---|\n| NAS | admin | ⟦Kx9#mP2q⟧ |",
        c.TABLE_ANCHORS, check=code_checks.table_secret, flags=_I),
    row("password", c.WIFI_KEY, "Gast-WLAN: SSID Buero-Gast, key ⟦Falke#2291⟧",
        ("key", "schl", "psk"), check=checks.wifi_value, flags=_I, anchored=True),
    row("password", c.PASSPHRASE, "Passphrase: ⟦correct horse battery staple⟧.",
        c.PASSPHRASE_ANCHORS, check=checks.passphrase_value, flags=_I, anchored=True),
    row("password", c.SPACED_PHRASE, "Der WLAN-Schlüssel lautet ⟦Nudel blue Ampel Wolke⟧",
        ("wlan", "wifi", "wi-fi", "wpa", "netzwerk", "passphrase", "passsatz", "merksatz",
         "kennsatz", "passw", "kennwort"),
        check=code_checks.spaced_phrase, flags=_I, anchored=True),
    row("seed_phrase", c.SEED_PHRASE,
        "Seed phrase: ⟦abandon ability able about above absent absorb abstract absurd abuse "
        "access accident⟧", c.SEED_ANCHORS, check=None, flags=_I, anchored=True),
    row("pin", c.PIN, "Die PIN der Firmenkarte ist ⟦4711⟧.", c.PIN_ANCHORS,
        check=checks.pin_value, flags=_I, anchored=True),
    row("pin", c.LOCK_CODE, "Tresor im Büro: Code ⟦4711⟧, bitte ändern", c.LOCK_ANCHORS,
        check=checks.pin_value, flags=_I, anchored=True),
    row("pin", c.PIN_BARE, "Tresor-PIN ⟦8765⟧, Tresor steht im Keller", c.PIN_ANCHORS,
        check=checks.pin_value, flags=_I, anchored=True),
    row("generic_secret", c.GENERIC_STRONG, "client_secret: ⟦{a40}⟧", _GEN,
        check=checks.generic_value, flags=_I, anchored=True, follow=c.RANDOM_FOLLOW),
    row("generic_secret", c.GENERIC_SYMBOLS, "JWT_SECRET=⟦{a12}%{a10}$!{a8}⟧", _GEN,
        check=code_checks.symbol_secret, flags=_I, anchored=True, follow=c.RANDOM_FOLLOW),
    row("card_security_code", c.CVC, "Kartenprüfnummer (CVC) der Firmenkarte: ⟦418⟧",
        c.CVC_ANCHORS, check=checks.pin_value, flags=_I, anchored=True),
    row("totp_secret", code_checks.TOTP_SEED,
        "TOTP seed for the ops account, in case the phone dies: ⟦{z16}⟧ (issuer Acme)",
        code_checks.TOTP_ANCHORS, check=code_checks.totp_seed),
    row("recovery_code", c.RECOVERY_CODES, "Backup-Codes für 2FA: ⟦{d4} {d4}, {u4}-{u4}⟧",
        c.RECOVERY_ANCHORS, check=code_checks.recovery_codes, flags=_I, anchored=True),
    row("generic_secret", c.GENERIC_QUOTED,
        "DJANGO_SECRET_KEY = 'django-insecure-⟦{a20}#$%^&*(-_=+){a10}⟧'", _GEN,
        check=checks.generic_value, flags=_I, anchored=True),
    row("generic_secret", c.GENERIC_BARE, "Api-Key ⟦{a30}⟧", _GEN,
        check=checks.generic_value, flags=_I, anchored=True, follow=c.RANDOM_FOLLOW),
    row("generic_secret", c.GENERIC_WEAK, "Der API-Key für das Portal ist ⟦{a32}⟧.", _GEN,
        check=checks.generic_value, flags=_I, anchored=True, follow=c.RANDOM_FOLLOW),
    # --- bare high-entropy credentials (no key word right before them): shape, entropy,
    # guards, and a credential word near them (`bare_checks.credential_context`) -------------
    row("aws_secret_key", rf"(?<![A-Za-z0-9/+=_\-])(?P<v>[A-Za-z0-9/+]{{40}}){_B64_END}",
        "Von Tom der Zugang für den Export: ⟦{b40}⟧ (bitte rotieren)",
        check=bare_checks.bare_aws_secret,
        fallback=True, min_run=40),
    row("high_entropy",
        rf"(?<![A-Za-z0-9/+=_\-.~])(?P<v>[A-Za-z0-9/+_\-]{{32,1024}}+={{0,2}}){_B64_END}",
        "Von Lisa per Chat: ⟦{a24}{b20}⟧ - der Zugang für das Portal",
        check=bare_checks.bare_credential,
        fallback=True, min_run=32),
)
# fmt: on
