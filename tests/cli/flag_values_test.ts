import assert from "node:assert/strict";
import { parseListenAddress } from "../../src/cli/flag_values.ts";

Deno.test("--http takes [host:]port; the host defaults to 127.0.0.1", () => {
  assert.deepEqual(parseListenAddress("8080"), { hostname: "127.0.0.1", port: 8080 });
  assert.deepEqual(parseListenAddress("0.0.0.0:0"), { hostname: "0.0.0.0", port: 0 });
  assert.deepEqual(parseListenAddress("[::1]:9000"), { hostname: "::1", port: 9000 });
  assert.deepEqual(parseListenAddress("mcp.internal:80"), { hostname: "mcp.internal", port: 80 });
  for (const bad of ["", "host:", "99999", "::1:80", "http://host:80", "80x"]) {
    assert.throws(() => parseListenAddress(bad), /--http takes \[host:\]port/, bad);
  }
});
