import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";

/** One SQS message the demo sends: its body exactly as the file holds it, and where it came from. */
export interface DemoMessage {
  body: string;
  /** `tickets.jsonl:12`, `incident-opened.json`. */
  origin: string;
}

/** A JSONL object the demo puts into the ingest bucket for the ingest function. */
export interface DemoObject {
  /** The object's key (`incoming/documents.jsonl`). */
  key: string;
  body: string;
  /** Lines that are not blank. */
  lines: number;
}

/** What the demo sends, read from `events/`. */
export interface DemoInputs {
  /** Work items (`work-items/*.jsonl`, one per non-blank line) and EventBridge events (`eventbridge/*.json`). */
  messages: DemoMessage[];
  /** JSONL objects for S3 ingest (`work-items/<ingest>.jsonl`). */
  objects: DemoObject[];
}

/** Options of {@link readDemoInputs}. */
export interface ReadDemoInputsOptions {
  /** File names under `work-items/` that go through S3 ingest rather than straight to the queue. Default `["documents.jsonl"]`. */
  ingestFiles?: string[];
}

/**
 * Reads the sample inputs of the demo from an `events/` folder: every work-item JSONL line and
 * every EventBridge event as a message body (the text as written: states pass through unchanged,
 * invalid lines stay invalid so they become `rejected` outcomes), and the batch file(s) as S3
 * objects for the ingest function. `sqs/` and `s3/` hold events for invoking handlers directly
 * and are not sent.
 */
export async function readDemoInputs(
  eventsDir: string,
  options: ReadDemoInputsOptions = {},
): Promise<DemoInputs> {
  const ingestFiles = new Set(options.ingestFiles ?? ["documents.jsonl"]);
  const messages: DemoMessage[] = [];
  const objects: DemoObject[] = [];
  const workItems = join(eventsDir, "work-items");
  for (const file of (await listFiles(workItems)).filter((name) => name.endsWith(".jsonl"))) {
    const text = await readFile(join(workItems, file), "utf8");
    if (ingestFiles.has(file)) {
      objects.push({
        key: `incoming/${file}`,
        body: text,
        lines: text.split("\n").filter((line) => line.trim() !== "").length,
      });
      continue;
    }
    for (const [index, line] of text.split("\n").entries()) {
      if (line.trim() !== "") messages.push({ body: line, origin: `${file}:${index + 1}` });
    }
  }
  const eventBridge = join(eventsDir, "eventbridge");
  for (const file of (await listFiles(eventBridge)).filter((name) => name.endsWith(".json"))) {
    messages.push({ body: (await readFile(join(eventBridge, file), "utf8")).trim(), origin: basename(file) });
  }
  return { messages, objects };
}

async function listFiles(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}
