/**
 * `deno task demo`: try bitbucket-mcp without a Bitbucket or a token. Starts a
 * sandbox Bitbucket on 127.0.0.1 that answers with the project's recorded
 * Bitbucket Data Center 9.4 responses (the test fixtures), starts the real
 * server (`deno run main.ts`, with the permissions a user would grant) against
 * it, and plays a short agent session through a real MCP client over stdio,
 * printing each call and its named payload. Exits 1 if any call fails.
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ALL_ROUTES } from "../testing/cases/mod.ts";
import { startFixtureBitbucket } from "../testing/fixture_bitbucket.ts";
import { MAIN, scopedPermissions } from "../testing/spawn.ts";
import { writeOut } from "../src/cli/output.ts";
import { renderPayload } from "./render.ts";
import { type DemoStep, SCRIPT } from "../testing/demo_script.ts";
import { APPS_CLIENT_CAPABILITIES } from "../testing/harness.ts";

/** Prints a line of the session (an empty line when `text` is). */
function say(text = ""): void {
  writeOut(text === "" ? "\n" : text);
}

/** Runs the session; resolves to the exit status. */
async function demo(): Promise<number> {
  const started = performance.now();
  const sandbox = startFixtureBitbucket(ALL_ROUTES);
  const host = new URL(sandbox.url).host;
  const denoArgs = [
    "run",
    "--no-prompt",
    ...scopedPermissions(host),
    MAIN,
  ];
  const env: Record<string, string> = {
    BITBUCKET_URL: sandbox.url,
    BITBUCKET_TOKEN: "sandbox-token",
    NO_COLOR: "1",
  };
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir) env.DENO_DIR = denoDir;
  say(`Sandbox Bitbucket (recorded Bitbucket Data Center 9.4 answers) at ${sandbox.url}`);
  say(`Server: deno ${denoArgs.slice(1).join(" ").replace(MAIN, "main.ts")}`);
  const transport = new StdioClientTransport({
    command: "deno",
    args: denoArgs,
    env,
    stderr: "pipe",
  });
  let serverErr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => serverErr += new TextDecoder().decode(chunk));
  // A client that draws MCP Apps views, as Claude or VS Code is: it is offered `show`.
  const client = new Client(
    { name: "bitbucket-mcp-demo", version: "1.0.0" },
    { capabilities: APPS_CLIENT_CAPABILITIES },
  );
  let failed = 0;
  try {
    await client.connect(transport);
    const info = client.getServerVersion();
    const { tools } = await client.listTools();
    say(`Connected over stdio to ${info?.name} ${info?.version}: ${tools.length} tools listed.`);
    const seen: Record<string, Record<string, unknown>> = {};
    for (const [index, step] of SCRIPT.entries()) {
      if (!await play(client, step, index + 1, seen, sandbox.requests.length, sandbox.requests)) {
        failed++;
      }
    }
  } catch (error) {
    say(`✗ the session broke off: ${error instanceof Error ? error.message : String(error)}`);
    if (serverErr) say(serverErr.trimEnd());
    failed++;
  } finally {
    await client.close();
    await sandbox.close();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  say();
  say(
    failed === 0
      ? `✓ ${SCRIPT.length} calls succeeded in ${seconds} s. Next: point it at your Bitbucket (README, "Run").`
      : `✗ ${failed} of ${SCRIPT.length} calls failed.`,
  );
  return failed === 0 ? 0 : 1;
}

/** One scripted call: prints it, what the server asked Bitbucket, and the payload; true when it succeeded. */
async function play(
  client: Client,
  step: DemoStep,
  number: number,
  seen: Record<string, Record<string, unknown>>,
  requestsBefore: number,
  requests: readonly { method: string; path: string; query: Record<string, string> }[],
): Promise<boolean> {
  const args = step.args(seen);
  say();
  say(`${number}. ${step.intent}`);
  say(`   → ${step.tool} ${JSON.stringify(args)}`);
  const result = await client.callTool({ name: step.tool, arguments: args });
  for (const request of requests.slice(requestsBefore)) {
    const query = new URLSearchParams(request.query).toString();
    say(`     (Bitbucket: ${request.method} /rest${request.path}${query ? `?${query}` : ""})`);
  }
  const payload = result.structuredContent as Record<string, unknown> | undefined;
  if (result.isError || !payload) {
    const content = result.content as { type: string; text?: string }[] | undefined;
    say(`   ✗ ${content?.find((c) => c.type === "text")?.text ?? "no payload"}`);
    return false;
  }
  seen[step.tool] = payload;
  say(`   ← payload: ${Object.keys(payload).join(", ")}`);
  for (const line of renderPayload(payload, 5)) say(line);
  if (step.note) say(`   (${step.note})`);
  return true;
}

if (import.meta.main) Deno.exit(await demo());
