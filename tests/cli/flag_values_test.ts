import assert from "node:assert/strict";
import { parseHttpLimits, parseListenAddress } from "../../src/cli/flag_values.ts";
import { parseFlags } from "../../src/cli/flags.ts";
import { DEFAULT_CONNECTION_LIMITS } from "../../src/server/connections.ts";
import { DEFAULT_SESSION_LIMITS } from "../../src/server/session_limits.ts";

const DEFAULTS = { ...DEFAULT_CONNECTION_LIMITS, ...DEFAULT_SESSION_LIMITS };

Deno.test("--http takes [host:]port; the host defaults to 127.0.0.1", () => {
  assert.deepEqual(parseListenAddress("8080"), { hostname: "127.0.0.1", port: 8080 });
  assert.deepEqual(parseListenAddress("0.0.0.0:0"), { hostname: "0.0.0.0", port: 0 });
  assert.deepEqual(parseListenAddress("[::1]:9000"), { hostname: "::1", port: 9000 });
  assert.deepEqual(parseListenAddress("mcp.internal:80"), { hostname: "mcp.internal", port: 80 });
  for (const bad of ["", "host:", "99999", "::1:80", "http://host:80", "80x"]) {
    assert.throws(() => parseListenAddress(bad), /--http takes \[host:\]port/, bad);
  }
});

Deno.test("--metrics-listen takes [host:]port too, with --http only, and a bad one is named as its own", () => {
  const flags = parseFlags(["serve", "--http", "8080", "--metrics-listen", "0.0.0.0:9090"]);
  assert.deepEqual(flags.metricsListen, { hostname: "0.0.0.0", port: 9090 });
  assert.equal(parseFlags(["serve", "--http", "8080"]).metricsListen, undefined);
  assert.throws(
    () => parseFlags(["serve", "--http", "8080", "--metrics-listen", "http://x:1"]),
    /^StartupError: --metrics-listen takes \[host:\]port/,
  );
  assert.throws(() => parseFlags(["--metrics-listen", "9090"]), /applies to --http only/);
  assert.equal(parseFlags([]).logFormat, "text");
  assert.equal(parseFlags(["--log-format", "json"]).logFormat, "json");
});

Deno.test("the HTTP limits take seconds (and a whole number of connections or sessions), each defaulting alone", () => {
  const given = (values: Record<string, string>) => (flag: string) => values[flag];
  assert.deepEqual(parseHttpLimits(given({})), DEFAULTS);
  assert.deepEqual(
    parseHttpLimits(given({ "http-header-timeout": "2.5", "http-max-connections": "10" })),
    { ...DEFAULTS, headerTimeoutMs: 2500, maxConnections: 10 },
  );
  assert.deepEqual(
    parseHttpLimits(given({ "http-max-sessions": "5", "http-session-timeout": "90" })),
    { ...DEFAULTS, maxSessions: 5, sessionTimeoutMs: 90_000 },
  );
  const bad = [
    ["http-idle-timeout", "0"],
    ["http-body-timeout", "-1"],
    ["http-header-timeout", "ten"],
    ["http-max-connections", "1.5"],
    ["http-max-connections", "1e3"],
    ["http-max-sessions", "2.5"],
    ["http-max-sessions", "0"],
    ["http-session-timeout", "100000"],
  ];
  for (const [flag, value] of bad) {
    assert.throws(() => parseHttpLimits(given({ [flag!]: value! })), new RegExp(`--${flag} takes`));
  }
});

Deno.test("a connection limit without --http stops start-up naming the flag; with it, it reaches the flags", () => {
  assert.throws(
    () => parseFlags(["--http-idle-timeout", "5"]),
    /--http-idle-timeout applies to --http only/,
  );
  const flags = parseFlags(["--http", "8080", "--http-idle-timeout", "5"]);
  assert.equal(flags.httpLimits.idleTimeoutMs, 5000);
  assert.throws(
    () => parseFlags(["--http-max-sessions", "5"]),
    /--http-max-sessions applies to --http only/,
  );
  assert.equal(
    parseFlags(["--http", "8080", "--http-max-sessions", "7"]).httpLimits.maxSessions,
    7,
  );
});
