import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { RehearsalError } from "./errors.js";

/** One API call the console page makes: method, path as a route pattern (`{}` per parameter), file. */
export interface ConsolePageCall {
  method: string;
  /** Path segments; a parameter is `{}`. */
  segments: string[];
  caller: string;
}

const WEB = join(packageRoot(), "console", "web");

/**
 * The API calls of the console page, read from its source: every `call(path, init)` of
 * `console/web`, its path a literal (template parameters become `{}`) or one of the page's path
 * helpers (`itemApiPath`, `queuePath`), its method `POST` when the call's options say so.
 * @throws RehearsalError on a path expression it does not know (teach it the new helper).
 */
export function consolePageCalls(): ConsolePageCall[] {
  const calls: ConsolePageCall[] = [];
  for (const file of readdirSync(WEB).filter((name) => name.endsWith(".ts"))) {
    const text = readFileSync(join(WEB, file), "utf8");
    // Every `call(` / `call<T>(`, not its definition (`function call<T>(`).
    for (const start of [...text.matchAll(/(?<!function )\bcall(?:<[^>(]*(?:<[^>]*>)?[^>(]*>)?\(/g)].map(
      (match) => (match.index ?? 0) + match[0].length,
    )) {
      const args = argumentsAt(text, start);
      const [path = "", ...rest] = args;
      const method = /method:\s*"POST"/.test(rest.join(",")) ? "POST" : "GET";
      calls.push({ method, segments: segmentsOf(path.trim()), caller: `console/web/${file}` });
    }
  }
  return calls;
}

/** The top-level arguments of a call whose `(` ends just before `start`. */
function argumentsAt(text: string, start: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let current = "";
  let quote: string | undefined;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index] as string;
    if (quote !== undefined) {
      current += char;
      if (char === quote && text[index - 1] !== "\\") quote = undefined;
      continue;
    }
    if (char === '"' || char === "'" || char === "`") quote = char;
    else if ("([{".includes(char)) depth += 1;
    else if (")]}".includes(char)) {
      if (depth === 0) {
        args.push(current);
        return args;
      }
      depth -= 1;
    } else if (char === "," && depth === 0) {
      args.push(current);
      current = "";
      continue;
    }
    current += char;
  }
  throw new RehearsalError(`unterminated call at ${start}`);
}

function segmentsOf(expression: string): string[] {
  const literal = /^[`"'](.*)[`"']$/s.exec(expression);
  if (literal !== null) return split((literal[1] ?? "").replace(/\$\{[^}]*\}/g, "{}").split("?")[0] ?? "");
  const helper = /^(\w+)\((.*)\)$/s.exec(expression);
  if (helper?.[1] === "itemApiPath") {
    const suffix = /,\s*"([^"]*)"\s*$/.exec(helper[2] ?? "")?.[1] ?? "";
    return [...split("/api/items/{}/{}"), ...split(suffix)];
  }
  if (helper?.[1] === "queuePath") {
    const source = readFileSync(join(WEB, "queueFilters.ts"), "utf8");
    const returned = /return `(\/api\/[^`?$]*)/.exec(source)?.[1];
    if (returned === undefined) throw new RehearsalError("queuePath returns no /api/ path literal");
    return split(returned);
  }
  throw new RehearsalError(
    `the console calls the API with ${expression}: teach consolePageCalls this path helper`,
  );
}

function split(path: string): string[] {
  return path.split("/").filter((part) => part.length > 0);
}
