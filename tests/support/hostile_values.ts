/**
 * Argument values a careless or hostile caller might send: a fixed corpus of
 * known troublemakers, and seeded random strings, numbers and shapes.
 */
import type { Prng } from "../../testing/prng.ts";

/** Longer than any text argument may be (the longest allowed is 65,536 characters). */
export const OVER_LONG = "x".repeat(65_537);

/** Strings that have broken URL builders, parsers and logs before. */
const STRINGS: readonly string[] = [
  "",
  " ",
  ".",
  "..",
  "../../admin",
  "a/../../b",
  "%2e%2e",
  "%2e%2e%2fadmin",
  ".%2e",
  "%2F",
  "/",
  "//",
  "a//b",
  "/leading",
  "trailing/",
  "\\..\\..\\admin",
  "?x=1",
  "#fragment",
  "a?b=c#d",
  "&limit=1000",
  "\r\nX-Injected: 1",
  "line\nbreak",
  "\u0000",
  "a\u0000b",
  "%00",
  "%",
  "ü",
  "𝕏😀",
  "\u202e",
  "\ufeff",
  "\ud800",
  // Escapes as results write hidden characters in names: read back only for those and `\`.
  "\\u{202E}",
  "\\u{5C}",
  "\\u{2E}\\u{2E}",
  "a/\\u{2E}\\u{2E}/b",
  "\\u{5C}..\\u{5C}admin",
  "\\u{0}",
  "\\u{D800}",
  "\\u{110000}",
  "'; DROP TABLE repos; --",
  "<script>alert(1)</script>",
  "${jndi:ldap://x}",
  "http://evil.example.com/",
  "//evil.example.com/x",
  "@evil.example.com",
  "refs/heads/../../x",
  "x".repeat(257),
  "x".repeat(1025),
  "x".repeat(4097),
  OVER_LONG,
];

/** Numbers out of every range, and strings that look like numbers. */
const NUMBERS: readonly unknown[] = [
  0,
  -1,
  -0,
  1.5,
  -2.5,
  1e308,
  -1e308,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  1e21,
  4294967297,
  "NaN",
  "Infinity",
  "-Infinity",
  "1e999",
  "42",
];

/** Wrong shapes. */
const SHAPES: readonly unknown[] = [
  null,
  true,
  false,
  [],
  [1],
  ["a"],
  [[]],
  {},
  { a: 1 },
  JSON.parse('{"__proto__": {"polluted": true}}'),
  { toString: "x" },
  [OVER_LONG],
];

/** The fixed corpus: every troublemaker above. */
export const HOSTILE_VALUES: readonly unknown[] = [...STRINGS, ...NUMBERS, ...SHAPES];

const CHARS = [
  ..."abcXYZ019-_.~",
  ..."/?#%&=+;:@!$'()*,[]{}<>|\\^`\"",
  "\r",
  "\n",
  "\t",
  "\u0000",
  "\u007f",
  "é",
  "ß",
  "中",
  "\u202e",
  "\ud83d\ude00",
  "\udc00",
];

/** A random string, mostly short, sometimes long. */
export function randomString(rng: Prng): string {
  const length = rng.next() < 0.9 ? rng.int(0, 24) : rng.int(200, 5000);
  let out = "";
  for (let i = 0; i < length; i++) out += rng.pick(CHARS);
  return out;
}

/** A random number: an integer of any size or sign, or a fraction. */
export function randomNumber(rng: Prng): number {
  const magnitude = 10 ** rng.int(0, 20);
  const value = (rng.next() - 0.5) * 2 * magnitude;
  return rng.next() < 0.5 ? Math.trunc(value) : value;
}

/** A random value of any JSON type, nested at most `depth` deep. */
export function randomValue(rng: Prng, depth = 2): unknown {
  switch (rng.int(0, depth > 0 ? 5 : 3)) {
    case 0:
      return randomString(rng);
    case 1:
      return randomNumber(rng);
    case 2:
      return rng.pick([null, true, false]);
    case 3:
      return rng.pick(HOSTILE_VALUES);
    case 4:
      return Array.from({ length: rng.int(0, 3) }, () => randomValue(rng, depth - 1));
    default:
      return Object.fromEntries(
        Array.from(
          { length: rng.int(0, 3) },
          () => [randomString(rng), randomValue(rng, depth - 1)],
        ),
      );
  }
}
