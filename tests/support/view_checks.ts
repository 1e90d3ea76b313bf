/**
 * What the browser tests read of a view in its tab: its text, the requests
 * beyond the host page's own load and what the browser blocked, the errors
 * it threw, a screenshot kept for people, and the person's typing and
 * pressing, done the way a page sees them (input and change events).
 */
import type { Tab } from "./browser_tab.ts";
import { SCREENSHOT_DIR } from "./view_session.ts";

/** Requests beyond the host page's own load, and lines where the browser blocked something. */
export function leaks(tab: Tab, hostUrl: string): string[] {
  const requests = tab.requests.filter((r) => r.url !== hostUrl).map((r) => `${r.type} ${r.url}`);
  const blocked = tab.log.filter((l) => /Content Security Policy|blocked/i.test(l.text));
  return [...requests, ...blocked.map((l) => l.text)];
}

/** Errors the page threw or logged. */
export function pageErrors(tab: Tab): string[] {
  return tab.log.filter((l) => l.kind === "exception" || l.level === "error").map((l) => l.text);
}

/** The view's text in one element, or undefined. */
export function text(tab: Tab, selector: string): Promise<string | undefined> {
  return tab.evaluate(`document.querySelector(${JSON.stringify(selector)})?.textContent`, "view");
}

/** Keeps a picture of the whole view (as tall as it is) for people, as `<name>.png`. */
export async function screenshot(tab: Tab, name: string): Promise<void> {
  // The host sizes the frame as the view reports its height: give the report a moment.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const box = await tab.evaluate<{ x: number; y: number; width: number; height: number }>(
    `(() => { const r = document.getElementById("view").getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height }; })()`,
  );
  await Deno.mkdir(SCREENSHOT_DIR, { recursive: true });
  await Deno.writeFile(`${SCREENSHOT_DIR}/${name}.png`, await tab.screenshot(box), { mode: 0o600 });
}

/** Types `value` into the view's field `selector` as a person does: its value, then input and change. */
export function typeInto(tab: Tab, selector: string, value: string): Promise<unknown> {
  return tab.evaluate(
    `(() => { const box = document.querySelector(${JSON.stringify(selector)});
      box.value = ${JSON.stringify(value)};
      box.dispatchEvent(new Event("input", { bubbles: true }));
      box.dispatchEvent(new Event("change", { bubbles: true })); })()`,
    "view",
  );
}

/** Presses the view's button `selector`. */
export function press(tab: Tab, selector: string): Promise<unknown> {
  return tab.evaluate(`document.querySelector(${JSON.stringify(selector)}).click()`, "view");
}

/** Resolves once `condition()` holds, polling; fails naming `what` after `ms`. */
export async function until(condition: () => boolean, what: string, ms = 8000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Makes the view's document say it is hidden (or visible again), as a host's hidden tab does. */
export function setHidden(tab: Tab, hidden: boolean): Promise<unknown> {
  return tab.evaluate(
    `(() => { Object.defineProperty(document, "visibilityState", {
        configurable: true, get: () => ${JSON.stringify(hidden ? "hidden" : "visible")} });
      document.dispatchEvent(new Event("visibilitychange")); })()`,
    "view",
  );
}
