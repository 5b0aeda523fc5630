/**
 * The shipped policies with every threshold set to 0, so a tiny generated model's near-uniform
 * answers stand instead of falling back (the rules are the shipped ones, unchanged), and
 * ticket-routing's priority levels listed P4 first: tiny-qwen3 answers the first-listed level, and
 * the enterprise rule only acts on P3/P4. Written to a fresh folder and loaded from there.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { loadPolicies, type PolicySet } from "../../../core/policy/index.js";

/** Loads the permissive variant of `policies/` (see the file comment). */
export async function loadPermissivePolicies(dir = "policies"): Promise<PolicySet> {
  const folder = await mkdtemp(join(tmpdir(), "policies-"));
  try {
    for (const name of (await readdir(dir)).filter((file) => file.endsWith(".yaml"))) {
      const document = parseDocument(await readFile(join(dir, name), "utf8"));
      const questions = document.get("questions") as { items: { key: unknown; value: unknown }[] };
      for (const pair of questions.items) {
        const id = String((pair.key as { value?: unknown }).value ?? pair.key);
        document.setIn(["questions", id, "threshold"], 0);
      }
      if (name === "ticket-routing.yaml") {
        const criteria = document.getIn(["questions", "priority", "criteria"]) as { items: unknown[] };
        criteria.items.reverse();
      }
      await writeFile(join(folder, name), document.toString());
    }
    return await loadPolicies(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
