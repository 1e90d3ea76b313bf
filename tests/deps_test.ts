/**
 * deno.json maps the bare names tests, bench and demo use to src/deps/, the
 * same modules the source imports, so each version is written once; and the
 * test client is the server's own release. (That every import under src/ and
 * in main.ts resolves without an import map is checked in layers_test.ts.)
 */
import assert from "node:assert/strict";
import { specifiers } from "./support/imports.ts";

const ROOT = new URL("../", import.meta.url);

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
