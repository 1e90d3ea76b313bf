/**
 * `deno task compile`: builds bitbucket-mcp into one executable with
 * `deno compile`. A compiled binary cannot be given permissions when it runs,
 * so they are fixed here, at build time:
 *
 *   deno task compile --host bitbucket.example.com   network access to that host only
 *   deno task compile --url https://bitbucket.example.com/bitbucket
 *                                                   the same, and the URL baked in: users
 *                                                   only set BITBUCKET_TOKEN
 *   deno task compile                               generic: network access to ANY host
 *
 * Every build may read BITBUCKET_URL, BITBUCKET_TOKEN and BITBUCKET_USERNAME,
 * and one file, the administrator's policy (`/etc/bitbucket-mcp/policy.json`,
 * on Windows `C:\ProgramData\bitbucket-mcp\policy.json`; `--policy PATH` bakes
 * another absolute path in, which no flag or variable can change later), and
 * nothing else: no other file, no subprocesses. `--client-cert-dir DIR`
 * also permits reading that one directory, where BITBUCKET_CLIENT_CERT and
 * BITBUCKET_CLIENT_KEY point (mutual TLS: a directory, so that certificates
 * can be renewed under new names without a new build). `--listen HOST:PORT` also
 * permits listening there (for `serve --http`); `--target` cross-compiles;
 * `--output` names the file (default `dist/bitbucket-mcp`, with the target
 * appended when one is given, and `.exe` for Windows). A baked URL is validated now and again at
 * start-up, and `--url`/BITBUCKET_URL still override it.
 */
import { parseArgs } from "node:util";
import { ENV_VARS, parseBaseUrl, StartupError } from "../src/config.ts";
import { writeErr, writeOut } from "../src/cli/output.ts";
import { defaultPolicyPath } from "../src/policy/admin_policy.ts";

/** What to build, from the command line. */
export interface CompileOptions {
  host?: string;
  url?: URL;
  listen?: string;
  target?: string;
  output: string;
  /** The administrator's policy file the binary reads: `--policy`, else the target system's. */
  policyPath: string;
  /** The policy path was given (`--policy`), so the entry point bakes it in. */
  bakePolicy: boolean;
  /** The directory of the client certificate and key the binary may read (`--client-cert-dir`). */
  clientCertDir?: string;
}

