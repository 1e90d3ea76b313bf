/**
 * The README is the front door: it stays short, links every docs page, and
 * no relative link in the README or the docs pages leads nowhere. Nor does a
 * path any Markdown file names in its prose (fixtures/README.md, tests/README.md,
 * …), nor a `deno task` any file names.
 */
import assert from "node:assert/strict";
import {
  anchors,
  docsPages,
  githubAnchor,
  isExternal,
  links,
  readRepoFile,
  ROOT,
  withoutFences,
} from "./markdown.ts";

const README = "README.md";
const MAX_README_LINES = 350;

/** A link resolved against the file it is in: the path it names from the root (`../…` when outside) and its anchor. */
function resolve(from: string, target: string): { path: string; anchor: string | undefined } {
  const hash = target.indexOf("#");
  const file = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  if (file === "") return { path: from, anchor };
  const url = new URL(file, new URL(from, ROOT));
  if (!url.href.startsWith(ROOT.href)) return { path: `../${url.pathname}`, anchor };
  return { path: decodeURIComponent(url.pathname.slice(ROOT.pathname.length)), anchor };
}

function exists(path: string): boolean {
  try {
    Deno.statSync(new URL(path, ROOT));
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

Deno.test("README.md is under 350 lines", () => {
  const lines = readRepoFile(README).replace(/\n$/, "").split("\n").length;
  assert.ok(
    lines < MAX_README_LINES,
    `README.md has ${lines} lines; keep it under ${MAX_README_LINES} and move detail to docs/`,
  );
});

Deno.test("README.md links every docs/*.md page", () => {
  const pages = docsPages();
  assert.ok(pages.length > 0, "docs/ holds pages");
  const linked = new Set(
    links(readRepoFile(README))
      .filter((link) => !isExternal(link.target))
      .map((link) => resolve(README, link.target).path),
  );
  const unlinked = pages.filter((page) => !linked.has(page));
  assert.deepEqual(unlinked, [], `docs pages the README does not link: ${unlinked.join(", ")}`);
});

Deno.test("every relative link in README.md and docs/*.md points at an existing file, and heading where it names one", () => {
  const files = [README, ...docsPages()];
  const broken: string[] = [];
  let checked = 0;
  for (const file of files) {
    for (const link of links(readRepoFile(file))) {
      if (isExternal(link.target)) continue;
      checked++;
      const where = `${file}:${link.line}: (${link.target})`;
      const { path, anchor } = resolve(file, link.target);
      if (path.startsWith("../") || !exists(path)) {
        broken.push(`${where} ${path} is not a file of the repository`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!path.endsWith(".md")) {
        broken.push(`${where} an anchor into a file that is not Markdown`);
      } else if (!anchors(readRepoFile(path)).has(anchor)) {
        broken.push(`${where} ${path} has no heading with the anchor #${anchor}`);
      }
    }
  }
  assert.ok(checked > 0, "the README and docs hold relative links");
  assert.deepEqual(broken, [], `broken links:\n${broken.join("\n")}`);
});

Deno.test("anchors follow GitHub's rules: lowercase, spaces to -, punctuation but - and _ dropped, repeats numbered", () => {
  assert.equal(githubAnchor("First run: `check`"), "first-run-check");
  assert.equal(
    githubAnchor("Resources, prompts and completions"),
    "resources-prompts-and-completions",
  );
  assert.equal(githubAnchor("A single binary, without Deno"), "a-single-binary-without-deno");
  assert.equal(githubAnchor("The person is asked, not a flag"), "the-person-is-asked-not-a-flag");
  assert.equal(
    githubAnchor("`--max-response-mb` and snake_case"),
    "--max-response-mb-and-snake_case",
  );
  assert.equal(githubAnchor("Client set-up (stdio)"), "client-set-up-stdio");
  assert.equal(githubAnchor("See [HTTP mode](docs/http.md)"), "see-http-mode");
  assert.deepEqual(
    [...anchors("# Tools\n\n## Notes\n\n```\n## Not a heading\n```\n\n## Notes\n")],
    ["tools", "notes", "notes-1"],
  );
});

Deno.test("links are read from prose only: not from code spans or fenced blocks", () => {
  const text = [
    'See [the page](docs/a.md#x) and ![a picture](img/b.png "title").',
    "Not `[code](docs/c.md)`, nor a [site](https://example.com).",
    "```json",
    '{ "args": ["[x](docs/d.md)"] }',
    "```",
    "Last, [same page](#top).",
  ].join("\n");
  assert.deepEqual(links(text), [
    { target: "docs/a.md#x", line: 1 },
    { target: "img/b.png", line: 1 },
    { target: "https://example.com", line: 2 },
    { target: "#top", line: 6 },
  ]);
  assert.deepEqual(
    links(text).filter((link) => !isExternal(link.target)).map((link) => link.target),
    ["docs/a.md#x", "img/b.png", "#top"],
  );
});

/** The repository's top-level folders a path in prose may start with. */
const TOP = ["src", "tests", "testing", "scripts", "docs", "fixtures", "demo", "bench", "deploy"];

/**
 * The repository paths a Markdown text names outside fenced blocks, with
 * their lines: words starting with a top-level folder (`src/…`, `.github/…`),
 * with trailing punctuation taken off. Left out: patterns (`<name>`, `*`,
 * `{a,b}`, `…`) and a path in another repository, written after its
 * `owner/name` (as fixtures/README.md cites recordings).
 */
function namedPaths(markdown: string): { path: string; line: number }[] {
  const found: { path: string; line: number }[] = [];
  const word = new RegExp(
    `(?<![\\w./@:=-])((?:${TOP.join("|")}|\\.github|\\.ci)/[\\w./<>*{}…,-]*)`,
    "g",
  );
  withoutFences(markdown).split("\n").forEach((text, i) => {
    for (const match of text.matchAll(word)) {
      const path = match[1]!.replace(/[.,:;]+$/, "");
      if (/[<>*{}…]|\.\.|,/.test(path)) continue;
      if (/[\w.-]+\/[\w.-]+\s+`?$/.test(text.slice(0, match.index))) continue;
      found.push({ path, line: i + 1 });
    }
  });
  return found;
}

/** Every Markdown file of the repository (not under .git/, dist/ or node_modules/), from the root. */
function markdownFiles(dir = ""): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(new URL(dir || ".", ROOT))) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory && ![".git", "dist", "node_modules"].includes(entry.name)) {
      found.push(...markdownFiles(`${path}/`));
    } else if (entry.isFile && entry.name.endsWith(".md")) found.push(path);
  }
  return found.sort();
}

Deno.test("every repository path a Markdown file names in its prose exists", () => {
  const files = markdownFiles();
  assert.ok(files.includes("fixtures/README.md") && files.includes("docs/tools.md"), "read");
  const missing = files.flatMap((file) =>
    namedPaths(readRepoFile(file))
      .filter(({ path }) => !exists(path))
      .map(({ path, line }) => `${file}:${line}: ${path}`)
  );
  assert.deepEqual(missing, [], `paths named that do not exist:\n${missing.join("\n")}`);
});

Deno.test("named paths: a word starting with a top-level folder, not a pattern, a fence or another repository's path", () => {
  const text = [
    "Bodies the fixture Bitbucket (tests/support/fixture_bitbucket.ts) answers with.",
    "See `src/tools/refs/refs.ts`, `src/tools/<toolset>/`, `tests/*_test.ts` and docs/.",
    "As cdancy/bitbucket-rest `src/test/resources/tag.json`, or ./src/x.ts in prose.",
    "```sh",
    "cat src/fenced.ts",
    "```",
    "Last: .github/workflows/ci.yml.",
  ].join("\n");
  assert.deepEqual(namedPaths(text), [
    { path: "tests/support/fixture_bitbucket.ts", line: 1 },
    { path: "src/tools/refs/refs.ts", line: 2 },
    { path: "docs/", line: 2 },
    { path: ".github/workflows/ci.yml", line: 7 },
  ]);
});

/** Files that may name a task: the docs, the code and its tests, the CI. */
function taskNamingFiles(dir = ""): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(new URL(dir || ".", ROOT))) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) {
      if (![".git", "dist", "node_modules", "toolsnaps"].includes(entry.name)) {
        found.push(...taskNamingFiles(`${path}/`));
      }
    } else if (/\.(md|ts|js|yml|sh)$|^run$|^Dockerfile$/.test(entry.name)) found.push(path);
  }
  return found.sort();
}

Deno.test("every `deno task <name>` the repository names is a task of deno.json", () => {
  const { tasks } = JSON.parse(readRepoFile("deno.json")) as { tasks: Record<string, unknown> };
  const files = taskNamingFiles();
  assert.ok(files.includes(".ci/run") && files.includes("README.md"), "read");
  const unknown = files.flatMap((file) =>
    [...readRepoFile(file).matchAll(/\bdeno task ([a-z][\w:-]*)/g)]
      .filter((match) => !(match[1]! in tasks))
      .map((match) => `${file}: deno task ${match[1]}`)
  );
  assert.deepEqual(unknown, [], `tasks named that deno.json does not have:\n${unknown.join("\n")}`);
});
