import assert from "node:assert/strict";

/**
 * The modules `main.ts` loads before its first line runs: its static imports,
 * followed. Local ones as paths from the checkout's root; others as their
 * specifiers (`npm:zod@…`).
 */
async function staticGraph(): Promise<Set<string>> {
  const { stdout, success } = await new Deno.Command("deno", {
    args: ["info", "--json", "main.ts"],
    stderr: "null",
  }).output();
  assert.ok(success, "deno info main.ts");
  const info = JSON.parse(new TextDecoder().decode(stdout)) as {
    roots: string[];
    modules: {
      specifier: string;
      dependencies?: { isDynamic?: boolean; code?: { specifier?: string } }[];
    }[];
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const root = new URL("../../", import.meta.url).href;
  const seen = new Set<string>();
  const stack = [...info.roots];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (!dep.isDynamic && dep.code?.specifier) stack.push(dep.code.specifier);
    }
  }
  return new Set([...seen].map((s) => s.startsWith(root) ? s.slice(root.length) : s));
}

Deno.test("start-up: the view's page and data code load on first use, never with the server", async () => {
  const loaded = await staticGraph();
  assert.ok(loaded.has("src/cli/run.ts"), "the graph is followed");
  const early = [...loaded].filter((path) =>
    path.startsWith("src/tools/views/") || path.startsWith("src/resources/view_page") ||
    path === "src/tools/catalogue.ts"
  );
  assert.deepEqual(early, []);
});

Deno.test("start-up: zod (every schema) loads on first use, not to list the tools", async () => {
  const loaded = await staticGraph();
  assert.ok(loaded.has("src/cli/run.ts"), "the graph is followed");
  const zod = [...loaded].filter((specifier) => /^npm:\/?zod@/.test(specifier));
  assert.deepEqual(zod, [], "zod is not statically imported from main.ts");
});
