/**
 * No dead code behind an `export` in src/. The rule: an export is used when a
 * file of the program or its tooling (src/, main.ts, scripts/, testing/,
 * demo/, bench/) imports it, directly or through a re-export, or when its own
 * module uses it (a type in an exported signature, a limit a message names, a
 * piece exported so that its test can drive it alone: live code either way).
 * An export that only tests/ import and its module does not use is dead code
 * with a test, and fails unless {@link ALLOWED} lists it with why it exists
 * for the tests; an export nothing uses at all fails. Read without a parser,
 * from the text, like the layer test's import scan.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** Where the program and its tooling live: the files whose imports make an export used. */
const PROGRAM = ["src/", "scripts/", "testing/", "demo/", "bench/"];

/** Exports that only tests use, kept on purpose: `path#name` → why they exist for the tests. */
const ALLOWED: Record<string, string> = {
  "src/tools/kit/define.ts#isTool":
    "the brand check (defineTool's private symbol) by which tests/tools/catalogue_test.ts finds every tool a module defines",
};

/** An identifier. */
const NAME = "[A-Za-z_$][\\w$]*";

/** One name a module exports: declared in it, or passed on from another module. */
interface Exported {
  name: string;
  /** For `export { a as b } from "./x.ts"`: the module and its name for it. */
  from?: { path: string; name: string };
  /** Exported by a list (`export { a }`), apart from where it is declared or imported. */
  listed?: boolean;
}

/** What a module exports: its names, and the modules it passes on whole (`export * from`). */
interface Exports {
  names: Map<string, Exported>;
  stars: string[];
}

/** A file's text without the comments that start a line (`/** … *\/`, `/* … *\/`, `// …`). */
function withoutComments(text: string): string {
  return text.replace(/^\s*\/\*[\s\S]*?\*\//gm, "").replace(/^\s*\/\/.*$/gm, "");
}

/** The names in an import or export list (`a, type b, c as d`): [name in the module, name here]. */
function listNames(list: string): [string, string][] {
  return list.split(",").map((part) => part.trim().replace(/^type\s+/, "")).filter(Boolean).map(
    (part) => {
      const [inner, outer] = part.split(/\s+as\s+/);
      return [inner!.trim(), (outer ?? inner)!.trim()];
    },
  );
}

/** What a module's text exports; `resolve` turns a specifier into a path from the root. */
function exportsOf(text: string, resolve: (specifier: string) => string): Exports {
  const names = new Map<string, Exported>();
  const stars: string[] = [];
  const code = withoutComments(text);
  if (/^export\s+default\b/m.test(code)) names.set("default", { name: "default" });
  const declared = new RegExp(
    `^export\\s+(?:declare\\s+)?(?:async\\s+)?(?:abstract\\s+)?` +
      `(?:function\\s*\\*?|const|let|var|class|type|interface|enum|namespace)\\s+(${NAME})`,
    "gm",
  );
  for (const match of code.matchAll(declared)) names.set(match[1]!, { name: match[1]! });
  const lists = /^export\s+(?:type\s+)?\{([^}]*)\}\s*(?:from\s+["']([^"'\s]+)["'])?/gm;
  for (const [, list, specifier] of code.matchAll(lists)) {
    for (const [inner, outer] of listNames(list!)) {
      names.set(
        outer,
        specifier
          ? { name: outer, from: { path: resolve(specifier), name: inner } }
          : { name: outer, listed: true },
      );
    }
  }
  for (const match of code.matchAll(/^export\s+\*\s+from\s+["']([^"'\s]+)["']/gm)) {
    stars.push(resolve(match[1]!));
  }
  return { names, stars };
}

/** One use of a module by another: the names taken from it, or every name the user's text holds. */
interface Use {
  path: string;
  /** The names taken; undefined for a namespace or dynamic import (see {@link usesOf}). */
  names?: string[];
}

/**
 * The modules a text takes names from, and which: `import { a, b as c }`,
 * `import type { T }`, `import d from`, `export { a } from`; for
 * `import * as ns` the names written `ns.name`, for a dynamic `import()` of a string
 * every word of the text (what it destructures or reads from the module).
 */
