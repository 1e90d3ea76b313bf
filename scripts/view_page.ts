/**
 * The view page's writer of `deno task generate`: writes
 * src/resources/view_page.generated.ts from the page's authored files.
 * tests/resources/view_page_test.ts fails, showing the diff, when the file
 * is stale; only this script writes it.
 */
import {
  renderViewModule,
  renderViewPage,
  VIEW_PAGE_FILE,
  VIEW_SOURCES,
} from "../src/resources/view_page_render.ts";
import { writeErr, writeOut } from "../src/cli/output.ts";

if (import.meta.main) {
  const read = (path: string) => Deno.readTextFile(new URL(`../${path}`, import.meta.url));
  const scripts: Record<string, string> = {};
  for (const path of VIEW_SOURCES.js) scripts[path.split("/").pop()!] = await read(path);
  const page = renderViewPage(await read(VIEW_SOURCES.html), await read(VIEW_SOURCES.css), scripts);
  const file = new URL(`../${VIEW_PAGE_FILE}`, import.meta.url);
  const before = await Deno.readTextFile(file).catch(() => "");
  const after = renderViewModule(page);
  if (after === before) writeOut(`${VIEW_PAGE_FILE} is up to date`);
  else {
    await Deno.writeTextFile(file, after);
    writeErr(`${VIEW_PAGE_FILE}: rewritten from src/resources/view/`);
  }
}
