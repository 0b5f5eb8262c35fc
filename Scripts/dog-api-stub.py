#!/usr/bin/env python3
"""A local stand-in for the Dog CEO API that serves one picture (at one address or several), for timing `show` against
a server without the network:

    Scripts/dog-api-stub.py PORT PICTURE.jpg [FAILING [PICTURES]] &
    DogBreedsCLI show hound --base-url http://127.0.0.1:PORT/api

It answers the breed list (hound with two sub-breeds, and pug), a breed's pictures and a
random one with addresses that all serve PICTURE's bytes (under /breeds/hound-afghan/):
PICTURES of them (1 unless given), so that asking for another picture gets a different
address. With FAILING (a fraction, 0.3 say), that share of requests, chosen at random from a
fixed seed, fails with 503: a flaky server to record a session against (Docs/Usage.md,
"Reporting a bug with a recording"). It listens on 127.0.0.1 only. Development only."""
import http.server, json, random, sys

if len(sys.argv) < 3 or sys.argv[1] in ('-h', '--help'):
    print(__doc__)
    sys.exit(0 if sys.argv[1:2] in (['-h'], ['--help']) else 2)
port, picture = int(sys.argv[1]), sys.argv[2]
failing = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
count = int(sys.argv[4]) if len(sys.argv) > 4 else 1
chance = random.Random(68)
pick = random.Random(8)
addresses = [f'http://127.0.0.1:{port}/breeds/hound-afghan/dog{n}.jpg' if n else
             f'http://127.0.0.1:{port}/breeds/hound-afghan/dog.jpg' for n in range(count)]
breeds = {"message": {"hound": ["afghan", "basset"], "pug": []}, "status": "success"}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, *arguments):
        pass

    def send(self, body, kind):
        self.send_response(200)
        self.send_header('Content-Type', kind)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if chance.random() < failing:
            body = json.dumps({"message": "Service unavailable", "status": "error"}).encode()
            self.send_response(503)
            self.send_header('Content-Type', 'application/json')
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            return self.wfile.write(body)
        if self.path.endswith('/breeds/list/all'):
            return self.send(json.dumps(breeds).encode(), 'application/json')
        if self.path.endswith('/images/random'):
            return self.send(json.dumps({"message": pick.choice(addresses), "status": "success"}).encode(), 'application/json')
        if self.path.endswith('/images'):
            return self.send(json.dumps({"message": addresses, "status": "success"}).encode(), 'application/json')
        if self.path.startswith('/breeds/'):
            return self.send(open(picture, 'rb').read(), 'image/jpeg')
        self.send_response(404)
        self.send_header('Content-Length', '0')
        self.end_headers()


http.server.ThreadingHTTPServer(('127.0.0.1', port), Handler).serve_forever()