function usesOf(text: string, resolve: (specifier: string) => string): Use[] {
  const uses: Use[] = [];
  const code = withoutComments(text);
  const statements = /^\s*(?:import|export)\s+(?:type\s+)?([^;]*?)\s*from\s+["']([^"'\s]+)["']/gm;
  for (const [, clause, specifier] of code.matchAll(statements)) {
    const path = resolve(specifier!);
    const namespace = new RegExp(`^\\*\\s+as\\s+(${NAME})$`).exec(clause!.trim());
    if (namespace) {
      const words = code.matchAll(new RegExp(`\\b${namespace[1]}\\.(${NAME})`, "g"));
      uses.push({ path, names: [...words].map((m) => m[1]!) });
      continue;
    }
    if (clause!.trim() === "*") continue; // `export * from`: passed on, see exportsOf
    const names: string[] = [];
    const braces = /\{([^}]*)\}/.exec(clause!);
    if (braces) names.push(...listNames(braces[1]!).map(([inner]) => inner));
    if (new RegExp(`^${NAME}\\s*(,|$)`).test(clause!.trim())) names.push("default");
    uses.push({ path, names });
  }
  for (const match of code.matchAll(/\bimport\s*\(\s*["']([^"'\s]+)["']\s*\)/g)) {
    uses.push({ path: resolve(match[1]!) });
  }
  return uses;
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

/** A resolver for specifiers written in `file`: relative ones and deno.json's mapped local names. */
function resolverFor(file: string, map: Record<string, string>): (specifier: string) => string {
  return (specifier) => {
    let target = specifier;
    let base = file;
    if (!specifier.startsWith("./") && !specifier.startsWith("../")) {
      const mapped = map[specifier];
      if (!mapped?.startsWith("./")) return specifier; // a package: not ours to check
      target = mapped;
      base = "deno.json";
    }
    return new URL(target, new URL(base, ROOT)).href.slice(ROOT.href.length);
  };
}

/**
 * The exports of src/ that break the rule, each with what to do: `files` maps
 * every path (src/, main.ts, scripts/, testing/, demo/, bench/, tests/) to its
 * text, `map` is deno.json's import map.
 */
function unusedExports(
  files: ReadonlyMap<string, string>,
  map: Record<string, string>,
  allowed: Readonly<Record<string, string>> = ALLOWED,
): string[] {
  const exports = new Map<string, Exports>();
  for (const [path, text] of files) {
    if (path.startsWith("src/") && !path.startsWith("src/deps/")) {
      exports.set(path, exportsOf(text, resolverFor(path, map)));
    }
  }
  /** `path#name` → who imports it: the program, tests, or both. */
  const taken = new Map<string, Set<"program" | "tests">>();
  const take = (path: string, name: string, by: "program" | "tests", seen = new Set<string>()) => {
    const module = exports.get(path);
    if (!module || seen.has(path)) return;
    seen.add(path);
    const own = module.names.get(name);
    if (own) {
      const key = `${path}#${name}`;
      taken.set(key, new Set([...taken.get(key) ?? [], by]));
      if (own.from) take(own.from.path, own.from.name, by);
      return;
    }
    for (const star of module.stars) take(star, name, by, seen);
  };
  for (const [path, text] of files) {
    const by = path.startsWith("tests/") ? "tests" : "program";
    for (const use of usesOf(text, resolverFor(path, map))) {
      if (use.path === path) continue;
      const names = use.names ??
        [...allNames(use.path, exports)].filter((name) => word(name).test(withoutComments(text)));
      for (const name of names) take(use.path, name, by);
    }
  }
  const wrong: string[] = [];
  for (const [path, module] of exports) {
    const code = withoutComments(files.get(path)!);
    for (const name of module.names.keys()) {
      const key = `${path}#${name}`;
      const by = taken.get(key);
      if (by?.has("program") || key in allowed) continue;
      // Its declaration is one occurrence (an export list another); a name passed on from another
      // module is not used here.
      const { from, listed } = module.names.get(name)!;
      const usedHere = !from &&
        (code.match(new RegExp(word(name), "g"))?.length ?? 0) > (listed ? 2 : 1);
      if (usedHere) continue;
      wrong.push(
        by?.has("tests")
          ? `${key}: only tests import it and its module does not use it (dead code with a test: remove both, or list it in ALLOWED with why)`
          : `${key}: nothing imports or uses it (remove it)`,
      );
    }
  }
  for (const key of Object.keys(allowed)) {
    const [path, name] = key.split("#");
    if (!exports.get(path!)?.names.has(name!)) wrong.push(`${key}: listed in ALLOWED, but gone`);
  }
  return wrong.sort();
}

