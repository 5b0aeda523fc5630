import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { type WorkItemInput, WorkItemSchema } from "../../core/common/index.js";
import type { PolicySet } from "../../core/policy/index.js";
import { checkFacts } from "../../core/policy/index.js";

/**
 * The sample work items of `<eventsDir>/work-items/*.jsonl` that are valid for a loaded policy
 * (schema and facts): the realistic states a chaos run or the pipeline bench varies. Lines the
 * samples hold on purpose as invalid are left out here (a chaos run makes its own poison).
 *
 * @throws Error when no valid sample is found.
 */
export async function loadWorkItemTemplates(
  eventsDir: string,
  policies: PolicySet,
): Promise<WorkItemInput[]> {
  const folder = join(eventsDir, "work-items");
  const files = (await readdir(folder)).filter((name) => name.endsWith(".jsonl")).sort();
  const templates: WorkItemInput[] = [];
  for (const file of files) {
    for (const line of (await readFile(join(folder, file), "utf8")).split("\n")) {
      if (line.trim() === "") continue;
      const item = parseTemplate(line);
      const policy = item === undefined ? undefined : policies.get(item.policy);
      if (item !== undefined && policy !== undefined && checkFacts(policy, item.facts).ok)
        templates.push(item);
    }
  }
  if (templates.length === 0) throw new Error(`no valid sample work item under ${folder}`);
  return templates;
}

function parseTemplate(line: string): WorkItemInput | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    // An invalid sample line is kept in events/ on purpose (the demo shows its rejection).
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  const parsed = WorkItemSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
