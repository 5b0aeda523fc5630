/** The defaults of `decisions calibrate`'s flags and its usage text, which names them. */
import { DEFAULT_LAYOUT, LAYOUT_CHOICES } from "../../../evaluation/layoutChoices.js";

/** Defaults of the flags, used by the plan and the usage text alike. */
export const CALIBRATE_DEFAULTS = {
  errorBudget: 0.05,
  holdout: 0.3,
  seed: 0,
  layout: DEFAULT_LAYOUT,
  auditShare: 0.5,
  replications: 200,
} as const;

/** The usage text of `decisions calibrate`: printed by `--help`, carried by most of its usage errors. */
export const CALIBRATE_USAGE = `usage: decisions calibrate <labelled.jsonl> --policy <name|file.yaml> [--question <id>]
         [--error-budget ${CALIBRATE_DEFAULTS.errorBudget}] [--bias] [--holdout ${CALIBRATE_DEFAULTS.holdout}] [--seed ${CALIBRATE_DEFAULTS.seed}] [--limit N] [--out <dir>] [--write [--force]]
         [--model <file.gguf> [--layout ${LAYOUT_CHOICES.join("|")}] [--threads N]]
       decisions calibrate <labelled.jsonl> --policy <name|file.yaml> --simulate-budget N [--question <id>]
         [--audit-share ${CALIBRATE_DEFAULTS.auditShare}] [--replications ${CALIBRATE_DEFAULTS.replications}] [--seed ${CALIBRATE_DEFAULTS.seed}] [--error-budget ${CALIBRATE_DEFAULTS.errorBudget}]

Fits a temperature per question by maximum likelihood on labelled decisions (the format
\`decisions outcomes export --labelled\` writes; see evaluation/README.md), reports accuracy,
Brier score, NLL and 10-bin ECE before and after on a held-out split, and finds the lowest
probability threshold whose automated decisions keep within the error budget. Each label is
weighted by the inverse of its probability of review: 1 for a fallback, 1/audit_rate for an
audit item; from the audit items alone it reports the accuracy of automated decisions with a
95 % Wilson interval.

  --policy        a policy name (policies/<name>.yaml) or a policy file
  --question      calibrate this question only (default: every question with labels)
  --error-budget  highest error rate of automated decisions (default ${CALIBRATE_DEFAULTS.errorBudget})
  --bias          also fit a per-label bias (contextual calibration) and report it; policies
                  hold no biases, so only the temperature and threshold are written
  --holdout       share of the items held out for evaluation (default ${CALIBRATE_DEFAULTS.holdout})
  --seed          seed of the held-out split (default ${CALIBRATE_DEFAULTS.seed})
  --limit         use the policy's first N labelled lines only (default: all)
  --model         score every labelled line's \`state\` again in-process on this GGUF, asking all
                  the policy's questions as the pipeline does, and calibrate those answers instead
                  of the recorded ones (each line then needs \`state\`; see evaluation/README.md)
  --layout        with --model: the prompt layout every question is asked in, one of
                  ${LAYOUT_CHOICES.join(", ")} (default ${CALIBRATE_DEFAULTS.layout});
                  the report names it and the prompt_version answered. With --write it must
                  be the layout the policy asks each calibrated question in
  --threads       with --model: CPU threads (default: all cores)
  --out           folder for calibration.md, calibration.json and the charts
                  (default: lab/bench/results/calibrate-<policy>-<timestamp>)
  --write         write the temperatures and thresholds into the policy file, with a new version;
                  refused (nothing written, exit 1) when a chosen threshold errs above the budget
                  on the held-out split or automates none of it
  --force         with --write: write such thresholds all the same

  --simulate-budget  replay the export instead of calibrating: for a budget of N labels chosen
                  newest first, uniformly, by margin with audit items ranked among the
                  fallbacks, in the console's margin order (audit items first), and with
                  stratified audits then margin, print the automated error's 95 % interval width
                  (with its bias, RMSE and coverage against what every label gives) and the
                  threshold's distance from the one every label gives (evaluation/README.md)
  --audit-share   with --simulate-budget: share of the budget the audit sample is sized for
                  (default ${CALIBRATE_DEFAULTS.auditShare}); strata rates come from the policy's audit_strata
  --replications  with --simulate-budget: draws per strategy (default ${CALIBRATE_DEFAULTS.replications}; --seed seeds them)
`;
