// The bitbucket-mcp view, part 2 of 8:
// building DOM from text: text nodes only, links through the host.
// `deno task generate` joins the parts, in view.html's order, into the
// page's one strict script (one function scope): what one part defines, the
// others use.
// deno-lint-ignore-file no-unused-vars
// --- building DOM from text ------------------------------------------------

/** An element with data attributes and children; strings become text nodes. */
function el(tag, data, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(data ?? {})) {
    if (value === undefined || value === null) continue;
    if (key === "class") node.className = value;
    else if (key === "colspan") node.colSpan = value;
    else node.dataset[key] = String(value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

/** A URL the host may open: http(s), on the Bitbucket origin's host. */
function allowedUrl(url) {
  if (!current || typeof url !== "string") return undefined;
  try {
    const parsed = new URL(url);
    const origin = new URL(current.origin);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
    return parsed.host === origin.host ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** A link opened through the host, or the text alone when the URL is not allowed. */
function link(url, ...text) {
  const allowed = allowedUrl(url);
  if (!allowed || !host.openLinks) return el("span", {}, ...text);
  const a = el("a", { link: allowed }, ...text);
  a.tabIndex = 0;
  const open = (event) => {
    event.preventDefault();
    request("ui/open-link", { url: allowed }).catch((e) => say(e.message));
  };
  a.addEventListener("click", open);
  a.addEventListener("keydown", (event) => event.key === "Enter" && open(event));
  return a;
}

/** Inline Markdown: `code`, **strong**, *em*, [text](url); everything else, HTML too, is text. */
function inline(text) {
  const out = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*]+)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(el("code", {}, m[1]));
    else if (m[2] !== undefined) out.push(el("strong", {}, m[2]));
    else if (m[3] !== undefined) out.push(el("em", {}, m[3]));
    else out.push(link(m[5], m[4]));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Block Markdown as DOM: paragraphs, headings, lists, fenced code. */
function markdown(text) {
  const box = el("div", { class: "description", field: "description" });
  const lines = String(text).split("\n");
  let list = null;
  let para = [];
  const flush = () => {
    if (para.length) box.append(el("p", {}, inline(para.join(" "))));
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("```")) {
      flush();
      list = null;
      const code = [];
      for (i++; i < lines.length && !lines[i].startsWith("```"); i++) code.push(lines[i]);
      box.append(el("pre", {}, el("code", {}, code.join("\n"))));
      continue;
    }
    const item = /^\s*[-*+] (.*)$/.exec(line);
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (item) {
      flush();
      if (!list) box.append(list = el("ul", {}));
      list.append(el("li", {}, inline(item[1])));
    } else if (heading) {
      flush();
      list = null;
      box.append(el("p", {}, el("strong", {}, inline(heading[2]))));
    } else if (line.trim() === "") {
      flush();
      list = null;
    } else {
      list = null;
      para.push(line);
    }
  }
  flush();
  return box;
}

const when = (
  iso,
) => (typeof iso === "string" ? iso.slice(0, 16).replace("T", " ") + " UTC" : "");
const who = (user) => user?.displayName ?? user?.name ?? "";
