"""First contentful paint of the lobby and the play page on a throttled phone (issue 79 point 8).

Starts `robotable serve` on a fresh database, makes a Stak Bots table (a person against the
random AI), then opens each page in Debian's chromium through Playwright at a phone's size, with
the network and CPU throttled through the Chrome DevTools Protocol: 150 ms latency, 1.6 Mbps
down, 750 kbps up (a "Fast 3G"-like profile) and the CPU 4 times slower. Every run is a new
browser context (nothing cached). Reports, per page, the median first contentful paint
(`performance.getEntriesByType('paint')`) over the runs, when the page is usable (the lobby's
games listed, the table's board drawn from its first frame), and what was fetched: before the
paint, and in all, requests and bytes on the wire (compressed where the server compresses).

    .venv/bin/python scripts/first_paint.py [--runs 5] [--no-throttle]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
LATENCY_MS = 150
DOWN_BPS = 1.6e6
UP_BPS = 750e3
CPU_SLOWDOWN = 4

# When the page is usable: the lobby marks body[data-ready=true] once its games are listed; the
# play page's body[data-step] leaves -1 when the first frame's board is drawn.
USABLE = """
new MutationObserver((changes, watch) => {
  const body = document.body;
  if (body && (body.dataset.ready === 'true' || (body.dataset.step && body.dataset.step !== '-1'))) {
    window.__usable = performance.now();
    watch.disconnect();
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready', 'data-step'] });
"""

MEASURE = """() => new Promise((resolve) => {
  const done = () => {
    const fcp = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
    if (!fcp || document.readyState !== 'complete' || window.__usable === undefined) return false;
    const nav = performance.getEntriesByType('navigation')[0];
    const before = performance.getEntriesByType('resource').filter((r) => r.startTime < fcp.startTime);
    const all = performance.getEntriesByType('resource');
    resolve({
      fcp: fcp.startTime,
      usable: window.__usable,
      dcl: nav ? nav.domContentLoadedEventEnd : null,
      html: nav ? nav.transferSize : 0,
      before: before.length,
      before_bytes: before.reduce((n, r) => n + r.transferSize, 0),
      requests: all.length + 1,
      bytes: all.reduce((n, r) => n + r.transferSize, 0) + (nav ? nav.transferSize : 0),
      decoded: all.reduce((n, r) => n + r.decodedBodySize, 0) + (nav ? nav.decodedBodySize : 0),
    });
    return true;
  };
  // Measured once the page has loaded (its modules fetched), the paint taken from the buffer.
  if (!done()) {
    const again = () => { if (!done()) setTimeout(again, 50); };
    window.addEventListener('load', () => setTimeout(again, 0), { once: true });
  }
})"""


def serve(db: Path) -> tuple[subprocess.Popen, str]:
    args = ["serve", "--port", "0", "--db", str(db), "--ai-delay", "0", "--ai-workers", "0"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "robotable", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    for line in proc.stdout:
        if line.startswith("Open http://"):
            return proc, line.split()[1].rstrip("/")
    proc.kill()
    raise SystemExit("robotable serve exited before listening")


def measure(browser, url: str, throttle: bool) -> dict:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(USABLE)
    page = context.new_page()
    if throttle:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": LATENCY_MS,
                "downloadThroughput": DOWN_BPS / 8,
                "uploadThroughput": UP_BPS / 8,
            },
        )
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.goto(url, wait_until="commit")
    result = page.evaluate(MEASURE)
    context.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per page (median reported)")
    parser.add_argument("--no-throttle", action="store_true", help="no network or CPU throttling")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        proc, base = serve(Path(tmp) / "tables.sqlite3")
        try:
            seats = [{"kind": "human", "name": "Ada"}, {"kind": "ai", "ai": "random"}]
            created = httpx.post(
                base + "/api/tables",
                json={"game": "stakbots", "num_players": 2, "seats": seats, "seed": 1},
            ).json()
            pages = {"lobby": base + "/", "play page": base + created["seats"][0]["join_url"]}
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless"])
                profile = (
                    "no throttling"
                    if args.no_throttle
                    else f"{LATENCY_MS} ms latency, {DOWN_BPS / 1e6:g} Mbps down, "
                    f"{UP_BPS / 1e3:g} kbps up, CPU x{CPU_SLOWDOWN}"
                )
                print(f"first contentful paint at 390x844, {profile}, median of {args.runs} runs")
                print("| page | first paint | usable | DOMContentLoaded | fetched before the paint |"
                      " all requests | bytes on the wire (unpacked) |")  # fmt: skip
                print("|---|---|---|---|---|---|---|")
                for name, url in pages.items():
                    runs = [measure(browser, url, not args.no_throttle) for _ in range(args.runs)]
                    fcp = statistics.median(r["fcp"] for r in runs)
                    dcl = statistics.median(r["dcl"] for r in runs)
                    usable = statistics.median(r["usable"] for r in runs)
                    last = runs[-1]
                    print(
                        f"| {name} | {fcp:.0f} ms | {usable:.0f} ms | {dcl:.0f} ms | "
                        f"{last['before']} requests, "
                        f"{(last['before_bytes'] + last['html']) / 1024:.1f} KiB with the page | "
                        f"{last['requests']} | {last['bytes'] / 1024:.1f} KiB "
                        f"({last['decoded'] / 1024:.1f} KiB) |"
                    )
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
