/**
 * The demo's sandbox Bitbucket on its own: recorded Bitbucket Data Center 9.4 answers on
 * 127.0.0.1, for pointing a server you run yourself (a container, a client's config) at
 * something without a real Bitbucket or token. Prints its base URL (the BITBUCKET_URL to give)
 * as the only line on stdout and serves until stopped (SIGINT or SIGTERM). The release workflow
 * runs the container image against it.
 *
 *   deno run --allow-net=127.0.0.1 --allow-read=fixtures demo/sandbox.ts
 */
import { ALL_ROUTES } from "../testing/cases/mod.ts";
import { startFixtureBitbucket } from "../testing/fixture_bitbucket.ts";
import { writeErr, writeOut } from "../src/cli/output.ts";

const sandbox = startFixtureBitbucket(ALL_ROUTES);
writeOut(sandbox.url);
writeErr(`sandbox Bitbucket at ${sandbox.url} (any token is accepted); stop with Ctrl-C`);
const stopped = Promise.withResolvers<void>();
Deno.addSignalListener("SIGINT", stopped.resolve);
Deno.addSignalListener("SIGTERM", stopped.resolve);
await stopped.promise;
await sandbox.close();
