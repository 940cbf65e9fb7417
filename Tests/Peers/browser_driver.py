"""Drives Debian's chromium through selenium for Earshot's browser tests, one command at a time.

The Swift test writes one JSON command per line on stdin and reads one JSON answer per line on
stdout ({"ok": true, "value": ...} or {"ok": false, "error": "..."}), so that it can play audio,
kill and restart the daemon, and ask the daemon, between the browser's steps.

Commands: open {url}, eval {expr} (a JavaScript expression), wait {expr, timeout} (until the
expression is truthy), samples {expr, seconds, every} (the expression's values over time),
click {selector}, select {selector, text}, screenshot {name}, text {selector}, serve {html} (a page
of another origin, on a port of our own: answers its URL), quit.

Nothing leaves the machine: chromedriver is Debian's (/usr/bin/chromedriver), Selenium Manager is
kept offline (SE_OFFLINE) and quiet (SE_AVOID_STATS), and chromium runs without its background
services. `--host-resolver-rules` maps evil.example to 127.0.0.1, as a rebound DNS name would.
"""

import http.server
import json
import os
import sys
import threading
import time

os.environ["SE_OFFLINE"] = "true"
os.environ["SE_AVOID_STATS"] = "true"

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

SCREENSHOTS = os.environ.get("EARSHOT_SCREENSHOTS", ".build/screenshots")


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=420,800",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-default-apps", "--no-first-run", "--no-pings", "--disable-domain-reliability",
        "--disable-client-side-phishing-detection", "--disable-breakpad", "--metrics-recording-only",
        "--disable-features=OptimizationHints,MediaRouter,Translate,AutofillServerCommunication",
        "--host-resolver-rules=MAP evil.example 127.0.0.1",
    ]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


class ForeignPage(http.server.BaseHTTPRequestHandler):
    html = b""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(ForeignPage.html)))
        self.end_headers()
        self.wfile.write(ForeignPage.html)

    def log_message(self, *arguments):
        pass


def main():
    driver = browser()
    foreign = None
    try:
        for line in sys.stdin:
            command = json.loads(line)
            try:
                value = run(driver, command)
                if command["cmd"] == "serve":
                    ForeignPage.html = command["html"].encode()
                    if foreign is None:
                        foreign = http.server.ThreadingHTTPServer(("127.0.0.1", 0), ForeignPage)
                        threading.Thread(target=foreign.serve_forever, daemon=True).start()
                    value = "http://127.0.0.1:%d/" % foreign.server_address[1]
                answer = {"ok": True, "value": value}
            except Exception as error:  # every failure goes back to the test, in words
                answer = {"ok": False, "error": "%s: %s" % (type(error).__name__, error)}
            print(json.dumps(answer), flush=True)
            if command["cmd"] == "quit":
                break
    finally:
        driver.quit()
        if foreign is not None:
            foreign.shutdown()


def run(driver, command):
    kind = command["cmd"]
    if kind == "open":
        driver.get(command["url"])
        return driver.current_url
    if kind == "eval":
        return driver.execute_script("return (" + command["expr"] + ");")
    if kind == "wait":
        deadline = time.monotonic() + command.get("timeout", 10)
        while time.monotonic() < deadline:
            value = driver.execute_script("return (" + command["expr"] + ");")
            if value:
                return value
            time.sleep(0.02)
        raise TimeoutError("%s stayed false for %s s; body: %s" % (
            command["expr"], command.get("timeout", 10),
            driver.execute_script("return JSON.stringify(document.body.dataset);")))
    if kind == "samples":
        values = []
        deadline = time.monotonic() + command["seconds"]
        while time.monotonic() < deadline:
            values.append(driver.execute_script("return (" + command["expr"] + ");"))
            time.sleep(command.get("every", 0.05))
        return values
    if kind == "click":
        driver.find_element(By.CSS_SELECTOR, command["selector"]).click()
        return True
    if kind == "select":
        Select(driver.find_element(By.CSS_SELECTOR, command["selector"])).select_by_visible_text(command["text"])
        return True
    if kind == "text":
        return driver.find_element(By.CSS_SELECTOR, command["selector"]).text
    if kind == "screenshot":
        os.makedirs(SCREENSHOTS, exist_ok=True)
        path = os.path.join(SCREENSHOTS, command["name"] + ".png")
        driver.save_screenshot(path)
        return path
    if kind in ("serve", "quit"):
        return None
    raise ValueError("unknown command %r" % kind)


if __name__ == "__main__":
    main()
