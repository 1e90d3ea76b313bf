/**
 * The rooms of the code and what each may import, read from the source. Every
 * .ts file in src/, main.ts, scripts/, testing/, demo/, bench/ and tests/ is
 * placed in a room; every import it makes (static, re-export, side-effect,
 * dynamic) must be one {@link MAY_IMPORT} allows its room. Third-party code
 * comes in through src/deps/ (`npm:`, pinned) and, outside src/, through
 * deno.json's import map names; a `_name.ts` is private to its folder. And:
 * no import cycle in src/, no file in src/ over 400 lines, src/bitbucket and
 * the HTTP mode name no CLI flag or environment variable (the CLI words those
 * fixes, in src/cli/hints.ts), and tests/ mirrors src/.
 */
import assert from "node:assert/strict";
import { ENV_VARS } from "../src/config.ts";
import { specifiers } from "./support/imports.ts";

const ROOT = new URL("../", import.meta.url);

/** Where a file sits: src/'s rooms, then what is built around them. */
type Room =
  | "deps"
  | "version"
  | "config"
  | "bitbucket"
  | "kit"
  | "toolset"
  | "catalogue"
  | "policy"
  | "resources"
  | "prompts"
  | "completions"
  | "metrics"
  | "auth"
  | "server"
  | "cli"
  | "main"
  | "scripts"
  | "testing"
  | "demo"
  | "bench"
  | "tests";

/**
 * What a room may import besides its own files: rooms, or `all of src/` (every
 * room under src/), `its own folder` (a toolset: src/tools/<name>/ only, each
 * folder a room of its own), `a toolset's mod.ts` (a folder's public face, the
 * only file of a toolset the catalogue sees), `anything`.
 */
type Allowed = Room | "all of src/" | "its own folder" | "a toolset's mod.ts" | "anything";

/** The table: room → what it may import. One literal, the whole architecture. */
const MAY_IMPORT: Record<Room, readonly Allowed[]> = {
  deps: [], // npm: specifiers only (see the third-party test)
  version: [],
  config: ["bitbucket"],
  bitbucket: ["deps"],
  kit: ["deps", "bitbucket"],
  toolset: ["deps", "bitbucket", "kit", "its own folder"],
  catalogue: ["deps", "kit", "a toolset's mod.ts"],
  policy: ["deps", "bitbucket", "kit", "config", "metrics"],
  resources: ["deps", "bitbucket", "kit", "policy"],
  prompts: ["deps", "kit", "resources"],
  completions: ["deps", "bitbucket", "kit", "policy", "resources"],
  metrics: [],
  // A person's sign-in (issue 33): Bitbucket's OAuth endpoints under its base path, the who-am-I
  // read, and StartupError for a store no permission allows; the CLI wires it, the stdio gate in
  // src/server takes it through an interface of its own, so neither server nor policy imports it.
  auth: ["bitbucket", "config"],
  server: [
    "deps",
    "bitbucket",
    "kit",
    "policy",
    "resources",
    "prompts",
    "completions",
    "config",
    "version",
    "metrics",
  ],
  cli: ["all of src/"],
  main: ["cli"],
  scripts: ["all of src/"],
  testing: ["all of src/", "testing"],
  demo: ["all of src/", "testing", "demo"],
  bench: ["all of src/", "testing", "bench"],
  tests: ["anything"],
};

/** The rooms under src/. */
const SRC_ROOMS: readonly Room[] = [
  "deps",
  "version",
  "config",
  "bitbucket",
  "kit",
  "toolset",
  "catalogue",
  "policy",
  "resources",
  "prompts",
  "completions",
  "metrics",
  "auth",
  "server",
  "cli",
];

/**
 * deno.json's import map names and who may use them; nothing in src/ or
 * main.ts may (the program must run from a URL, where no deno.json is found).
 * A name ending in `/` is a prefix. The client and the older SDKs are test
 * equipment: tests, testing, bench and demo only.
 */
const IMPORT_MAP_USERS: Record<string, readonly Room[]> = {
  "@modelcontextprotocol/server": ["scripts", "testing", "demo", "bench", "tests"],
  "@modelcontextprotocol/server/stdio": ["scripts", "testing", "demo", "bench", "tests"],
  "zod": ["scripts", "testing", "demo", "bench", "tests"],
  "@modelcontextprotocol/client": ["testing", "demo", "bench", "tests"],
  "@modelcontextprotocol/client/stdio": ["testing", "demo", "bench", "tests"],
  "mcp-sdk-1.32.2/": ["testing", "demo", "bench", "tests"],
  "mcp-sdk-1.22.0/": ["testing", "demo", "bench", "tests"],
  "mcp-sdk-1.12.1/": ["testing", "demo", "bench", "tests"],
  "mcp-sdk-1.9.0/": ["testing", "demo", "bench", "tests"],
  // The MCP Apps host library, bundled into the view's reference host page by the browser tests.
  "@modelcontextprotocol/ext-apps/app-bridge": ["tests"],
};

