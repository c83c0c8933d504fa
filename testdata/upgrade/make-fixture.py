#!/usr/bin/env python3
"""Makes the upgrade fixture: a library made by an earlier gifshelf, on both databases, that the
upgrade test (crates/server/tests/upgrade.rs) opens with today's binary.

    python3 testdata/upgrade/make-fixture.py [--commit REV] [--binary PATH]

Checks out REV (default: HEAD) in a temporary worktree and builds its server (or takes --binary,
which must be built from REV), then runs it twice, on SQLite and on a scratch PostgreSQL database
(GIFSHELF_TEST_POSTGRES_URL), and fills each through its HTTP API with the same library: three
accounts, GIFs with tags, ratings and renditions, a favourite, a shared collection and an API key.
It writes testdata/upgrade/<commit>/:

    manifest.json        the commit, the accounts with their passwords, and what each library holds
                         (every GIF's fields and the SHA-256 of every file as served)
    sqlite/              the data folder: gifshelf.db and media/
    postgres/dump.sql    pg_dump --inserts of the database (plain SQL, loadable without psql)
    postgres/media/      its media folder

Commit the folder; the tests never rebuild the old commit. Needs ffmpeg (to draw the GIFs) and
pg_dump. Only the standard library is used.
"""
import argparse
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SECRET = "upgrade-fixture-secret-0123456789abcdef0123456789"
USERS = [("admin", "admin-password-1"), ("alice", "alice-password-1"), ("bob", "bob-password-1")]
# (owner, title, description, tags, rating, ffmpeg source)
GIFS = [
    ("alice", "Test card", "colour bars", ["bars", "colour"], "g", "smptebars=size=96x64:rate=8"),
    ("alice", "Spinning noise", "", ["noise"], "pg", "testsrc2=size=80x60:rate=10"),
    ("bob", "Fractal zoom", "a mandelbrot", ["fractal", "colour"], "pg-13", "mandelbrot=size=72x54:rate=6"),
    ("admin", "Life", "conway", [], "g", "life=size=64x48:rate=6:mold=10:seed=7"),
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(method, url, token=None, body=None, content_type="application/json"):
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers["Content-Type"] = content_type
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=60) as resp:
        raw = resp.read()
        kind = resp.headers.get("Content-Type", "")
        return json.loads(raw) if raw and "json" in kind else raw


def multipart(fields):
    boundary = uuid.uuid4().hex
    out = b""
    for name, (filename, ctype, value) in fields.items():
        out += f"--{boundary}\r\n".encode()
        disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
        out += f"Content-Disposition: {disposition}\r\nContent-Type: {ctype}\r\n\r\n".encode() + value + b"\r\n"
    return out + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def draw_gif(source, path):
    subprocess.run(
        ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", source, "-t", "1.5", "-loop", "0", path],
        check=True,
    )


class Server:
    def __init__(self, binary, data, db_url, log):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIFSHELF_")}
        env.update(
            GIFSHELF_BIND=f"127.0.0.1:{self.port}",
            GIFSHELF_DATA_DIR=data,
            GIFSHELF_DATABASE_URL=db_url,
            GIFSHELF_STORAGE_URL=f"file://{os.path.join(data, 'media')}",
            GIFSHELF_JWT_SECRET=SECRET,
            GIFSHELF_BCRYPT_COST="4",
            GIFSHELF_WORKERS="1",
            GIFSHELF_JOB_POLL_MS="50",
            GIFSHELF_FFMPEG="off",
            NO_COLOR="1",
        )
        self.proc = subprocess.Popen([binary, "serve"], env=env, stdout=log, stderr=log)
        for _ in range(300):
            try:
                request("GET", f"{self.url}/api/health")
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"the server at {self.url} never answered")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=60)


