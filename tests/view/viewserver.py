"""Starting `gltrace view` for a test and talking to it: the URL it
prints, raw HTTP requests (exact paths and headers, as a hostile client
sends them)."""
import http.client
import json
import re
import socket
import subprocess
import time


class Server:
    def __init__(self, gltrace, trace, *args, env=None):
        self.proc = subprocess.Popen([gltrace, 'view', trace, *args], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env)
        self.url = self.proc.stdout.readline().strip()  # printed once listening
        m = re.match(r'http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]+)$', self.url)
        self.port, self.token = (int(m.group(1)), m.group(2)) if m else (None, None)

    def ok(self):
        return self.port is not None

    def raw(self, path, host=None, headers=None, method='GET', token=True):
        """(status, headers dict, body bytes) of one request, path sent as is."""
        c = http.client.HTTPConnection('127.0.0.1', self.port, timeout=60)
        c.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        if host is not False:
            c.putheader('Host', f'127.0.0.1:{self.port}' if host is None else host)
        if token:
            c.putheader('X-Gltrace-Token', self.token)
        for k, v in (headers or {}).items():
            c.putheader(k, v)
        c.endheaders()
        r = c.getresponse()
        body = r.read()
        c.close()
        return r.status, dict(r.getheaders()), body

    def api(self, path):
        """The JSON of a GET that must answer 200."""
        st, _, body = self.raw(path)
        if st != 200:
            raise RuntimeError(f'{path}: HTTP {st}: {body[:300]!r}')
        return json.loads(body)

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        self.proc.terminate()
        try:
            out, err = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
        return self.proc.returncode, err


def non_loopback_address():
    """An IPv4 address of this machine other than 127.x, or None."""
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.connect(('192.0.2.1', 9))  # no packet is sent: only a route is chosen
        ip = s.getsockname()[0]
        s.close()
        if not ip.startswith('127.'):
            return ip
    except OSError:
        pass
    try:
        out = subprocess.run(['hostname', '-I'], capture_output=True, text=True).stdout.split()
        for ip in out:
            if re.match(r'\d+\.\d+\.\d+\.\d+$', ip) and not ip.startswith('127.'):
                return ip
    except OSError:
        pass
    return None


def wait_for(fn, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        v = fn()
        if v:
            return v
        time.sleep(0.2)
    return None
