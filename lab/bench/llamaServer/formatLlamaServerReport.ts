import type { LlamaServerReport } from "./runLlamaServerBench.js";

/** The llama-server comparison as a table for the terminal: median ms per server, and the ratios. */
export function formatLlamaServerReport(report: LlamaServerReport): string {
  const servers = report.rows[0] === undefined ? [] : Object.keys(report.rows[0].median_ms);
  const header = [
    "scenario",
    "words",
    "tokens",
    ...servers.map((name) => `${name} ms`),
    ...report.adapters.map((name) => `${name} ÷ llama-server`),
  ];
  const lines = [
    `${report.command} — ${report.model_path}, ${report.threads} threads, ${report.machine.cores} cores`,
    report.llama_server === null
      ? "llama-server: not measured"
      : `llama-server: ${report.llama_server.commit.slice(0, 7)} ${Object.entries(
          report.llama_server.cmakeOptions,
        )
          .filter(([name]) => name.startsWith("GGML_"))
          .map(([name, value]) => `${name}=${value}`)
          .join(" ")}, -fa ${report.llama_server.flash_attention}; ${report.llama_server.amxChoice}`,
    `the engine: flash attention ${report.adapter_flash_attention ? "on" : "off"} (on whenever the model supports it)`,
    ...report.skipped.map((line) => `skipped: ${line}`),
    `same prompts (sha256 of every adapter answer = the tokens llama-server got): ${report.same_prompts ? "yes" : "NO"}`,
    header.join(" | "),
    ...report.rows.map((row) =>
      [
        row.scenario,
        String(row.state_words),
        String(row.prompt_tokens),
        ...servers.map((name) => (row.median_ms[name] ?? Number.NaN).toFixed(0)),
        ...report.adapters.map((name) => (row.ratio[name] ?? Number.NaN).toFixed(3)),
      ].join(" | "),
    ),
    ...Object.entries(report.P7).map(
      ([name, figure]) =>
        `P7 ${name}: worst ${figure.value.toFixed(3)} (goal ${figure.goal}, ${figure.met ? "met" : "not met"})`,
    ),
    report.build_gain === null
      ? "build gain: not measured (no native build)"
      : `build gain native ÷ prebuilt: ${report.build_gain.value.toFixed(3)} (median over the cases)`,
    `duration ${report.duration_s.toFixed(0)} s`,
  ];
  return `${lines.join("\n")}\n`;
}
