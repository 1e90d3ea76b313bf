/**
 * Fixture answers for the view's hostile tests: pull request #42, the list,
 * the diff (a file name and lines), the changed files, the threads and the builds as the
 * recorded fixtures have them, but with markup that runs script if it is
 * ever parsed as HTML put in front of every piece of text a person wrote.
 * A page that draws it as text shows the markup literally and runs nothing.
 */
import { readFixture, type Route } from "../../testing/fixture_bitbucket.ts";
import { PR, REPO } from "../../testing/cases/pull_requests.ts";
import { PR_42_HEAD } from "../../testing/cases/builds.ts";

/**
 * Markup that, parsed as HTML, would run script three ways (an image's
 * error handler, a script element, an SVG load handler) and mark what it
 * created with `data-planted`; it holds nothing the server strips.
 */
export const HOSTILE_HTML = `<img src=x data-planted onerror="window.__pwned='img'">` +
  `<script data-planted>window.__pwned='script'</script>` +
  `<svg data-planted onload="window.__pwned='svg'"></svg>`;

/** What a script planted by {@link HOSTILE_HTML} would have set, read in the view. */
export const PWNED = "window.__pwned";

/** A Markdown description that tries HTML blocks, inline HTML and script links. */
const HOSTILE_MARKDOWN = [
  HOSTILE_HTML,
  `**bold ${HOSTILE_HTML}**`,
  "[a link](javascript:window.__pwned='link')",
  `<div data-planted onclick="window.__pwned='div'">raw block</div>`,
  "```\n" + HOSTILE_HTML + "\n```",
].join("\n\n");

/** A file name that is markup (as legal in git as any other name). */
export const HOSTILE_PATH = "src/<img src=x data-planted onerror=window.__pwned=1>.ts";

type Json = Record<string, unknown>;

function json(name: string): Json {
  return JSON.parse(readFixture(name)) as Json;
}

function hostilePr(pr: Json): Json {
  const user = (u: Json) => ({ ...u, displayName: `${HOSTILE_HTML}${u.displayName}` });
  const author = pr.author as { user: Json };
  return {
    ...pr,
    title: `${HOSTILE_HTML}${pr.title}`,
    description: HOSTILE_MARKDOWN,
    author: { ...author, user: user(author.user) },
    reviewers: (pr.reviewers as { user: Json }[]).map((r) => ({ ...r, user: user(r.user) })),
  };
}

/** The diff with its first file renamed to {@link HOSTILE_PATH} and markup in its first added line. */
function hostileDiff(): string {
  const diff = readFixture("pull_requests/pr-42.diff");
  const first = /^\+\+\+ dst:\/\/(.+)$/m.exec(diff)![1]!;
  return diff.replaceAll(first, HOSTILE_PATH)
    .replace(/^\+(?!\+\+ )(.*)$/m, (_, line) => `+${HOSTILE_HTML}${line}`);
}

/** Every comment's text in the activities made hostile. */
function hostileActivities(): Json {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map((
        [k, v],
      ) => [k, k === "text" && typeof v === "string" ? `${HOSTILE_HTML}${v}` : visit(v)]),
    );
  };
  return visit(json("pull_requests/activities.json")) as Json;
}

/** The changed files with the first one named {@link HOSTILE_PATH}. */
function hostileChanges(): Json {
  const changes = json("pull_requests/changes.json");
  const [first, ...rest] = changes.values as Json[];
  const components = HOSTILE_PATH.split("/");
  return {
    ...changes,
    values: [{ ...first, path: { components, name: components.at(-1) } }, ...rest],
  };
}

/** The routes, to put in front of the contract routes. */
export function hostileRoutes(): Route[] {
  const list = json("pull_requests/pull-requests.json");
  const builds = json("builds/build-statuses-pr-42.json");
  return [
    { method: "GET", path: PR, body: hostilePr(json("pull_requests/pr-42.json")) },
    {
      method: "GET",
      path: `${REPO}/pull-requests`,
      body: { ...list, values: (list.values as Json[]).map(hostilePr) },
    },
    {
      method: "GET",
      path: `${PR}.diff`,
      body: new TextEncoder().encode(hostileDiff()),
      headers: { "content-type": "text/plain;charset=UTF-8" },
    },
    { method: "GET", path: `${PR}/activities`, body: hostileActivities() },
    { method: "GET", path: `${PR}/changes`, body: hostileChanges() },
    {
      method: "GET",
      path: `/build-status/latest/commits/${PR_42_HEAD}`,
      body: {
        ...builds,
        values: (builds.values as Json[]).map((b) => ({ ...b, name: `${HOSTILE_HTML}${b.name}` })),
      },
    },
  ];
}
