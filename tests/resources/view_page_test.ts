import assert from "node:assert/strict";
import { readViewPage, VIEW_CSP } from "../../src/resources/view_page.ts";
import { VIEW_PAGE } from "../../src/resources/view_page.generated.ts";
import {
  renderViewModule,
  renderViewPage,
  VIEW_PAGE_FILE,
  VIEW_SOURCES,
} from "../../src/resources/view_page_render.ts";
import { APPS_MIME, VIEW_URI } from "../../src/tools/kit/apps.ts";
import { staleFile } from "../support/line_diff.ts";

const read = (path: string) => Deno.readTextFile(new URL(`../../${path}`, import.meta.url));

/** The script's parts, by file name. */
async function scripts(): Promise<Record<string, string>> {
  const parts: Record<string, string> = {};
  for (const path of VIEW_SOURCES.js) parts[path.split("/").pop()!] = await read(path);
  return parts;
}

/** What the page's script must never do: each a way to run, parse or fetch what Bitbucket sent. */
const FORBIDDEN: readonly [string, RegExp][] = [
  ["innerHTML", /\binnerHTML\b/],
  ["outerHTML", /\bouterHTML\b/],
  ["insertAdjacentHTML", /\binsertAdjacentHTML\b/],
  ["document.write", /\bdocument\s*\.\s*write/],
  ["eval", /\beval\s*\(/],
  ["new Function", /\bnew\s+Function\b/],
  ["Function(", /\bFunction\s*\(/],
  ["DOMParser", /\bDOMParser\b/],
  ["createContextualFragment", /\bcreateContextualFragment\b/],
  ["srcdoc", /\bsrcdoc\b/],
  ["fetch", /\bfetch\b/],
  ["XMLHttpRequest", /\bXMLHttpRequest\b/],
  ["WebSocket", /\bWebSocket\b/],
  ["EventSource", /\bEventSource\b/],
  ["sendBeacon", /\bsendBeacon\b/],
  ["import()", /\bimport\s*\(/],
  ["importScripts", /\bimportScripts\b/],
  ["window.open", /\.\s*open\s*\(\s*["'`]?https?:/],
  ["location", /\blocation\b/],
  ["setAttribute('on…')", /setAttribute\s*\(\s*["'`]on/i],
  ["an on… property", /\.\s*on[a-z]+\s*=(?!=)/],
  ["href assignment", /\bhref\s*=(?!=)/],
  ["src assignment", /\.\s*src\s*=(?!=)/],
  ["a string timer", /set(?:Timeout|Interval)\s*\(\s*["'`]/],
];

/** The forbidden constructs `script` uses, by name. */
function forbiddenIn(script: string): string[] {
  return FORBIDDEN.filter(([, pattern]) => pattern.test(script)).map(([name]) => name);
}

Deno.test("view page: the generated module is the page's files as `deno task generate` writes them", async () => {
  const page = renderViewPage(
    await read(VIEW_SOURCES.html),
    await read(VIEW_SOURCES.css),
    await scripts(),
  );
  const saved = await read(VIEW_PAGE_FILE);
  if (saved !== renderViewModule(page)) {
    // The page is one string literal in the module: show the page's lines, else the module's.
    assert.fail(
      VIEW_PAGE === page
        ? staleFile(VIEW_PAGE_FILE, saved, renderViewModule(page))
        : staleFile(VIEW_PAGE_FILE, VIEW_PAGE, page),
    );
  }
});

Deno.test("view page: its script uses nothing that parses, runs or fetches text", async () => {
  for (const [name, script] of Object.entries(await scripts())) {
    assert.deepEqual(forbiddenIn(script), [], name);
  }
  const inline = /<script>([\s\S]*)<\/script>/.exec(VIEW_PAGE)?.[1] ?? "";
  assert.deepEqual(forbiddenIn(inline), [], "the page's script as embedded");
  // The check itself sees each construct (so it cannot pass by matching nothing).
  const samples = [
    "el.innerHTML = t",
    "el.outerHTML = t",
    "el.insertAdjacentHTML('beforeend', t)",
    "document.write(t)",
    "eval(t)",
    "new Function(t)",
    "new DOMParser()",
    "fetch(url)",
    "new XMLHttpRequest()",
    "new WebSocket(url)",
    "a.setAttribute('onclick', t)",
    "a.href = url",
    "img.onerror = f",
  ];
  for (const sample of samples) assert.notDeepEqual(forbiddenIn(sample), [], sample);
});

Deno.test("view page: one self-contained document that references nothing outside itself", () => {
  assert.match(VIEW_PAGE, /^<!doctype html>/i);
  assert.doesNotMatch(
    VIEW_PAGE,
    /\s(?:src|href|action|srcset|poster|data)\s*=/i,
    "no attribute loads a URL",
  );
  const style = /<style>([\s\S]*)<\/style>/.exec(VIEW_PAGE)?.[1] ?? "";
  assert.ok(style.length > 0, "the stylesheet is inline");
  assert.doesNotMatch(style, /url\s*\(|@import/i, "the stylesheet loads nothing");
  assert.doesNotMatch(VIEW_PAGE, /<(?:link|img|iframe|object|embed|base|meta\s+http-equiv)\b/i);
  assert.equal(VIEW_PAGE.match(/<script>/g)?.length, 1, "the one inline script");
});

Deno.test("view page: read as the ui:// resource with the MCP Apps mime type, an empty CSP and no Bitbucket data", () => {
  const { contents } = readViewPage();
  assert.equal(contents.length, 1);
  const [page] = contents as [{ uri: string; mimeType: string; text: string; _meta: unknown }];
  assert.equal(page.uri, VIEW_URI);
  assert.equal(page.mimeType, APPS_MIME);
  assert.equal(page.text, VIEW_PAGE);
  assert.deepEqual(page._meta, { ui: { csp: VIEW_CSP, prefersBorder: true } });
  for (const domains of Object.values(VIEW_CSP)) assert.deepEqual(domains, []);
});

Deno.test("view page: the generator refuses files that would end the inline blocks early", () => {
  const html = '<link rel="stylesheet" href="view.css"><script src="view.js"></script>';
  assert.throws(() => renderViewPage(html, "", { "view.js": "x = '</script>'" }), /closing tag/);
  assert.throws(() => renderViewPage(html, "</style>", { "view.js": "" }), /closing tag/);
  assert.throws(() => renderViewPage(html, "", {}), /no view\.js/);
  assert.throws(() => renderViewPage("<p>", "", {}), /must hold/);
});
