/**
 * The child process of `smokeTestLlamaBuild`: loads one source build of llama.cpp (found by its
 * CMake options, never the prebuilt), loads the GGUF given, evaluates one prompt on every core
 * and samples one token, then prints one JSON line `{"smoke_test":"passed",…}` and exits 0.
 * A build that crashes kills this process, not the one that asked.
 *
 * Usage: `node smokeTestLlamaBuildMain.js <variant> <model.gguf>`
 */
import { getLlama, LlamaLogLevel, NoBinaryFoundError } from "node-llama-cpp";
import { cmakeOptionsOf, LLAMA_BUILDS, type SourceLlamaBuild } from "./llamaBuilds.js";

/** Long enough that the prompt is evaluated as a batch of many tokens (matrix kernels, not vectors). */
const PROMPT =
  "<|im_start|>user\nA customer writes that the parcel arrived damaged and asks for a refund. " +
  "Should the request go to billing or to shipping?<|im_end|>\n<|im_start|>assistant\n";

const [variant, modelPath] = process.argv.slice(2);
const build = LLAMA_BUILDS.find((name): name is SourceLlamaBuild => name === variant && name !== "prebuilt");
if (build === undefined || modelPath === undefined) {
  process.stderr.write("usage: smokeTestLlamaBuildMain <native|native-amx|portable> <model.gguf>\n");
  process.exit(2);
}
const started = performance.now();
const llama = await getLlama({
  gpu: false,
  build: "never",
  usePrebuiltBinaries: false,
  cmakeOptions: { ...cmakeOptionsOf(build) },
  progressLogs: false,
  logLevel: LlamaLogLevel.warn,
}).catch((error: unknown) => {
  if (!(error instanceof NoBinaryFoundError)) throw error;
  process.stdout.write(`${JSON.stringify({ smoke_test: "no_build", build })}\n`);
  process.exit(3);
});
const model = await llama.loadModel({ modelPath });
const context = await model.createContext({ contextSize: 512 });
const sequence = context.getSequence();
const tokens = model.tokenize(PROMPT, true);
const iterator = sequence.evaluate(tokens, { temperature: 0 });
const next = await iterator.next();
await iterator.return();
if (next.done === true) throw new Error("llama.cpp returned no next token for the smoke test's prompt");
process.stdout.write(
  `${JSON.stringify({
    smoke_test: "passed",
    build,
    build_type: llama.buildType,
    release: llama.llamaCppRelease.release,
    threads: llama.cpuMathCores,
    prompt_tokens: tokens.length,
    ms: Math.round(performance.now() - started),
  })}\n`,
);
await context.dispose();
await model.dispose();
await llama.dispose();
