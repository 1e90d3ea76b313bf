/**
 * The container image and the Kubernetes example, held against the program they run (there is no
 * container runtime here; .github/workflows/container.yml runs the real image): the Dockerfile's command is
 * one the real flag parser accepts, on the port it exposes; its entry point grants exactly the
 * environment the server reads and no blanket permission; its health check and the manifests'
 * probes ask for the path the server serves, on the port it listens on; the manifests' ports,
 * environment, labels and user agree with the image and with each other. Then the image's command
 * is run as the image runs it (the entry point's Deno flags, the image's ENV and CMD) against the
 * sandbox Bitbucket, and its health check must pass.
 */
import assert from "node:assert/strict";
import { parseFlags } from "../../src/cli/flags.ts";
import { ENV_VARS } from "../../src/config.ts";
import { defaultPolicyPath } from "../../src/policy/admin_policy.ts";
import { HEALTH_PATH, METRICS_PATH } from "../../src/server/http.ts";
import { VERSION } from "../../src/version.ts";
import { type Dockerfile, readDockerfile } from "../../testing/dockerfile.ts";
import { freePort } from "../../testing/free_port.ts";
import { MAIN } from "../../testing/spawn.ts";
import { parseYamlDocuments } from "../support/yaml_subset.ts";
import { SESSION_HEADER } from "../../src/server/sessions.ts";

const ROOT = new URL("../../", import.meta.url);
const read = (path: string) => Deno.readTextFile(new URL(path, ROOT));
/** Where the Dockerfile puts the checkout: its `WORKDIR`, with a slash. */
const APP = (await readDockerfile()).instructions.find((i) => i.keyword === "WORKDIR")!.args
  .replace(/\/?$/, "/");

// deno-lint-ignore no-explicit-any
type Yaml = any;

/** Every manifest of deploy/kubernetes/, by kind (the Secret from its example). */
async function manifests(): Promise<Record<string, Yaml>> {
  const byKind: Record<string, Yaml> = {};
  for await (const entry of Deno.readDir(new URL("deploy/kubernetes/", ROOT))) {
    if (!entry.name.endsWith(".yaml")) continue;
    for (const doc of parseYamlDocuments(await read(`deploy/kubernetes/${entry.name}`))) {
      const kind = (doc as Yaml).kind as string;
      assert.ok(!(kind in byKind), `two ${kind} manifests`);
      byKind[kind] = doc;
    }
  }
  return byKind;
}

/** The entry point's `exec deno run …` line, its continuations joined, as words. */
async function entrypointDenoArgs(image: Dockerfile): Promise<string[]> {
  const script = image.entrypoint.find((part) => part.startsWith(APP));
  assert.ok(script, `the ENTRYPOINT runs a script of the checkout: ${image.entrypoint}`);
  const text = (await read(script.slice(APP.length))).replaceAll("\\\n", " ");
  const exec = text.split("\n").find((line) => line.trim().startsWith("exec deno run"));
  assert.ok(exec, `${script} ends in exec deno run`);
  return exec.trim().split(/\s+/).slice(3).map((word) => word.replaceAll('"', ""));
}

/** The value of `--name=value` among `args`. */
const flagValue = (args: string[], name: string) =>
  args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);

Deno.test("container: the image is Deno's official one at the version the release tests, by digest", async () => {
  const image = await readDockerfile();
  const workflow = await read(".github/workflows/release.yml");
  const version = /deno-version:\s*(\S+)/.exec(workflow)?.[1];
  assert.ok(version, "release.yml pins a deno-version");
  assert.match(image.from, new RegExp(`^denoland/deno:${version}@sha256:[0-9a-f]{64}$`));
});

Deno.test("container: CMD is serve --http on all interfaces, on the EXPOSEd port, by the real flag parser", async () => {
  const image = await readDockerfile();
  const flags = parseFlags(image.cmd);
  assert.equal(flags.command, "serve");
  assert.ok(flags.http, `CMD serves HTTP: ${image.cmd.join(" ")}`);
  assert.equal(flags.http.hostname, "0.0.0.0");
  assert.deepEqual(image.expose, [flags.http.port]);
  const uid = image.user?.split(":")[0];
  assert.match(uid ?? "", /^[1-9][0-9]*$/, "USER is a numeric non-root uid");
});

