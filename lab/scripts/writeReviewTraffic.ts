/**
 * Writes generated review traffic with known truth (`lab/review/generateReviewTraffic.ts`) into a
 * folder: `review-budget.yaml` (the policy) and `labelled.jsonl` (every item labelled), for
 * `decisions calibrate labelled.jsonl --policy review-budget.yaml --simulate-budget N`:
 * `node --import tsx lab/scripts/writeReviewTraffic.ts <dir> [--items 20000] [--seed 1]`.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { generateReviewTraffic } from "../review/generateReviewTraffic.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { items: { type: "string", default: "20000" }, seed: { type: "string", default: "1" } },
});
const dir = positionals[0];
const items = Number(values.items);
const seed = Number(values.seed);
if (dir === undefined || !Number.isInteger(items) || items < 1 || !Number.isInteger(seed)) {
  console.error("usage: writeReviewTraffic.ts <dir> [--items N] [--seed S]");
  process.exit(2);
}
const traffic = generateReviewTraffic({ items, seed });
await mkdir(dir, { recursive: true });
await writeFile(join(dir, "review-budget.yaml"), traffic.policy);
await writeFile(join(dir, "labelled.jsonl"), traffic.labelled);
console.log(
  `wrote ${dir}: ${traffic.decided} decided (audited at rate 1) and ${traffic.fallbacks} fallbacks, seed ${seed}`,
);
