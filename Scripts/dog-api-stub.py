#!/usr/bin/env python3
"""A local stand-in for the Dog CEO API that serves one picture, for timing `show` against
a server without the network:

    Scripts/dog-api-stub.py PORT PICTURE.jpg [FAILING] &
    DogBreedsCLI show hound --base-url http://127.0.0.1:PORT/api

It answers the breed list (hound with two sub-breeds, and pug), a breed's pictures and a
random one with the address of PICTURE (under /breeds/hound-afghan/), and the picture's
bytes. With FAILING (a fraction, 0.3 say), that share of requests, chosen at random from a
fixed seed, fails with 503: a flaky server to record a session against (Docs/Usage.md,
"Reporting a bug with a recording"). It listens on 127.0.0.1 only. Development only."""
import http.server, json, random, sys

port, picture = int(sys.argv[1]), sys.argv[2]
failing = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
chance = random.Random(68)
address = f'http://127.0.0.1:{port}/breeds/hound-afghan/dog.jpg'
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
            return self.send(json.dumps({"message": address, "status": "success"}).encode(), 'application/json')
        if self.path.endswith('/images'):
            return self.send(json.dumps({"message": [address], "status": "success"}).encode(), 'application/json')
        if self.path.startswith('/breeds/'):
            return self.send(open(picture, 'rb').read(), 'image/jpeg')
        self.send_response(404)
        self.send_header('Content-Length', '0')
        self.end_headers()


http.server.ThreadingHTTPServer(('127.0.0.1', port), Handler).serve_forever()
