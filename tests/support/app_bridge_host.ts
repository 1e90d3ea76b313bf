/**
 * The reference host: the same sandboxed `srcdoc` iframe as the stand-in,
 * but driven by the official MCP Apps host library (`AppBridge` and
 * `PostMessageTransport` from `@modelcontextprotocol/ext-apps`), bundled
 * at test time (to memory) and inlined in the page, so the page needs nothing
 * from the network. A view that completes the handshake here and in
 * `stand_in_host.ts` speaks the protocol as the library does, not only as
 * our own host reads it. The view's tool calls are forwarded to the real
 * server through the test's MCP client.
 */
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import type { Tab } from "./browser_tab.ts";
import { escapeAttribute, type ToolCall, withCsp } from "./stand_in_host.ts";

/** The bindings the reference page reaches the test through. */
export const REFERENCE_BINDINGS = ["referenceEvent", "referenceCall"];

const ENTRY = "tests/support/app_bridge_entry.ts";
const ROOT = new URL("../../", import.meta.url);
let bundled: Promise<string> | undefined;

/** The library as one browser script (`deno bundle` to stdout, once per test process). */
export function bundleAppBridge(): Promise<string> {
  return bundled ??= (async () => {
    const { code, stdout, stderr } = await new Deno.Command("deno", {
      args: ["bundle", "--quiet", "--platform", "browser", "--format", "iife", "--minify", ENTRY],
      cwd: ROOT.pathname,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (code !== 0 || stdout.length === 0) {
      throw new Error(`Cannot bundle the AppBridge: ${new TextDecoder().decode(stderr)}`);
    }
    return new TextDecoder().decode(stdout);
  })();
}

/** JSON safe inside an inline `<script>` (no `</script>` can close it). */
function inlineJson(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c");
}

/**
 * The reference host page: `bundle` (from {@link bundleAppBridge}) inline,
 * an `AppBridge` with no MCP client of its own (the test forwards calls),
 * that sends the tool's input and result once the view is initialized.
 */
export function referenceHostPage(
  viewHtml: string,
  bundle: string,
  call: ToolCall,
  hostContext: Record<string, unknown>,
): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>reference MCP Apps host (AppBridge)</title>
<link rel="icon" href="data:,">
<style>body{margin:0;background:#111}iframe{display:block;border:0;width:100%;height:120px}</style>
<script>${bundle.replaceAll("</script", "<\\/script")}</script></head>
<body><iframe id="view" sandbox="allow-scripts" srcdoc="${
    escapeAttribute(withCsp(viewHtml))
  }"></iframe>
<script>
  const { AppBridge, PostMessageTransport } = globalThis.McpAppsReference;
  const iframe = document.getElementById("view");
  const event = (name, detail) => referenceEvent(JSON.stringify({ name, detail }));
  const waiting = new Map();
  let next = 1;
  globalThis.referenceAnswer = (id, json) => {
    waiting.get(id)(JSON.parse(json));
    waiting.delete(id);
  };
  const forward = (method, params) => new Promise((resolve, reject) => {
    const id = next++;
    waiting.set(id, (answer) => answer.error ? reject(new Error(answer.error)) : resolve(answer.result));
    referenceCall(JSON.stringify({ id, method, params }));
  });
  const bridge = new AppBridge(
    null,
    { name: "bitbucket-mcp reference host", version: "0.0.0" },
    {
      openLinks: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      updateModelContext: { text: {} },
      message: { text: {} },
    },
    { hostContext: ${inlineJson(hostContext)} },
  );
  bridge.oninitialized = async () => {
    event("initialized");
    await bridge.sendToolInput({ arguments: ${inlineJson(call.arguments)} });
    await bridge.sendToolResult(${inlineJson(call.result)});
    event("sent");
  };
  bridge.onsizechange = (size) => {
    event("size-changed", size);
    if (size.height != null) iframe.style.height = Math.ceil(size.height) + "px";
  };
  bridge.onopenlink = async ({ url }) => {
    event("open-link", url);
    return {};
  };
  bridge.onloggingmessage = (params) => event("log", params);
  bridge.onupdatemodelcontext = async (params) => {
    event("model-context", params.content?.map((c) => c.text).join("\\n"));
    return {};
  };
  bridge.onmessage = async (params) => {
    event("message", params.content?.map((c) => c.text).join("\\n"));
    return {};
  };
  bridge.oncalltool = (params) => forward("tools/call", params);
  bridge.onreadresource = (params) => forward("resources/read", params);
  bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow))
    .then(() => event("connected"), (error) => event("error", String(error)));
</script></body></html>`;
}

/** The test's side of the reference page: what the bridge reported, and the forwarding of calls. */
export class ReferenceHost {
  /** Each event the bridge reported (`initialized`, `size-changed`, `open-link`, …), in order. */
  readonly events: { name: string; detail?: unknown }[] = [];
  readonly toolCalls: { name: string; result: CallToolResult }[] = [];
  readonly initialized: Promise<void>;
  readonly #tab: Tab;

  constructor(tab: Tab, client: Client) {
    this.#tab = tab;
    let ready!: () => void;
    this.initialized = new Promise((resolve) => ready = resolve);
    tab.onBinding("referenceEvent", (payload) => {
      const event = JSON.parse(payload) as { name: string; detail?: unknown };
      this.events.push(event);
      if (event.name === "sent") ready();
    });
    tab.onBinding("referenceCall", (payload) => {
      const { id, method, params } = JSON.parse(payload) as {
        id: number;
        method: string;
        params: { name: string; arguments?: Record<string, unknown>; uri: string };
      };
      this.#forward(client, method, params).then(
        (result) => this.#answer(id, { result }),
        (error) => this.#answer(id, { error: String(error) }),
      );
    });
  }

  async #forward(
    client: Client,
    method: string,
    params: { name: string; arguments?: Record<string, unknown>; uri: string },
  ): Promise<unknown> {
    if (method === "resources/read") return await client.readResource({ uri: params.uri });
    const result = await client.callTool({
      name: params.name,
      arguments: params.arguments,
    }) as CallToolResult;
    this.toolCalls.push({ name: params.name, result });
    return result;
  }

  #answer(id: number, answer: unknown): void {
    const json = JSON.stringify(JSON.stringify(answer));
    this.#tab.evaluate(`referenceAnswer(${id}, ${json})`).catch(() => {});
  }
}