Deno.test("container: the entry point grants exactly ENV_VARS, the policy file, and no blanket permission", async () => {
  const image = await readDockerfile();
  const args = await entrypointDenoArgs(image);
  assert.deepEqual(flagValue(args, "--allow-env")?.split(",").sort(), [...ENV_VARS].sort());
  // `--allow-read=$read`: the variable starts as a literal list (certificate paths join it).
  const script = await read(image.entrypoint.at(-1)!.slice(APP.length));
  const readVar = /^(\w+)="([^"$]*)"$/m.exec(script.slice(script.indexOf("\nread=")));
  assert.equal(flagValue(args, "--allow-read"), `$${readVar?.[1]}`);
  assert.ok(
    readVar?.[2]?.split(",").includes(defaultPolicyPath("linux")),
    "the administrator's policy can be mounted and read",
  );
  assert.ok(args.includes("--cached-only"), "the container never downloads code");
  for (const arg of args) {
    assert.doesNotMatch(arg, /^(-A|--allow-all|--allow-(run|write|ffi|sys|import)|--allow-net)$/);
  }
  // `"$net_flag"`: the Bitbucket host and listen addresses, or no network at all; never all of it.
  assert.ok(args.includes("$net_flag"), args.join(" "));
  const netFlags = [...script.matchAll(/net_flag="([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual(netFlags.toSorted(), ["--allow-net=$net", "--deny-net"]);
  // Every flag the script reads a listen address or URL from is one the server takes.
  const scanned = new Set(
    [...script.matchAll(/^\s*(--[a-z-]+)(?:=\*)?(?: \| (--[a-z-]+)(?:=\*)?)?\)/gm)]
      .flatMap((m) => [m[1]!, m[2]].filter((f) => f !== undefined)),
  );
  assert.ok(scanned.has("--http") && scanned.has("--url"), [...scanned].join(" "));
  for (const flag of scanned) {
    const value = flag === "--url" ? "https://bitbucket.example.com" : "127.0.0.1:9090";
    parseFlags([...image.cmd, flag, value]);
  }
});

Deno.test("container: .dockerignore admits what the Dockerfile copies, and nothing else", async () => {
  const image = await readDockerfile();
  const copied = image.instructions.filter((i) => i.keyword === "COPY")
    .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
  const lines = (await read(".dockerignore")).split("\n").filter((l) => l && !l.startsWith("#"));
  assert.equal(lines[0], "*", "everything is left out first");
  assert.deepEqual(lines.slice(1).map((l) => l.replace(/^!/, "")).sort(), copied.sort());
  for (const path of copied) assert.ok(await Deno.stat(new URL(path, ROOT)), `${path} exists`);
});

Deno.test("container: the HEALTHCHECK asks the served health path on the CMD's port", async () => {
  const image = await readDockerfile();
  const port = parseFlags(image.cmd).http!.port;
  const command = image.healthcheck?.command ?? [];
  const url = new URL(command.at(-1)!);
  assert.equal(url.pathname, HEALTH_PATH);
  assert.equal(Number(url.port), port);
  assert.equal(flagValue(command, "--allow-net"), url.host, "the check may reach that one address");
  const script = command.find((part) => part.startsWith(APP));
  assert.ok(script && await Deno.stat(new URL(script.slice(APP.length), ROOT)));
});

Deno.test("container: the image sets the memory settings and bakes in no token", async () => {
  const { env } = await readDockerfile();
  assert.ok(env.MALLOC_ARENA_MAX, "MALLOC_ARENA_MAX is set");
  assert.match(env.DENO_V8_FLAGS ?? "", /--max-semi-space-size=\d+/);
  assert.match(env.DENO_V8_FLAGS ?? "", /--max-old-space-size=\d+/);
  for (const name of Object.keys(env)) {
    assert.ok(!name.startsWith("BITBUCKET_"), `the image sets ${name}: configure it at run time`);
  }
});

