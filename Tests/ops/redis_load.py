"""A load that remembers what it was promised: threads switching tabs on their own sessions of one
`wayfinder` (every switch is a new revision), counting statuses and recording the last revision
answered 2xx for each session, so that a test can break Redis under it and then check that
nothing acknowledged was lost."""
import threading

from conftest import jwt_token, wait_for


def auth(token):
    return {"Authorization": "Bearer " + token}


class TabLoad:
    def __init__(self, server, threads=8, sessions_per_thread=4):
        self.server = server
        self.sessions = [self._create() for _ in range(threads * sessions_per_thread)]
        self.acknowledged = {sid: 1 for sid, _ in self.sessions}
        self.statuses = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._work, args=(self.sessions[i::threads],)) for i in range(threads)]

    def _create(self):
        """A session, its create tried again after a 503 (Retry-After: 1): with
        --redis-wait-replicas, a replica of a cluster that has just formed may miss WAIT's 500 ms."""
        context = {"context": {"onboarded": True}}

        def attempt():
            signed_in = {"Authorization": "Bearer " + jwt_token("a@b.c", email="a@b.c")}
            status, _, body = self.server.request("POST", "/v1/sessions", context, headers=signed_in)
            assert status in (201, 503), body
            return (body["id"], body["token"]) if status == 201 else None
        return wait_for(attempt, 15, interval=0.2, message="a session created")

    def __enter__(self):
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_):
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=30)

    def count(self, status):
        with self._lock:
            return self.statuses.get(status, 0)

    def wait_for_answers(self, more, timeout, message):
        """Waits until `more` further requests were answered 200."""
        target = self.count(200) + more
        wait_for(lambda: self.count(200) >= target, timeout, interval=0.05, message=message)

    def all_readable(self):
        """Whether every session reads 200 now."""
        return all(self.server.request("GET", f"/v1/sessions/{sid}", headers=auth(token))[0] == 200
                   for sid, token in self.sessions)

    def lost(self):
        """(session, acknowledged, stored) for every session whose stored revision is older than
        one answered 2xx; read after the load stopped."""
        found = []
        for sid, token in self.sessions:
            status, _, state = self.server.request("GET", f"/v1/sessions/{sid}", headers=auth(token))
            assert status == 200, state
            if state["revision"] < self.acknowledged[sid]:
                found.append((sid, self.acknowledged[sid], state["revision"]))
        return found

    def _work(self, mine):
        connection = self.server.connection(timeout=10)
        step = 0
        while not self._stop.is_set():
            sid, token = mine[step % len(mine)]
            tab = "todos" if (step // len(mine)) % 2 == 0 else "profile"
            step += 1
            try:
                status, _, body = self.server.request("POST", f"/v1/sessions/{sid}/tab", {"tab": tab}, auth(token),
                                                      connection)
            except OSError:
                connection.close()
                connection = self.server.connection(timeout=10)
                continue
            with self._lock:
                self.statuses[status] = self.statuses.get(status, 0) + 1
                if status == 200:
                    self.acknowledged[sid] = max(self.acknowledged[sid], body["state"]["revision"])
