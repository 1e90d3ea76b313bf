/**
 * The threads view's data as `show` returns it: every thread list_pr_comments
 * lists, resolved ones too, each with its replies, a line thread with the
 * diff lines it sits on; and what the server's version allows.
 */
import assert from "node:assert/strict";
import { ALL_ROUTES } from "../../../testing/cases/mod.ts";
import { PR_42_VIEW } from "../../../testing/cases/views.ts";
import { versionRoute } from "../../../testing/cases/server_version.ts";
import { connect, firstText } from "../../../testing/harness.ts";
import { linesAt } from "../../../src/tools/views/_threads_view.ts";

type Line = { type: string; old?: number; new?: number; text: string };
type Threads = {
  canResolve: boolean;
  threads: {
    id: number;
    threadResolved: boolean;
    anchor?: { path: string; line?: number; lineType?: string };
    lines?: Line[];
    replies: { id: number; parentId: number }[];
  }[];
};

async function call(h: Awaited<ReturnType<typeof connect>>, name: string, args: object) {
  const result = await h.client.callTool({ name, arguments: { ...args } });
  assert.notEqual(result.isError, true, firstText(result));
  return result.structuredContent as Record<string, unknown>;
}

Deno.test("threads: every thread of #42 with its replies, open and resolved, line threads with their lines", async () => {
  await using h = await connect({ routes: ALL_ROUTES, apps: true });
  const { view } = await call(h, "show", { kind: "threads", ...PR_42_VIEW }) as { view: Threads };
  const { comments } = await call(h, "list_pr_comments", { ...PR_42_VIEW, limit: 100 }) as {
    comments: { id: number; threadResolved: boolean; replies: { id: number }[] }[];
  };
  assert.deepEqual(
    view.threads.map((t) => [t.id, t.threadResolved, t.replies.map((r) => r.id)]),
    comments.map((c) => [c.id, c.threadResolved, c.replies.map((r) => r.id)]),
  );
  assert.ok(view.threads.some((t) => t.threadResolved), "resolved threads are listed too");
  const { view: diff } = await call(h, "show", { kind: "diff", ...PR_42_VIEW }) as {
    view: { files: { path: string; hunks: { lines: Line[] }[] }[] };
  };
  const onLines = view.threads.filter((t) => t.anchor?.line !== undefined);
  assert.ok(onLines.length > 0, "the fixture has line threads");
  for (const t of onLines) {
    const last = t.lines?.at(-1);
    const number = t.anchor!.lineType === "REMOVED" ? last?.old : last?.new;
    assert.equal(number, t.anchor!.line, `thread ${t.id} ends on its line`);
    const file = diff.files.find((f) => f.path === t.anchor!.path)!;
    const all = file.hunks.flatMap((hunk) => hunk.lines);
    for (const line of t.lines!) {
      assert.ok(all.some((l) => JSON.stringify(l) === JSON.stringify(line)));
    }
  }
  assert.equal(view.canResolve, true);
  assert.deepEqual(h.fixture.requests.filter((r) => r.method !== "GET"), []);
});

Deno.test("threads: below 8.9 the view offers no resolving", async () => {
  await using h = await connect({ routes: [versionRoute("8.8.0"), ...ALL_ROUTES], apps: true });
  const { view } = await call(h, "show", { kind: "threads", ...PR_42_VIEW }) as { view: Threads };
  assert.equal(view.canResolve, false);
});

Deno.test("threads: the lines a thread sits on, a range's whole, an outdated one's none", () => {
  const lines = Array.from({ length: 20 }, (_, i) => ({
    type: "CONTEXT" as const,
    old: i + 1,
    new: i + 3,
    text: `line ${i}`,
  }));
  const hunks = [{ lines }];
  assert.deepEqual(linesAt(hunks, { path: "a", line: 10 })?.map((l) => l.new), [8, 9, 10]);
  assert.deepEqual(
    linesAt(hunks, { path: "a", line: 10, fileType: "FROM" })?.map((l) => l.old),
    [8, 9, 10],
  );
  assert.deepEqual(
    linesAt(hunks, { path: "a", line: 12, multilineMarker: { startLine: 5 } })?.map((l) => l.new),
    [5, 6, 7, 8, 9, 10, 11, 12],
  );
  assert.equal(linesAt(hunks, { path: "a", line: 10, orphaned: true }), undefined);
  assert.equal(linesAt(hunks, { path: "a", line: 99 }), undefined);
  assert.equal(linesAt(hunks, { path: "a", line: 3 })?.length, 1, "the first line alone");
});
