"""``tavli-pi director``: the tournament director's live page of every table.

The page listens on ``--host`` exactly (127.0.0.1 by default: this machine
only); ``--host 0.0.0.0`` opens it to every interface. A bad ``--host``,
``--port`` or ``--broker`` is one line on stderr and exit status 2. A broker
that cannot be reached is logged (stderr) and shown on the page until it is back.
"""

from __future__ import annotations

import argparse
import logging
import os
import threading
from typing import TYPE_CHECKING

from tavli_pi.commands.stopping import stop_on_signals

if TYPE_CHECKING:  # aiohttp and paho load only when the director runs (issue 12: fast start-up)
    from tavli_pi.tournament.feed import FeedSettings

HELP = "serve a live page of every table, fed by the tables over MQTT"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", default="localhost:1883", help="MQTT broker HOST:PORT (default %(default)s)")
    parser.add_argument("--event", default="+", help="event slug to follow; '+' follows every event (default)")
    parser.add_argument("--username", default=None, help="broker user name")
    parser.add_argument(
        "--password", default=None, help="broker password (or set TAVLI_MQTT_PASSWORD to keep it off the command line)"
    )
    parser.add_argument("--tls-ca", default=None, help="CA certificate file: connect with TLS and check the broker")
    parser.add_argument("--tls-insecure", action="store_true", help="with TLS, skip the broker host-name check")
    parser.add_argument("--client-id", default=None, help="MQTT client id; the broker keeps this director's queue")
    parser.add_argument(
        "--host", default="127.0.0.1",
        help="address the page listens on (default %(default)s: this machine only; 0.0.0.0: every interface)",
    )
    parser.add_argument("--port", default="8090", help="port of the page, 1-65535 (default %(default)s)")
    parser.add_argument("--max-tables", default="200",
                        help="tables followed at most; messages of more are refused (default %(default)s)")


def port_from(text: str) -> int:
    """``--port`` as an int 1-65535, else a one-line DirectorError."""
    from tavli_pi.tournament.director import DirectorError, check_port

    try:
        port = int(text.strip())
    except ValueError:
        raise DirectorError(f"--port {text!r} is not a number: use 1-65535, e.g. --port 8090") from None
    return check_port(port)


def max_tables_from(text: str) -> int:
    """``--max-tables`` as an int 1-100000, else a one-line DirectorError."""
    from tavli_pi.tournament.director import DirectorError

    try:
        n = int(text.strip())
    except ValueError:
        n = 0
    if not 1 <= n <= 100_000:
        raise DirectorError(f"--max-tables {text!r} is not a number 1-100000: e.g. --max-tables 200")
    return n


def settings_from(args: argparse.Namespace) -> FeedSettings:
    from tavli_pi.tournament.feed import FeedSettings, parse_broker, topic

    host, port = parse_broker(args.broker, 8883 if args.tls_ca else 1883)
    if args.event != "+":
        topic(args.event, "+", "events")  # a FeedError for an event slug that is no topic level
    return FeedSettings(
        host=host,
        port=port,
        event_slug=args.event,
        username=args.username,
        password=args.password if args.password is not None else os.environ.get("TAVLI_MQTT_PASSWORD"),
        tls_ca=args.tls_ca,
        tls_insecure=args.tls_insecure,
        client_id=args.client_id,
    )


def _log_to_stderr() -> None:
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def run(args: argparse.Namespace, stop: threading.Event | None = None) -> int:
    from tavli_pi.tournament.director import Director

    port = port_from(str(args.port))
    max_tables = max_tables_from(str(args.max_tables))
    settings = settings_from(args)
    _log_to_stderr()
    director = Director(settings, host=args.host, port=port, max_tables=max_tables)
    stop = stop or threading.Event()
    # the handlers go in before the page is announced: a Ctrl-C (or SIGTERM) sent as soon as the
    # line is read must stop the director, not fall on an inherited SIG_IGN (a CI run hung so)
    with stop_on_signals(stop):
        try:
            director.start()
            url = director.server.url
            where = ""
            if director.server.every_interface:
                where = f" (every interface: from another device open http://<this machine's address>:{director.server.port}/)"
            print(f"director page on {url}{where} ; broker {args.broker}, event {args.event!r}", flush=True)
            stop.wait()
        finally:
            director.close()
    return 0
