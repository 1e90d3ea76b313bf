/**
 * The layers, read from the source: the Bitbucket client imports nothing above
 * it (only src/deps/, the pinned third-party modules) and names none of the command line's flags or environment variables (the
 * CLI words those fixes, in `src/cli/hints.ts`); the server layer imports
 * nothing from the CLI, and the HTTP mode names no flag either.
 */
import assert from "node:assert/strict";

const SRC = new URL("../src/", import.meta.url);

/** Every `.ts` file under a directory of `src/`, as paths relative to `src/`. */
async function sources(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(new URL(dir, SRC))) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) found.push(...await sources(`${path}/`));
    else if (entry.name.endsWith(".ts")) found.push(path);
  }
  return found.sort();
}

/** The relative modules a file imports (static, dynamic and re-exports), resolved against `src/`. */
function localImports(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)].map((m) => m[1]!);
  return specifiers.map((s) => new URL(s, new URL(file, SRC)).href.slice(SRC.href.length));
}

/** A flag (`--timeout`) or one of the variables the CLI reads or documents. */
const CLI_NAMES = /--[a-z][a-z-]+|\bBITBUCKET_[A-Z]+|\bDENO_[A-Z_]+/;

Deno.test("src/bitbucket imports nothing outside src/bitbucket", async () => {
  for (const file of await sources("bitbucket/")) {
    const text = await Deno.readTextFile(new URL(file, SRC));
    for (const target of localImports(file, text)) {
      // src/deps/ is the pinned third-party code (zod), the layer below every other.
      assert.ok(
        target.startsWith("bitbucket/") || target.startsWith("deps/"),
        `${file} imports ${target}`,
      );
    }
  }
});

Deno.test("src/bitbucket names no CLI flag and no environment variable", async () => {
  for (const file of await sources("bitbucket/")) {
    const text = await Deno.readTextFile(new URL(file, SRC));
    const found = CLI_NAMES.exec(text)?.[0];
    assert.ok(found === undefined, `${file} names ${found}: give it an advice key instead`);
  }
});

Deno.test("src/server imports nothing from src/cli, and the HTTP mode names no flag", async () => {
  for (const file of await sources("server/")) {
    const text = await Deno.readTextFile(new URL(file, SRC));
    for (const target of localImports(file, text)) {
      assert.ok(!target.startsWith("cli/"), `${file} imports ${target}`);
    }
  }
  const http = await Deno.readTextFile(new URL("server/http.ts", SRC));
  const found = CLI_NAMES.exec(http)?.[0];
  assert.ok(found === undefined, `src/server/http.ts names ${found}: take the words from the CLI`);
});
