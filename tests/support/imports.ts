/**
 * The import and export specifiers in a module's text, read without a
 * parser: static imports (`import … from "…"`, side-effect `import "…"`),
 * re-exports (`export … from "…"`) and dynamic imports of a string literal
 * (`import` called with one). Shared by the layer test and the deps test.
 */

/** Every import and export specifier in a module's text: static, side-effect, re-export and dynamic. */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\b[^;]*?\bfrom\s+["']([^"'\s]+)["']/gm,
    /\bimport\s*\(\s*["']([^"'\s]+)["']\s*\)/g,
    /^\s*import\s*["']([^"'\s]+)["']/gm,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) found.push(match[1]!);
  }
  return found;
}
