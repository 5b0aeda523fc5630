import { readFile } from "node:fs/promises";
import { z } from "zod";
import { UpInfoError } from "./errors.js";

/** The part of `decisions up`'s JSON line the owner's commands read; the rest is left alone. */
const UpLineSchema = z.object({
  region: z.string().min(1),
  dynamodb_endpoint: z.string().url().optional(),
  table: z.string().min(1).optional(),
  jobs_table: z.string().min(1).optional(),
  sqs_endpoint: z.string().url().optional(),
  queue_urls: z.record(z.string(), z.string().url()).optional(),
  dlq_urls: z.record(z.string(), z.string().url()).optional(),
  s3_endpoint: z.string().url().optional(),
  delivery_dlq_url: z.string().url().optional(),
});

/** `decisions up`'s JSON line as the owner's commands read it. */
export type UpLine = z.infer<typeof UpLineSchema>;

/**
 * Reads the JSON line `decisions up` printed, saved to a file (`decisions up > up.json`): the one
 * reader of it for every command that takes `--up-info` (the table commands read its region,
 * `dynamodb_endpoint`, `table` and `jobs_table`; the queue commands its `sqs_endpoint` and each
 * lane's queue URLs, checked by `readUpInfo`). The first non-blank line is read, so the file may
 * be the whole of up's stdout.
 *
 * @throws UpInfoError when the file cannot be read or is not up's line.
 */
export async function readUpLine(path: string): Promise<UpLine> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UpInfoError(path, `cannot be read (${(error as Error).message})`, { cause: error });
  }
  const line = text.split("\n").find((candidate) => candidate.trim() !== "");
  let json: unknown;
  try {
    json = JSON.parse(line ?? "");
  } catch (error) {
    throw new UpInfoError(path, "does not start with a JSON line", { cause: error });
  }
  const parsed = UpLineSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "(line)"}: ${issue.message}`,
    );
    throw new UpInfoError(path, `is not the line of a decisions up (${problems.join("; ")})`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}
