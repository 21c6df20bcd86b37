"""HTTP-level attacks of issue 21: framing by an empty Transfer-Encoding, a protocol-relative
redirect, and request bodies trickled a few bytes a second to hold connections."""
import selectors
import socket
import time

from conftest import MiB, attack, metric, parse_response, raw_request


def test_an_empty_or_comma_only_transfer_encoding_is_refused(start_server):
    server = start_server("--store", "memory")
    a = attack(server, rss_bound=16 * MiB)
    sessions = metric(server, "wayfinder_sessions_active")
    for value in (b"", b",", b" , ,"):
        request = (b"POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: " + value
                   + b"\r\nContent-Length: 2\r\n\r\n{}")
        status, headers, body = raw_request(server.port, request)
        assert status == 400, (value, status, body)
        assert headers["content-type"] == "application/problem+json" and b'"code":"bad_request"' in body
        assert headers["connection"] == "close"
    assert metric(server, "wayfinder_sessions_active") == sessions, "no session was created"
    a.end()


def test_a_directory_redirect_is_never_protocol_relative(start_server):
    server = start_server("--store", "memory")
    a = attack(server, rss_bound=16 * MiB)
    for target, location in ((b"//images", "/images/"), (b"///images?x=1", "/images/?x=1"), (b"/images", "/images/")):
        status, headers, _ = raw_request(server.port, b"GET " + target + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert status == 301, target
        assert headers["location"] == location and not headers["location"].startswith("//"), (target, headers)
    a.end()


def test_trickled_bodies_are_cut_off_with_408(start_server):
    """50 connections each send a head announcing 10,000 bytes, then one byte per 0.2 s: every
    byte used to extend the deadline, so they held their connections for ever."""
    server = start_server("--store", "memory", "--body-timeout", "2s")
    a = attack(server, rss_bound=16 * MiB)
    head = b"POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n"
    sockets = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(50)]
    for s in sockets:
        s.sendall(head)
    answers = {}
    started = time.monotonic()
    with selectors.DefaultSelector() as selector:
        for s in sockets:
            selector.register(s, selectors.EVENT_READ)
        # At 5 bytes a second the bodies would take 2,000 s; the server must end them within
        # its body timeout (2 s) plus what their bytes buy at the minimum rate (1 KiB/s).
        while len(answers) < len(sockets) and time.monotonic() - started < 30:
            for s in sockets:
                if s not in answers:
                    try:
                        s.send(b"x")
                    except OSError:
                        pass
            for key, _ in selector.select(timeout=0.2):
                s = key.fileobj
                selector.unregister(s)
                data = b""
                try:
                    while True:
                        chunk = s.recv(65536)
                        if not chunk:
                            break
                        data += chunk
                except OSError:
                    pass
                answers[s] = data
    assert len(answers) == 50, f"{50 - len(answers)} trickling connections were still open after 30 s"
    for data in answers.values():
        status, _, body = parse_response(data)
        assert status == 408 and b'"code":"request_timeout"' in body, data[:200]
    for s in sockets:
        s.close()
    a.end()
