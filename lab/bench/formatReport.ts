import type { BenchReport } from "./runBench.js";

/** The report as the table `decisions bench` prints. */
export function formatReport(report: BenchReport): string {
  const rows: Array<[string, string, string, string]> = [];
  const figure = (key: string, f: BenchReport["P1"] | null, unit: string): void => {
    if (f === null) return;
    rows.push([
      key,
      f.label,
      `${f.value.toFixed(unit === "" ? 0 : 2)}${unit}`,
      `${f.goal}${f.met ? "  met" : "  NOT met"}`,
    ]);
  };
  figure("P1", report.P1, "×");
  figure("P1 cold", report.P1_cold, "×");
  figure("P1 http", report.P1_http, "×");
  figure("P2", report.P2, "×");
  figure("P2 short", report.P2_short, "×");
  figure("P3", report.P3, "×");
  figure("P4", report.P4, "×");
  figure("P6", report.P6, "");
  figure("P8", report.P8, "×");
  figure("debias", report.debias, "×");
  figure("P9", report.P9, "×");
  const p2 = report.P2.details as { token_limit_ratio: number; efficiency_vs_limit: number };
  const p2Short = report.P2_short?.details as
    | { token_limit_ratio: number; efficiency_vs_limit: number }
    | undefined;
  const p3 = report.P3.details as { speedup_vs_cold: number; evaluated_tokens: number };
  const p4 = report.P4.details as { readout_valid_share: number; generation_valid_share: number };
  const p6 = report.P6.details as {
    p50_ms: number;
    p95_ms: number;
    mean_input_tokens: number;
    cases: number;
  };
  const p8 = report.P8.details as {
    state_first_tokens_per_item: number;
    question_first_tokens_per_item: number;
    state_first_ms_per_item: number;
    question_first_ms_per_item: number;
    same_answer_share: number;
    items: number;
  };
  const debias = report.debias.details as { token_ratio: number; order_sensitivity: number };
  const lines = [
    `decisions bench — ${report.model.name ?? report.model.file} (${report.model.quantization}, ${report.model.architecture}), ${report.threads} threads, ${report.machine.cpu}`,
    "",
    ...table(["figure", "what", "measured", "goal"], rows),
    "",
    `P2 token limit ${p2.token_limit_ratio.toFixed(2)}× (measured ${(p2.efficiency_vs_limit * 100).toFixed(0)}% of it)${p2Short === undefined ? "" : `; short questions: limit ${p2Short.token_limit_ratio.toFixed(2)}× (measured ${(p2Short.efficiency_vs_limit * 100).toFixed(0)}% of it)`}`,
    `P3 ${p3.evaluated_tokens} suffix tokens evaluated; ${p3.speedup_vs_cold.toFixed(2)}× faster than cold`,
    `P4 valid: readout ${(p4.readout_valid_share * 100).toFixed(0)}%, generation ${(p4.generation_valid_share * 100).toFixed(0)}%`,
    `P6 ${report.P6.value}/${p6.cases} valid, p50 ${p6.p50_ms.toFixed(0)} ms, p95 ${p6.p95_ms.toFixed(0)} ms, mean input ${p6.mean_input_tokens.toFixed(0)} tokens`,
    `P8 ${p8.items} items: evaluated tokens per item ${p8.state_first_tokens_per_item.toFixed(0)} state-first, ${p8.question_first_tokens_per_item.toFixed(0)} question-first; ${p8.state_first_ms_per_item.toFixed(0)} vs ${p8.question_first_ms_per_item.toFixed(0)} ms per item; same answer on ${(p8.same_answer_share * 100).toFixed(0)}%`,
    `debias ${debias.token_ratio.toFixed(2)}× the evaluated tokens of one question; order sensitivity ${debias.order_sensitivity.toFixed(3)}`,
    `P9 ${report.P9 === null ? "not measured" : `${(report.P9.details as { parallel_ms: number }).parallel_ms.toFixed(0)} ms with 4 sequences vs ${(report.P9.details as { serial_ms: number }).serial_ms.toFixed(0)} ms serial`}`,
    `load ${report.extras.load_ms.toFixed(0)} ms, prefill ${report.extras.prefill_tokens_per_s.toFixed(0)} tokens/s, readout (JS) ${report.extras.readout_js_ms_median.toFixed(2)} ms, full-vocabulary readout +${report.extras.full_vocabulary_readout_extra_ms.toFixed(0)} ms, peak RSS ${report.extras.peak_rss_mib.toFixed(0)} MiB`,
    "",
    ...table(
      ["state tokens", "cold ms", "cached ms", "shared×8 ms", "per question ms"],
      report.length_table.map((row) => [
        String(row.state_tokens),
        row.cold_ms.toFixed(0),
        row.cached_ms.toFixed(0),
        row.shared8_ms.toFixed(0),
        row.shared8_per_question_ms.toFixed(0),
      ]),
    ),
  ];
  return `${lines.join("\n")}\n`;
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: string[]): string =>
    cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ");
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)];
}
