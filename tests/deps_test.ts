/**
 * The source resolves without an import map: `deno run <url>/main.ts` finds
 * no deno.json beside the URL, so every import under src/ (and main.ts) must
 * be relative, a `node:` built-in, or, in src/deps/ alone, an `npm:`
 * specifier pinned to an exact version. deno.json maps the bare names tests
 * use to the same modules, so each version is written once.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** Every import and export specifier in a module's text: static, side-effect and dynamic. */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\b[^;]*?\bfrom\s+["']([^"'\s]+)["']/gm,
    /\bimport\s*\(\s*["']([^"'\s]+)["']\s*\)/g,
    /^\s*import\s*["']([^"'\s]+)["']/gm,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) found.push(match[1]!);
  }
  return found;
}

/** The .ts files the served program is made of: main.ts and everything under src/. */
async function sourceFiles(): Promise<string[]> {
  const files = ["main.ts"];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) await walk(`${path}/`);
      else if (entry.name.endsWith(".ts")) files.push(path);
    }
  };
  await walk("src/");
  return files.sort();
}

/** Why a specifier in `file` would not resolve from a URL, or undefined when it would. */
function problem(file: string, specifier: string): string | undefined {
  if (specifier.startsWith("./") || specifier.startsWith("../")) return undefined;
  if (specifier.startsWith("node:")) return undefined;
  if (specifier.startsWith("npm:")) {
    if (!file.startsWith("src/deps/")) return "npm: specifiers belong in src/deps/ only";
    return /^npm:(@[^/@]+\/)?[^/@]+@\d+\.\d+\.\d+(\/.*)?$/.test(specifier)
      ? undefined
      : "pin an exact version";
  }
  return "a bare specifier resolves only through deno.json's import map: import it from src/deps/";
}

Deno.test("deps: every import under src/ and in main.ts resolves without an import map", async () => {
  const wrong: string[] = [];
  for (const file of await sourceFiles()) {
    const text = await Deno.readTextFile(new URL(file, ROOT));
    for (const specifier of specifiers(text)) {
      const why = problem(file, specifier);
      if (why) wrong.push(`${file}: "${specifier}": ${why}`);
    }
  }
  assert.deepEqual(wrong, []);
});

Deno.test("deps: the check sees static, side-effect and dynamic imports, and refuses bare and unpinned ones", () => {
  const text = [
    'import { z } from "zod";',
    'import type {\n  X,\n} from "../deps/mcp.ts";',
    'const text = "a default taken from \\"x\\"";',
    'export * from "npm:zod@4";',
    'import "side-effect";',
    'const m = await import("@modelcontextprotocol/server");',
    'import v8 from "node:v8";',
  ].join("\n");
  const found = specifiers(text);
  assert.deepEqual(found.toSorted(), [
    "../deps/mcp.ts",
    "@modelcontextprotocol/server",
    "node:v8",
    "npm:zod@4",
    "side-effect",
    "zod",
  ]);
  assert.deepEqual(
    found.map((s) => [s, problem("src/deps/zod.ts", s) !== undefined]),
    [
      ["zod", true],
      ["../deps/mcp.ts", false],
      ["npm:zod@4", true],
      ["node:v8", false],
      ["@modelcontextprotocol/server", true],
      ["side-effect", true],
    ],
  );
  assert.equal(
    problem("src/tools/x.ts", "npm:zod@4.6.7"),
    "npm: specifiers belong in src/deps/ only",
  );
  assert.equal(problem("src/deps/zod.ts", "npm:zod@4.6.7"), undefined);
  assert.equal(
    problem("src/deps/mcp.ts", "npm:@modelcontextprotocol/server@2.4.0/stdio"),
    undefined,
  );
});

Deno.test("deps: deno.json maps the runtime's bare names to src/deps/, and the test client is the server's release", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))) as {
    imports: Record<string, string>;
  };
  assert.equal(config.imports["zod"], "./src/deps/zod.ts");
  assert.equal(config.imports["@modelcontextprotocol/server"], "./src/deps/mcp.ts");
  assert.equal(config.imports["@modelcontextprotocol/server/stdio"], "./src/deps/mcp.ts");
  const mcp = await Deno.readTextFile(new URL("src/deps/mcp.ts", ROOT));
  const versions = new Set(
    specifiers(mcp).map((s) => /^npm:@modelcontextprotocol\/server@([^/]+)/.exec(s)?.[1]),
  );
  assert.equal(versions.size, 1, "one SDK version in src/deps/mcp.ts");
  const [version] = versions;
  for (const name of ["@modelcontextprotocol/client", "@modelcontextprotocol/client/stdio"]) {
    assert.match(
      config.imports[name] ?? "",
      new RegExp(`^npm:${name.split("/stdio")[0]}@${version}`),
    );
  }
});