Deno.test("kubernetes: the Deployment runs the image's server, probes its health path, and takes env from a ConfigMap and a Secret", async () => {
  const image = await readDockerfile();
  const { Deployment, ConfigMap, Secret } = await manifests();
  assert.ok(Deployment.spec.replicas >= 2, "two replicas at least");
  const pod = Deployment.spec.template;
  const [container] = pod.spec.containers;
  const flags = parseFlags(container.args ?? image.cmd);
  assert.equal(flags.command, "serve");
  const ports = new Map<string, number>(
    container.ports.map((p: Yaml) => [p.name, p.containerPort]),
  );
  const port = (ref: string | number) => typeof ref === "number" ? ref : ports.get(ref);
  assert.deepEqual([...ports.values()], [flags.http!.port]);
  assert.deepEqual(image.expose, [flags.http!.port]);
  for (const probe of [container.readinessProbe, container.livenessProbe]) {
    assert.equal(probe.httpGet.path, HEALTH_PATH);
    assert.equal(port(probe.httpGet.port), flags.http!.port);
  }
  assert.equal(container.image.split(":").at(-1), VERSION);
  const names = container.env.map((e: Yaml) => e.name);
  for (const name of names) assert.ok((ENV_VARS as readonly string[]).includes(name), name);
  assert.ok(!names.includes("BITBUCKET_TOKEN"), "each user brings their own token");
  const env = Object.fromEntries(container.env.map((e: Yaml) => [e.name, e.valueFrom]));
  const url = env.BITBUCKET_URL.configMapKeyRef;
  assert.equal(url.name, ConfigMap.metadata.name);
  assert.ok(url.key in ConfigMap.data);
  const key = env.BITBUCKET_MCP_STATE_KEY.secretKeyRef;
  assert.equal(key.name, Secret.metadata.name);
  assert.ok(key.key in Secret.stringData);
  assert.equal(pod.metadata.annotations["prometheus.io/path"], METRICS_PATH);
  assert.equal(Number(pod.metadata.annotations["prometheus.io/port"]), flags.http!.port);
});

Deno.test("kubernetes: non-root as the image's user, read-only root, no privilege", async () => {
  const image = await readDockerfile();
  const { Deployment } = await manifests();
  const spec = Deployment.spec.template.spec;
  assert.equal(spec.securityContext.runAsNonRoot, true);
  assert.equal(String(spec.securityContext.runAsUser), image.user?.split(":")[0]);
  const context = spec.containers[0].securityContext;
  assert.equal(context.readOnlyRootFilesystem, true);
  assert.equal(context.allowPrivilegeEscalation, false);
  assert.deepEqual(context.capabilities.drop, ["ALL"]);
});

Deno.test("kubernetes: the Service, HPA and NetworkPolicy name the Deployment's pods and port", async () => {
  const { Deployment, Service, HorizontalPodAutoscaler: hpa, NetworkPolicy, ConfigMap } =
    await manifests();
  const labels = Deployment.spec.template.metadata.labels;
  const [container] = Deployment.spec.template.spec.containers;
  const named = new Map<unknown, number>(
    container.ports.map((p: Yaml) => [p.name, p.containerPort]),
  );
  const port = (ref: unknown) => typeof ref === "number" ? ref : named.get(ref);
  const selects = (selector: Record<string, string>) =>
    Object.entries(selector).every(([k, v]) => labels[k] === v);
  assert.ok(selects(Service.spec.selector), "the Service selects the pods");
  assert.equal(port(Service.spec.ports[0].targetPort), container.ports[0].containerPort);
  assert.equal(hpa.spec.scaleTargetRef.kind, "Deployment");
  assert.equal(hpa.spec.scaleTargetRef.name, Deployment.metadata.name);
  assert.ok(hpa.spec.minReplicas >= 2);
  assert.ok(selects(NetworkPolicy.spec.podSelector.matchLabels), "the policy applies to the pods");
  assert.deepEqual(NetworkPolicy.spec.policyTypes.toSorted(), ["Egress", "Ingress"]);
  assert.equal(port(NetworkPolicy.spec.ingress[0].ports[0].port), container.ports[0].containerPort);
  // Egress: DNS, and Bitbucket on its URL's port, nothing else.
  const egressPorts = NetworkPolicy.spec.egress.map((rule: Yaml) =>
    rule.ports.map((p: Yaml) => p.port)
  );
  const bitbucket = new URL(ConfigMap.data.BITBUCKET_URL);
  const bitbucketPort = Number(bitbucket.port || (bitbucket.protocol === "https:" ? 443 : 80));
  assert.deepEqual(egressPorts, [[53, 53], [bitbucketPort]]);
  for (const rule of NetworkPolicy.spec.egress.slice(1)) {
    assert.ok(rule.to.every((peer: Yaml) => peer.ipBlock?.cidr), "Bitbucket by address only");
  }
});

