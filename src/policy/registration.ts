/**
 * A tool as the SDK registers it, under the call policy: each call gets the
 * caller's Bitbucket client bound to the call's signal, is held for the
 * person's confirmation when the tool and the policy say so, then confined
 * and recorded by the wrappers around it. Registrations are made once per
 * process and added as they are to every server instance (HTTP builds one per
 * request), so an instance costs the SDK's bookkeeping alone.
 */
import type { ServerContext } from "../deps/mcp.ts";
import type { BitbucketClient } from "../bitbucket/transport/client.ts";
import type { Tool, ToolContext, ToolEntry } from "../tools/kit/define.ts";
import { declaresApps, requestCapabilities } from "../tools/kit/apps.ts";
import { auditRegistration } from "./audited_registration.ts";
import { exposedTools } from "./choices.ts";
import { type CallPolicy, CAUTIOUS, confirmationsOf } from "./call_policy.ts";
import { confineRegistration } from "./confined_registration.ts";
import { guardedCall } from "./confirmation.ts";
import { observeRegistration } from "./observed_registration.ts";
import { type Registration, registrationOf } from "./sdk_registration.ts";

/**
 * Where a call's Bitbucket client comes from, asked when the call runs: the
 * one client of a stdio server, or over HTTP one made for the token of the
 * request the call arrived in (`ctx.http.authInfo`).
 */
export type ClientSource = (ctx: ServerContext) => BitbucketClient;

/** Whether a call of `tool` is held for the person under `policy`. */
function asks(tool: Tool, policy: CallPolicy): boolean {
  return !policy.unsafeWrites && (tool.access.level === "unsafe write" || tool.asks);
}

/**
 * The registration of one tool (or its manifest entry) under `policy`: its
 * own call, held for confirmation when it asks, with each call's client from
 * `clients`; `exposed` names the tools the server exposes beside it.
 */
export function toolRegistration(
  entry: ToolEntry,
  clients: ClientSource,
  policy: CallPolicy = CAUTIOUS,
  exposed: ReadonlySet<string> = new Set([entry.name]),
): Registration {
  return registrationOf(entry.name, entry.config, async (args, ctx, connection, recorder) => {
    const tool = await entry.load();
    const client = clients(ctx);
    const observed = recorder?.request ? client.observed(recorder.request) : client;
    const { confinement } = policy;
    const toolCtx: ToolContext = {
      bitbucket: observed.withSignal(ctx.mcpReq.signal),
      exposed,
      apps: declaresApps(
        requestCapabilities(ctx.mcpReq.envelope as Record<string, unknown>, connection()),
      ),
      ...(confinement ? { within: (place) => confinement.contains(place) } : {}),
    };
    if (!asks(tool, policy)) return await tool.call(args, toolCtx);
    return await guardedCall({
      tool: tool.name,
      args,
      ctx,
      connection: connection(),
      confirmations: confirmationsOf(policy),
      // Every call of an unsafe write asks; a test keeps `confirm` on each of them.
      always: tool.access.level === "unsafe write",
      ask: () => tool.question(args, toolCtx),
      decided: recorder?.confirmation,
    }, (confirmed) => tool.call(args, { ...toolCtx, confirmed }));
  });
}

/**
 * Each tool's registration under the whole policy, made once: every server
 * instance then registers these as they are. Tools no confinement can bound
 * (by their declared reach) are left out under one; the confinement wraps the
 * tool's own registration (and tells its calls what lies inside it),
 * and the audit log wraps both, so a call the confinement refuses is
 * recorded too; the metrics and the log scope, when on, watch from outside all.
 */
export function registrations(
  tools: readonly ToolEntry[],
  clients: ClientSource,
  policy: CallPolicy = CAUTIOUS,
): Registration[] {
  const { confinement, audit } = policy;
  const watched = policy.metrics !== undefined || policy.scope !== undefined;
  // A tool whose choices read through other tools keeps those left exposed (choices.ts).
  const served = exposedTools(tools, confinement);
  const exposed = new Set(served.map((t) => t.name));
  return served.map((tool) => {
    const own = toolRegistration(tool, clients, policy, exposed);
    const confined = confinement ? confineRegistration(own, confinement, tool) : own;
    const recorded = audit ? auditRegistration(confined, audit) : confined;
    return watched ? observeRegistration(recorded, policy) : recorded;
  });
}
