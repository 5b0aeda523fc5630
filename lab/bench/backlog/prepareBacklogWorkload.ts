import { join } from "node:path";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import { SeededRandom } from "../../../core/common/SeededRandom.js";
import { loadPolicies, type PolicySet } from "../../../core/policy/index.js";
import { loadWorkItemTemplates } from "../../chaos/loadWorkItemTemplates.js";
import { type BacklogItem, buildBacklogItems } from "./buildBacklogItems.js";
import type { BacklogBenchSetup } from "./setupBacklogBench.js";
import type { BacklogBenchOptions } from "./types.js";

/** The model, the policies and the items: each round's backlog, and a smaller one to warm up on. */
export interface BacklogWorkload {
  modelPath: string;
  policies: PolicySet;
  roundItems: BacklogItem[][];
  /** Every round's items, in round order. */
  items: BacklogItem[];
  warmItems: BacklogItem[];
}

/** Finds (or generates) the model, loads the policies and builds the seeded items of every round. */
export async function prepareBacklogWorkload(
  options: BacklogBenchOptions,
  setup: BacklogBenchSetup,
): Promise<BacklogWorkload> {
  const { quick, count, roundCount } = setup;
  const modelPath =
    options.modelPath ?? (await ensureGeneratedModel(quick ? "tiny-qwen3" : "qwen3-0.6b-shape"));
  const root = packageRoot();
  const policies = await loadPolicies(join(root, "policies"));
  const templates = await loadWorkItemTemplates(join(root, "events"), policies);
  const random = new SeededRandom(options.seed ?? 1);
  const roundItems = Array.from({ length: roundCount }, (_, index) =>
    buildBacklogItems({
      templates,
      policies,
      count: Math.floor(count / roundCount) + (index < count % roundCount ? 1 : 0),
      random: random.fork(),
      idPrefix: `backlog-r${index}`,
    }),
  );
  const items = roundItems.flat();
  const warmItems = buildBacklogItems({
    templates,
    policies,
    count: Math.min(60, Math.max(12, Math.round(count / 10))),
    random: random.fork(),
    idPrefix: "warm",
  });
  return { modelPath, policies, roundItems, items, warmItems };
}
