/**
 * The manifest's writer of `deno task generate`: writes
 * src/tools/manifest.generated.ts from the catalogue, so a starting server
 * can answer `tools/list` without building any tool's schemas.
 * tests/tools/manifest_test.ts fails, showing the diff, when the file is
 * stale; only this script writes it.
 */
import { TOOLSETS } from "../src/tools/catalogue.ts";
import { MANIFEST_FILE, renderManifest } from "../src/tools/manifest_record.ts";
import { writeErr, writeOut } from "../src/cli/output.ts";

if (import.meta.main) {
  const file = new URL(`../${MANIFEST_FILE}`, import.meta.url);
  const before = await Deno.readTextFile(file);
  const after = renderManifest(TOOLSETS);
  if (after === before) {
    writeOut(`${MANIFEST_FILE} is up to date`);
  } else {
    await Deno.writeTextFile(file, after);
    writeErr(`${MANIFEST_FILE}: rewritten from the catalogue`);
  }
}
