import { readFile } from "node:fs/promises";
import { StoredOutcomeSchema } from "../../core/outcomes/index.js";
import { asDecided, type DecidedItem } from "../../core/shadow/index.js";
import { InputFileError } from "../common/errors.js";

/** The decisions of a results file by `<policy>/<id>`, and what people answered on them. */
export interface ResultsDecisions {
  decisions: Map<string, DecidedItem>;
  labels: Map<string, Record<string, string | number | boolean>>;
}

/**
 * Reads a results file of `decisions classify` (one outcome per line; an outcomes export
 * `decisions outcomes export` writes the same lines) as decisions keyed by `<policy>/<id>`. A
 * reviewed outcome counts as the pipeline decided it, its people's answers as labels (see
 * `asDecided`). An unfinished last line (a run killed while writing) is left out, as a resumed
 * classify run does.
 * @throws InputFileError when the file cannot be read, or a complete line is not an outcome.
 */
export async function readResultsDecisions(path: string): Promise<ResultsDecisions> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new InputFileError(path, `cannot be read (${(error as NodeJS.ErrnoException).code})`, {
      cause: error,
    });
  }
  const complete = text.slice(0, text.lastIndexOf("\n") + 1);
  const result: ResultsDecisions = { decisions: new Map(), labels: new Map() };
  complete.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new InputFileError(
        path,
        `line ${index + 1} is not JSON: it is not a results file of decisions classify`,
        {
          cause: error,
        },
      );
    }
    const parsed = StoredOutcomeSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InputFileError(
        path,
        `line ${index + 1} is not an outcome (${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}); give results files of decisions classify or outcome exports`,
      );
    }
    const key = `${parsed.data.policy}/${parsed.data.id}`;
    const { decision, labels } = asDecided(parsed.data);
    result.decisions.set(key, decision);
    if (Object.keys(labels).length > 0) result.labels.set(key, labels);
  });
  return result;
}
