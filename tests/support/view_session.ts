/**
 * One view, opened the way a host opens it: a real MCP client that declares
 * the MCP Apps extension lists the tools, reads the page from the `ui://`
 * resource `show` names, calls `show` against the fixture Bitbucket, and
 * hands page and result to a host page in headless Chromium (the stand-in
 * host, or the official `AppBridge`). The tests never import the page's
 * module: they see only what the server serves.
 */
import assert from "node:assert/strict";
import type {
  CallToolResult,
  ElicitRequest,
  ElicitResult,
  Tool,
} from "@modelcontextprotocol/client";
import { ALL_ROUTES } from "../../testing/cases/mod.ts";
import type { Route } from "../../testing/fixture_bitbucket.ts";
import { connect, type Harness } from "../../testing/harness.ts";
import {
  bundleAppBridge,
  REFERENCE_BINDINGS,
  ReferenceHost,
  referenceHostPage,
} from "./app_bridge_host.ts";
import type { Tab } from "./browser_tab.ts";
import { type Browser, launchChromium } from "./chromium.ts";
import { type HostServer, serveHostPages } from "./host_server.ts";
import {
  HOST_BINDING,
  hostContext,
  StandInHost,
  standInHostPage,
  type ToolCall,
} from "./stand_in_host.ts";

/** The MIME type of an MCP Apps page. */
export const VIEW_MIME_TYPE = "text/html;profile=mcp-app";

/** Where the screenshots of each kind go: an artifact for people, never committed. */
export const SCREENSHOT_DIR = "/tmp/bitbucket-mcp-view";

/** How to open a view. */
export interface ViewOptions {
  /** `show`'s arguments. */
  args: Record<string, unknown>;
  /** Routes in front of every contract route (hostile answers, links on the fixture's host). */
  routes?: Route[] | ((fixtureUrl: string) => Route[]);
  /** The person answering confirmations (absent: the client cannot ask). */
  elicit?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
  width?: number;
  height?: number;
}

/** An open view in either host, and everything to tear down. */
export interface ViewSession<H> {
  h: Harness;
  browser: Browser;
  server: HostServer;
  tab: Tab;
  host: H;
  show: Tool;
  html: string;
  result: CallToolResult;
  [Symbol.asyncDispose](): Promise<void>;
}

/** `show` as listed, and the page its `_meta.ui.resourceUri` names, read as a host reads it. */
export async function readView(h: Harness): Promise<{ show: Tool; html: string }> {
  const { tools } = await h.client.listTools();
  const show = tools.find((t) => t.name === "show");
  assert.ok(show, "a client declaring the MCP Apps extension is offered show");
  const uri = (show._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
  assert.ok(uri?.startsWith("ui://"), `show names a ui:// page (got ${uri})`);
  assert.ok(uri);
  const { contents } = await h.client.readResource({ uri });
  const page = contents[0] as { mimeType?: string; text?: string } | undefined;
  assert.equal(page?.mimeType, VIEW_MIME_TYPE);
  assert.ok(page.text, "the page is served as text");
  return { show, html: page.text };
}

/** Opens `show`'s result in the stand-in host and waits until the view says it is drawn. */
export function openView(options: ViewOptions): Promise<ViewSession<StandInHost>> {
  return open(
    options,
    async (tab, h, call) => {
      const host = new StandInHost(tab, h.client, call);
      await host.initialized;
      return host;
    },
    (html) => standInHostPage(html),
    [HOST_BINDING],
  );
}

/** Opens `show`'s result in the reference host (`AppBridge`) and waits until the view is drawn. */
export async function openReferenceView(
  options: ViewOptions,
): Promise<ViewSession<ReferenceHost>> {
  const bundle = await bundleAppBridge();
  return await open(
    options,
    async (tab, h) => {
      const host = new ReferenceHost(tab, h.client);
      await host.initialized;
      return host;
    },
    (html, call) => referenceHostPage(html, bundle, call, hostContext(call.tool)),
    REFERENCE_BINDINGS,
  );
}

async function open<H>(
  options: ViewOptions,
  attach: (
    tab: Tab,
    h: Harness,
    call: ToolCall,
  ) => Promise<H>,
  page: (
    html: string,
    call: ToolCall,
  ) => string,
  bindings: string[],
): Promise<ViewSession<H>> {
  const cleanups: (() => Promise<void>)[] = [];
  const dispose = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const h = await connect({ routes: ALL_ROUTES, apps: true, elicit: options.elicit });
    cleanups.push(() => h.close());
    const extra = typeof options.routes === "function"
      ? options.routes(h.fixture.url)
      : options.routes ?? [];
    h.fixture.prepend(extra);
    const { show, html } = await readView(h);
    const result = await h.client.callTool({
      name: "show",
      arguments: options.args,
    }) as CallToolResult;
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    const call = { tool: show, arguments: options.args, result };
    const server = serveHostPages({ "/host.html": page(html, call) });
    cleanups.push(() => server.close());
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const tab = await browser.open(server.url("/host.html"), {
      bindings,
      width: options.width,
      height: options.height,
    });
    const host = await withTimeout(attach(tab, h, call), "the view never completed the handshake");
    await tab.waitFor(`document.getElementById("view")?.dataset.state === "ready"`);
    return { h, browser, server, tab, host, show, html, result, [Symbol.asyncDispose]: dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

async function withTimeout<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => timer = setTimeout(() => reject(new Error(what)), ms)),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
