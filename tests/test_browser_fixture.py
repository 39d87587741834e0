"""The shared Chromium fixture renders a local page (guards the page tests' setup)."""

from __future__ import annotations

import http.server
import threading
from typing import Any


def test_browser_renders_local_page(browser: Any, tmp_path: Any) -> None:
    (tmp_path / "index.html").write_text("<title>t</title><p id='x'>tavli</p>")

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a: Any, **k: Any) -> None:
            super().__init__(*a, directory=str(tmp_path), **k)

        def log_message(self, *a: Any) -> None:
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        browser.get(f"http://127.0.0.1:{srv.server_address[1]}/")
        assert browser.find_element("id", "x").text == "tavli"
    finally:
        srv.shutdown()
