/**
 * src/resources/threads.ts: which threads are open, and how a thread reads in
 * Markdown (who, where, what; replies quoted under what they answer), within
 * a bound that says what it left out. Reading them from the fixture is in
 * read_test.ts.
 */
import assert from "node:assert/strict";
import type { Comment } from "../../src/bitbucket/entities/pull_request_comment.ts";
import { isOpen, threadsMarkdown } from "../../src/resources/threads.ts";
import { DEFAULT_DOCUMENT_BYTES } from "../../src/tools/kit/args.ts";
import type { Thread } from "../../src/bitbucket/threads.ts";

/** 2024-03-01T09:30:00Z */
const AT = Date.UTC(2024, 2, 1, 9, 30);

function comment(id: number, text: string, more: Partial<Comment> = {}): Comment {
  return {
    id,
    version: 0,
    text,
    author: { name: "jdoe", displayName: "Jane Doe" },
    createdDate: AT,
    ...more,
  };
}

Deno.test("threads: open means neither the discussion nor the task is resolved", () => {
  const cases: [Partial<Comment>, boolean][] = [
    [{}, true],
    [{ state: "OPEN" }, true],
    [{ state: "PENDING" }, true],
    [{ threadResolved: false }, true],
    [{ threadResolved: true }, false],
    [{ severity: "BLOCKER", state: "OPEN" }, true],
    [{ severity: "BLOCKER", state: "RESOLVED" }, false],
  ];
  for (const [fields, open] of cases) {
    assert.equal(isOpen(comment(1, "x", fields)), open, JSON.stringify(fields));
  }
});

Deno.test("threads: each thread says where it sits, who wrote what, with replies quoted under their parent", () => {
  const threads: Thread[] = [
    {
      comment: comment(10, "Why two checks?\nOne would do.", {
        anchor: { path: "src/a.ts", line: 12, fileType: "TO", multilineMarker: { startLine: 9 } },
        comments: [
          comment(11, "The first is cheap.", {
            author: { name: "asmith", displayName: "asmith" },
            comments: [comment(12, "Fair.")],
          }),
        ],
      }),
    },
    {
      // The location only on the activity, as some servers send it; an outdated one.
      comment: comment(20, "Old name.", { severity: "BLOCKER", state: "PENDING" }),
      anchor: {
        path: "docs/b.md",
        srcPath: "docs/old.md",
        line: 3,
        fileType: "FROM",
        orphaned: true,
      },
    },
    { comment: comment(30, "Looks good overall.") },
  ];
  const text = threadsMarkdown("Open threads of pull request #1 in P/r", threads, false);
  assert.equal(
    text,
    `# Open threads of pull request #1 in P/r

## Comment on \`src/a.ts\`, lines 9-12 (new)

**Jane Doe (jdoe)**, 2024-03-01T09:30:00Z (comment 10):

Why two checks?
One would do.

> **asmith**, 2024-03-01T09:30:00Z (reply 11):
>
> The first is cheap.
>
> > **Jane Doe (jdoe)**, 2024-03-01T09:30:00Z (reply 12):
> >
> > Fair.

## Task on \`docs/b.md\` (from docs/old.md), line 3 (old), outdated

**Jane Doe (jdoe)**, 2024-03-01T09:30:00Z (comment 20, draft):

Old name.

## Comment on the pull request

**Jane Doe (jdoe)**, 2024-03-01T09:30:00Z (comment 30):

Looks good overall.
`,
  );
});

Deno.test("threads: a path and a username hiding characters are shown with them escaped", () => {
  const thread: Thread = {
    comment: comment(40, "See here.", {
      author: { name: "j\u200Bdoe", displayName: "Jane\u202E Doe" },
      anchor: { path: "src/\u202Ea.ts", srcPath: "src/old\u{E0041}.ts", line: 2 },
    }),
  };
  const text = threadsMarkdown("T", [thread], false);
  assert.ok(
    text.includes("## Comment on `src/\\u{202E}a.ts` (from src/old\\u{E0041}.ts), line 2 (new)"),
    text,
  );
  assert.ok(text.includes("**Jane Doe (j\\u{200B}doe)**"), text);
  assert.doesNotMatch(text, /[\u200B\u202E\u{E0041}]/u);
});

Deno.test("threads: none open says so", () => {
  assert.equal(threadsMarkdown("T", [], false), "# T\n\nNo open threads.\n");
});

Deno.test("threads: past the byte bound, or past the threads read, a last line says what is left out", () => {
  const big = "x".repeat(DEFAULT_DOCUMENT_BYTES / 4);
  const threads = [1, 2, 3, 4, 5, 6].map((id) => ({ comment: comment(id, big) }));
  const text = threadsMarkdown("T", threads, false);
  assert.ok(new TextEncoder().encode(text).length <= DEFAULT_DOCUMENT_BYTES + 200);
  assert.deepEqual([...text.matchAll(/\(comment (\d)\)/g)].map((m) => m[1]), ["1", "2", "3"]);
  assert.ok(
    text.endsWith(
      "[3 open threads not shown: list_pr_comments with resolved: false pages through them all]\n",
    ),
  );
  // More threads than were read (MAX_THREADS): how many is not known.
  const more = threadsMarkdown("T", [{ comment: comment(1, "a") }], true);
  assert.ok(
    more.endsWith(
      "[more open threads not shown: list_pr_comments with resolved: false pages through them all]\n",
    ),
  );
});
