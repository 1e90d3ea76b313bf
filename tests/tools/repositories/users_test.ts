import assert from "node:assert/strict";
import { users } from "../../../testing/cases/users.ts";
import { connect, firstText } from "../../../testing/harness.ts";

Deno.test("find_users gives each user's username, slug, display name and email", async () => {
  await using h = await connect({ routes: users.routes });
  const result = await h.client.callTool({ name: "find_users", arguments: { filter: "example" } });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(result.structuredContent, {
    users: [
      {
        name: "asmith",
        slug: "asmith",
        displayName: "Alex Smith",
        emailAddress: "alex.smith@example.com",
      },
      {
        name: "c.davis@example.com",
        slug: "c.davis_example.com",
        displayName: "Carol Davis",
        emailAddress: "c.davis@example.com",
      },
    ],
    isLastPage: true,
  });
  assert.deepEqual(h.fixture.requests[0]?.query, { filter: "example", start: "0", limit: "25" });
});

Deno.test("find_users pages with limit and start", async () => {
  await using h = await connect({ routes: users.routes });
  await h.client.callTool({
    name: "find_users",
    arguments: { filter: "a", limit: 5, start: 10 },
  });
  assert.deepEqual(h.fixture.requests[0]?.query, { filter: "a", start: "10", limit: "5" });
});