def seed(server, work):
    """Fills the library and answers what it holds, for the manifest."""
    api = server.url + "/api"
    tokens = {}
    for name, password in USERS:
        body = {"username": name, "email": f"{name}@example.com", "password": password, "confirmPassword": password}
        request("POST", f"{api}/auth/register", body=body)
        tokens[name] = request("POST", f"{api}/auth/login", body={"username": name, "password": password})["token"]
    gifs = []
    for owner, title, description, tags, rating, source in GIFS:
        path = os.path.join(work, f"{len(gifs)}.gif")
        draw_gif(source, path)
        with open(path, "rb") as f:
            data = json.dumps({"title": title, "description": description, "tags": tags, "rating": rating})
            body, ctype = multipart({"file": ("clip.gif", "image/gif", f.read()), "gifData": (None, "application/json", data.encode())})
        gifs.append(request("POST", f"{api}/gifs", tokens[owner], body, ctype))
    wait_for_renditions(server)
    request("PUT", f"{api}/gifs/{gifs[2]['id']}/favourite", tokens["alice"])
    collection = request("POST", f"{api}/collections", tokens["alice"], {"name": "Best of", "description": "kept", "visibility": "private", "sharing": True})
    for gif in (gifs[2], gifs[0]):
        request("PUT", f"{api}/collections/{collection['id']}/gifs/{gif['id']}", tokens["alice"])
    key = request("POST", f"{api}/keys", tokens["alice"], {"name": "chat"})
    listed = []
    for gif in gifs:
        dto = request("GET", f"{api}/gifs/dto/{gif['id']}", tokens["admin"])
        files = {}
        for rendition in request("GET", f"{api}/gifs/{gif['id']}/renditions", tokens["admin"]):
            url = urllib.parse.urljoin(server.url, rendition["url"])
            files[rendition["kind"]] = hashlib.sha256(request("GET", url, tokens["admin"])).hexdigest()
        fields = ["id", "title", "description", "tags", "uploadedBy", "shareId", "rating", "contentSize", "frameCount"]
        listed.append({name: dto[name] for name in fields} | {"files": files})
    collection = request("GET", f"{api}/collections/{collection['id']}", tokens["alice"])
    return {
        "gifs": listed,
        "favourites": {"alice": [gifs[2]["id"]]},
        "collections": [{"owner": "alice", "id": collection["id"], "name": "Best of", "shareId": collection["shareId"], "gifs": [gifs[2]["id"], gifs[0]["id"]]}],
        "apiKeys": [{"owner": "alice", "key": key["key"]}],
    }


def wait_for_renditions(server):
    """Until the renditions jobs are done (the job gauges of /metrics, read from loopback)."""
    for _ in range(600):
        text = request("GET", f"{server.url}/metrics").decode()
        waiting = [l for l in text.splitlines() if l.startswith("gifshelf_jobs{") and l.split()[-1] != "0" and "failed" not in l]
        if not waiting and "gifshelf_jobs{" in text:
            return
        time.sleep(0.1)
    raise SystemExit("renditions never finished")


def build(commit, target):
    tree = tempfile.mkdtemp(prefix="gifshelf-fixture-")
    subprocess.run(["git", "-C", REPO, "worktree", "add", "--detach", tree, commit], check=True)
    try:
        env = dict(os.environ, CARGO_TARGET_DIR=target)
        subprocess.run(["cargo", "build", "-p", "gifshelf-server"], cwd=tree, env=env, check=True)
        binary = os.path.join(tempfile.mkdtemp(), "gifshelf")
        shutil.copy2(os.path.join(target, "debug", "gifshelf"), binary)
        return binary
    finally:
        subprocess.run(["git", "-C", REPO, "worktree", "remove", "--force", tree], check=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--commit", default="HEAD")
    parser.add_argument("--binary")
    args = parser.parse_args()
    commit = subprocess.run(["git", "-C", REPO, "rev-parse", args.commit], capture_output=True, text=True, check=True).stdout.strip()
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))
    binary = args.binary or build(commit, target)
    pg = os.environ.get("GIFSHELF_TEST_POSTGRES_URL") or sys.exit("set GIFSHELF_TEST_POSTGRES_URL")
    out = os.path.join(HERE, commit[:12])
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    work = tempfile.mkdtemp()
    manifest = {"commit": commit, "users": [{"username": u, "password": p} for u, p in USERS], "libraries": {}}
    with open(os.path.join(work, "server.log"), "wb") as log:
        data = os.path.join(out, "sqlite")
        server = Server(binary, data, f"sqlite://{os.path.join(data, 'gifshelf.db')}", log)
        manifest["libraries"]["sqlite"] = seed(server, work)
        server.stop()
        for leftover in ["jwt-secret", "gifshelf.db-wal", "gifshelf.db-shm"]:
            if os.path.exists(os.path.join(data, leftover)):
                os.remove(os.path.join(data, leftover))
        db = f"gifshelf_fixture_{os.getpid()}"
        admin = urllib.parse.urlparse(pg)
        subprocess.run(["psql", pg, "-q", "-c", f"CREATE DATABASE {db}"], check=True)
        db_url = admin._replace(path=f"/{db}").geturl()
        try:
            data = os.path.join(work, "postgres")
            server = Server(binary, data, db_url, log)
            manifest["libraries"]["postgres"] = seed(server, work)
            server.stop()
            os.makedirs(os.path.join(out, "postgres"))
            shutil.copytree(os.path.join(data, "media"), os.path.join(out, "postgres", "media"))
            dumped = subprocess.run(
                ["pg_dump", "--inserts", "--no-owner", "--no-privileges", db_url], capture_output=True, text=True, check=True
            ).stdout
            # psql's meta-commands (`\restrict` of newer pg_dumps) are no SQL: the test loads it without psql.
            sql = "".join(line for line in dumped.splitlines(keepends=True) if not line.startswith("\\"))
            with open(os.path.join(out, "postgres", "dump.sql"), "w") as dump:
                dump.write(sql)
        finally:
            subprocess.run(["psql", pg, "-q", "-c", f"DROP DATABASE IF EXISTS {db}"], check=True)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    print(out)


if __name__ == "__main__":
    main()
