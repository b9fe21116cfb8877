#!/usr/bin/env python3
"""Soak of the HTTP example (Docs/Reliability.md, "Soak"): not a unit test, and not in CI.

Runs `service-lifecycle-example` (nested package Integrations/ServiceLifecycle, release build) on a loopback
port and, at the same time:

- sends --requests requests over --connections keep-alive connections: `GET /items/{id}` (a request scope,
  a scoped service, the store singleton; one in eight in a session) and, one in four, `GET /admin/items/{id}`
  (the host's router, through both global interceptors, in a request scope);
- makes --reloads reloads that switch `TrafficModule` off and on: it rewrites the modules file (a new file
  renamed over the old), sends SIGHUP, and waits until `GET /admin/modules` shows the change;
- makes --cycles register/remove cycles of `ProbeModule` (`POST /admin/probe/register`, then `/remove`).

It samples the server's resident memory and open file descriptors once a second, and reports, for each
tenth of the requests, their p50 and p99 latency and the memory and descriptors at its end. Then SIGTERM.

It passes when: every request got exactly one answer, and every answer is the one expected (200 for the
load, the reloads' checks and the cycles); memory after warm-up (the first tenth of the requests) stays
within --rss-growth of its value at the end of warm-up; the descriptors after the load are those before it,
and during it at most one per connection and four more (the reloads' and cycles' own connections, and the
files a reload reads); the server exits 0 with no scope in flight.

    swift build -c release --package-path Integrations/ServiceLifecycle --product service-lifecycle-example
    Scripts/soak.py                                    # 1,000,000 requests, 10,000 reloads, 10,000 cycles
    Scripts/soak.py --requests 20000 --reloads 20000 --cycles 20000 --connections 4 --heaptrack   # leaks

Exit 0 when it passes, 1 when it does not, 2 when it could not run.
"""

import argparse
import asyncio
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "Integrations/ServiceLifecycle/.build/release/service-lifecycle-example")
TOKEN = "soak-admin-token"


class Failure(Exception):
    """Something the soak expected did not happen."""


