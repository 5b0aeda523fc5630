/**
 * The first step of `decisions outcomes redecide`: which outcomes to send again — one by its id,
 * every outcome of a status updated in a time range, or every outcome a model or policy version
 * decided (read through `operations/outcomes`' `readDecidedBy`).
 */
import {
  OutcomeNotFoundError,
  type OutcomesReader,
  type StoredOutcome,
} from "../../../core/outcomes/index.js";
import { type RedecideSelector, readDecidedBy } from "../../../operations/outcomes/index.js";
import { UsageError } from "../../errors.js";
import { inertLines } from "../../inertText.js";
import type { CliOutput } from "../../types.js";
import { readStatus, readTime, selectorOf } from "./flagReaders.js";
import type { OutcomesValues } from "./flags.js";
import { OUTCOMES_USAGE as USAGE } from "./usage.js";

/** The outcomes a redecide chose, and the model or policy version it chose them by, if any. */
export interface RedecideSelection {
  /** The outcomes read, before any is held back (reviewed, unsendable). */
  chosen: StoredOutcome[];
  /** The selector of --model-sha256 / --policy-version; undefined without them. */
  selector: RedecideSelector | undefined;
}

/**
 * Reads the outcomes a redecide selects: by selector (--model-sha256 / --policy-version, with
 * --status, --since and --until narrowing it), by `id`, or by --status and --since (--until default
 * now). A range's count is printed on `stdout`.
 * @throws UsageError when the flags do not select (a range flag with an id, a range without --status,
 * a malformed time, status or selector).
 * @throws OutcomeNotFoundError when the outcome `id` names is not in the table.
 */
export async function selectRedecided(
  table: OutcomesReader,
  policy: string,
  id: string | undefined,
  values: OutcomesValues,
  stdout: CliOutput["stdout"],
): Promise<RedecideSelection> {
  let chosen: StoredOutcome[];
  const selector = selectorOf(values);
  if (id === undefined && selector !== undefined) {
    chosen = await readDecidedBy(table, policy, selector, {
      status: readStatus(values.status),
      since: values.since === undefined ? undefined : readTime(values.since, "--since"),
      until: values.until === undefined ? undefined : readTime(values.until, "--until"),
    });
    stdout.write(
      inertLines(`${chosen.length} outcome(s) of ${policy} decided by ${describeSelector(selector)}\n`),
    );
  } else if (id !== undefined) {
    for (const flag of ["status", "until", "dry-run", "yes", "diff"] as const) {
      if (values[flag] !== undefined)
        throw new UsageError(`--${flag} selects a range: give --since instead of an id`, { usage: USAGE });
    }
    const outcome = await table.get(policy, id);
    if (outcome === undefined) throw new OutcomeNotFoundError(table.tableName, policy, id);
    chosen = [outcome];
  } else {
    const status = readStatus(values.status);
    if (status === undefined) throw new UsageError("a range redecide needs --status", { usage: USAGE });
    const since = readTime(values.since, "--since");
    const until = values.until === undefined ? new Date().toISOString() : readTime(values.until, "--until");
    chosen = [];
    for await (const page of table.inRange(policy, status, { since, until })) chosen.push(...page);
    stdout.write(
      inertLines(
        `${chosen.length} outcome(s) of ${policy} with status ${status} updated from ${since} to ${until}\n`,
      ),
    );
  }
  return { chosen, selector };
}

function describeSelector(selector: RedecideSelector): string {
  return [
    selector.modelSha256 === undefined ? "" : `model ${selector.modelSha256}`,
    selector.policyVersion === undefined ? "" : `policy version ${selector.policyVersion}`,
  ]
    .filter((part) => part !== "")
    .join(" and ");
}