/**
 * Test files under tests/ that mirror no module, each with why. Everything
 * else outside tests/e2e/, tests/support/ and tests/docs/ is
 * tests/<path>_test.ts for src/<path>.ts or scripts/<path>.ts.
 */
const MIRROR_EXCEPTIONS: Record<string, string> = {
  "tests/layers_test.ts": "src/ as a whole: its rooms and what each may import",
  "tests/deps_test.ts": "src/deps/ as a folder, against deno.json's import map",
  "tests/exports_test.ts": "src/ as a whole: every export has a user (no dead code behind one)",
  "tests/fixtures_readme_test.ts": "fixtures/ is data, not code: its README against its files",
};

/** A file's room, with the label messages name it by (a toolset by its folder). */
interface Place {
  room: Room;
  label: string;
  /** The room's folder, for a toolset: src/tools/<name>/. */
  folder?: string;
}

/** The room a file (a path from the repository root) is in, or undefined for a file in none. */
function placeOf(path: string): Place | undefined {
  if (path === "main.ts") return { room: "main", label: "main" };
  if (path === "src/version.ts") return { room: "version", label: "version" };
  if (path === "src/config.ts") return { room: "config", label: "config" };
  if (path.startsWith("src/tools/kit/")) return { room: "kit", label: "kit" };
  const toolset = /^src\/tools\/([^/]+)\//.exec(path);
  if (toolset) {
    return { room: "toolset", label: `toolset ${toolset[1]}`, folder: `src/tools/${toolset[1]}/` };
  }
  if (/^src\/tools\/[^/]+\.ts$/.test(path)) return { room: "catalogue", label: "catalogue" };
  const src =
    /^src\/(deps|bitbucket|policy|resources|prompts|completions|metrics|auth|server|cli)\//
      .exec(
        path,
      );
  if (src) return { room: src[1] as Room, label: src[1]! };
  const outside = /^(scripts|testing|demo|bench|tests)\//.exec(path);
  if (outside) return { room: outside[1] as Room, label: outside[1]! };
  return undefined;
}

/** Why `from` may not import `to` (both paths from the repository root), or undefined when it may. */
function roomProblem(from: string, to: string): string | undefined {
  const source = placeOf(from);
  const target = placeOf(to);
  if (!source || !target) return `${from} imports ${to}: ${!source ? from : to} is in no room`;
  if (source.label === target.label) return undefined; // a room's own files; a toolset's own folder
  const allowed = MAY_IMPORT[source.room];
  const ok = allowed.some((entry) => {
    switch (entry) {
      case "anything":
        return true;
      case "all of src/":
        return SRC_ROOMS.includes(target.room);
      case "its own folder":
        return false; // the same label, above
      case "a toolset's mod.ts":
        return target.room === "toolset" && to === `${target.folder}mod.ts`;
      default:
        return entry === target.room && target.room !== "toolset";
    }
  });
  if (ok) return undefined;
  const may = allowed.length === 0 ? "nothing" : allowed.join(", ");
  return `${from} (${source.label}) imports ${to} (${target.label}): ${source.room} may import ${may}`;
}

/** Why `from` may not import the private `to` (a `_name.ts`), or undefined when it may. */
function privateProblem(from: string, to: string): string | undefined {
  const name = to.slice(to.lastIndexOf("/") + 1);
  if (!name.startsWith("_")) return undefined;
  const folder = to.slice(0, to.lastIndexOf("/") + 1);
  const own = from.slice(0, from.lastIndexOf("/") + 1);
  // A module's tests sit in the mirrored folder (tests/tools/refs/ for src/tools/refs/).
  const mirror = folder.startsWith("src/") ? `tests/${folder.slice("src/".length)}` : undefined;
  if (own === folder || own === mirror) return undefined;
  return `${from} imports ${to}: a _name.ts is private to its folder, ${folder}`;
}

