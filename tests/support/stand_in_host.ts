/**
 * A stand-in MCP Apps host, written from the spec (io.modelcontextprotocol/ui,
 * 2026-01-26): a host page that embeds the view in a sandboxed `srcdoc`
 * iframe under the spec's default CSP and relays its postMessage JSON-RPC to
 * the test, and the host's side of that protocol, run in the test process:
 * it answers `ui/initialize` with a theme and CSS variables, sends the tool's
 * input and result once the view is initialized, records size reports, links
 * and logs, and forwards the view's `tools/call` and `resources/read` to the
 * real server through a real MCP client. Written by hand so that the official
 * `AppBridge` (see `app_bridge_host.ts`) can check it.
 */
import type { CallToolResult, Client, Tool } from "@modelcontextprotocol/client";
import type { Tab } from "./browser_tab.ts";

/** The CSP a host must apply when a view declares none (the spec's "Restrictive Default"). */
export const DEFAULT_CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; " +
  "style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; " +
  "connect-src 'none';";

/** The binding the host page reaches the test through. */
export const HOST_BINDING = "hostReceive";

/** The theme a host hands the view: a dark theme, so a view that ignores it is visibly wrong. */
export const HOST_STYLE_VARIABLES: Record<string, string> = {
  "--color-background-primary": "rgb(23, 23, 23)",
  "--color-background-secondary": "rgb(38, 38, 38)",
  "--color-text-primary": "rgb(250, 250, 250)",
  "--color-text-secondary": "rgb(163, 163, 163)",
  "--color-border-primary": "rgb(64, 64, 64)",
  "--font-sans": "sans-serif",
  "--font-mono": "monospace",
};

/** The host context a real host sends: the tool, a dark theme with CSS variables, display and locale. */
export function hostContext(tool: Tool): Record<string, unknown> {
  return {
    toolInfo: { tool },
    theme: "dark",
    styles: { variables: HOST_STYLE_VARIABLES },
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    containerDimensions: { maxHeight: 6000 },
    locale: "en-GB",
    timeZone: "UTC",
    platform: "web",
  };
}

/** `html` with the CSP as its first `<head>` element, before anything it could load. */
export function withCsp(html: string, csp = DEFAULT_CSP): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) {
    const at = head.index + head[0].length;
    return `${html.slice(0, at)}${meta}${html.slice(at)}`;
  }
  return `${meta}${html}`;
}

