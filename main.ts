import { run } from "./src/cli/run.ts";

if (import.meta.main) Deno.exit(await run(Deno.args));