/** Why a specifier that is not a relative path is refused in `file`, or undefined when it is allowed. */
function specifierProblem(file: string, specifier: string): string | undefined {
  const relative = specifier.startsWith("./") || specifier.startsWith("../");
  if (specifier.startsWith("node:")) return undefined;
  if (file.startsWith("src/deps/")) {
    if (!specifier.startsWith("npm:")) return "src/deps/ imports npm: specifiers only";
    return /^npm:(@[^/@]+\/)?[^/@]+@\d+\.\d+\.\d+(\/.*)?$/.test(specifier)
      ? undefined
      : "pin an exact version";
  }
  if (relative) return undefined;
  if (specifier.startsWith("npm:")) return "npm: specifiers belong in src/deps/ only";
  if (/^(jsr|https?):/.test(specifier)) {
    return "third-party code comes through src/deps/ (npm:, pinned) only";
  }
  const place = placeOf(file);
  if (!place || SRC_ROOMS.includes(place.room) || place.room === "main") {
    return "a bare specifier resolves only through deno.json's import map: import it from src/deps/";
  }
  const name = importMapName(specifier);
  if (name === undefined) return "neither relative nor a name in deno.json's import map";
  const users = IMPORT_MAP_USERS[name]!;
  if (!users.includes(place.room)) return `${name} is for ${users.join(", ")} only`;
  return undefined;
}

/** The import map name a bare specifier resolves through, if any (exact, or a prefix ending in `/`). */
function importMapName(specifier: string): string | undefined {
  return Object.keys(IMPORT_MAP_USERS).find((name) =>
    name.endsWith("/") ? specifier.startsWith(name) : specifier === name
  );
}

/** Every .ts file under a folder, as paths from the repository root. */
async function tsFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) found.push(...await tsFiles(`${path}/`));
    else if (entry.name.endsWith(".ts")) found.push(path);
  }
  return found.sort();
}

/** One import: the file, what it wrote, and the file it names (for a relative or mapped specifier). */
interface Import {
  from: string;
  specifier: string;
  /** The imported file, from the repository root; undefined for node:, npm: and other packages. */
  to?: string;
}

/** Resolves a specifier of `file` to a path from the repository root, through deno.json for bare names. */
function resolve(file: string, specifier: string, map: Record<string, string>): string | undefined {
  let target = specifier;
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) {
    const mapped = map[specifier];
    if (!mapped?.startsWith("./")) return undefined;
    target = mapped;
    file = "deno.json";
  }
  return new URL(target, new URL(file, ROOT)).href.slice(ROOT.href.length);
}

let scanned: Promise<{ files: Map<string, string>; imports: Import[] }> | undefined;

/** Every file the layers cover, with its text, and every import each makes. Read once. */
function scan(): Promise<{ files: Map<string, string>; imports: Import[] }> {
  scanned ??= (async () => {
    const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))) as {
      imports: Record<string, string>;
    };
    const paths = ["main.ts"];
    for (const dir of ["src/", "scripts/", "testing/", "demo/", "bench/", "tests/"]) {
      paths.push(...await tsFiles(dir));
    }
    const files = new Map<string, string>();
    const imports: Import[] = [];
    for (const path of paths) {
      const text = await Deno.readTextFile(new URL(path, ROOT));
      files.set(path, text);
      for (const specifier of specifiers(text)) {
        imports.push({ from: path, specifier, to: resolve(path, specifier, config.imports) });
      }
    }
    return { files, imports };
  })();
  return scanned;
}

Deno.test("layers: every file is in a room, and imports only what its room may import", async () => {
  const { files, imports } = await scan();
  const wrong: string[] = [];
  for (const path of files.keys()) {
    if (!placeOf(path)) wrong.push(`${path} is in no room: place it, or add its room to the table`);
  }
  for (const { from, to } of imports) {
    if (to === undefined) continue;
    if (!files.has(to)) wrong.push(`${from} imports ${to}, which does not exist`);
    const why = roomProblem(from, to);
    if (why) wrong.push(why);
  }
  assert.deepEqual(wrong, []);
});

Deno.test("layers: third-party code comes through src/deps/ (npm:, pinned) and, outside src/, deno.json's import map", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))) as {
    imports: Record<string, string>;
  };
  assert.deepEqual(
    Object.keys(config.imports).sort(),
    Object.keys(IMPORT_MAP_USERS).sort(),
    "the table names exactly deno.json's import map",
  );
  const { imports } = await scan();
  const wrong = imports.flatMap(({ from, specifier }) => {
    const why = specifierProblem(from, specifier);
    return why ? [`${from}: "${specifier}": ${why}`] : [];
  });
  assert.deepEqual(wrong, []);
});

