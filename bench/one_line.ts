// The reference for start-up: the cheapest possible `deno run`.
Deno.exit(0);
