/**
 * The entry point the reference host page is bundled from: the official MCP
 * Apps host library (`@modelcontextprotocol/ext-apps`' `AppBridge` and
 * `PostMessageTransport`), exposed as `globalThis.McpAppsReference` for the
 * page's inline script. Bundled in memory at test time by
 * `app_bridge_host.ts`; never imported by the server.
 */
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

(globalThis as Record<string, unknown>).McpAppsReference = { AppBridge, PostMessageTransport };