Deno.test("layers: a _name.ts is imported only from its own folder (or its tests' mirror of it)", async () => {
  const { imports } = await scan();
  const wrong = imports.flatMap(({ from, to }) => {
    const why = to === undefined ? undefined : privateProblem(from, to);
    return why ? [why] : [];
  });
  assert.deepEqual(wrong, []);
});

/**
 * Inside src/bitbucket/: the transport (how a request travels and its answer
 * is read) knows nothing of the domain readers beside it, and the hygiene of
 * other people's text knows nothing of either.
 */
const BITBUCKET_FOLDERS: readonly { folder: string; may: readonly string[] }[] = [
  { folder: "src/bitbucket/text/", may: ["src/bitbucket/text/"] },
  {
    folder: "src/bitbucket/transport/",
    may: ["src/bitbucket/transport/", "src/bitbucket/text/", "src/deps/"],
  },
];

Deno.test("layers: src/bitbucket's transport and text import nothing of the domain readers", async () => {
  const { imports } = await scan();
  const wrong = imports.flatMap(({ from, to }) => {
    const rule = BITBUCKET_FOLDERS.find((r) => from.startsWith(r.folder));
    if (rule === undefined || to === undefined || rule.may.some((m) => to.startsWith(m))) return [];
    return [`${from} imports ${to}: ${rule.folder} may import only ${rule.may.join(", ")}`];
  });
  assert.deepEqual(wrong, []);
});

Deno.test("layers: no import cycle among src/ files", async () => {
  const { imports } = await scan();
  const edges = new Map<string, string[]>();
  for (const { from, to } of imports) {
    if (!from.startsWith("src/") || !to?.startsWith("src/")) continue;
    edges.set(from, [...edges.get(from) ?? [], to]);
  }
  const done = new Set<string>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (file: string) => {
    const at = stack.indexOf(file);
    if (at >= 0) {
      cycles.push([...stack.slice(at), file].join(" → "));
      return;
    }
    if (done.has(file)) return;
    stack.push(file);
    for (const next of edges.get(file) ?? []) visit(next);
    stack.pop();
    done.add(file);
  };
  for (const file of [...edges.keys()].sort()) visit(file);
  assert.deepEqual(cycles, [], "import cycles");
});

Deno.test("layers: no file in src/ is over 400 lines", async () => {
  const { files } = await scan();
  const long = [...files].flatMap(([path, text]) => {
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    return path.startsWith("src/") && lines > 400 ? [`${path}: ${lines} lines`] : [];
  });
  assert.deepEqual(long, [], "split a file over 400 lines by what its parts do");
});

/** A flag (`--timeout`), leaving out the text of a git diff header (`diff --git`). */
const FLAG = /--[a-z][a-z-]+/;
/** The variables the CLI reads (ENV_VARS), and any other BITBUCKET_ or DENO_ name. */
const VARIABLE = new RegExp(
  [...ENV_VARS.map((name) => `\\b${name}\\b`), "\\bBITBUCKET_[A-Z_]+", "\\bDENO_[A-Z_]+"].join("|"),
);

Deno.test("layers: src/bitbucket and the HTTP mode name no CLI flag and no environment variable", async () => {
  const { files } = await scan();
  const wrong: string[] = [];
  for (const [path, text] of files) {
    if (!path.startsWith("src/bitbucket/") && path !== "src/server/http.ts") continue;
    const found = FLAG.exec(text.replaceAll("diff --git", ""))?.[0] ?? VARIABLE.exec(text)?.[0];
    if (found) {
      wrong.push(`${path} names ${found}: give it an advice key, or take the words from the CLI`);
    }
  }
  assert.deepEqual(wrong, []);
});

