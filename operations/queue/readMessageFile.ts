import { readFile } from "node:fs/promises";
import { InputFileError } from "../common/errors.js";
import { type MessageFileFormat, parseMessageFile } from "./parseMessageFile.js";
import type { MessageFile } from "./types.js";

/**
 * Reads the messages of an input file (see {@link parseMessageFile}): a `.json` file is one JSON
 * document (an event, or an array of them); any other (`.jsonl`, `.ndjson`, …) is JSON Lines.
 *
 * @throws InputFileError when the file cannot be read.
 */
export async function readMessageFile(
  path: string,
  options: { maxMessageBytes?: number } = {},
): Promise<MessageFile> {
  let bytes: Buffer;
  try {
    // Bytes: parseMessageFile decodes each line strictly (a line that is not UTF-8 is refused).
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputFileError(path, code === "ENOENT" ? "no such file" : `cannot be read (${code})`, {
      cause: error,
    });
  }
  return parseMessageFile(bytes, { format: messageFileFormatOf(path), ...options });
}

/** The format of an input file, by its name: `.json` is a document, anything else JSON Lines. */
export function messageFileFormatOf(path: string): MessageFileFormat {
  return path.toLowerCase().endsWith(".json") ? "document" : "lines";
}
