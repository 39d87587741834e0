"""``tavli-pi director``: the tournament director's live page of every table."""

from __future__ import annotations

import argparse
import os
import threading

from tavli_pi.tournament.director import Director
from tavli_pi.tournament.feed import FeedSettings, parse_broker

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
    parser.add_argument("--host", default="0.0.0.0", help="address the page listens on (default %(default)s)")
    parser.add_argument("--port", type=int, default=8090, help="port of the page (default %(default)s)")


def settings_from(args: argparse.Namespace) -> FeedSettings:
    host, port = parse_broker(args.broker, 8883 if args.tls_ca else 1883)
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


def run(args: argparse.Namespace, stop: threading.Event | None = None) -> int:
    director = Director(settings_from(args), host=args.host, port=args.port)
    director.start()
    print(f"director page on {director.server.url} ; broker {args.broker}, event {args.event!r}", flush=True)
    try:
        (stop or threading.Event()).wait()
    finally:
        director.close()
    return 0
