/** Reads the labelled export `decisions calibrate` is given, cut to `--limit`. */
import { readFile } from "node:fs/promises";
import {
  type LabelledLine,
  readLabelledDecisions,
} from "../../../evaluation/calibration/readLabelledDecisions.js";

/**
 * The lines of a labelled JSONL file; with a limit, the policy's first `limit` lines (other
 * policies' lines are kept, to be counted and skipped).
 *
 * @throws the file system's error when the file cannot be read, LabelledDataError for lines that
 *   are not labelled decisions
 */
export async function readLabelledLines(
  path: string,
  policy: string,
  limit: number | undefined,
): Promise<LabelledLine[]> {
  const lines = readLabelledDecisions(await readFile(path, "utf8"), path);
  if (limit === undefined) return lines;
  let kept = 0;
  return lines.filter(({ decision }) => {
    if (decision.policy !== policy) return true;
    kept += 1;
    return kept <= limit;
  });
}
