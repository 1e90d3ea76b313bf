/**
 * Text from Bitbucket was written by other people, some of them writing for
 * the model that reads our results. This module removes what a person reading
 * the same text in Bitbucket would not see but a model reads as text:
 * invisible format characters (Unicode tags, BiDi controls, zero-width
 * characters), orphaned variation selectors, control characters, and HTML
 * comments, which Bitbucket's Markdown renderer hides. Every visible character
 * stays, so do emoji sequences and the joiners scripts need. Diffs and file
 * contents are never cleaned (a review must see the real bytes):
 * {@link hiddenCharacterLines} says where they hide something instead.
 * Identifiers are never cleaned either: `visible_id.ts` writes the same
 * characters ({@link identifierCharacters}) as visible escapes.
 */

const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
const EMOJI_MODIFIER = /^\p{Emoji_Modifier}$/u;
const LETTER = /^\p{L}$/u;
const LETTER_OR_MARK = /^[\p{L}\p{M}]$/u;
const MARK = /^\p{M}$/u;
const FORMAT = /^\p{Cf}$/u;
const CONTROL = /^\p{Cc}$/u;
const SPACE = /^\s$/u;

const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const SOFT_HYPHEN = 0xad;
/** The waving black flag, base of the subdivision flags (England, Scotland, Wales), spelt with tags. */
const TAG_FLAG_BASE = 0x1f3f4;
const CANCEL_TAG = 0xe007f;

/**
 * The scripts whose writing needs the zero-width non-joiner, by Unicode
 * Script_Extensions (so an Arabic harakat or a Devanagari virama counts as its
 * script's). The list follows the Unicode Standard (section 23.2, "Layout
 * Controls") and the IDNA rule for U+200C (RFC 5892, appendix A.1): the
 * cursive joining scripts, every script with Joining_Type values, where it
 * breaks a join inside a word (Persian "mi|khaham", "I want"): Arabic,
 * Syriac, N'Ko, Mongolian, Mandaic, Manichaean, Psalter Pahlavi, Phags-pa,
 * Adlam, Hanifi Rohingya, Sogdian, Old Uyghur, Chorasmian; and the Brahmic
 * scripts with a virama, where it asks for a half form or an explicit virama
 * instead of a conjunct: Devanagari, Bengali, Gurmukhi, Gujarati, Oriya,
 * Tamil, Telugu, Kannada, Malayalam, Sinhala. Anywhere else (between Latin
 * letters, say) it changes nothing a reader sees, so it is removed.
 */
const NON_JOINER_SCRIPT = new RegExp(
  `^[${
    [
      "Arabic",
      "Syriac",
      "Nko",
      "Mongolian",
      "Mandaic",
      "Manichaean",
      "Psalter_Pahlavi",
      "Phags_Pa",
      "Adlam",
      "Hanifi_Rohingya",
      "Sogdian",
      "Old_Uyghur",
      "Chorasmian",
      "Devanagari",
      "Bengali",
      "Gurmukhi",
      "Gujarati",
      "Oriya",
      "Tamil",
      "Telugu",
      "Kannada",
      "Malayalam",
      "Sinhala",
    ].map((script) => `\\p{scx=${script}}`).join("")
  }]$`,
  "u",
);

/**
 * Format characters that are visible: the prepended concatenation marks
 * (Arabic number and year signs, the end of ayah, Syriac and Kaithi marks)
 * are drawn as a sign spanning the digits after them.
 */
const VISIBLE_FORMAT = new Set([
  0x0600,
  0x0601,
  0x0602,
  0x0603,
  0x0604,
  0x0605,
  0x06dd,
  0x070f,
  0x0890,
  0x0891,
  0x08e2,
  0x110bd,
  0x110cd,
  SOFT_HYPHEN,
]);

/** Invisible characters outside category Cf: the Hangul fillers, the combining grapheme joiner, Khmer's invisible vowels. */
const INVISIBLE_OTHER = new Set([0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x3164, 0xffa0]);

