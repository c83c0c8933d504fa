"""Schemathesis hooks of `cargo xtask schemathesis`: who each request is sent as, and a record of
what every operation answered.

- Operations whose 403 is documented as "Not an admin" go as the admin (`st-admin`), every other
  one as the plain member `st-tester`; the two calls that change the caller's credentials (a new
  username or password invalidates the tokens issued before) go as `st-self`, whose token is
  renewed after each change, so the member's token stays valid all run long; every third of
  them is a valid change.
- Writes to `/api/gifs/{id}` alternate between the other user's GIF (which must be refused) and
  one of the tester's own (so the write itself is exercised too).
- Changes of a member (`PUT /api/admin/users/{id}`) all aim at the spare account `st-spare`, so that
  a generated role or status never takes the admin's rights or the member's access away.
- `POST /api/chat/command` is sent in turn as Slack (signed with the signing secret), Mattermost
  (its command token) and Zulip (the bot's token in its JSON), with the secrets the server was
  started with.
- The bots' endpoints get what their platform sends: Discord's interactions signed with Ed25519
  (a small pure-Python signer below, so the venv needs no compiled package), Telegram's secret
  header, Teams' HMAC of the body and Rocket.Chat's token in its JSON. The signed bodies go as
  the exact bytes the signature covers.
- Every answer is appended as `METHOD /path STATUS` to `GIFSHELF_ST_STATUSES`; the xtask reads it
  and fails on an operation that never got past authentication.
"""

import base64
import hashlib
import hmac
import itertools
import json
import os
import time

import requests
import schemathesis
from schemathesis.core import NotSet

BASE_URL = os.environ["GIFSHELF_ST_BASE_URL"]
OTHER_GIF = os.environ["GIFSHELF_OTHER_GIF"]
OWN_GIF = os.environ["GIFSHELF_OWN_GIF"]
STATUSES = os.environ["GIFSHELF_ST_STATUSES"]
TOKENS = {"member": os.environ["GIFSHELF_ST_MEMBER_TOKEN"], "admin": os.environ["GIFSHELF_ST_ADMIN_TOKEN"]}
# The account whose name and password the run changes: {username, password, token}.
SELF = json.loads(os.environ["GIFSHELF_ST_SELF"])

SLACK_SECRET = os.environ["GIFSHELF_SLACK_SIGNING_SECRET"]
MATTERMOST_TOKEN = os.environ["GIFSHELF_MATTERMOST_TOKENS"].split(",")[0]
ZULIP_TOKEN = os.environ["GIFSHELF_ZULIP_TOKENS"].split(",")[0]

TELEGRAM_SECRET = os.environ["GIFSHELF_TELEGRAM_WEBHOOK_SECRET"]
TEAMS_KEY = base64.b64decode(os.environ["GIFSHELF_TEAMS_TOKENS"].split(",")[0])
ROCKETCHAT_TOKEN = os.environ["GIFSHELF_ROCKETCHAT_TOKENS"].split(",")[0]
DISCORD_SEED = bytes.fromhex(os.environ["GIFSHELF_ST_DISCORD_SEED"])

COMMAND = ("POST", "/api/chat/command")
CREDENTIALS = {("PUT", "/api/settings/profile"), ("PUT", "/api/settings/password")}
GIF_WRITES = {("PUT", "/api/gifs/{id}"), ("DELETE", "/api/gifs/{id}")}
MEMBER_WRITES = {("PUT", "/api/admin/users/{id}")}
DISCORD = ("POST", "/api/chat/discord")
TELEGRAM = ("POST", "/api/chat/telegram")
TEAMS = ("POST", "/api/chat/teams")
BOTS = {DISCORD, TELEGRAM, TEAMS, ("POST", "/api/chat/rocketchat")}
_spare = {}

_platforms = itertools.cycle(("slack", "mattermost", "zulip"))
_gif_writes = itertools.count()
_changes = itertools.count()


def _key(case):
    return case.method.upper(), case.operation.path


