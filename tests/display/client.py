"""A real HTTP client for the display tests, from a chosen loopback address (one "device" each)."""

from __future__ import annotations

import http.client
import json
import re
import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from tavli_pi.display.server import CSRF_HEADER


@dataclass
class Device:
    """One client machine: its source address; it reads the CSRF token from the page like a browser."""

    url: str
    source: str = "127.0.0.1"
    ssl_context: ssl.SSLContext | None = None

    def _conn(self) -> http.client.HTTPConnection:
        u = urlsplit(self.url)
        assert u.hostname is not None and u.port is not None
        if u.scheme == "https":
            return http.client.HTTPSConnection(u.hostname, u.port, timeout=10, source_address=(self.source, 0),
                                               context=self.ssl_context)
        return http.client.HTTPConnection(u.hostname, u.port, timeout=10, source_address=(self.source, 0))

    @property
    def origin(self) -> str:
        return self.url.rstrip("/")

    def get(self, path: str = "/") -> tuple[int, dict[str, str], bytes]:
        c = self._conn()
        try:
            c.request("GET", path)
            r = c.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        finally:
            c.close()

    def token(self) -> str:
        status, _, page = self.get("/")
        assert status == 200
        m = re.search(rb'<meta name="tavli-csrf" content="([^"]+)">', page)
        assert m is not None, "the page embeds no CSRF token"
        return m.group(1).decode()

    def post(self, body: Any, *, token: str | None = None, origin: str | None = "", host: str | None = None,
             content_type: str = "application/json") -> tuple[int, dict[str, Any], dict[str, str]]:
        """POST /api/input as the page does; pass origin=None / token="" to leave them out."""
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers = {"Content-Type": content_type}
        if origin is not None:
            headers["Origin"] = origin or self.origin
        tok = self.token() if token is None else token
        if tok:
            headers[CSRF_HEADER] = tok
        if host is not None:
            headers["Host"] = host
        c = self._conn()
        try:
            c.request("POST", "/api/input", body=data, headers=headers)
            r = c.getresponse()
            raw = r.read()
            return r.status, json.loads(raw), {k.lower(): v for k, v in r.getheaders()}
        finally:
            c.close()
