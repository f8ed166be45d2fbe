"""A small W3C WebDriver client over HTTP (urllib only: no pip packages),
driving Debian's chromedriver and headless Chromium for the viewer's
tests. Only what the tests use: navigate, run a script, find, click,
type, screenshot."""
import base64
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request

ELEMENT = 'element-6066-11e4-a52e-4f735466cecf'


def find_browser():
    """(chromium, chromedriver) paths, or a reason they are missing."""
    chromium = shutil.which('chromium') or shutil.which('chromium-browser')
    driver = shutil.which('chromedriver') or ('/usr/bin/chromedriver' if os.path.exists('/usr/bin/chromedriver') else None)
    if not chromium or not driver:
        return None, None, 'chromium and chromedriver are not installed (ci/setup.sh installs chromium, chromium-driver)'
    return chromium, driver, None


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


class WebDriverError(Exception):
    pass


class Browser:
    def __init__(self, chromium, driver, width=1400, height=900):
        self.port = free_port()
        self.proc = subprocess.Popen([driver, f'--port={self.port}'], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        self.base = f'http://127.0.0.1:{self.port}'
        for _ in range(100):
            try:
                self._req('GET', '/status')
                break
            except (OSError, WebDriverError):
                time.sleep(0.1)
        caps = {'capabilities': {'alwaysMatch': {'browserName': 'chrome', 'goog:chromeOptions': {
            'binary': chromium,
            'args': ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
                     f'--window-size={width},{height}', '--allow-file-access-from-files']}}}}
        self.session = self._req('POST', '/session', caps)['sessionId']

    def _req(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={'Content-Type': 'application/json'})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                out = json.loads(r.read() or b'{}')
        except urllib.error.HTTPError as e:
            raise WebDriverError(e.read().decode(errors='replace')[:2000])
        v = out.get('value')
        return out if 'sessionId' in out else (v if not (isinstance(v, dict) and 'sessionId' in v) else v)

    def _s(self, method, path, body=None):
        return self._req(method, f'/session/{self.session}{path}', body)

    def get(self, url):
        self._s('POST', '/url', {'url': url})

    def js(self, script, *args):
        return self._s('POST', '/execute/sync', {'script': script, 'args': list(args)})

    def wait(self, script, timeout=30, what=''):
        """Polls script (a JS expression) until truthy; returns its value."""
        end = time.time() + timeout
        while True:
            v = self.js('return (' + script + ');')
            if v:
                return v
            if time.time() > end:
                raise WebDriverError(f'timed out waiting for {what or script}')
            time.sleep(0.2)

    def find(self, css):
        return self._s('POST', '/element', {'using': 'css selector', 'value': css})[ELEMENT]

    def click(self, css):
        """Clicks the element; found again when the page re-rendered it
        between the find and the click (a virtual list does)."""
        for attempt in range(10):
            try:
                self._s('POST', f'/element/{self.find(css)}/click', {})
                return
            except WebDriverError as e:
                if 'stale element' not in str(e) or attempt == 9:
                    raise
                time.sleep(0.2)

    def type(self, css, text):
        e = self.find(css)
        self._s('POST', f'/element/{e}/clear', {})
        self._s('POST', f'/element/{e}/value', {'text': text})

    def keys(self, text):
        """Key presses to the focused element (\\ue007 Enter, \\ue01f F3...)."""
        self._s('POST', '/actions', {'actions': [{'type': 'key', 'id': 'k', 'actions':
                 [a for ch in text for a in ({'type': 'keyDown', 'value': ch}, {'type': 'keyUp', 'value': ch})]}]})

    def screenshot(self, path):
        with open(path, 'wb') as f:
            f.write(base64.b64decode(self._s('GET', '/screenshot')))

    def quit(self):
        if self.proc.poll() is not None:
            return
        try:
            self._req('DELETE', f'/session/{self.session}')
        except Exception:
            pass
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
