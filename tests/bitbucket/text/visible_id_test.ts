import assert from "node:assert/strict";
import {
  MAX_NOTED,
  noticingEscapes,
  quotedId,
  realId,
  visibleId,
  visibleText,
} from "../../../src/bitbucket/text/visible_id.ts";
import { cleanText } from "../../../src/bitbucket/text/untrusted_text.ts";

/** A branch name hiding a right-to-left override, a zero-width space and a Unicode tag ("A"). */
const HOSTILE = "feature/\u202Efix\u200B\u{E0041}";

Deno.test("visibleId writes each hidden character as \\u{HEX}, uppercase and unpadded", () => {
  assert.equal(visibleId(HOSTILE), "feature/\\u{202E}fix\\u{200B}\\u{E0041}");
  // Control characters too, line breaks and tabs included: a name has none to keep.
  assert.equal(visibleId("a\nb\tc\x00d\x7f"), "a\\u{A}b\\u{9}c\\u{0}d\\u{7F}");
  // A BOM, a word joiner, a stray variation selector, the rest of plane 14.
  assert.equal(
    visibleId("\uFEFFx\u2060 \uFE0F\u{E0100}"),
    "\\u{FEFF}x\\u{2060} \\u{FE0F}\\u{E0100}",
  );
});

Deno.test("visibleId returns an ordinary identifier byte-identical, whatever its script", () => {
  const ordinary = [
    "main",
    "refs/heads/release/2.0",
    "src/login/form.ts",
    "PROJ",
    "web-app_2",
    "j.doe@example.com",
    "https://bitbucket.example.com/scm/proj/web.git",
    "docs/Zoë Åberg/読む.md",
    "feature/修复-登录",
    "src\\windows\\path.txt",
    "emoji/👩‍💻-❤️",
    "fa/می\u200Cخواهم.md",
    "hi/क्\u200Cष",
    "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
    "soft\u00ADhyphen",
    "\\u{41}",
  ];
  for (const id of ordinary) assert.equal(visibleId(id), id, JSON.stringify(id));
  assert.equal(visibleId(undefined), undefined);
});

Deno.test("visibleId escapes exactly what cleanText removes from display text", () => {
  const names = [
    HOSTILE,
    "a\u200Cb 👩\u200D💻 \u200Dx ❤\uFE0F \uFE0Fy z\u2066",
    "fa/می\u200Cخواهم",
    "en/non\u200Cjoiner",
    "😀\uFE0F\u{E0100}\u{E0142}\uFE01",
    "\u{E0001}lang\u{E007F}",
  ];
  for (const name of names) {
    const visible = visibleId(name);
    assert.equal(visible.replace(/\\u\{[0-9A-F]+\}/g, ""), cleanText(name), JSON.stringify(name));
  }
  assert.equal(
    visibleId("a\u200Cb 👩\u200D💻 \u200Dx"),
    "a\\u{200C}b 👩\u200D💻 \\u{200D}x",
  );
});

Deno.test("realId turns every escape visibleId writes back into its character", () => {
  assert.equal(realId("feature/\\u{202E}fix\\u{200B}\\u{E0041}"), HOSTILE);
  // A model retyping the hex in lower case is read the same.
  assert.equal(realId("a\\u{202e}b"), "a\u202Eb");
  // An identifier passed raw is taken as it is.
  assert.equal(realId(HOSTILE), HOSTILE);
});

Deno.test("realId reads no escape for a visible character: no path separator or dot can be made", () => {
  for (
    const text of [
      "\\u{2E}\\u{2E}",
      "a\\u{2F}b",
      "\\u{41}",
      "\\u{110000}",
      "\\u{D800}",
      "\\u{}",
      "\\u202E",
    ]
  ) {
    assert.equal(realId(text), text, text);
  }
});

Deno.test("visible and real round-trip, a literal backslash or escape in a name included", () => {
  const names = [
    HOSTILE,
    "a\\b\u202E",
    "path\\u{202E}\u200B",
    "dir\\\\u{5C}\u200B/x",
    "\\u{200B}",
    "plain\\u{202E}text",
    "x\\",
    "\u{E0001}\u{E0020}\u{E007F}",
  ];
  for (const name of names) {
    const visible = visibleId(name);
    assert.equal(realId(visible), name, JSON.stringify(name));
    assert.doesNotMatch(visible, /[\u200B\u202E\u{E0000}-\u{E007F}]/u, visible);
  }
  // A literal escape in a name with nothing hidden is escaped itself, so it is not read as one.
  assert.equal(visibleId("plain\\u{202E}text"), "plain\\u{5C}u{202E}text");
  // Once a name is escaped, every backslash in it is.
  assert.equal(visibleId("a\\b\u202E"), "a\\u{5C}b\\u{202E}");
});

Deno.test("quotedId quotes the visible identifier as JSON", () => {
  assert.equal(quotedId(HOSTILE), '"feature/\\\\u{202E}fix\\\\u{200B}\\\\u{E0041}"');
});

Deno.test("visibleText escapes hidden characters in a sentence, its line breaks and backslashes kept", () => {
  assert.equal(
    visibleText(`Cannot read "${HOSTILE}":\nno such file (C:\\x)`),
    'Cannot read "feature/\\u{202E}fix\\u{200B}\\u{E0041}":\nno such file (C:\\x)',
  );
  assert.equal(visibleText("plain"), "plain");
});

Deno.test("noticingEscapes notes the identifiers escaped during one call, and only those", async () => {
  const noted = await noticingEscapes(async () => {
    await Promise.resolve();
    visibleId("main");
    visibleId(HOSTILE);
    visibleId(HOSTILE);
    return visibleId("b\u200B");
  });
  assert.equal(noted.value, "b\\u{200B}");
  assert.deepEqual(noted.escaped, {
    ids: ["feature/\\u{202E}fix\\u{200B}\\u{E0041}", "b\\u{200B}"],
    count: 2,
  });
  // Calls at once keep their own notes.
  const [a, b] = await Promise.all([
    noticingEscapes(async () => {
      await new Promise((r) => setTimeout(r, 5));
      return visibleId("a\u200B");
    }),
    noticingEscapes(() => Promise.resolve(visibleId("plain"))),
  ]);
  assert.deepEqual(a.escaped?.ids, ["a\\u{200B}"]);
  assert.equal(b.escaped, undefined);
});

Deno.test("noticingEscapes lists the first MAX_NOTED escaped identifiers and counts them all", async () => {
  const total = MAX_NOTED + 3;
  const { escaped } = await noticingEscapes(() =>
    Promise.resolve(Array.from({ length: total }, (_, i) => visibleId(`b${i}\u200B`)))
  );
  assert.equal(escaped?.ids.length, MAX_NOTED);
  assert.equal(escaped?.count, total);
});
