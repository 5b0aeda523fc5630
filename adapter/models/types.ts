/** Types and constants shared by the model generator. */

/** `tokenizer.ggml.token_type` values (`enum llama_token_type`). */
export const TokenType = {
  normal: 1,
  unknown: 2,
  control: 3,
  userDefined: 4,
  unused: 5,
  byte: 6,
} as const;

/** A tokenizer vocabulary, ready to be written as `tokenizer.ggml.*` metadata. */
export interface GgufVocab {
  /** `tokenizer.ggml.model`: `llama` (SentencePiece) or `gpt2` (byte-level BPE). */
  model: "llama" | "gpt2";
  /** `tokenizer.ggml.pre`: the pre-tokenizer llama.cpp applies (e.g. `qwen2`); absent for `llama`. */
  pre?: string;
  /** Token texts, indexed by token id. */
  tokens: string[];
  /** Token types ({@link TokenType}), one per token. */
  tokenTypes: Int32Array;
  /** SentencePiece merge priorities (higher merges first), one per token; `llama` only. */
  scores?: Float32Array;
  /** BPE merges as `"left right"`, highest priority first; `gpt2` only. */
  merges?: string[];
  bosTokenId: number;
  eosTokenId: number;
  unknownTokenId?: number;
  paddingTokenId?: number;
  /** `tokenizer.ggml.add_bos_token`. */
  addBosToken: boolean;
  /** `tokenizer.chat_template` (Jinja). */
  chatTemplate?: string;
}

/** A ChatML chat template, the format the decision prompt uses (`<|im_start|>role\n…<|im_end|>\n`). */
export const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
