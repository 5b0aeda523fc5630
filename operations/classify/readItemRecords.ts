import type { SQSRecord } from "aws-lambda";
import { type JsonNode, JsonTextError, parseJsonText } from "../../contract/wire/index.js";

/** One line of a work-item file, shaped as the SQS record the decide function would receive. */
export interface ItemRecord {
  /** 1-based line of the file. */
  line: number;
  record: SQSRecord;
}

/**
 * The non-blank lines of a work-item JSONL file as SQS records (`messageId` = `line-<n>`, first
 * delivery), so the decide function's own `parseRecord` reads them exactly as it reads the queue's.
 * A work item without a `policy` field gets `policy` (the `--policy` of `decisions classify`),
 * written in front of its other fields so the rest of its text (its state) stays as written.
 */
export function readItemRecords(text: string, policy: string): ItemRecord[] {
  const records: ItemRecord[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    const body = withPolicy(line, policy);
    records.push({
      line: index + 1,
      record: {
        messageId: `line-${index + 1}`,
        receiptHandle: "",
        body,
        attributes: {
          ApproximateReceiveCount: "1",
          SentTimestamp: "",
          SenderId: "",
          ApproximateFirstReceiveTimestamp: "",
        },
        messageAttributes: {},
        md5OfBody: "",
        eventSource: "decisions:classify",
        eventSourceARN: "",
        awsRegion: "",
      },
    });
  });
  return records;
}

function withPolicy(line: string, policy: string): string {
  let root: JsonNode;
  try {
    root = parseJsonText(line);
  } catch (error) {
    // Left as it is: parseRecord rejects it with the parser's own message.
    if (error instanceof JsonTextError) return line;
    throw error;
  }
  if (root.kind !== "object") return line;
  const keys = new Set(root.members.map((member) => member.key));
  if (keys.has("policy") || (keys.has("source") && keys.has("detail-type"))) return line;
  const field = `"policy": ${JSON.stringify(policy)}`;
  const open = root.start + 1;
  return root.members.length === 0
    ? `${line.slice(0, open)}${field}${line.slice(open)}`
    : `${line.slice(0, open)}${field}, ${line.slice(open)}`;
}