/** A pattern matching `name` as a whole word. */
function word(name: string): RegExp {
  return new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`);
}

/** Every name a module exports, with what its `export *` passes on. */
function allNames(path: string, exports: ReadonlyMap<string, Exports>, seen = new Set<string>()) {
  const module = exports.get(path);
  const names = new Set<string>();
  if (!module || seen.has(path)) return names;
  seen.add(path);
  for (const name of module.names.keys()) names.add(name);
  for (const star of module.stars) {
    for (const name of allNames(star, exports, seen)) names.add(name);
  }
  return names;
}

Deno.test("exports: every export of src/ is imported by the program, or used in its module and by its tests", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))) as {
    imports: Record<string, string>;
  };
  const files = new Map<string, string>();
  for (
    const path of ["main.ts", ...(await Promise.all([...PROGRAM, "tests/"].map(tsFiles))).flat()]
  ) {
    files.set(path, await Deno.readTextFile(new URL(path, ROOT)));
  }
  assert.deepEqual(unusedExports(files, config.imports), []);
});

Deno.test("exports: the check sees every kind of import and export, and names each unused export with what to do", () => {
  const files = new Map<string, string>([
    [
      "src/a.ts",
      [
        "/** A doc comment naming gone and inner, which are not uses. */",
        "export function used() {}",
        "export const viaList = 1, typed = 2;",
        "export type Shape = { n: number };",
        "export interface Signature { shape: Shape }",
        "export const onlyTested = 3;",
        "export const gone = 4;",
        "export async function lazy() {}",
        "export const spaced = 5;",
        "export class Thing {}",
        "const inner = 6;",
        "export { inner };",
      ].join("\n"),
    ],
    ["src/b.ts", 'export * from "./a.ts";\nexport { viaList as renamed } from "./a.ts";'],
    [
      "src/c.ts",
      [
        'import {\n  used,\n  type Thing,\n  type Signature,\n} from "./a.ts";',
        'import { renamed } from "./b.ts";',
        'import type { typed } from "./b.ts";',
        // In pieces, so that the layer test's import scan of this file does not take it for one.
        `const m = await ${"import"}("./a.ts");`,
        "m.lazy();",
      ].join("\n"),
    ],
    ["scripts/s.ts", 'import * as a from "../src/a.ts";\na.spaced;'],
    ["tests/a_test.ts", 'import { onlyTested, gone as g } from "../src/a.ts";'],
  ]);
  assert.deepEqual(unusedExports(files, {}, { "src/a.ts#onlyTested": "a test's reason" }), [
    "src/a.ts#gone: only tests import it and its module does not use it (dead code with a test: remove both, or list it in ALLOWED with why)",
    "src/a.ts#inner: nothing imports or uses it (remove it)",
  ]);
  assert.deepEqual(unusedExports(files, {}, { "src/a.ts#missing": "x" }), [
    "src/a.ts#gone: only tests import it and its module does not use it (dead code with a test: remove both, or list it in ALLOWED with why)",
    "src/a.ts#inner: nothing imports or uses it (remove it)",
    "src/a.ts#missing: listed in ALLOWED, but gone",
    "src/a.ts#onlyTested: only tests import it and its module does not use it (dead code with a test: remove both, or list it in ALLOWED with why)",
  ]);
});
