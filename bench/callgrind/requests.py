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
    python3 bench/callgrind/requests.py target/release/bench-server framework form

The scenario's request (headers and body, as the load runner sends it) and
the route set serving it come from `bench-server --request SCENARIO`, so
every scenario of `bench/src/scenario.rs` can be counted. Every answer must
have the scenario's status (`Scenario::status`: 200, 204 for assert, 303
for the forms); one that does not stops the run with the answer, so a
scenario cannot silently measure a refusal.

Modes: one request at a time on one keep-alive connection (default), or
`--pipeline N`: batches of N requests written at once on 4 connections.
`--cache-sim` also simulates the caches (valgrind's, sized as this
machine's) and prints the first-level instruction cache's misses per
request: where two servers run about as many instructions, the one whose
code per request outgrows that cache takes more cycles for them.
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


class WrongAnswer(Exception):
    """An answer whose status is not the scenario's."""


def scenario_request(server, scenario):
    """The scenario's route set, expected status and request bytes."""
    out = subprocess.run([server, "--request", scenario], check=True,
                         stdout=subprocess.PIPE).stdout
    first, request = out.split(b"\n", 1)
    routes, status = first.decode().split()
    return routes, int(status), request


def with_body(request, body):
    """`request` with its body replaced by `body` (and its length fixed)."""
    head = request[:request.index(b"\r\n\r\n") + 4]
    head = re.sub(rb"(?im)^content-length:\s*\d+", b"Content-Length: %d" % len(body), head)
    return head + body


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
        body = self.buf[end:end + length]
        self.buf = self.buf[end + length:]
        return status, body

    def expect(self, status):
        """Reads one answer; raises WrongAnswer unless it has `status`."""
        found, body = self.answer()
        if found != status:
            raise WrongAnswer(f"status {found}, expected {status}: "
                              f"{body[:300].decode('utf-8', 'replace')}")

    def _more(self):
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise ConnectionError("server closed the connection")
        self.buf += chunk


def connect(port):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def run(port, request, status, count, pipeline):
    """Sends `count` requests; every answer must have `status`."""
    if pipeline <= 1:
        sock = connect(port)
        reader = Reader(sock)
        for _ in range(count):
            sock.sendall(request)
            reader.expect(status)
        sock.close()
        return
    conns = [connect(port) for _ in range(4)]
    readers = [Reader(sock) for sock in conns]
    batch = request * pipeline
    sent = 0
    while sent < count:
        for sock in conns:
            sock.sendall(batch)
        for reader in readers:
            for _ in range(pipeline):
                reader.expect(status)
        sent += pipeline * len(conns)
    for sock in conns:
        sock.close()


def totals(out_file):
    """The dump's events and their totals, by name."""
    events = None
    with open(out_file, encoding="latin-1") as dump:
        for line in dump:
            if line.startswith("events:"):
                events = line.split()[1:]
            if line.startswith("summary:") or line.startswith("totals:"):
                return dict(zip(events, map(int, line.split()[1:])))
    raise RuntimeError(f"no totals in {out_file}")


def control(pid, flag):
    subprocess.run(["callgrind_control", flag, str(pid)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("server", help="path to bench-server")
    parser.add_argument("peer")
    parser.add_argument("scenario", help="a scenario of bench/src/scenario.rs: plaintext, "
                        "json, assert, performance, stringify, form, form-cross-origin-off, ...")
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--warmup", type=int, default=400)
    parser.add_argument("--pipeline", type=int, default=1)
    parser.add_argument("--keep", action="store_true",
                        help="keep the dump and print its path (for callgrind_annotate)")
    parser.add_argument("--body", help="request body file, instead of the scenario's")
    parser.add_argument("--cache-sim", action="store_true",
                        help="simulate the caches; print instruction cache misses per request")
    args = parser.parse_args()

    routes, status, request = scenario_request(args.server, args.scenario)
    if args.body:
        with open(args.body, "rb") as file:
            request = with_body(request, file.read())

    workdir = tempfile.mkdtemp(prefix="callgrind-")
    out = os.path.join(workdir, "callgrind.out")
    simulate = ["--cache-sim=yes"] if args.cache_sim else []
    server = subprocess.Popen(
        ["valgrind", "--tool=callgrind", *simulate, f"--callgrind-out-file={out}.%p",
         args.server, args.peer, routes],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        match = re.search(r"listening on [^:]+:(\d+)", line)
        if not match:
            sys.exit(f"{args.peer} did not start with the {routes} routes: {line!r}")
        port = int(match.group(1))
        try:
            run(port, request, status, args.warmup, args.pipeline)
            control(server.pid, "--zero")
            run(port, request, status, args.requests, args.pipeline)
        except WrongAnswer as wrong:
            sys.exit(f"{args.peer} answers {args.scenario} wrongly: {wrong}")
        control(server.pid, "--dump")
        time.sleep(0.5)
        dumps = sorted(glob.glob(f"{out}.*"))
        if not dumps:
            raise RuntimeError("callgrind wrote no dump")
        events = totals(dumps[-1])
        print(f"{args.peer} {args.scenario} pipeline={args.pipeline}: "
              f"{events['Ir'] / args.requests:.0f} instructions/request "
              f"({args.requests} requests, every answer {status})")
        if args.cache_sim:
            print(f"instruction cache misses: {events['I1mr'] / args.requests:.1f}/request")
        if args.keep:
            print(f"dump: {dumps[-1]}")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
