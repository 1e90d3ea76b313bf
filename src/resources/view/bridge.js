// The bitbucket-mcp view, part 1 of 8:
// the host connection: MCP Apps over postMessage, theme and size.
// `deno task generate` joins the parts (bridge, dom, actions, kinds, threads,
// form, live, view), in view.html's order, into the page's one strict script (one
// function scope): what one part defines, the others use.
// deno-lint-ignore-file no-unused-vars
const VERSION = 1;
const root = document.getElementById("view");
const pending = new Map();
let nextId = 1;
// Set by view.js: the host's capabilities once initialized, and the view drawn now.
// deno-lint-ignore prefer-const
let host = {};
// deno-lint-ignore prefer-const
let current = null;

// --- the host connection ---------------------------------------------------

const post = (message) => globalThis.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
const notify = (method, params) => post({ method, params });
const request = (method, params) => {
  const id = nextId++;
  post({ id, method, params });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
};

globalThis.addEventListener("message", (event) => {
  if (event.source !== globalThis.parent) return;
  const m = event.data;
  if (typeof m !== "object" || m === null || m.jsonrpc !== "2.0") return;
  if (m.method === undefined && m.id !== undefined) {
    const waiting = pending.get(m.id);
    if (!waiting) return;
    pending.delete(m.id);
    if (m.error) waiting.reject(new Error(String(m.error.message ?? "the host refused")));
    else waiting.resolve(m.result ?? {});
    return;
  }
  const params = m.params ?? {};
  if (m.method === "ui/notifications/tool-result") drawResult(params);
  else if (m.method === "ui/notifications/host-context-changed") applyContext(params);
  else if (m.method === "ui/notifications/tool-cancelled") fail("The call was cancelled.");
  else if (m.id !== undefined && (m.method === "ui/resource-teardown" || m.method === "ping")) {
    if (m.method === "ui/resource-teardown") stopLive();
    post({ id: m.id, result: {} });
  }
});

// --- theme and size --------------------------------------------------------

/** Host context: the theme and the spec's CSS variables (never values that could load anything). */
function applyContext(context) {
  const doc = document.documentElement;
  if (context.theme === "dark" || context.theme === "light") doc.dataset.theme = context.theme;
  const variables = context.styles?.variables ?? {};
  for (const [name, value] of Object.entries(variables)) {
    if (!/^--[a-z0-9-]+$/.test(name) || typeof value !== "string") continue;
    if (/url\s*\(|@import|[;{}]/i.test(value)) continue;
    doc.style.setProperty(name, value);
  }
}

let reported = "";
function reportSize() {
  const rect = document.documentElement.getBoundingClientRect();
  const size = { width: Math.ceil(rect.width), height: Math.ceil(rect.height) };
  const key = `${size.width}x${size.height}`;
  if (key === reported) return;
  reported = key;
  notify("ui/notifications/size-changed", size);
}