/** Starts the demo's standalone sandbox Bitbucket; resolves to its URL and a stop function. */
async function sandbox(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = new Deno.Command("deno", {
    args: [
      "run",
      "--no-prompt",
      "--allow-net=127.0.0.1",
      "--allow-read=fixtures",
      "demo/sandbox.ts",
    ],
    cwd: ROOT.pathname,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the sandbox exited: ${seen}`);
    seen += value;
  }
  return {
    url: seen.trim(),
    stop: async () => {
      child.kill("SIGTERM");
      await reader.cancel();
      await child.status;
    },
  };
}

/** What a spawned Deno needs to find its cache besides the image's ENV. */
function hostEnv(): Record<string, string> {
  const env: Record<string, string> = { PATH: Deno.env.get("PATH") ?? "" };
  for (const name of ["HOME", "DENO_DIR"]) {
    const value = Deno.env.get(name);
    if (value) env[name] = value;
  }
  return env;
}

/** The image's command, as `deno run` words for this checkout, listening on 127.0.0.1:`port`. */
async function imageCommand(image: Dockerfile, bitbucketHost: string, port: number) {
  const listen = `127.0.0.1:${port}`;
  const at = image.cmd.indexOf("--http") + 1;
  const cmd = image.cmd.map((arg, i) => i === at ? listen : arg);
  const args = (await entrypointDenoArgs(image)).map((arg) =>
    arg
      .replace("$net_flag", `--allow-net=${bitbucketHost},${listen}`)
      .replace("$read", defaultPolicyPath("linux"))
      .replace("$app/main.ts", MAIN)
      .replace("$@", "")
  ).filter((arg) => arg !== "");
  return { args: ["run", ...args, ...cmd], cmd };
}

Deno.test("container: the image's command serves, and its health check passes, against the sandbox", async () => {
  const image = await readDockerfile();
  const bitbucket = await sandbox();
  const port = freePort();
  const { args } = await imageCommand(image, new URL(bitbucket.url).host, port);
  const server = new Deno.Command("deno", {
    args,
    env: { ...hostEnv(), ...image.env, BITBUCKET_URL: bitbucket.url },
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = server.stderr.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let seen = "";
    while (!seen.includes("serving MCP at")) {
      const { value, done } = await stderr.read();
      assert.ok(!done, `the image's command did not serve: ${seen}`);
      seen += value;
    }
    const imagePort = parseFlags(image.cmd).http!.port;
    const health = image.healthcheck!.command.map((arg) =>
      arg.replace(`:${imagePort}`, `:${port}`).replace(APP, ROOT.pathname)
    );
    const check = await new Deno.Command(health[0]!, {
      args: health.slice(1),
      env: image.env,
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(check.code, 0, new TextDecoder().decode(check.stderr));
    const { Deployment } = await manifests();
    const probe = Deployment.spec.template.spec.containers[0].readinessProbe.httpGet.path;
    const answer = await fetch(`http://127.0.0.1:${port}${probe}`);
    assert.equal(answer.status, 200);
    await answer.body?.cancel();
  } finally {
    server.kill("SIGTERM");
    await stderr.cancel();
    await server.status;
    await bitbucket.stop();
  }
});

Deno.test("kubernetes: the Ingress sends /mcp to the Service, each session back to its replica by its Mcp-Session-Id", async () => {
  const { Ingress, Service, Deployment } = await manifests();
  const [rule] = Ingress.spec.rules;
  const [path] = rule.http.paths;
  assert.equal(path.path, "/mcp");
  assert.equal(path.backend.service.name, Service.metadata.name);
  assert.equal(path.backend.service.port.name, Service.spec.ports[0].name);
  // The header the server's session ids travel in, as nginx names a request header.
  const header = `$http_${SESSION_HEADER.replaceAll("-", "_")}`;
  assert.equal(
    Ingress.metadata.annotations["nginx.ingress.kubernetes.io/upstream-hash-by"],
    header,
  );
  const [container] = Deployment.spec.template.spec.containers;
  const hosts = container.args[container.args.indexOf("--allow-host") + 1].split(",");
  assert.ok(hosts.includes(rule.host), "the server accepts the Host the Ingress forwards");
});

Deno.test("kubernetes: the Secret example's placeholder is refused, so it cannot be deployed as is", async () => {
  const image = await readDockerfile();
  const { Secret } = await manifests();
  const { args } = await imageCommand(image, "bitbucket.example.com", freePort());
  const child = new Deno.Command("deno", {
    args,
    env: {
      ...image.env,
      BITBUCKET_URL: "https://bitbucket.example.com",
      BITBUCKET_MCP_STATE_KEY: Secret.stringData.BITBUCKET_MCP_STATE_KEY,
      ...hostEnv(),
    },
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  // A placeholder the server took would serve until stopped: give it a few seconds.
  const timer = setTimeout(() => child.kill("SIGTERM"), 15_000);
  const run = await child.output();
  clearTimeout(timer);
  assert.equal(run.code, 2);
  assert.match(new TextDecoder().decode(run.stderr), /BITBUCKET_MCP_STATE_KEY/);
});
