/**
 * The thread of a {@link PromptWorker}: loads the model's vocabulary only (no weights, no context)
 * on the same llama.cpp build as the scorer, then renders and tokenizes each batch it is sent with
 * `preparePrompts` — the very function the scorer would run — and sends the prompts back. Its
 * tokenizer is a second copy of the scorer's, so its tokens are the scorer's tokens.
 */
import { parentPort, workerData } from "node:worker_threads";
import { getLlama, LlamaLogLevel } from "node-llama-cpp";
import { cmakeOptionsOf } from "../builds/llamaBuilds.js";
import { InvalidDecisionError } from "../errors.js";
import { type PromptContext, preambleTokensOf, preparePrompts } from "../prompt/preparePrompts.js";
import { reservedTextScreenOf } from "../prompt/reservedTextScreen.js";
import {
  type BatchMessage,
  batchOfMessage,
  type PromptWorkerInit,
  problemsOfError,
  type ReplyMessage,
} from "./promptWorkerProtocol.js";

const init = workerData as PromptWorkerInit;
const port = parentPort;
if (port === null) throw new Error("promptWorkerMain runs as a worker thread of PromptWorker");

const build = init.llamaBuild;
const llama = await getLlama({
  gpu: false,
  build: "never",
  ...(build === "prebuilt" ? {} : { cmakeOptions: { ...cmakeOptionsOf(build) }, usePrebuiltBinaries: false }),
  maxThreads: 1,
  // The scorer logs the model load; this copy of the vocabulary would repeat its warnings.
  logLevel: LlamaLogLevel.error,
});
const model = await llama.loadModel({ modelPath: init.modelPath, vocabOnly: true });
const context: PromptContext = {
  vocabulary: model,
  labels: init.labels,
  labelTokens: init.labelTokens,
  contextSize: init.contextSize,
  preambleTokens: preambleTokensOf(model),
};
// Built before the first batch, not during it: it lists the whole vocabulary once.
reservedTextScreenOf(model);

port.on("message", (message: BatchMessage) => {
  let reply: ReplyMessage;
  try {
    reply = { id: message.id, ok: true, prompts: preparePrompts(batchOfMessage(message), context) };
  } catch (error) {
    reply =
      error instanceof InvalidDecisionError
        ? { id: message.id, ok: false, problems: problemsOfError(error) }
        : {
            id: message.id,
            ok: false,
            failure: error instanceof Error ? (error.stack ?? error.message) : String(error),
          };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
