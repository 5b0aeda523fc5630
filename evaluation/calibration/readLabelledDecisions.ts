import { LabelledDataError, type LabelledDataProblem } from "./errors.js";
import { type LabelledDecision, LabelledDecisionSchema } from "./LabelledDecisionSchema.js";

/** A labelled decision with the line it was read from. */
export interface LabelledLine {
  /** 1-based line in the file. */
  line: number;
  decision: LabelledDecision;
}

/**
 * Reads labelled-data JSONL text (see {@link LabelledDecisionSchema}). Blank lines are skipped;
 * unknown fields are ignored.
 *
 * @param file named in the error's message. Default none.
 * @throws LabelledDataError with every line that is not JSON or does not match the schema
 */
export function readLabelledDecisions(text: string, file?: string): LabelledLine[] {
  const lines: LabelledLine[] = [];
  const problems: LabelledDataProblem[] = [];
  for (const [index, source] of text.split("\n").entries()) {
    if (source.trim() === "") continue;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      problems.push({ line, path: [], message: `not JSON: ${(error as Error).message}` });
      continue;
    }
    const parsed = LabelledDecisionSchema.safeParse(value);
    if (parsed.success) lines.push({ line, decision: parsed.data });
    else {
      for (const issue of parsed.error.issues) {
        problems.push({
          line,
          path: issue.path.map((part) => (typeof part === "number" ? part : String(part))),
          message: issue.message,
        });
      }
    }
  }
  if (problems.length > 0) throw new LabelledDataError(problems, { file });
  return lines;
}