class Connection:
    """One keep-alive HTTP/1.1 connection to the server."""

    def __init__(self, port):
        self.port = port
        self.reader = None
        self.writer = None

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def request(self, method, path, headers=()):
        """Sends one request and reads its answer: (status, body)."""
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Length: 0", *headers, "", ""]
        self.writer.write("\r\n".join(lines).encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        match = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
        if match is None:
            raise Failure(f"{method} {path}: an answer without Content-Length: {head!r}")
        body = await self.reader.readexactly(int(match.group(1)))
        return status, body

    def close(self):
        if self.writer is not None:
            self.writer.close()


class Server:
    """The example as a child process, its standard output in a file."""

    def __init__(self, binary, workdir, heaptrack):
        self.modules_file = os.path.join(workdir, "modules.conf")
        self.write_modules(traffic_on=True)
        self.transcript_path = os.path.join(workdir, "transcript.txt")
        self.heaptrack_prefix = os.path.join(workdir, "heaptrack") if heaptrack else None
        arguments = [
            binary, "--port", "0", "--drain-delay", "0", "--admin-token", TOKEN,
            "--modules-file", self.modules_file,
        ]
        if heaptrack:
            arguments = ["heaptrack", "-o", self.heaptrack_prefix, *arguments]
        self.transcript = open(self.transcript_path, "w")
        self.errors = open(os.path.join(workdir, "stderr.txt"), "w")
        self.process = subprocess.Popen(arguments, stdout=self.transcript, stderr=self.errors)
        self.pid = None
        self.port = None

    def write_modules(self, traffic_on):
        """Writes the modules file beside the old one and renames it over: a reload reads one or the other."""
        new = self.modules_file + ".new"
        with open(new, "w") as file:
            file.write(f"# written by Scripts/soak.py\nTrafficModule = {'on' if traffic_on else 'off'}\n")
        os.replace(new, self.modules_file)

    def lines(self):
        with open(self.transcript_path) as file:
            return file.read().splitlines()

    async def wait_until_ready(self, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise Failure(f"the server exited with {self.process.returncode} before it was ready")
            lines = self.lines()
            for line in lines:
                match = re.fullmatch(r"listening 127\.0\.0\.1:(\d+)", line)
                if match:
                    self.port = int(match.group(1))
            if self.port and "host: ready" in lines:
                self.pid = self.server_pid()
                return
            await asyncio.sleep(0.05)
        raise Failure("the server was not ready within a minute")

    def server_pid(self):
        """The example's own pid: under heaptrack, the child of the wrapper's shell."""
        if self.heaptrack_prefix is None:
            return self.process.pid
        name = os.path.basename(BINARY)
        found = subprocess.run(["pgrep", "-n", "-f", f"^[^ ]*{name} --port 0"], capture_output=True, text=True)
        return int(found.stdout.split()[0])

    def sample(self):
        """(resident memory in KiB, open file descriptors) of the server now."""
        with open(f"/proc/{self.pid}/status") as file:
            rss = next(int(line.split()[1]) for line in file if line.startswith("VmRSS:"))
        return rss, len(os.listdir(f"/proc/{self.pid}/fd"))

    def stop(self, timeout=60):
        os.kill(self.pid, signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise Failure(f"the server did not exit within {timeout} s of SIGTERM")


class Soak:
    def __init__(self, server, options):
        self.server = server
        self.options = options
        self.sent = 0
        self.answered = 0
        self.unexpected = []  # (what, status, body), the first few
        self.unexpected_count = 0
        self.latencies = []  # ns, in the order the answers came
        self.samples = []  # (seconds since start, requests answered, rss KiB, fds)
        self.reloads = 0
        self.cycles = 0
        self.load_done = asyncio.Event()

    def expect(self, what, status, body, expected=200):
        if status != expected:
            self.unexpected_count += 1
            if len(self.unexpected) < 10:
                self.unexpected.append((what, status, body[:300]))

    async def load_connection(self, index):
        connection = Connection(self.server.port)
        await connection.open()
        rng = random.Random(index)
        auth = f"Authorization: Bearer {TOKEN}"
        try:
            while self.sent < self.options.requests:
                self.sent += 1
                item = rng.randint(1, 100)
                if rng.random() < 0.25:
                    path, headers = f"/admin/items/{item}", (auth,)
                else:
                    path, headers = f"/items/{item}", ()
                if rng.random() < 0.125:
                    headers = (*headers, f"X-Session: soak-{rng.randint(1, 200)}")
                start = time.perf_counter_ns()
                status, body = await connection.request("GET", path, headers)
                self.latencies.append(time.perf_counter_ns() - start)
                self.answered += 1
                self.expect(f"GET {path}", status, body)
        finally:
            connection.close()

    async def admin(self, connection, method, path):
        return await connection.request(method, path, (f"Authorization: Bearer {TOKEN}",))

    async def reload_loop(self):
        connection = Connection(self.server.port)
        await connection.open()
        try:
            for reload in range(self.options.reloads):
                traffic_on = reload % 2 == 1  # off, on, off, on, ...: it ends on
                self.server.write_modules(traffic_on)
                os.kill(self.server.pid, signal.SIGHUP)
                deadline = time.monotonic() + 10
                while True:
                    status, body = await self.admin(connection, "GET", "/admin/modules")
                    self.expect("GET /admin/modules", status, body)
                    if (b".TrafficModule\"" in body) == traffic_on:
                        break
                    if time.monotonic() > deadline:
                        raise Failure(f"reload {reload + 1}: TrafficModule still {'off' if traffic_on else 'on'} after 10 s")
                    await asyncio.sleep(0.001)
                self.reloads += 1
        finally:
            connection.close()

    async def cycle_loop(self):
        connection = Connection(self.server.port)
        await connection.open()
        try:
            for _ in range(self.options.cycles):
                for path in ("/admin/probe/register", "/admin/probe/remove"):
                    status, body = await self.admin(connection, "POST", path)
                    self.expect(f"POST {path}", status, body)
                self.cycles += 1
        finally:
            connection.close()

    async def sampler(self, started):
        while not self.load_done.is_set():
            rss, fds = self.server.sample()
            self.samples.append((time.monotonic() - started, self.answered, rss, fds))
            try:
                await asyncio.wait_for(self.load_done.wait(), 1)
            except asyncio.TimeoutError:
                pass

    async def run(self):
        before = self.server.sample()
        started = time.monotonic()
        sampler = asyncio.create_task(self.sampler(started))
        load = asyncio.gather(*(self.load_connection(i) for i in range(self.options.connections)))
        churn = asyncio.gather(self.reload_loop(), self.cycle_loop())
        await asyncio.gather(load, churn)
        self.elapsed = time.monotonic() - started
        self.load_done.set()
        await sampler
        await asyncio.sleep(0.5)  # the server closes the connections the clients closed
        after = self.server.sample()
        self.samples.append((time.monotonic() - started, self.answered, *after))
        return before, after


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(soak, before, after, options):
    """Prints the figures; returns the failures."""
    failures = []
    tenth = max(1, len(soak.latencies) // 10)
    print(f"\n{soak.answered:,} requests over {options.connections} connections in {soak.elapsed:.1f} s "
          f"({soak.answered / soak.elapsed:,.0f} per second), {soak.reloads:,} reloads, "
          f"{soak.cycles:,} register/remove cycles\n")
    print("| requests | p50 | p99 | RSS at its end | descriptors |")
    print("|---:|---:|---:|---:|---:|")
    for index in range(10):
        window = soak.latencies[index * tenth:(index + 1) * tenth]
        if not window:
            continue
        last = (index + 1) * tenth
        sample = next((s for s in soak.samples if s[1] >= last), soak.samples[-1])
        print(f"| {index * tenth + 1:,}–{last:,} | {percentile(window, 0.5) / 1000:,.0f} µs | "
              f"{percentile(window, 0.99) / 1000:,.0f} µs | {sample[2] / 1024:.1f} MiB | {sample[3]} |")

    if soak.answered != soak.sent or soak.answered != options.requests:
        failures.append(f"lost requests: {soak.sent:,} sent, {soak.answered:,} answered")
    if soak.unexpected_count:
        failures.append(f"{soak.unexpected_count} unexpected answers, the first: {soak.unexpected}")
    if soak.reloads != options.reloads or soak.cycles != options.cycles:
        failures.append(f"{soak.reloads} reloads of {options.reloads}, {soak.cycles} cycles of {options.cycles}")

    warm = [s for s in soak.samples if s[1] >= tenth]
    if warm:
        base = warm[0][2]
        peak = max(s[2] for s in warm)
        final = soak.samples[-1][2]
        growth = (final - base) / base
        print(f"\nmemory: {before[0] / 1024:.1f} MiB before the load, {base / 1024:.1f} MiB after warm-up "
              f"({tenth:,} requests), peak {peak / 1024:.1f} MiB, {final / 1024:.1f} MiB at the end: "
              f"{growth * 100:+.1f} % since warm-up (bound {options.rss_growth * 100:.0f} %)")
        if growth > options.rss_growth:
            failures.append(f"memory grew {growth * 100:.1f} % after warm-up, more than {options.rss_growth * 100:.0f} %")
    most = max(s[3] for s in soak.samples)
    print(f"descriptors: {before[1]} before the load, at most {most} during it, {after[1]} after it")
    if after[1] != before[1]:
        failures.append(f"descriptors: {before[1]} before the load, {after[1]} after it")
    # One per connection, the two the reloads and cycles keep, and two for files a reload reads meanwhile.
    if most > before[1] + options.connections + 4:
        failures.append(f"descriptors: {most} during the load, more than one per connection (and 4) over {before[1]}")
    return failures


# Sites that hold a bounded amount whatever the run's length, larger than the threshold of a default run:
# the journal's ring of deliveries (ApplicationHost.Configuration.journalCapacity, 1,024 by default).
BOUNDED = [r"DeliveryJournal"]


def size_in_bytes(text):
    """heaptrack's sizes: `832B`, `48.10K`, `1.07M`."""
    match = re.fullmatch(r"([\d.]+)([BKMG]?)", text)
    return float(match.group(1)) * {"": 1, "B": 1, "K": 1024, "M": 1024**2, "G": 1024**3}[match.group(2)]


def heaptrack_leaks(server, work):
    """The sites in the package's code whose blocks still allocated at exit come to at least 4 bytes per unit
    of work (the smallest of the requests, reloads and cycles run): a leak that grows with the run.

    What a process still holds when it exits counts as "leaked" to heaptrack as well, but it is bounded: the
    host, the runtime's metadata caches, the event loops, and the histories (the journal keeps 1,024
    deliveries, so it holds the names of the last few hundred registered modules, about 35 KiB). Run long
    enough that those are small per unit of work (the heaptrack run's defaults make 20,000 of each), and a
    site that keeps a few bytes per request, reload or cycle stands out. heaptrack's call count is every
    allocation the site made, not what is left, so the size is what is judged. Blocks libdispatch allocates
    for its continuations are its own, whatever code enqueued them: they are listed apart."""
    files = [f for f in os.listdir(os.path.dirname(server.heaptrack_prefix)) if f.startswith("heaptrack.")]
    if not files:
        raise Failure("heaptrack wrote no file")
    path = os.path.join(os.path.dirname(server.heaptrack_prefix), files[0])
    printed = subprocess.run(["heaptrack_print", "--print-leaks", "1", "--print-peaks", "0",
                              "--print-allocators", "0", "--print-temporary", "0", path],
                             capture_output=True, text=True).stdout
    print("\nheaptrack:", *[line for line in printed.splitlines() if line.startswith("total memory leaked")])
    unit = min(count for count in work if count > 0)
    threshold = 4 * unit
    leaks = printed[printed.find("MEMORY LEAKS"):]
    # Each site: "<size> leaked over <n> calls from:", then its frames, each a symbol line maybe followed by
    # "at <file>" and "in <binary>" lines.
    sites = re.split(r"\n(?=\s*\S+ leaked over \d+ calls from:)", leaks)
    ours, dispatch = [], []
    for site in sites:
        match = re.match(r"\s*(\S+) leaked over (\d+) calls from:", site)
        if not match or size_in_bytes(match.group(1)) < threshold:
            continue
        symbols = [line.strip() for line in site.splitlines()[1:] if not re.match(r"\s*(at|in) ", line)]
        package = [symbol for symbol in symbols if re.search(r"Lifecycle[A-Z]|service_lifecycle_example", symbol)]
        if not package or any(re.search(pattern, symbol) for pattern in BOUNDED for symbol in package):
            continue
        allocator = next((symbol for symbol in symbols if not symbol.startswith(("swift_", "malloc", "operator new"))), "")
        line = f"{match.group(1)} ({size_in_bytes(match.group(1)) / unit:.1f} bytes per unit), from {package[0]}"
        (dispatch if allocator.startswith("_dispatch_") else ours).append(line)
    return path, threshold, ours, dispatch


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=1_000_000)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--reloads", type=int, default=10_000)
    parser.add_argument("--cycles", type=int, default=10_000)
    parser.add_argument("--rss-growth", type=float, default=0.05,
                        help="the most memory may grow after warm-up, as a fraction (0.05)")
    parser.add_argument("--binary", default=os.environ.get("SERVICE_LIFECYCLE_EXAMPLE", BINARY))
    parser.add_argument("--heaptrack", action="store_true", help="run the server under heaptrack")
    options = parser.parse_args()
    if not os.access(options.binary, os.X_OK):
        print(f"{options.binary} is missing: swift build -c release --package-path Integrations/ServiceLifecycle "
              "--product service-lifecycle-example", file=sys.stderr)
        return 2

    workdir = tempfile.mkdtemp(prefix="soak-")
    print(f"soak: {options.requests:,} requests, {options.connections} connections, {options.reloads:,} reloads, "
          f"{options.cycles:,} cycles; the server's output in {workdir}")
    server = Server(options.binary, workdir, options.heaptrack)
    try:
        await server.wait_until_ready()
        soak = Soak(server, options)
        before, after = await soak.run()
        failures = report(soak, before, after, options)
    except Failure as failure:
        server.process.kill()
        print(f"soak: FAILED: {failure}")
        return 1
    status = server.stop()
    lines = server.lines()
    print(f"exit: {status}; " + "; ".join(line for line in lines if line.startswith(("scopes in flight", "exit:"))))
    if status != 0 or "exit: clean" not in lines:
        failures.append(f"the server exited with {status}, not cleanly")
    if "scopes in flight: 0" not in lines:
        failures.append("scopes were still in flight after shutdown")
    if options.heaptrack:
        path, threshold, ours, dispatch = heaptrack_leaks(server, (options.requests, options.reloads, options.cycles))
        print(f"  sites in the package's code that still held {threshold:,} bytes or more: {len(ours)} ({path})")
        for site in ours[:5]:
            print(f"  {site}")
        for site in dispatch:
            print(f"  libdispatch's continuations, enqueued by the package: {site}")
        if ours:
            failures.append(f"{len(ours)} leak sites that grow with the run (heaptrack_print --print-leaks 1 {path})")
    if failures:
        print("soak: FAILED:", *failures, sep="\n  ")
        return 1
    print("soak: passed")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
