import process from "node:process";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { BitbucketClient } from "../bitbucket/client.ts";
import { checkNetPermission, processEnv, readConfig, StartupError } from "../config.ts";
import { createServerFactory } from "../server/factory.ts";
import { selectTools, unknownToolNames } from "../server/gating.ts";
import { CATALOGUE } from "../tools/catalogue.ts";
import { VERSION } from "../version.ts";
import { type Flags, parseFlags, USAGE } from "./flags.ts";
import { writeErr, writeOut } from "./output.ts";
import { toolsListing } from "./tools_command.ts";

/** Runs the command line; resolves to the exit status. Serving resolves only once stdio closes. */
export async function run(argv: readonly string[]): Promise<number> {
  try {
    const flags = parseFlags(argv);
    if (flags.help) {
      writeOut(USAGE);
      return 0;
    }
    if (flags.version) {
      writeOut(`bitbucket-mcp ${VERSION}`);
      return 0;
    }
    const unknown = unknownToolNames(CATALOGUE, [...flags.tools ?? [], ...flags.exclude ?? []]);
    if (unknown.length > 0) {
      throw new StartupError(
        `unknown tool ${unknown.join(", ")}: run 'bitbucket-mcp tools' to see the names`,
      );
    }
    if (flags.command === "tools") {
      writeOut(toolsListing(CATALOGUE, flags, flags.json));
      return 0;
    }
    return await serve(flags);
  } catch (error) {
    if (error instanceof StartupError) {
      writeErr(`bitbucket-mcp: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

async function serve(flags: Flags): Promise<number> {
  const config = readConfig(flags, processEnv);
  await checkNetPermission(config.baseUrl);
  const bitbucket = new BitbucketClient(config);
  const tools = selectTools(CATALOGUE, flags);
  const handle = serveStdio(createServerFactory(tools, bitbucket), {
    onerror: (error) => writeErr(`bitbucket-mcp: ${error.message}`),
  });
  const stop = async () => {
    await handle.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await stdinClosed();
  await handle.close();
  return 0;
}

/** Resolves when the client closes our stdin: the MCP stdio binding's signal to exit. */
function stdinClosed(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once("end", () => resolve());
    process.stdin.once("close", () => resolve());
  });
}