function isVariationSelector(cp: number): boolean {
  return (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

/** Plane 14: the tags and its unassigned code points, all invisible (its variation selectors are handled apart). */
function isPlane14Invisible(cp: number): boolean {
  return cp >= 0xe0000 && cp <= 0xe0fff && !isVariationSelector(cp);
}

/** An invisible character: format (Cf) but not a visible one, plane-14 tags, fillers; not the joiners (judged in context). */
function isHiddenFormat(cp: number, ch: string): boolean {
  if (VISIBLE_FORMAT.has(cp)) return false;
  return FORMAT.test(ch) || isPlane14Invisible(cp) || INVISIBLE_OTHER.has(cp);
}

/** The length in code units of a valid subdivision-flag tag run at `i` (after 🏴), or 0. */
function flagTagsLength(chars: string[], i: number): number {
  let j = i;
  while (j < chars.length && j - i < 8) {
    const cp = chars[j]!.codePointAt(0)!;
    if (cp === CANCEL_TAG) return j - i >= 2 ? j - i + 1 : 0;
    const lowerOrDigit = (cp >= 0xe0061 && cp <= 0xe007a) || (cp >= 0xe0030 && cp <= 0xe0039);
    if (!lowerOrDigit) return 0;
    j++;
  }
  return 0;
}

/** The last character before `i` that is not a variation selector or skin-tone modifier (the base of an emoji). */
function emojiBaseBefore(chars: string[], i: number): string | undefined {
  let j = i - 1;
  while (j >= 0) {
    const cp = chars[j]!.codePointAt(0)!;
    if (!isVariationSelector(cp) && !EMOJI_MODIFIER.test(chars[j]!)) return chars[j];
    j--;
  }
  return undefined;
}

/** Whether the joiner at `i` does a job a reader sees: joins an emoji sequence, or letters of a script that needs it. */
function joinerKept(chars: string[], i: number, cp: number): boolean {
  const before = chars[i - 1];
  const after = chars[i + 1];
  if (before === undefined || after === undefined) return false;
  if (cp === ZWJ) {
    const base = emojiBaseBefore(chars, i);
    if (base !== undefined && PICTOGRAPH.test(base) && PICTOGRAPH.test(after)) return true;
    // Indic conjunct forms (eyelash ra, chillu): a virama, the joiner, a letter.
    return MARK.test(before) && LETTER.test(after);
  }
  // ZWNJ: Persian and Arabic word-internal breaks, Indic half forms (after a virama), both
  // sides in a script that writes with it.
  return LETTER_OR_MARK.test(before) && NON_JOINER_SCRIPT.test(before) &&
    LETTER.test(after) && NON_JOINER_SCRIPT.test(after);
}

/** Whether a variation selector may follow `previous` (the last character kept). */
function selectorTakesBase(previous: string | undefined): boolean {
  if (previous === undefined) return false;
  const cp = previous.codePointAt(0)!;
  if (isVariationSelector(cp) || cp === ZWJ || cp === ZWNJ) return false;
  return !SPACE.test(previous) && !CONTROL.test(previous);
}

/**
 * Which control characters count as hidden: none (a document's lines), all but
 * tab and line breaks (display text), or all of them (an identifier).
 */
type Controls = "none" | "but-whitespace" | "all";

/**
 * Calls `visit` with each code point of `text` and whether it is hidden:
 * invisible, or doing no job where it stands (a joiner, a variation selector),
 * or a control character as `controls` says.
 */
function eachCharacter(
  text: string,
  controls: Controls,
  visit: (ch: string, hidden: boolean) => void,
): void {
  const chars = Array.from(text);
  let lastShown: string | undefined;
  const take = (ch: string, hidden: boolean) => {
    if (!hidden) lastShown = ch;
    visit(ch, hidden);
  };
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const cp = ch.codePointAt(0)!;
    if (cp === TAG_FLAG_BASE) {
      const tags = flagTagsLength(chars, i + 1);
      for (const part of chars.slice(i, i + 1 + tags)) take(part, false);
      i += tags;
      continue;
    }
    if (cp === ZWJ || cp === ZWNJ) take(ch, !joinerKept(chars, i, cp));
    else if (isVariationSelector(cp)) take(ch, !selectorTakesBase(lastShown));
    else if (isHiddenFormat(cp, ch)) take(ch, true);
    else if (controls !== "none" && CONTROL.test(ch)) {
      take(ch, controls === "all" || (ch !== "\t" && ch !== "\n" && ch !== "\r"));
    } else take(ch, false);
  }
}

/** The code points of `text` without the hidden ones (see {@link eachCharacter}). */
function removeInvisible(text: string, controls: Controls): string {
  let out = "";
  eachCharacter(text, controls, (ch, hidden) => {
    if (!hidden) out += ch;
  });
  return out;
}

/**
 * Each code point of an identifier and whether display text would lose it:
 * the characters {@link cleanText} removes, control characters (tab and line
 * breaks too) among them. An identifier keeps them, written visibly.
 */
export function identifierCharacters(text: string): { ch: string; hidden: boolean }[] {
  const out: { ch: string; hidden: boolean }[] = [];
  eachCharacter(text, "all", (ch, hidden) => out.push({ ch, hidden }));
  return out;
}

/**
 * Whether code point `cp` is hidden in some context (see
 * {@link identifierCharacters}): an invisible format character, a joiner, a
 * variation selector, a plane-14 tag, a control character.
 */
export function mayBeHidden(cp: number): boolean {
  if (cp === ZWJ || cp === ZWNJ || isVariationSelector(cp)) return true;
  const ch = String.fromCodePoint(cp);
  return isHiddenFormat(cp, ch) || CONTROL.test(ch);
}

/** A fenced code block's opening line (up to three spaces, then three or more backticks or tildes). */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * `text` without HTML comments (`<!-- … -->`, an unclosed one to the end),
 * which Bitbucket's Markdown renderer hides; comments inside fenced code blocks
 * and code spans are shown as text there, so they stay.
 */
function removeComments(text: string): string {
  if (!text.includes("<!--")) return text;
  let out = "";
  let i = 0;
  let fence: string | undefined;
  while (i < text.length) {
    const atLineStart = i === 0 || text[i - 1] === "\n";
    if (atLineStart) {
      const lineEnd = text.indexOf("\n", i);
      const line = text.slice(i, lineEnd === -1 ? text.length : lineEnd + 1);
      const opened = FENCE.exec(line)?.[1];
      if (fence !== undefined) {
        if (opened !== undefined && opened[0] === fence[0] && opened.length >= fence.length) {
          fence = undefined;
        }
        out += line;
        i += line.length;
        continue;
      }
      if (opened !== undefined) {
        fence = opened;
        out += line;
        i += line.length;
        continue;
      }
    }
    if (text[i] === "`") {
      let run = 1;
      while (text[i + run] === "`") run++;
      const close = codeSpanEnd(text, i + run, run);
      const end = close === -1 ? i + run : close;
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (text.startsWith("<!--", i)) {
      const close = text.indexOf("-->", i + 2);
      i = close === -1 ? text.length : close + 3;
      continue;
    }
    out += text[i];
    i++;
  }
  return out;
}

/** Where a code span opened by `run` backticks before `from` ends (after its closing run), or -1; a span stops at a blank line. */
function codeSpanEnd(text: string, from: number, run: number): number {
  let j = from;
  while (j < text.length) {
    if (text[j] === "\n" && /^[ \t]*(\n|$)/.test(text.slice(j + 1, j + 80))) return -1;
    if (text[j] === "`") {
      let n = 1;
      while (text[j + n] === "`") n++;
      if (n === run) return j + n;
      j += n;
      continue;
    }
    j++;
  }
  return -1;
}

/**
 * Display text from Bitbucket (a title, a description, a comment, a commit
 * message, a display name), cleaned of what its reader in Bitbucket would not
 * see: invisible format characters, orphaned variation selectors, control
 * characters other than tab and line breaks, HTML comments outside code.
 */
export function cleanText(text: string): string;
/** As {@link cleanText}, passing absent text through. */
export function cleanText(text: string | undefined): string | undefined;
export function cleanText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (/^[\x20-\x7e\t\n\r]*$/.test(text) && !text.includes("<!--")) return text;
  return removeComments(removeInvisible(text, "but-whitespace"));
}

/**
 * A line of code from Bitbucket shown apart from its file (a search hit):
 * cleaned of invisible and control characters like {@link cleanText}, but its
 * HTML comments kept, since in code they are text a reader sees.
 */
export function cleanCodeLine(text: string): string {
  if (/^[\x20-\x7e\t\n\r]*$/.test(text)) return text;
  return removeInvisible(text, "but-whitespace");
}

/** Bitbucket text quoted inside one of our sentences: cleaned, then as a JSON string literal. */
export function quoted(text: string): string {
  return JSON.stringify(cleanText(text));
}

/**
 * The 1-based numbers of the lines of `text` holding invisible characters
 * (tags, BiDi controls, zero-width and other format characters, orphaned
 * variation selectors): for a diff or a file, which is returned byte-exact.
 */
export function hiddenCharacterLines(text: string): number[] {
  const lines = text.split("\n");
  const found: number[] = [];
  for (const [i, line] of lines.entries()) {
    if (/^[\x20-\x7e\t\r]*$/.test(line)) continue;
    if (removeInvisible(line, "none") !== line) found.push(i + 1);
  }
  return found;
}