Deno.test("layers: every test file mirrors a module: tests/<path>_test.ts for src/<path>.ts or scripts/<path>.ts", async () => {
  const exists = async (path: string) => {
    try {
      return (await Deno.stat(new URL(path, ROOT))).isFile;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  };
  const { files } = await scan();
  const wrong: string[] = [];
  for (const path of files.keys()) {
    if (!path.startsWith("tests/") || /^tests\/(e2e|support|docs)\//.test(path)) continue;
    if (!path.endsWith("_test.ts")) {
      wrong.push(`${path} is no test: helpers belong in tests/support/ (or testing/)`);
      continue;
    }
    const module = `${path.slice("tests/".length, -"_test.ts".length)}.ts`;
    const mirrors = await exists(`src/${module}`) || await exists(`scripts/${module}`);
    if (path in MIRROR_EXCEPTIONS) {
      if (mirrors) wrong.push(`${path} mirrors a module now: drop it from MIRROR_EXCEPTIONS`);
    } else if (!mirrors) {
      wrong.push(
        `${path} mirrors no src/${module} or scripts/${module}: move it beside its module`,
      );
    }
  }
  for (const path of Object.keys(MIRROR_EXCEPTIONS)) {
    if (!files.has(path)) wrong.push(`${path} is gone: drop it from MIRROR_EXCEPTIONS`);
  }
  assert.deepEqual(wrong, []);
});

Deno.test("layers: the check sees every kind of import, and each refusal names both files, both rooms and the rule", () => {
  const text = [
    'import { z } from "zod";',
    'import type {\n  X,\n} from "../deps/mcp.ts";',
    'const text = "a default taken from \\"x\\"";',
    'export * from "npm:zod@4";',
    'import "side-effect";',
    'const m = await import("@modelcontextprotocol/server");',
    'import v8 from "node:v8";',
  ].join("\n");
  assert.deepEqual(specifiers(text).toSorted(), [
    "../deps/mcp.ts",
    "@modelcontextprotocol/server",
    "node:v8",
    "npm:zod@4",
    "side-effect",
    "zod",
  ]);
  assert.equal(
    roomProblem("src/tools/refs/refs.ts", "src/policy/confinement.ts"),
    "src/tools/refs/refs.ts (toolset refs) imports src/policy/confinement.ts (policy): toolset may import deps, bitbucket, kit, its own folder",
  );
  assert.equal(
    roomProblem("src/tools/refs/refs.ts", "src/tools/source/files.ts"),
    "src/tools/refs/refs.ts (toolset refs) imports src/tools/source/files.ts (toolset source): toolset may import deps, bitbucket, kit, its own folder",
  );
  assert.equal(roomProblem("src/tools/refs/refs.ts", "src/tools/refs/_ref_pattern.ts"), undefined);
  assert.equal(roomProblem("src/tools/catalogue.ts", "src/tools/refs/mod.ts"), undefined);
  assert.equal(
    roomProblem("src/tools/catalogue.ts", "src/tools/refs/refs.ts"),
    "src/tools/catalogue.ts (catalogue) imports src/tools/refs/refs.ts (toolset refs): catalogue may import deps, kit, a toolset's mod.ts",
  );
  assert.equal(
    roomProblem("src/version.ts", "src/deps/zod.ts"),
    "src/version.ts (version) imports src/deps/zod.ts (deps): version may import nothing",
  );
  assert.equal(
    roomProblem("bench/main.ts", "tests/support/payload.ts"),
    "bench/main.ts (bench) imports tests/support/payload.ts (tests): bench may import all of src/, testing, bench",
  );
  assert.equal(roomProblem("tests/x_test.ts", "bench/main.ts"), undefined);
  assert.equal(
    privateProblem("src/resources/read.ts", "src/tools/source/_x.ts"),
    "src/resources/read.ts imports src/tools/source/_x.ts: a _name.ts is private to its folder, src/tools/source/",
  );
  assert.equal(
    privateProblem("tests/tools/source/_x_test.ts", "src/tools/source/_x.ts"),
    undefined,
  );
  assert.equal(
    specifierProblem("src/tools/x.ts", "npm:zod@4.6.7"),
    "npm: specifiers belong in src/deps/ only",
  );
  assert.equal(specifierProblem("src/deps/zod.ts", "npm:zod@4.6.7"), undefined);
  assert.equal(specifierProblem("src/deps/zod.ts", "npm:zod@4"), "pin an exact version");
  assert.equal(
    specifierProblem("src/deps/zod.ts", "./other.ts"),
    "src/deps/ imports npm: specifiers only",
  );
  assert.equal(
    specifierProblem("src/tools/x.ts", "zod"),
    "a bare specifier resolves only through deno.json's import map: import it from src/deps/",
  );
  assert.equal(specifierProblem("bench/x.ts", "zod"), undefined);
  assert.equal(specifierProblem("tests/x_test.ts", "mcp-sdk-1.12.1/client/index.js"), undefined);
  assert.equal(
    specifierProblem("scripts/x.ts", "@modelcontextprotocol/client"),
    "@modelcontextprotocol/client is for testing, demo, bench, tests only",
  );
  assert.equal(
    specifierProblem("tests/x_test.ts", "jsr:@std/assert"),
    "third-party code comes through src/deps/ (npm:, pinned) only",
  );
  assert.equal(specifierProblem("src/cli/x.ts", "node:v8"), undefined);
});