def _admin_only(operation):
    forbidden = (operation.definition.raw.get("responses") or {}).get("403") or {}
    return str(forbidden.get("description", "")).startswith("Not an admin")


def _set_header(case, name, value):
    headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != name.lower()}
    headers[name] = value
    case.headers = headers


def _form_bytes(body):
    """The body as the form it will be sent as (what Slack's signature covers)."""
    if body is None or isinstance(body, NotSet):
        return b""
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode("utf-8")
    if isinstance(body, dict):
        encoded = requests.models.RequestEncodingMixin._encode_params(body)
        return encoded.encode("utf-8") if isinstance(encoded, str) else encoded
    return json.dumps(body).encode("utf-8")


def _command(case):
    """Makes a slash command one a configured integration sent, by each platform in turn."""
    platform = next(_platforms)
    if case.headers:
        case.headers = {k: v for k, v in case.headers.items() if k.lower() != "authorization"}
    if platform == "slack":
        body = _form_bytes(case.body)
        case.body = body
        stamp = str(int(time.time()))
        digest = hmac.new(SLACK_SECRET.encode(), b"v0:" + stamp.encode() + b":" + body, hashlib.sha256)
        _set_header(case, "X-Slack-Request-Timestamp", stamp)
        _set_header(case, "X-Slack-Signature", "v0=" + digest.hexdigest())
    elif platform == "mattermost":
        _set_header(case, "Authorization", f"Token {MATTERMOST_TOKEN}")
    else:
        text = case.body.get("text") if isinstance(case.body, dict) else None
        case.media_type = "application/json"
        _set_header(case, "Content-Type", "application/json")
        case.body = {"data": text if isinstance(text, str) else "", "token": ZULIP_TOKEN, "trigger": "mention"}


# Ed25519 signing (RFC 8032), enough for a test's few signatures.
_P = 2**255 - 19
_L = 2**252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P


def _inv(x):
    return pow(x, _P - 2, _P)


