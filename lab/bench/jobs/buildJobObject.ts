/** Options of {@link buildJobObject}. */
export interface JobObjectOptions {
  /** Lines of the object. */
  lines: number;
  /**
   * Distinct ticket states the valid lines cycle through, in runs of {@link run} lines, so that
   * most lines share a state with their neighbours and the endpoint is asked far fewer times than
   * there are lines (the decide function asks once per state in a batch). Default 40.
   */
  distinctStates?: number;
  /** Lines in a row with the same state. Default 10 (the event source's batch size). */
  run?: number;
  /** Every n-th line is not JSON (rejected at ingest). Default 50; 0: none. */
  invalidEvery?: number;
}

/** A JSONL job object and what each line is. */
export interface JobObject {
  body: string;
  bytes: number;
  /** Per line (index = line − 1): the work item id, or undefined for a line that is not JSON. */
  ids: (string | undefined)[];
  /** Lines that are not JSON. */
  invalid: number;
}

const SUBJECTS = [
  "Charged twice",
  "Where is my parcel",
  "Cannot sign in",
  "Refund not received",
  "App crashes on start",
  "Change delivery address",
  "Invoice is wrong",
  "Two-factor code never arrives",
];

/**
 * A `ticket-routing` JSONL object of `lines` lines for the job bench: ids `jb-<line>`, states in
 * runs (see {@link JobObjectOptions}), and every `invalidEvery`-th line broken JSON.
 */
export function buildJobObject(options: JobObjectOptions): JobObject {
  const distinct = Math.max(1, options.distinctStates ?? 40);
  const run = Math.max(1, options.run ?? 10);
  const invalidEvery = options.invalidEvery ?? 50;
  const texts: string[] = [];
  const ids: (string | undefined)[] = [];
  let invalid = 0;
  for (let line = 1; line <= options.lines; line += 1) {
    if (invalidEvery > 0 && line % invalidEvery === 0) {
      texts.push(`{ "id": "jb-${line}", not json`);
      ids.push(undefined);
      invalid += 1;
      continue;
    }
    const state = Math.floor((line - 1) / run) % distinct;
    const subject = `${SUBJECTS[state % SUBJECTS.length]} (case ${state})`;
    const id = `jb-${line}`;
    texts.push(
      JSON.stringify({
        id,
        policy: "ticket-routing",
        state: { subject, body: `${subject}. Please help, this is case ${state}.`, channel: "email" },
        facts: { customer_tier: "pro", channel: "email" },
      }),
    );
    ids.push(id);
  }
  const body = `${texts.join("\n")}\n`;
  return { body, bytes: Buffer.byteLength(body), ids, invalid };
}
