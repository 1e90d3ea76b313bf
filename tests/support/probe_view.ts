/**
 * Two tiny MCP Apps views the browser tests use to prove their own detectors
 * before trusting them with the real page: a careful one that draws the
 * result's `structuredContent.probe.text` as a text node, and a careless one
 * that draws it with `innerHTML` and fetches on load. Run in the stand-in
 * host with hostile text, the careless one must trip the "script ran" and
 * "request attempted" checks the real view is held to.
 */

/** A view: handshake, size report, and `probe.text` drawn as text or (careless) as HTML. */
export function probeView(careless: boolean): string {
  const draw = careless
    ? `out.innerHTML = text; fetch("http://127.0.0.1:9/probe").catch(() => {});`
    : `out.textContent = text;`;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>probe</title></head>
<body><main id="view" data-state="waiting"><p id="out"></p></main>
<script>
  let next = 1;
  const waiting = new Map();
  const send = (message) => parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const request = (method, params) => new Promise((resolve) => {
    const id = next++;
    waiting.set(id, resolve);
    send({ id, method, params });
  });
  addEventListener("message", (event) => {
    const message = event.data;
    if (message.id !== undefined && waiting.has(message.id)) {
      waiting.get(message.id)(message);
      waiting.delete(message.id);
    } else if (message.method === "ui/notifications/tool-result") {
      const out = document.getElementById("out");
      const text = message.params.structuredContent.probe.text;
      ${draw}
      document.getElementById("view").dataset.state = "ready";
    }
  });
  request("ui/initialize", {
    protocolVersion: "2026-01-26",
    appInfo: { name: "probe", version: "0" },
    appCapabilities: {},
  }).then(() => {
    send({ method: "ui/notifications/initialized", params: {} });
    new ResizeObserver(() => send({
      method: "ui/notifications/size-changed",
      params: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight },
    })).observe(document.documentElement);
  });
</script></body></html>`;
}
