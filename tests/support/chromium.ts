/**
 * Headless Chromium for the browser tests: started with a fresh profile in
 * /tmp and every flag that keeps it off the network, driven over DevTools
 * ({@link Cdp}), and killed with its profile removed when the test ends.
 * Debian's `chromium`, its `chromium-headless-shell` and Google Chrome all
 * take these flags. A missing browser is an error, never a skip: the view is
 * only tested where a browser runs.
 */
import { Cdp } from "./cdp.ts";
import { Tab } from "./browser_tab.ts";
import { INSTALL_HINT } from "../../scripts/find_browser.ts";

/**
 * The browser: CHROME_PATH, which `deno task test` sets to the one it found or
 * installed and grants alone in `--allow-run` (scripts/with_browser.ts);
 * Debian's `chromium` for a bare `deno test` without it.
 */
export const CHROMIUM = Deno.env.get("CHROME_PATH") || "/usr/bin/chromium";

/** Flags that keep a headless Chromium quiet: no GPU, no Google services, no first-run UI. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-breakpad",
  "--disable-crash-reporter",
  "--hide-scrollbars",
  "--remote-debugging-port=0",
];

/** A running browser: open tabs, then close it (which also removes its profile). */
export interface Browser {
  cdp: Cdp;
  /** Opens a tab at `url` with `bindings` installed before the page's first script runs. */
  open(url: string, options?: OpenOptions): Promise<Tab>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** How a tab opens. */
export interface OpenOptions {
  /** Names of `window.<name>(string)` functions the page calls to reach the test. */
  bindings?: string[];
  /** The viewport, in CSS pixels (default 900 × 700). */
  width?: number;
  height?: number;
}

/** Starts Chromium; throws one actionable line when it is missing or does not start. */
export async function launchChromium(): Promise<Browser> {
  const profile = await Deno.makeTempDir({ prefix: "bitbucket-mcp-chromium-" });
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(CHROMIUM, {
      args: [...FLAGS, `--user-data-dir=${profile}`, "about:blank"],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    await Deno.remove(profile, { recursive: true });
    if (error instanceof Deno.errors.NotCapable) {
      throw new Error(
        `Cannot start the browser: ${CHROMIUM} is not in this run's --allow-run (hint: run the tests with \`deno task test\`, which grants the browser it finds, or add it to --allow-run)`,
      );
    }
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    throw new Error(
      `Cannot start the browser: ${CHROMIUM} is missing (hint: run the tests with \`deno task test\`, which finds or installs one, or ${INSTALL_HINT})`,
    );
  }
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let cdp: Cdp | undefined;
  let drained: Promise<void> = Promise.resolve();
  try {
    const url = await devtoolsUrl(stderr);
    drained = drain(stderr);
    cdp = await Cdp.connect(url);
  } catch (error) {
    child.kill("SIGKILL");
    await stderr.cancel().catch(() => {});
    await child.status;
    await Deno.remove(profile, { recursive: true }).catch(() => {});
    throw error;
  }
  const browser = cdp;
  const tabs: Tab[] = [];
  let closing: Promise<void> | undefined;
  const close = () =>
    closing ??= (async () => {
      for (const tab of tabs) tab.dispose();
      await browser.send("Browser.close").catch(() => {});
      const exited = await Promise.race([
        child.status.then(() => true),
        new Promise<false>((resolve) => {
          const timer = setTimeout(() => resolve(false), 5000);
          child.status.finally(() => clearTimeout(timer));
        }),
      ]);
      if (!exited) child.kill("SIGKILL");
      await child.status;
      await browser.close();
      await drained;
      await removeProfile(profile);
    })();
  return {
    cdp: browser,
    async open(url, options = {}) {
      const tab = await Tab.open(browser, url, options);
      tabs.push(tab);
      return tab;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Reads Chromium's stderr until it names its DevTools endpoint (10 s at most). */
async function devtoolsUrl(stderr: ReadableStreamDefaultReader<string>): Promise<string> {
  let seen = "";
  const timer = setTimeout(() => stderr.cancel().catch(() => {}), 10_000);
  try {
    while (true) {
      const { value, done } = await stderr.read();
      if (done) break;
      seen += value;
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match) return match[1]!;
    }
  } finally {
    clearTimeout(timer);
  }
  const last = seen.trim().split("\n").slice(-3).join(" | ");
  throw new Error(`Cannot start the browser: ${CHROMIUM} printed no DevTools address (${last})`);
}

/** Keeps reading stderr so the browser never blocks on a full pipe; ends when it exits. */
async function drain(stderr: ReadableStreamDefaultReader<string>): Promise<void> {
  while (!(await stderr.read()).done) { /* Chromium's own log lines: not ours to show */ }
}

/** Removes the profile; Chromium's helpers may still be writing for a moment after it exits. */
async function removeProfile(profile: string): Promise<void> {
  for (let attempt = 0;; attempt++) {
    try {
      await Deno.remove(profile, { recursive: true });
      return;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      if (attempt >= 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
