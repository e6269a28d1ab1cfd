#!/usr/bin/env python3
"""Instructions per request of one bench peer, counted by callgrind.

Starts `bench-server PEER ROUTES` under `valgrind --tool=callgrind`, warms
it up, zeroes the counters (`callgrind_control --zero`), sends the measured
requests from this process over loopback, dumps the counters
(`callgrind_control --dump`) and prints the server's user-space
instructions per request. Deterministic, so it separates changes of a few
hundred instructions that wall-clock runs on a shared machine cannot.

    python3 bench/callgrind/requests.py target/release/bench-server framework plaintext
    python3 bench/callgrind/requests.py target/release/bench-server hyper json --pipeline 10

Modes: one request at a time on one keep-alive connection (default), or
`--pipeline N`: batches of N requests written at once on 4 connections.
"""

import argparse
import glob
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

SCENARIOS = {
    "plaintext": ("GET", "/plaintext", None),
    "json": ("GET", "/json", None),
    "stringify": ("GET", "/stringify", None),
    "assert": ("POST", "/assert", "boxes"),
    "performance": ("POST", "/performance", "boxes"),
}


def request_bytes(method, path, body):
    head = f"{method} {path} HTTP/1.1\r\nHost: localhost\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + (body or b"")


class Reader:
    """Reads HTTP/1.1 answers with Content-Length bodies off a socket."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def answer(self):
        while b"\r\n\r\n" not in self.buf:
            self._more()
        end = self.buf.index(b"\r\n\r\n") + 4
        head = self.buf[:end].decode("latin-1")
        status = int(head.split(" ", 2)[1])
        match = re.search(r"(?im)^content-length:\s*(\d+)", head)
        length = int(match.group(1)) if match else 0
        while len(self.buf) < end + length:
            self._more()
        self.buf = self.buf[end + length:]
        return status

    def _more(self):
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise ConnectionError("server closed the connection")
        self.buf += chunk


def connect(port):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def run(port, request, count, pipeline):
    """Sends `count` requests; returns how many answers were 2xx."""
    good = 0
    if pipeline <= 1:
        sock = connect(port)
        reader = Reader(sock)
        for _ in range(count):
            sock.sendall(request)
            good += 200 <= reader.answer() < 300
        sock.close()
        return good
    conns = [connect(port) for _ in range(4)]
    readers = [Reader(sock) for sock in conns]
    batch = request * pipeline
    sent = 0
    while sent < count:
        for sock in conns:
            sock.sendall(batch)
        for reader in readers:
            for _ in range(pipeline):
                good += 200 <= reader.answer() < 300
        sent += pipeline * len(conns)
    for sock in conns:
        sock.close()
    return good


def fetch_body(port, request):
    sock = connect(port)
    sock.sendall(request)
    reader = Reader(sock)
    while b"\r\n\r\n" not in reader.buf:
        reader._more()
    end = reader.buf.index(b"\r\n\r\n") + 4
    length = int(re.search(rb"(?im)^content-length:\s*(\d+)", reader.buf[:end]).group(1))
    while len(reader.buf) < end + length:
        reader._more()
    sock.close()
    return reader.buf[end:end + length]


def total_instructions(out_file):
    with open(out_file, encoding="latin-1") as dump:
        for line in dump:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise RuntimeError(f"no totals in {out_file}")


def control(pid, flag):
    subprocess.run(["callgrind_control", flag, str(pid)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("server", help="path to bench-server")
    parser.add_argument("peer")
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--warmup", type=int, default=400)
    parser.add_argument("--pipeline", type=int, default=1)
    parser.add_argument("--keep", action="store_true",
                        help="keep the dump and print its path (for callgrind_annotate)")
    parser.add_argument("--body", help="request body file (default: what GET /stringify answers)")
    args = parser.parse_args()

    method, path, body_kind = SCENARIOS[args.scenario]

    workdir = tempfile.mkdtemp(prefix="callgrind-")
    out = os.path.join(workdir, "callgrind.out")
    server = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p",
         args.server, args.peer, "main"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        port = int(re.search(r"listening on [^:]+:(\d+)", line).group(1))
        body = None
        if body_kind and args.body:
            with open(args.body, "rb") as file:
                body = file.read()
        elif body_kind:
            # The bench's `{ data: IBox3D[100] }`, as the server answers it.
            body = fetch_body(port, b"GET /stringify HTTP/1.1\r\nHost: localhost\r\n\r\n")
        request = request_bytes(method, path, body)
        run(port, request, args.warmup, args.pipeline)
        control(server.pid, "--zero")
        good = run(port, request, args.requests, args.pipeline)
        control(server.pid, "--dump")
        time.sleep(0.5)
        dumps = sorted(glob.glob(f"{out}.*"))
        if not dumps:
            raise RuntimeError("callgrind wrote no dump")
        total = total_instructions(dumps[-1])
        print(f"{args.peer} {args.scenario} pipeline={args.pipeline}: "
              f"{total / args.requests:.0f} instructions/request "
              f"({args.requests} requests, {good} answered 2xx)")
        if args.keep:
            print(f"dump: {dumps[-1]}")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
