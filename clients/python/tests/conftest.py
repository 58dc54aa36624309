"""A real Quarry server for the client tests, and a fixture per client and protocol.

The session starts scripts/test-server.ts (the embedded engine with known rows, on a free port)
with node from the repository root and stops it by its process id at the end. With QUARRY_URL
set, the tests use that server instead and start none.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from quarry_clients import CLIENTS, Quarry

REPO_ROOT = Path(__file__).resolve().parents[3]


def _start_server() -> tuple[subprocess.Popen[str], str]:
    if not (REPO_ROOT / "node_modules" / "tsx").is_dir():
        raise RuntimeError(f"{REPO_ROOT} has no node_modules/tsx: run `npm install` in the repository first")
    # node itself, not npx or the tsx CLI: the process id held here is the server's. Its stdin
    # stays open while this process lives; the server stops when it closes.
    process = subprocess.Popen(
        ["node", "--import", "tsx", "scripts/test-server.ts"],
        cwd=REPO_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    found: list[str] = []

    def read_url() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("QUARRY_URL="):
                found.append(line.strip().removeprefix("QUARRY_URL="))
                return

    reader = threading.Thread(target=read_url, daemon=True)
    reader.start()
    reader.join(timeout=180)
    if not found:
        _stop_server(process)
        raise RuntimeError(f"scripts/test-server.ts printed no QUARRY_URL (exit status {process.returncode})")
    return process, found[0]


def _stop_server(process: subprocess.Popen[str]) -> None:
    """SIGTERM to the server's process id; SIGKILL if it has not exited 20 s later."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if process.stdin:
        process.stdin.close()
    if process.stdout:
        process.stdout.close()


@pytest.fixture(scope="session")
def quarry_url() -> Iterator[str]:
    if url := os.environ.get("QUARRY_URL"):
        yield url.rstrip("/")
        return
    process, url = _start_server()
    try:
        yield url
    finally:
        _stop_server(process)
        assert process.returncode == 0, f"the test server exited with {process.returncode}"


@pytest.fixture(params=list(CLIENTS), scope="module")
def quarry(request: pytest.FixtureRequest, quarry_url: str) -> Iterator[Quarry]:
    yield from CLIENTS[request.param](quarry_url)