def _x_of(y):
    xx = (y * y - 1) * _inv(_D * y * y + 1)
    x = pow(xx, (_P + 3) // 8, _P)
    if (x * x - xx) % _P:
        x = x * pow(2, (_P - 1) // 4, _P) % _P
    return _P - x if x % 2 else x


_BASE = (_x_of(4 * _inv(5) % _P), 4 * _inv(5) % _P)


def _add(p, q):
    (x1, y1), (x2, y2) = p, q
    t = _D * x1 * x2 * y1 * y2
    return ((x1 * y2 + x2 * y1) * _inv(1 + t) % _P, (y1 * y2 + x1 * x2) * _inv(1 - t) % _P)


def _times(p, e):
    q = (0, 1)
    while e:
        if e & 1:
            q = _add(q, p)
        p = _add(p, p)
        e >>= 1
    return q


def _encode(p):
    return (p[1] | ((p[0] & 1) << 255)).to_bytes(32, "little")


def _ed25519_sign(seed, message):
    h = hashlib.sha512(seed).digest()
    a = (int.from_bytes(h[:32], "little") & ((1 << 254) - 8)) | (1 << 254)
    public = _encode(_times(_BASE, a))
    r = int.from_bytes(hashlib.sha512(h[32:] + message).digest(), "little") % _L
    big_r = _encode(_times(_BASE, r))
    k = int.from_bytes(hashlib.sha512(big_r + public + message).digest(), "little") % _L
    return big_r + ((r + k * a) % _L).to_bytes(32, "little")


def _raw_json(case):
    """Sends the body as these exact JSON bytes (what a signature covers); returns them."""
    body = case.body if isinstance(case.body, (dict, list)) else {}
    raw = json.dumps(body).encode("utf-8")
    case.media_type = "application/octet-stream"
    case.body = raw
    return raw


def _bot(key, case):
    """Makes a request to a bot's endpoint one its platform sent, with the configured secret."""
    if case.headers:
        case.headers = {k: v for k, v in case.headers.items() if k.lower() != "authorization"}
    if key == DISCORD:
        raw = _raw_json(case)
        stamp = str(int(time.time()))
        _set_header(case, "X-Signature-Timestamp", stamp)
        _set_header(case, "X-Signature-Ed25519", _ed25519_sign(DISCORD_SEED, stamp.encode() + raw).hex())
    elif key == TELEGRAM:
        _set_header(case, "X-Telegram-Bot-Api-Secret-Token", TELEGRAM_SECRET)
    elif key == TEAMS:
        raw = _raw_json(case)
        mac = base64.b64encode(hmac.new(TEAMS_KEY, raw, hashlib.sha256).digest()).decode()
        _set_header(case, "Authorization", f"HMAC {mac}")
    else:
        body = case.body if isinstance(case.body, dict) else {}
        case.media_type = "application/json"
        _set_header(case, "Content-Type", "application/json")
        case.body = {**body, "token": ROCKETCHAT_TOKEN}


def _valid_change(key, case):
    """Every third change of `st-self`'s name or password is a valid one (random ones hardly ever
    are), so that the change and the renewal of its token are exercised too."""
    n = next(_changes)
    if n % 3:
        return
    if key == ("PUT", "/api/settings/password"):
        case.body = {
            "currentPassword": SELF["password"],
            "newPassword": f"secret-{n}",
            "confirmPassword": f"secret-{n}",
        }
    else:
        case.body = {"username": f"st-self-{n}"}
    case.media_type = "application/json"


def _spare_id():
    """The id of `st-spare`, asked once of the Members list."""
    if "id" not in _spare:
        answer = requests.get(
            f"{BASE_URL}/api/admin/users",
            params={"q": "st-spare"},
            headers={"Authorization": f"Bearer {TOKENS['admin']}"},
            timeout=10,
        )
        _spare["id"] = next(m["id"] for m in answer.json()["content"] if m["username"] == "st-spare")
    return _spare["id"]


@schemathesis.hook
def before_call(context, case, kwargs):
    key = _key(case)
    if key == COMMAND:
        _command(case)
        return
    if key in BOTS:
        _bot(key, case)
        return
    if key in GIF_WRITES:
        # Every other write aims at the other user's GIF, the rest at one of the tester's own.
        gif = OTHER_GIF if next(_gif_writes) % 2 == 0 else OWN_GIF
        case.path_parameters = {**(case.path_parameters or {}), "id": int(gif)}
    if key in MEMBER_WRITES:
        case.path_parameters = {**(case.path_parameters or {}), "id": _spare_id()}
    if key in CREDENTIALS:
        _valid_change(key, case)
        token = SELF["token"]
    else:
        token = TOKENS["admin" if _admin_only(case.operation) else "member"]
    _set_header(case, "Authorization", f"Bearer {token}")


def _renew_self(key, case, response):
    """After `st-self` changed its name or password, a fresh token (older ones are refused)."""
    body = response.json()
    if key == ("PUT", "/api/settings/password"):
        SELF["password"] = case.body["newPassword"]
        SELF["token"] = body["token"]
        return
    SELF["username"] = body["username"]
    login = requests.post(
        f"{BASE_URL}/api/auth/login",
        json={"username": SELF["username"], "password": SELF["password"]},
        timeout=30,
    )
    login.raise_for_status()
    SELF["token"] = login.json()["token"]


@schemathesis.hook
def after_call(context, case, response):
    key = _key(case)
    if key in CREDENTIALS and response.status_code == 200:
        _renew_self(key, case, response)
    with open(STATUSES, "a", encoding="utf-8") as out:
        out.write(f"{key[0]} {key[1]} {response.status_code}\n")


@schemathesis.check
def no_write_to_another_users_gif(ctx, response, case):
    if _key(case) in GIF_WRITES:
        if str((case.path_parameters or {}).get("id")) == OTHER_GIF and 200 <= response.status_code < 300:
            raise AssertionError(
                f"{case.method} /api/gifs/{OTHER_GIF} (another user's GIF) answered {response.status_code}"
            )
