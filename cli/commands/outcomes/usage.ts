/** The usage text of `decisions outcomes`: printed by --help and carried by every usage error. */
import { STORED_OUTCOME_STATUSES } from "../../../core/outcomes/index.js";
import { DEFAULT_ORDER_WINDOW } from "../../../operations/outcomes/index.js";
import { tableOptionsUsage } from "../tableOptions.js";
import { CONFIRM_OVER, DEFAULT_LIMIT, DEFAULT_TABLE, DIFF_WAIT_SECONDS } from "./constants.js";

/** The usage text of `decisions outcomes` and its five sub-commands. */
export const OUTCOMES_USAGE = `usage:
  decisions outcomes list   --policy <p> [--status <s> | --conflicts | --order margin|entropy [--window N]]
                            [--limit N] [--json] [table options]
  decisions outcomes show   <id> --policy <p> [table options]
  decisions outcomes export --policy <p> [--status <s>] [--format jsonl|csv] [--labelled] [--out <file>] [table options]
  decisions outcomes review <id> --policy <p> --set <question>=<answer> [--set …] [--by <name>]
                            [--expect-updated-at <time>] [--amend] [table options]
  decisions outcomes redecide <id> --policy <p> --queue-url <url> [--sqs-endpoint-url <url>] [--wait <s>]
                            [--replace-reviews] [table options]
  decisions outcomes redecide --policy <p> --status <s> --since <time> [--until <time>] [--replace-reviews]
                            (--dry-run | --queue-url <url> [--yes]) [--sqs-endpoint-url <url>] [--wait <s>] [table options]
  decisions outcomes redecide --policy <p> (--model-sha256 <old> | --policy-version <old>) [--status <s>]
                            [--since <time>] [--until <time>] [--replace-reviews] [--diff <file>]
                            (--dry-run | --queue-url <url> [--yes]) [--sqs-endpoint-url <url>] [--wait <s>] [table options]

list     the newest outcomes of a policy (default ${DEFAULT_LIMIT}), newest first: of one status through the
         by-status index (--status fallback: the items waiting for a person), or of every status.
         --conflicts: the outcomes under whose id a work item with another payload came (read from the
         whole policy). A rule's or a person's answer is shown with the model's probability of that
         answer (P=…), not the probability of the model's own answer.
         --order margin|entropy: the review queue (the items waiting for a person: fallback and audit items;
         no --status) in the console's order: audit items first, then the answer nearest its question's
         threshold (margin) or the most spread distribution (entropy) over the open questions, then newest.
         Such an order is computed over windows of the --window newest waiting entries (default ${DEFAULT_ORDER_WINDOW}),
         then the next older window; the output says which.
show     one outcome, as stored (JSON, on stdout), and its history on stderr: how it was decided and
         every review (who, when, which answers, what a partial review left open); the JSON
         holds the outcomes it replaced (history) and payload conflicts. For an item without an
         outcome, the decide function's failure record of it, when there is one: {"outcome": null,
         "last_failure": {reason, error, failure_class, attempts, failures, first_failed_at,
         last_failed_at, message_id, …}}, exit code 1.
export   every outcome of a policy (or of one status) as JSON Lines (default) or CSV, to --out or stdout.
         --labelled: the reviewed outcomes as labelled data for \`decisions calibrate\` (per line the policy,
         item id and, per question a person answered, the model's distribution and the person's answer).
review   records a person's answers on an outcome (typically a fallback one): each --set answer replaces
         the one that stood, the model's answer is kept beside it. The status becomes reviewed when every
         question that stood on its fallback (on an audit item: every model answer) has a person's answer;
         a partial review keeps the item in the review queue. Every review is kept (show prints them). Answers
         are checked against the policy's questions (choice: a label; score: a level; noul: yes/no).
         The write is refused if the outcome changed since it was read (--expect-updated-at: since the
         updated_at you saw in \`show\`). Changing a person's answer (a reviewed item, or a question a
         person answered) needs --amend and is recorded as an amendment; a reviewer's new answer to a
         question replaces only their own earlier one in the history. A review past the history's bound
         (20 entries, 64 KiB) is refused; no one's review is dropped.
redecide sends the work item kept in an outcome (up to 16 KiB) to the work queue again with the supersede
         marker set to the updated_at read: the decide path replaces the outcome only if it is still that
         version, and keeps the old one in the new outcome's history. With --status and --since (and --until,
         default now) every outcome of that status updated in the range; --dry-run counts and lists them;
         more than ${CONFIRM_OVER} are sent only with --yes. --wait <s>: wait up to s seconds for the new outcomes.
         An outcome a person reviewed (status reviewed, or a partial review) is not sent: it is listed
         and kept, unless --replace-reviews (the review then stays in the new outcome's history).
         --model-sha256 <old> / --policy-version <old> (both: both must hold): every outcome of the policy
         that model or policy version decided (of --status, updated from --since to --until, when given),
         after a promotion. --diff <file>: waits for the new outcomes (--wait, default ${DIFF_WAIT_SECONDS} s) and
         writes what changed as JSON: counts, every status change and, per question, every changed answer
         (id, old, new); items not decided again within the wait are listed as pending. A summary is printed.

statuses: ${STORED_OUTCOME_STATUSES.join(", ")}

table options:
${tableOptionsUsage({ what: "outcomes", default: DEFAULT_TABLE }, 25).join("\n")}
  --policies <dir>       the policy files (default: this repository's policies/): --policy is looked up there,
                         and export --labelled and review read the policy's questions from it
`;