/** Escapes text for a double-quoted HTML attribute. */
export function escapeAttribute(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

/**
 * The host page: the view in an iframe sandboxed to scripts alone (an opaque
 * origin, apart from the host's), under the default CSP; messages from that
 * iframe go to the test, and `hostSend(json)` posts the test's messages in.
 */
export function standInHostPage(viewHtml: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>stand-in MCP Apps host</title>
<link rel="icon" href="data:,">
<style>body{margin:0;background:#111}iframe{display:block;border:0;width:100%;height:120px}</style>
<script>
  const view = () => document.getElementById("view");
  addEventListener("message", (event) => {
    if (event.source !== view().contentWindow) return;
    ${HOST_BINDING}(JSON.stringify(event.data));
  });
  globalThis.hostSend = (json) => view().contentWindow.postMessage(JSON.parse(json), "*");
</script></head>
<body><iframe id="view" sandbox="allow-scripts" srcdoc="${
    escapeAttribute(withCsp(viewHtml))
  }"></iframe></body></html>`;
}

/** A JSON-RPC message as it crossed between the view and the host. */
export interface Crossing {
  from: "view" | "host";
  message: { id?: string | number; method?: string; params?: Record<string, unknown> };
}

/** What the host knows of the tool call that opened the view. */
export interface ToolCall {
  tool: Tool;
  arguments: Record<string, unknown>;
  result: CallToolResult;
}

/** The text of content blocks, joined. */
function textOf(content: unknown): string {
  return (Array.isArray(content) ? content : [])
    .filter((c) => c?.type === "text").map((c) => String(c.text)).join("\n");
}

/** The host side: attach to a tab showing {@link standInHostPage}, then read what happened. */
export class StandInHost {
  readonly crossings: Crossing[] = [];
  /** Each size the view reported. */
  readonly sizes: { width?: number; height?: number }[] = [];
  /** Each link the view asked the host to open (never opened). */
  readonly links: string[] = [];
  /** Each `ui/update-model-context` the view sent: its text, in order. */
  readonly modelContext: string[] = [];
  /** Each `ui/message` the view sent to the conversation: its text, in order. */
  readonly messages: string[] = [];
  /** Each `tools/call` the view made, with what the server answered. */
  readonly toolCalls: { name: string; arguments: unknown; result: CallToolResult }[] = [];
  readonly initialized: Promise<void>;
  #ready!: () => void;
  #sending: Promise<unknown> = Promise.resolve();
  readonly #tab: Tab;
  readonly #client: Client;
  readonly #call: ToolCall;

  constructor(tab: Tab, client: Client, call: ToolCall) {
    this.#tab = tab;
    this.#client = client;
    this.#call = call;
    this.initialized = new Promise((resolve) => this.#ready = resolve);
    tab.onBinding(HOST_BINDING, (payload) => {
      this.#receive(JSON.parse(payload)).catch((error) => {
        this.crossings.push({ from: "host", message: { method: `error: ${error}` } });
      });
    });
  }

  /** The methods that crossed, in order, with where from (`view ui/initialize`, …). */
  get sequence(): string[] {
    return this.crossings.map((c) =>
      `${c.from} ${c.message.method ?? (c.message.id !== undefined ? "response" : "?")}`
    );
  }

  async #receive(message: Crossing["message"]): Promise<void> {
    this.crossings.push({ from: "view", message });
    const { id, method, params = {} } = message;
    if (method === undefined) return;
    if (id === undefined) return this.#notification(method, params);
    try {
      this.#send({ jsonrpc: "2.0", id, result: await this.#request(method, params) });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.#send({ jsonrpc: "2.0", id, error: { code: -32000, message: text } });
    }
  }

  #notification(method: string, params: Record<string, unknown>): void {
    if (method === "ui/notifications/initialized") {
      this.#send({
        jsonrpc: "2.0",
        method: "ui/notifications/tool-input",
        params: { arguments: this.#call.arguments },
      });
      this.#send({
        jsonrpc: "2.0",
        method: "ui/notifications/tool-result",
        params: this.#call.result,
      });
      this.#ready();
    } else if (method === "ui/notifications/size-changed") {
      const size = params as { width?: number; height?: number };
      this.sizes.push(size);
      if (typeof size.height === "number") {
        this.#evaluate(`view().style.height = ${JSON.stringify(`${Math.ceil(size.height)}px`)}`);
      }
    }
  }

  async #request(method: string, params: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case "ui/initialize":
        return {
          protocolVersion: params.protocolVersion ?? "2026-01-26",
          hostInfo: { name: "bitbucket-mcp stand-in host", version: "0.0.0" },
          hostCapabilities: {
            openLinks: {},
            serverTools: {},
            serverResources: {},
            logging: {},
            updateModelContext: { text: {} },
            message: { text: {} },
          },
          hostContext: hostContext(this.#call.tool),
        };
      case "ui/open-link":
        this.links.push(String(params.url));
        return {};
      case "tools/call": {
        const name = String(params.name);
        const result = await this.#client.callTool({
          name,
          arguments: params.arguments as Record<string, unknown> | undefined,
        }) as CallToolResult;
        this.toolCalls.push({ name, arguments: params.arguments, result });
        return result;
      }
      case "resources/read":
        return await this.#client.readResource({ uri: String(params.uri) });
      case "ui/request-display-mode":
        return { mode: "inline" };
      case "ui/update-model-context":
        this.modelContext.push(textOf(params.content));
        return {};
      case "ui/message":
        this.messages.push(textOf(params.content));
        return {};
      case "ping":
        return {};
      default:
        throw new Error(`the stand-in host does not handle ${method}`);
    }
  }

  #send(message: Crossing["message"] & { jsonrpc: "2.0"; result?: unknown; error?: unknown }) {
    this.crossings.push({ from: "host", message });
    this.#evaluate(`hostSend(${JSON.stringify(JSON.stringify(message))})`);
  }

  /** Runs host-page script in order, after everything sent before it. */
  #evaluate(expression: string): void {
    this.#sending = this.#sending.then(() => this.#tab.evaluate(expression)).catch(() => {});
  }

  /** Resolves once every message sent so far has been posted to the view. */
  async flushed(): Promise<void> {
    await this.#sending;
  }
}