/** Parses `deno task compile` arguments; a bad one is a StartupError naming it. */
export function parseCompileArgs(argv: string[]): CompileOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      host: { type: "string" },
      url: { type: "string" },
      listen: { type: "string" },
      target: { type: "string" },
      output: { type: "string" },
      policy: { type: "string" },
      "client-cert-dir": { type: "string" },
    },
  });
  const url = values.url === undefined ? undefined : parseBaseUrl(values.url);
  const host = values.host ?? url?.host;
  if (host !== undefined && !/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d+)?$/.test(host)) {
    throw new StartupError(`--host takes a host name (and port), not ${JSON.stringify(host)}`);
  }
  if (url && host !== url.host && host !== url.hostname) {
    throw new StartupError(`the baked URL's host ${url.host} is not the --host ${host}`);
  }
  let output = values.output ??
    (values.target ? `dist/bitbucket-mcp-${values.target}` : "dist/bitbucket-mcp");
  const windows = values.target ? values.target.includes("windows") : Deno.build.os === "windows";
  if (values.target?.includes("windows") && !output.endsWith(".exe")) output += ".exe";
  const policy = values.policy;
  if (
    policy !== undefined &&
    (!(windows ? /^[A-Za-z]:\\/ : /^\//).test(policy) || policy.includes(","))
  ) {
    throw new StartupError(
      `--policy takes an absolute path on the target system, without commas, not ${
        JSON.stringify(policy)
      }`,
    );
  }
  const policyPath = policy ?? defaultPolicyPath(windows ? "windows" : "linux");
  const clientCertDir = values["client-cert-dir"];
  if (
    clientCertDir !== undefined &&
    (!(windows ? /^[A-Za-z]:\\/ : /^\//).test(clientCertDir) || clientCertDir.includes(","))
  ) {
    throw new StartupError(
      `--client-cert-dir takes an absolute directory on the target system, without commas, not ${
        JSON.stringify(clientCertDir)
      }`,
    );
  }
  const { target } = values;
  return {
    host,
    url,
    listen: values.listen,
    target,
    output,
    policyPath,
    bakePolicy: !!policy,
    ...(clientCertDir !== undefined ? { clientCertDir } : {}),
  };
}

/** The permission flags a build bakes in, and the same in words. */
export function compilePermissions(options: CompileOptions): { flags: string[]; grants: string } {
  const net = [options.host, options.listen].filter((h): h is string => h !== undefined);
  const env = `--allow-env=${ENV_VARS.join(",")}`;
  const readable = [options.policyPath, ...(options.clientCertDir ? [options.clientCertDir] : [])];
  const read = `--allow-read=${readable.join(",")}`;
  const reads = `reads ${ENV_VARS.join(", ")} and the policy file ${options.policyPath}${
    options.clientCertDir ? `, and the client certificates in ${options.clientCertDir}` : ""
  }`;
  if (options.host === undefined) {
    return {
      flags: ["--allow-net", env, read],
      grants: `network access to ANY host (pass --host to restrict it); ${reads}`,
    };
  }
  return {
    flags: [`--allow-net=${net.join(",")}`, env, read],
    grants: `network access to ${net.join(", ")} only; ${reads}`,
  };
}

/** What a build bakes into its entry point: a default URL, a policy path. */
export interface Baked {
  url?: URL;
  policyPath?: string;
}

/**
 * The generated entry point of a build with a baked URL or policy path:
 * main.ts with a default URL and/or that policy path. `runModule` is where
 * src/cli/run.ts is, seen from the entry.
 */
export function bakedEntry(baked: URL | Baked, runModule = "../src/cli/run.ts"): string {
  const { url, policyPath } = baked instanceof URL ? { url: baked, policyPath: undefined } : baked;
  const options = {
    ...(url ? { bakedUrl: url.href } : {}),
    ...(policyPath !== undefined ? { policyPath } : {}),
  };
  return [
    "// Generated by scripts/compile.ts for one build; not part of the sources.",
    `import { run } from ${JSON.stringify(runModule)};`,
    "",
    `Deno.exit(await run(Deno.args, ${JSON.stringify(options)}));`,
    "",
  ].join("\n");
}

async function compile(argv: string[]): Promise<number> {
  let options: CompileOptions;
  try {
    options = parseCompileArgs(argv);
  } catch (error) {
    writeErr(`compile: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const root = new URL("../", import.meta.url);
  let entry = new URL("main.ts", root).pathname;
  if (options.url || options.bakePolicy) {
    await Deno.mkdir(new URL("dist/", root), { recursive: true });
    entry = new URL("dist/baked_main.ts", root).pathname;
    const policyPath = options.bakePolicy ? options.policyPath : undefined;
    await Deno.writeTextFile(entry, bakedEntry({ url: options.url, policyPath }));
  }
  const { flags, grants } = compilePermissions(options);
  const args = [
    "compile",
    "--no-prompt",
    ...flags,
    ...(options.target ? ["--target", options.target] : []),
    "--output",
    options.output,
    entry,
  ];
  const child = new Deno.Command("deno", { args, stdout: "inherit", stderr: "inherit" }).spawn();
  const { code } = await child.status;
  if (code !== 0) return code;
  writeOut(`built ${options.output}: ${grants}`);
  if (options.url) writeOut(`baked in: BITBUCKET_URL=${options.url.href}`);
  if (options.bakePolicy) writeOut(`baked in: the policy file ${options.policyPath}`);
  return 0;
}

if (import.meta.main) Deno.exit(await compile(Deno.args));
